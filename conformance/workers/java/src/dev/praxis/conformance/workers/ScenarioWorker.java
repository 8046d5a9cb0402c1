package dev.praxis.conformance.workers;

import dev.praxis.client.Json;
import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import dev.praxis.client.worker.Outcome;
import dev.praxis.client.worker.TaskContext;
import dev.praxis.client.worker.Worker;
import dev.praxis.client.worker.WorkerException;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The Java scenario worker (conformance/workers/README.md): the public worker runtime with the
 * scripted handler, until SIGTERM. Prints {@code ready}, {@code cancelled} and {@code stopped}
 * events as JSON lines on stdout; logs go to stderr.
 */
public final class ScenarioWorker {
  private ScenarioWorker() {}

  static synchronized void emit(Map<String, Object> event) {
    System.out.println(Json.toJson(event));
    System.out.flush();
  }

  static void cancelled(TaskContext ctx) {
    emit(Map.of("event", "cancelled", "attempt_id", ctx.attemptId()));
  }

  static Object handle(TaskContext ctx) throws Exception {
    Object input = ctx.input();
    if (!(input instanceof Map<?, ?> spec) || !spec.containsKey("do")) {
      return echo(input);
    }
    Object result = spec.containsKey("result") ? spec.get("result") : spec;
    String error = spec.get("error") instanceof String s ? s : null;
    switch (String.valueOf(spec.get("do"))) {
      case "complete": {
        Outcome outcome = Outcome.applied(result);
        return spec.get("cost") instanceof String cost ? outcome.withCost(cost) : outcome;
      }
      case "fail":
        throw Outcome.notApplied(error == null ? "failed" : error,
            Boolean.TRUE.equals(spec.get("retryable"))).asException();
      case "uncertain":
        if (spec.containsKey("result")) {
          return Outcome.uncertainResult(spec.get("result"));
        }
        return Outcome.uncertain(error == null ? "uncertain" : error);
      case "raise":
        // A plain exception, never an outcome: the runtime settles it by the node's effects.
        throw new RuntimeException(error == null ? "raised" : error);
      case "sleep": {
        long ms = spec.get("ms") instanceof Number n ? n.longValue() : 0;
        try {
          Thread.sleep(ms);
        } catch (InterruptedException e) {
          cancelled(ctx);
        }
        return result;
      }
      case "hang":
        try {
          ctx.cancelled().get();
        } catch (InterruptedException e) {
          // the runtime interrupts the thread as it cancels
        }
        cancelled(ctx);
        if ("not_applied".equals(spec.get("then"))) { // stopped before the effect: say so
          throw Outcome.notApplied(error == null ? "stopped before the effect" : error, false)
              .asException();
        }
        if ("applied".equals(spec.get("then")) && spec.containsKey("result")) {
          return Outcome.applied(spec.get("result")); // the effect happened before the stop
        }
        return Map.of("hung", true);
      case "progress": {
        int steps = spec.get("steps") instanceof Number n ? n.intValue() : 1;
        long ms = spec.get("ms") instanceof Number n ? n.longValue() : 0;
        long hold = spec.get("hold_ms") instanceof Number n ? n.longValue() : 0;
        try {
          for (int step = 1; step <= steps; step++) {
            ctx.progress("step " + step + " of " + steps, Map.of("step", step, "of", steps));
            Thread.sleep(ms);
          }
          Thread.sleep(hold);
        } catch (InterruptedException e) {
          cancelled(ctx);
        }
        return Map.of("steps", steps);
      }
      case "unserializable": {
        Map<String, Object> cyclic = new HashMap<>();
        cyclic.put("self", cyclic);
        return cyclic;
      }
      case "trace": {
        // The current span context, read with the OpenTelemetry API only (on the class path
        // through the client's optional dependency, see run.sh).
        SpanContext current = Span.current().getSpanContext();
        Map<String, Object> seen = new LinkedHashMap<>();
        seen.put("traceparent", ctx.traceparent());
        seen.put("current", current.isValid()
            ? "00-" + current.getTraceId() + "-" + current.getSpanId() + "-"
                + current.getTraceFlags().asHex()
            : "");
        return seen;
      }
      default:
        return echo(input);
    }
  }

  private static Map<String, Object> echo(Object input) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("echo", input);
    return out;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      flags.put(args[i], args[i + 1]);
    }
    PraxisClients clients = Praxis.connect(flags.get("--address"), flags.get("--token"));
    Worker worker = Worker.builder(clients, flags.get("--model"))
        .workerId(flags.get("--worker-id"))
        .concurrency(Integer.parseInt(flags.getOrDefault("--concurrency", "4")))
        .leaseMs(Long.parseLong(flags.getOrDefault("--lease-ms", "30000")))
        .handler(ScenarioWorker::handle)
        .build();
    try {
      worker.start();
    } catch (WorkerException e) {
      System.err.println("scenario worker: " + e.getMessage());
      System.exit(2);
    }
    emit(Map.of("event", "ready"));
    CountDownLatch term = new CountDownLatch(1);
    sun.misc.Signal.handle(new sun.misc.Signal("TERM"), s -> term.countDown());
    sun.misc.Signal.handle(new sun.misc.Signal("INT"), s -> term.countDown());
    Thread waiter = new Thread(() -> {
      try {
        worker.awaitTermination();
      } catch (Exception e) {
        // reported below
      }
      term.countDown();
    });
    waiter.setDaemon(true);
    waiter.start();
    term.await();
    worker.stop();
    try {
      worker.awaitTermination();
    } catch (WorkerException e) {
      System.err.println("scenario worker: " + e.getMessage());
      System.exit(3);
    }
    emit(Map.of("event", "stopped"));
    clients.close();
    System.exit(0);
  }
}
