package dev.praxis.conformance;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import dev.praxis.client.BearerToken;
import dev.praxis.client.DynamicInvoker;
import dev.praxis.client.PraxisError;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Java conformance runner (see conformance/README.md for the contract).
 *
 * <pre>
 * java -cp ... dev.praxis.conformance.Runner --address 127.0.0.1:50051 --credentials creds.json
 *     [--vectors DIR] [--expected-failures FILE] [--results FILE] [--filter TEXT]
 * </pre>
 *
 * <p>Every call goes through the Java client's {@link DynamicInvoker} (JsonFormat over the
 * generated descriptors), server streams through {@link DynamicInvoker#invokeStream}; it
 * prints "N passed, N failed".
 */
public final class Runner {
  private static final String LANGUAGE = "java";
  private static final String NS_CODE = "jv";
  private static final String ANY = "<any>";
  private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)([+-][0-9]+)?\\}");
  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

  /** A step that did not match its expectation. */
  static final class VectorError extends Exception {
    VectorError(String message) {
      super(message);
    }
  }

  /** A response (proto-JSON), a status, or the client's refusal of the request. */
  record Outcome(JsonElement response, String code, String reason, String clientError) {}

  /** How long one stream step waits for its messages and its end. */
  private static final long STREAM_DEADLINE_MS = 5_000;

  /** One message of a server stream (proto-JSON) or, when {@code end}, how it ended. */
  record StreamItem(JsonElement message, boolean end, String code, String reason) {}

  /**
   * An open server stream: the observer moves what arrives into a queue, so that a step
   * can wait for the next item with a deadline.
   */
  static final class ServerStream implements StreamObserver<String> {
    final LinkedBlockingQueue<StreamItem> items = new LinkedBlockingQueue<>();
    DynamicInvoker.StreamCall call;
    StreamItem ended;

    @Override
    public void onNext(String json) {
      items.add(new StreamItem(JsonParser.parseString(json), false, "", ""));
    }

    @Override
    public void onError(Throwable error) {
      PraxisError e = PraxisError.from(error);
      items.add(new StreamItem(null, true, e.code().name(), e.reason().orElse("")));
    }

    @Override
    public void onCompleted() {
      items.add(new StreamItem(null, true, "OK", ""));
    }

    /** The next item, or null when the deadline (System.nanoTime) passes first. */
    StreamItem next(long deadline) throws InterruptedException {
      if (ended != null) {
        return ended;
      }
      StreamItem item = items.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (item != null && item.end()) {
        ended = item;
      }
      return item;
    }

    void cancel() {
      if (ended == null && call != null) {
        call.cancel();
      }
    }
  }

  private final Map<String, ServerStream> streams = new HashMap<>();
  private final ManagedChannel channel;
  private final Map<String, String> credentials;
  private final Map<String, DynamicInvoker> invokers = new HashMap<>();
  private final String nonce;
  private String installationId = "";

  Runner(String address, Map<String, String> credentials) {
    this.channel = ManagedChannelBuilder.forTarget(address).usePlaintext().build();
    this.credentials = credentials;
    byte[] bytes = new byte[3];
    new SecureRandom().nextBytes(bytes);
    this.nonce = HexFormat.of().formatHex(bytes);
  }

  private DynamicInvoker invoker(String principal) throws VectorError {
    DynamicInvoker found = invokers.get(principal);
    if (found == null) {
      if (!principal.isEmpty() && !credentials.containsKey(principal)) {
        throw new VectorError("no credential for principal \"" + principal + "\"");
      }
      found = new DynamicInvoker(
          channel, principal.isEmpty() ? null : new BearerToken(credentials.get(principal)));
      invokers.put(principal, found);
    }
    return found;
  }

  Outcome invoke(String principal, String service, String method, JsonElement request)
      throws VectorError {
    DynamicInvoker invoker = invoker(principal);
    try {
      String out = invoker.invoke(service, method, GSON.toJson(request));
      return new Outcome(JsonParser.parseString(out), "", "", "");
    } catch (IllegalArgumentException e) {
      return new Outcome(null, "", "", String.valueOf(e.getMessage()));
    } catch (StatusRuntimeException e) {
      PraxisError error = PraxisError.from(e);
      return new Outcome(null, error.code().name(), error.reason().orElse(""), "");
    }
  }

  static JsonElement substitute(JsonElement value, Map<String, String> vars) throws VectorError {
    if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isString()) {
      Matcher m = VAR.matcher(value.getAsString());
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String text = vars.get(m.group(1));
        if (text == null) {
          throw new VectorError("unknown variable ${" + m.group(1) + "}");
        }
        if (m.group(2) != null) {
          text = new BigInteger(text).add(new BigInteger(m.group(2).replace("+", ""))).toString();
        }
        m.appendReplacement(out, Matcher.quoteReplacement(text));
      }
      m.appendTail(out);
      return new JsonPrimitive(out.toString());
    }
    if (value.isJsonArray()) {
      JsonArray out = new JsonArray();
      for (JsonElement item : value.getAsJsonArray()) {
        out.add(substitute(item, vars));
      }
      return out;
    }
    if (value.isJsonObject()) {
      JsonObject out = new JsonObject();
      for (Map.Entry<String, JsonElement> e : value.getAsJsonObject().entrySet()) {
        out.add(e.getKey(), substitute(e.getValue(), vars));
      }
      return out;
    }
    return value;
  }

  private static String show(JsonElement value) {
    if (value == null) {
      return "(absent)";
    }
    String text = GSON.toJson(value);
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }

  /** Why {@code actual} (null when absent) does not match {@code expected}; null when it does. */
  static String mismatch(JsonElement expected, JsonElement actual, String path) {
    if (expected.isJsonPrimitive() && expected.getAsJsonPrimitive().isString()
        && expected.getAsString().equals(ANY)) {
      return actual == null ? path + ": missing" : null;
    }
    if (expected.isJsonNull()) {
      return actual == null ? null : path + ": expected absent, got " + show(actual);
    }
    if (actual == null) {
      return path + ": missing, expected " + show(expected);
    }
    if (expected.isJsonObject()) {
      if (!actual.isJsonObject()) {
        return path + ": expected an object, got " + show(actual);
      }
      JsonObject got = actual.getAsJsonObject();
      for (Map.Entry<String, JsonElement> e : expected.getAsJsonObject().entrySet()) {
        String problem = mismatch(e.getValue(), got.get(e.getKey()), path + "." + e.getKey());
        if (problem != null) {
          return problem;
        }
      }
      return null;
    }
    if (expected.isJsonArray()) {
      JsonArray want = expected.getAsJsonArray();
      if (!actual.isJsonArray() || actual.getAsJsonArray().size() != want.size()) {
        return path + ": expected " + want.size() + " items, got " + show(actual);
      }
      for (int i = 0; i < want.size(); i++) {
        String problem = mismatch(want.get(i), actual.getAsJsonArray().get(i), path + "." + i);
        if (problem != null) {
          return problem;
        }
      }
      return null;
    }
    JsonPrimitive want = expected.getAsJsonPrimitive();
    boolean same = actual.isJsonPrimitive()
        && want.isString() == actual.getAsJsonPrimitive().isString()
        && want.isBoolean() == actual.getAsJsonPrimitive().isBoolean()
        && want.isNumber() == actual.getAsJsonPrimitive().isNumber()
        && (want.isNumber()
            ? want.getAsBigDecimal().compareTo(actual.getAsBigDecimal()) == 0
            : want.getAsString().equals(actual.getAsString()));
    return same ? null : path + ": expected " + show(expected) + ", got " + show(actual);
  }

  static String capture(JsonElement response, String path) throws VectorError {
    JsonElement value = response;
    for (String part : path.split("\\.")) {
      if (value != null && value.isJsonArray() && part.matches("[0-9]+")
          && Integer.parseInt(part) < value.getAsJsonArray().size()) {
        value = value.getAsJsonArray().get(Integer.parseInt(part));
      } else if (value != null && value.isJsonObject() && value.getAsJsonObject().has(part)) {
        value = value.getAsJsonObject().get(part);
      } else {
        throw new VectorError("capture \"" + path + "\": no such value in the response");
      }
    }
    if (value.isJsonPrimitive()) {
      return value.getAsString();
    }
    return GSON.toJson(value);
  }

  void setup() throws VectorError {
    JsonObject request = new JsonObject();
    request.addProperty("workOrderId", NS_CODE + "-setup");
    Outcome o = invoke("alice", "RegistryService", "GetEpochs", request);
    if (o.response() == null) {
      throw new IllegalStateException("GetEpochs failed: " + o);
    }
    installationId = o.response().getAsJsonObject().getAsJsonObject("epochs")
        .get("installationId").getAsString();
  }

  private String clock(JsonObject change, String t0) throws VectorError {
    JsonObject request = new JsonObject();
    Outcome o;
    if (change.has("advanceMs")) {
      request.add("byMs", change.get("advanceMs"));
      o = invoke("alice", "TestClockService", "Advance", request);
    } else {
      BigInteger now = new BigInteger(t0).add(new BigInteger(change.get("setOffsetMs").getAsString()));
      request.addProperty("nowMs", now.toString());
      o = invoke("alice", "TestClockService", "SetTime", request);
    }
    if (o.response() == null) {
      throw new VectorError("test clock call failed: " + o);
    }
    return o.response().getAsJsonObject().get("nowMs").getAsString();
  }

  void runVector(JsonObject vector, int index) throws VectorError {
    Map<String, String> vars = new HashMap<>();
    vars.put("ns", String.format("%s-%s-%04d", NS_CODE, nonce, index));
    vars.put("installation_id", installationId);
    JsonObject start = new JsonObject();
    start.addProperty("advanceMs", "1000");
    vars.put("t0", clock(start, "0"));
    JsonArray steps = vector.has("steps") ? vector.getAsJsonArray("steps") : new JsonArray();
    try {
      for (int i = 0; i < steps.size(); i++) {
        try {
          step(steps.get(i).getAsJsonObject(), vars);
        } catch (VectorError e) {
          throw new VectorError("step " + (i + 1) + ": " + e.getMessage());
        }
      }
    } finally {
      for (ServerStream stream : streams.values()) {
        stream.cancel();
      }
      streams.clear();
    }
  }

  private void streamStep(JsonObject step, Map<String, String> vars) throws VectorError {
    JsonObject want = step.getAsJsonObject("stream");
    String resume = want.has("resume") ? want.get("resume").getAsString() : "";
    ServerStream stream;
    String where;
    if (!resume.isEmpty()) {
      where = "stream \"" + resume + "\"";
      stream = streams.remove(resume);
      if (stream == null) {
        throw new VectorError(where + ": no stream kept under that name");
      }
    } else {
      String service = step.get("service").getAsString();
      String method = step.get("method").getAsString();
      String principal = step.has("principal") ? step.get("principal").getAsString() : "";
      where = service + "." + method;
      JsonElement request = substitute(step.has("request") ? step.get("request") : new JsonObject(), vars);
      DynamicInvoker invoker = invoker(principal);
      stream = new ServerStream();
      try {
        stream.call = invoker.invokeStream(service, method, GSON.toJson(request), stream);
      } catch (IllegalArgumentException e) {
        throw new VectorError(where + ": client refused: " + e.getMessage());
      }
    }
    JsonArray received;
    try {
      received = readStream(stream, want, where);
      JsonElement expected = substitute(want.has("messages") ? want.get("messages") : new JsonArray(), vars);
      String problem = mismatch(expected, received, "messages");
      if (problem != null) {
        throw new VectorError(where + ": " + problem);
      }
    } catch (VectorError e) {
      stream.cancel();
      throw e;
    }
    String keep = !resume.isEmpty() ? resume : want.has("keep") ? want.get("keep").getAsString() : "";
    boolean ends = (want.has("end") && want.get("end").getAsBoolean()) || want.has("error");
    if (!keep.isEmpty() && stream.ended == null && !ends) {
      streams.put(keep, stream);
    } else {
      stream.cancel();
    }
    if (step.has("captures")) {
      for (Map.Entry<String, JsonElement> e : step.getAsJsonObject("captures").entrySet()) {
        vars.put(e.getKey(), capture(received, e.getValue().getAsString()));
      }
    }
  }

  /** Reads a stream step's messages and then, with {@code end} or {@code error}, the end. */
  private static JsonArray readStream(ServerStream stream, JsonObject want, String where)
      throws VectorError {
    int count = want.has("messages") ? want.getAsJsonArray("messages").size() : 0;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STREAM_DEADLINE_MS);
    JsonArray received = new JsonArray();
    try {
      while (received.size() < count) {
        StreamItem item = stream.next(deadline);
        if (item == null) {
          throw new VectorError(where + ": expected " + count + " messages within "
              + STREAM_DEADLINE_MS + " ms, got " + received.size());
        }
        if (item.end()) {
          throw new VectorError(where + ": expected " + count + " messages, got " + received.size()
              + " and then the stream ended with (" + item.code() + ", " + item.reason() + ")");
        }
        received.add(item.message());
      }
      String code = null;
      String reason = "";
      if (want.has("end") && want.get("end").getAsBoolean()) {
        code = "OK";
      } else if (want.has("error")) {
        JsonObject error = want.getAsJsonObject("error");
        code = error.has("code") ? error.get("code").getAsString() : "";
        reason = error.has("reason") ? error.get("reason").getAsString() : "";
      }
      if (code != null) {
        StreamItem item = stream.next(deadline);
        if (item == null) {
          throw new VectorError(where + ": expected the stream to end within " + STREAM_DEADLINE_MS + " ms");
        }
        if (!item.end()) {
          throw new VectorError(where + ": expected the stream to end, got " + show(item.message()));
        }
        if (!item.code().equals(code) || !item.reason().equals(reason)) {
          throw new VectorError(where + ": expected the stream to end with (" + code + ", " + reason
              + "), got (" + item.code() + ", " + item.reason() + ")");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VectorError(where + ": interrupted");
    }
    return received;
  }

  private void step(JsonObject step, Map<String, String> vars) throws VectorError {
    if (step.has("clock")) {
      clock(step.getAsJsonObject("clock"), vars.get("t0"));
    }
    if (step.has("stream")) {
      streamStep(step, vars);
      return;
    }
    String service = step.has("service") ? step.get("service").getAsString() : "";
    if (service.isEmpty()) {
      return;
    }
    String method = step.get("method").getAsString();
    String principal = step.has("principal") ? step.get("principal").getAsString() : "";
    String where = service + "." + method;
    JsonElement request = substitute(step.has("request") ? step.get("request") : new JsonObject(), vars);
    Outcome o = invoke(principal, service, method, request);
    if (step.has("error")) {
      JsonObject error = step.getAsJsonObject("error");
      String code = error.has("code") ? error.get("code").getAsString() : "";
      String reason = error.has("reason") ? error.get("reason").getAsString() : "";
      String want = "(" + code + ", " + reason + ")";
      if (o.response() != null) {
        throw new VectorError(where + ": expected " + want + ", got a response");
      }
      if (!o.clientError().isEmpty()) {
        throw new VectorError(where + ": expected " + want + ", client refused: " + o.clientError());
      }
      if (!o.code().equals(code) || !o.reason().equals(reason)) {
        throw new VectorError(where + ": expected " + want + ", got (" + o.code() + ", " + o.reason() + ")");
      }
      return;
    }
    if (step.has("clientError")) {
      if (o.clientError().isEmpty()) {
        throw new VectorError(where + ": expected the client to refuse, got "
            + (o.response() != null ? "a response" : o.code()));
      }
      return;
    }
    if (o.response() == null) {
      String got = o.clientError().isEmpty() ? o.code() + " " + o.reason() : o.clientError();
      throw new VectorError(where + ": expected a response, got " + got);
    }
    JsonElement expected = substitute(step.has("response") ? step.get("response") : new JsonObject(), vars);
    String problem = mismatch(expected, o.response(), "response");
    if (problem != null) {
      throw new VectorError(where + ": " + problem);
    }
    if (step.has("captures")) {
      for (Map.Entry<String, JsonElement> e : step.getAsJsonObject("captures").entrySet()) {
        vars.put(e.getKey(), capture(o.response(), e.getValue().getAsString()));
      }
    }
  }

  static List<JsonObject> loadVectors(Path directory) throws IOException {
    List<Path> files;
    try (Stream<Path> listing = Files.list(directory)) {
      files = listing.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    }
    List<JsonObject> out = new ArrayList<>();
    for (Path file : files) {
      JsonObject doc = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
      if (doc.has("vectors")) {
        for (JsonElement v : doc.getAsJsonArray("vectors")) {
          out.add(v.getAsJsonObject());
        }
      }
    }
    return out;
  }

  static Set<String> loadExpectedFailures(Path path) throws IOException {
    Set<String> out = new HashSet<>();
    if (!Files.exists(path)) {
      return out;
    }
    for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
      String name = line.split("#", 2)[0].trim();
      if (!name.isEmpty()) {
        out.add(name);
      }
    }
    return out;
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < argv.length; i += 2) {
      opts.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
    }
    Path root = Path.of(System.getProperty("praxis.conformance.root", "conformance"));
    String address = opts.getOrDefault("address", envOr("PRAXIS_ADDRESS", "127.0.0.1:50051"));
    String credentialsPath = opts.getOrDefault("credentials", System.getenv("PRAXIS_CREDENTIALS"));
    if (credentialsPath == null) {
      System.err.println("--credentials (or PRAXIS_CREDENTIALS) is required");
      System.exit(2);
    }
    Path vectors = Path.of(opts.getOrDefault("vectors", envOr("PRAXIS_VECTORS", root.resolve("vectors").toString())));
    Path expectedPath = Path.of(opts.getOrDefault("expected-failures",
        root.resolve("expected_failures").resolve(LANGUAGE + ".txt").toString()));
    String resultsPath = opts.getOrDefault("results", System.getenv("PRAXIS_RESULTS"));
    String filter = opts.getOrDefault("filter", "");
    Map<String, String> credentials = new LinkedHashMap<>();
    JsonObject creds = JsonParser.parseString(Files.readString(Path.of(credentialsPath))).getAsJsonObject();
    for (Map.Entry<String, JsonElement> e : creds.entrySet()) {
      credentials.put(e.getKey(), e.getValue().getAsString());
    }
    Set<String> expected = loadExpectedFailures(expectedPath);
    Runner runner = new Runner(address, credentials);
    List<Map<String, String>> results = new ArrayList<>();
    try {
      runner.setup();
      List<JsonObject> all = loadVectors(vectors);
      for (int index = 0; index < all.size(); index++) {
        JsonObject vector = all.get(index);
        String name = vector.get("name").getAsString();
        if (!filter.isEmpty() && !name.contains(filter)) {
          continue;
        }
        String message = "";
        try {
          runner.runVector(vector, index);
        } catch (VectorError e) {
          message = e.getMessage();
        } catch (RuntimeException e) {
          message = "runner error: " + e;
        }
        boolean passed = message.isEmpty();
        String status = expected.contains(name) ? (passed ? "xpass" : "xfail") : (passed ? "pass" : "fail");
        Map<String, String> result = new LinkedHashMap<>();
        result.put("language", LANGUAGE);
        result.put("vector", name);
        result.put("status", status);
        result.put("message", message);
        results.add(result);
      }
    } finally {
      runner.channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    int passed = 0;
    int failed = 0;
    int xfailed = 0;
    StringBuilder lines = new StringBuilder();
    for (Map<String, String> r : results) {
      switch (r.get("status")) {
        case "pass" -> passed++;
        case "xfail" -> xfailed++;
        case "fail" -> {
          failed++;
          System.out.println("FAIL " + r.get("vector") + ": " + r.get("message"));
        }
        default -> {
          failed++;
          System.out.println("XPASS " + r.get("vector") + ": listed as an expected failure but passed");
        }
      }
      lines.append(GSON.toJson(r)).append('\n');
    }
    if (resultsPath != null) {
      Files.writeString(Path.of(resultsPath), lines.toString(), StandardCharsets.UTF_8);
    }
    System.out.println(passed + " passed, " + failed + " failed"
        + (xfailed > 0 ? ", " + xfailed + " expected failures" : ""));
    System.exit(failed > 0 ? 1 : 0);
  }

  private static String envOr(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isEmpty() ? fallback : value;
  }
}
