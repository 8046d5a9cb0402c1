package dev.praxis.client.worker;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import dev.praxis.aiws.engine.v1.NodeEffects;
import dev.praxis.aiws.engine.v1.ProgressReport;
import dev.praxis.aiws.engine.v1.Task;
import dev.praxis.client.Json;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One claimed attempt as a handler sees it: the task, its input and its cancellation. The
 * attempt is cancelled (once) when a heartbeat learns the run was stopped or the attempt
 * superseded, or the lease is gone: then {@link #isCancelled()} is true, {@link #cancelled()}
 * completes, and a synchronous handler's thread is interrupted.
 */
public final class TaskContext {
  /** A progress report's text, in UTF-8 bytes (the server's cap). */
  public static final int MAX_PROGRESS_TEXT_BYTES = 512;
  /** A progress report's data as JSON, in UTF-8 bytes (the server's cap). */
  public static final int MAX_PROGRESS_DATA_BYTES = 1024;
  private static final BigDecimal MAX_SAFE_INTEGER = BigDecimal.valueOf((1L << 53) - 1);

  private final Task task;
  private final CompletableFuture<Void> cancelled = new CompletableFuture<>();
  private final AtomicReference<ProgressReport> report = new AtomicReference<>();
  private volatile Runnable onProgress = () -> {};
  private Thread thread;

  TaskContext(Task task) {
    this.task = task;
  }

  /** The task as claimed. */
  public Task task() {
    return task;
  }

  /** The attempt id ({@code att_...}). */
  public String attemptId() {
    return task.getAttemptId();
  }

  /** The run. */
  public String runId() {
    return task.getRunId();
  }

  /** The node uid ({@code node_id} or {@code node_id#i}). */
  public String nodeUid() {
    return task.getNodeUid();
  }

  /** The attempt number, from 1. */
  public int attempt() {
    return task.getAttempt();
  }

  /**
   * The attempt's span as a W3C {@code traceparent} (empty unless the server exports traces):
   * make it the parent of the handler's own spans.
   */
  public String traceparent() {
    return task.getTraceparent();
  }

  /**
   * Whether the node declares its effects {@code none} or {@code idempotent} ({@code
   * task().getEffects()}): only then does an uncaught exception settle as NOT_APPLIED and
   * retryable; on any other node ({@code external}, or nothing declared) it settles as
   * UNCERTAIN and the node waits for a human's reconciliation (docs/workers.md, Outcomes).
   */
  public boolean isRetrySafe() {
    NodeEffects effects = task.getEffects();
    return effects == NodeEffects.NODE_EFFECTS_NONE || effects == NodeEffects.NODE_EFFECTS_IDEMPOTENT;
  }

  /**
   * The provider the node asks to run its model with ({@code task().getAgent().getProvider()};
   * empty leaves it to the worker's routing). A worker that cannot serve it fails the attempt
   * as NOT_APPLIED rather than run the model elsewhere (docs/workers.md).
   */
  public String provider() {
    return task.getAgent().getProvider();
  }

  /**
   * Whether the node's function policy ({@code task().getAgent().getFunctionsJson()}, {@code
   * {"allow": [...], "deny": [...]}}) lets its agent call {@code functionId}: a match in allow
   * ({@code *} is any run of characters) and none in deny. The engine never sees the agent's
   * calls: the handler MUST offer only permitted functions and refuse any other call.
   */
  public boolean functionAllowed(String functionId) {
    return FunctionPolicy.of(task.getAgent().getFunctionsJson()).permits(functionId);
  }

  /** The input as plain Java values (maps, lists, strings, exact numbers, booleans; null if empty). */
  public Object input() {
    return Json.fromJson(task.getInputJson());
  }

  /** The input as a Gson tree ({@code JsonNull} when empty). */
  public JsonElement inputTree() {
    return Json.parse(task.getInputJson());
  }

  /**
   * The input decoded into {@code type}; a mismatch throws a non-retryable NOT_APPLIED outcome
   * naming the type, so the node fails with a clear message.
   */
  public <T> T input(Type type) {
    try {
      return Json.fromJson(task.getInputJson(), type);
    } catch (JsonParseException e) {
      throw Outcome.notApplied("input is not a " + type.getTypeName() + ": " + e.getMessage(), false)
          .asException();
    }
  }

  /**
   * Reports progress (docs/workers.md 4a): a short {@code text} and/or JSON-encodable {@code
   * data} (null for none). The report replaces one not yet sent and goes with the attempt's
   * next heartbeat, brought forward: at once, or a second after the previous one.
   *
   * @throws IllegalArgumentException when {@code text} is over 512 UTF-8 bytes, or {@code
   *     data} is not JSON of safe integers within 1,024 bytes; nothing is sent
   */
  public void progress(String text, Object data) {
    report.set(progressReport(text, data));
    onProgress.run();
  }

  /** Reports progress as text only: {@code progress(text, null)}. */
  public void progress(String text) {
    progress(text, null);
  }

  /** The report checked against the server's caps. */
  static ProgressReport progressReport(String text, Object data) {
    String line = text == null ? "" : text;
    if (line.getBytes(StandardCharsets.UTF_8).length > MAX_PROGRESS_TEXT_BYTES) {
      throw new IllegalArgumentException("progress text: at most " + MAX_PROGRESS_TEXT_BYTES + " UTF-8 bytes");
    }
    String json = "";
    if (data != null) {
      try {
        json = Json.toJson(data);
      } catch (Json.NotJsonException e) {
        throw new IllegalArgumentException("progress data: not JSON (" + e.getMessage() + ")", e);
      }
      if (json.getBytes(StandardCharsets.UTF_8).length > MAX_PROGRESS_DATA_BYTES) {
        throw new IllegalArgumentException("progress data: at most " + MAX_PROGRESS_DATA_BYTES + " bytes of JSON");
      }
      checkNumbers(Json.parse(json));
    }
    return ProgressReport.newBuilder().setText(line).setDataJson(json).build();
  }

  private static void checkNumbers(JsonElement element) {
    if (element.isJsonPrimitive() && element.getAsJsonPrimitive().isNumber()) {
      BigDecimal value = element.getAsBigDecimal();
      if (value.stripTrailingZeros().scale() > 0 || value.abs().compareTo(MAX_SAFE_INTEGER) > 0
          || element.getAsString().matches(".*[.eE].*")) {
        throw new IllegalArgumentException(
            "progress data: " + element + " is not a safe integer (send it as a string)");
      }
    } else if (element.isJsonArray()) {
      element.getAsJsonArray().forEach(TaskContext::checkNumbers);
    } else if (element.isJsonObject()) {
      for (Map.Entry<String, JsonElement> entry : element.getAsJsonObject().entrySet()) {
        checkNumbers(entry.getValue());
      }
    }
  }

  /** The report waiting for a heartbeat, taken (null when none). */
  ProgressReport takeProgress() {
    return report.getAndSet(null);
  }

  /** Keeps an unsent report for the next heartbeat, unless a newer one waits. */
  void restoreProgress(ProgressReport unsent) {
    if (unsent != null) {
      report.compareAndSet(null, unsent);
    }
  }

  boolean hasProgress() {
    return report.get() != null;
  }

  void onProgress(Runnable callback) {
    this.onProgress = callback;
  }

  /** Whether the attempt was cancelled: stop work and return. */
  public boolean isCancelled() {
    return cancelled.isDone();
  }

  /** Completes when the attempt is cancelled. */
  public CompletableFuture<Void> cancelled() {
    return cancelled;
  }

  /** Binds the handler's thread, so a cancellation interrupts it. */
  synchronized void bind(Thread current) {
    this.thread = current;
  }

  /** Unbinds the thread and clears an interrupt this attempt left on it (pool threads are reused). */
  synchronized void unbind() {
    this.thread = null;
    Thread.interrupted();
  }

  synchronized void cancel() {
    if (cancelled.complete(null) && thread != null) {
      thread.interrupt();
    }
  }
}
