package dev.praxis.client.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.praxis.aiws.engine.v1.EffectOutcome;
import dev.praxis.aiws.engine.v1.FailTaskRequest;
import dev.praxis.aiws.engine.v1.NodeEffects;
import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import io.grpc.Status;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The worker runtime against a fake TaskService on a loopback port. */
class WorkerTest {
  private static FailTaskRequest failure(FakeTaskService fake, String attemptId) {
    synchronized (fake) {
      return fake.state().failed.stream().filter(f -> f.getAttemptId().equals(attemptId))
          .findFirst().orElseThrow();
    }
  }

  @Test
  void badTokenFailsStartLoudly() throws Exception {
    try (FakeTaskService fake = FakeTaskService.start(true);
        PraxisClients clients = Praxis.connect(fake.address(), "wrong")) {
      Worker worker = Worker.builder(clients, "m").handler(ctx -> "x").build();
      WorkerException e = assertThrows(WorkerException.class, worker::start);
      assertEquals(Status.Code.UNAUTHENTICATED, e.error().code());
      assertEquals("CREDENTIAL_INVALID", e.error().reason().orElseThrow());
      assertTrue(e.getMessage().contains("UNAUTHENTICATED"), e.getMessage());
    }
  }

  @Test
  void outcomesSettleAsDeclaredThroughTheFallback() throws Exception {
    try (FakeTaskService fake = FakeTaskService.start(false);
        PraxisClients clients = Praxis.connect(fake.address(), "secret")) {
      fake.offer("att-cyclic", "{\"do\":\"cyclic\"}");
      fake.offer("att-nan", "{\"do\":\"nan\"}");
      fake.offer("att-throw", "{\"do\":\"throw\"}");
      fake.offer("att-throw-none", "{\"do\":\"throw\"}", NodeEffects.NODE_EFFECTS_NONE);
      fake.offer("att-throw-idempotent", "{\"do\":\"throw\"}", NodeEffects.NODE_EFFECTS_IDEMPOTENT);
      fake.offer("att-throw-external", "{\"do\":\"throw\"}", NodeEffects.NODE_EFFECTS_EXTERNAL);
      fake.offer("att-fail-external", "{\"do\":\"fail\"}", NodeEffects.NODE_EFFECTS_EXTERNAL);
      Set<String> retrySafe = ConcurrentHashMap.newKeySet();
      fake.offer("att-uncertain", "{\"do\":\"uncertain\"}");
      fake.offer("att-cost", "{\"do\":\"badcost\"}");
      fake.offer("att-echo", "{\"n\":1,\"b\":[2]}");
      Worker worker = Worker.builder(clients, "m").concurrency(3).leaseMs(1_000).pollMs(100)
          .handler(ctx -> {
            if (ctx.isRetrySafe()) {
              retrySafe.add(ctx.attemptId());
            }
            Map<?, ?> input = (Map<?, ?>) ctx.input();
            switch (String.valueOf(input.get("do"))) {
              case "cyclic": {
                Map<String, Object> self = new HashMap<>();
                self.put("self", self);
                return self;
              }
              case "nan":
                return Map.of("x", Double.NaN);
              case "throw":
                throw new IllegalStateException("boom");
              case "fail":
                return Outcome.notApplied("nothing was sent", true);
              case "uncertain":
                throw Outcome.uncertain("timed out mid-write").withCost("3").asException();
              case "badcost":
                return Outcome.applied("ok").withCost("1.50");
              default:
                return input;
            }
          })
          .build();
      worker.start();
      fake.await(s -> s.failed.size() == 9 && s.completed.size() == 1);
      worker.stop();
      for (String id : new String[] {"att-cyclic", "att-nan"}) {
        FailTaskRequest f = failure(fake, id);
        assertFalse(f.getRetryable(), id);
        assertTrue(f.getError().startsWith("result is not JSON-serialisable: "), f.getError());
        assertEquals(EffectOutcome.EFFECT_OUTCOME_APPLIED, f.getEffect());
      }
      // An uncaught exception says nothing of the effect: UNCERTAIN unless the node is
      // retry-safe (docs/workers.md, Outcomes); an undeclared node is EXTERNAL.
      for (String id : new String[] {"att-throw", "att-throw-external"}) {
        FailTaskRequest thrown = failure(fake, id);
        assertFalse(thrown.getRetryable(), id);
        assertEquals("java.lang.IllegalStateException: boom", thrown.getError());
        assertEquals(EffectOutcome.EFFECT_OUTCOME_UNCERTAIN, thrown.getEffect(), id);
      }
      for (String id : new String[] {"att-throw-none", "att-throw-idempotent"}) {
        FailTaskRequest thrown = failure(fake, id);
        assertTrue(thrown.getRetryable(), id);
        assertEquals("java.lang.IllegalStateException: boom", thrown.getError());
        assertEquals(EffectOutcome.EFFECT_OUTCOME_NOT_APPLIED, thrown.getEffect(), id);
      }
      assertEquals(Set.of("att-throw-none", "att-throw-idempotent"), retrySafe);
      // An explicit NotApplied is the handler's own statement: it retries on any node.
      FailTaskRequest explicit = failure(fake, "att-fail-external");
      assertTrue(explicit.getRetryable());
      assertEquals(EffectOutcome.EFFECT_OUTCOME_NOT_APPLIED, explicit.getEffect());
      FailTaskRequest uncertain = failure(fake, "att-uncertain");
      assertEquals(EffectOutcome.EFFECT_OUTCOME_UNCERTAIN, uncertain.getEffect());
      assertFalse(uncertain.getRetryable());
      assertEquals("3", uncertain.getCostMicrocredits());
      FailTaskRequest cost = failure(fake, "att-cost");
      assertEquals("invalid cost \"1.50\": not a canonical decimal", cost.getError());
      assertFalse(cost.getRetryable());
      assertEquals("", cost.getCostMicrocredits());
      assertEquals("{\"b\":[2],\"n\":1}", fake.state().completed.get(0).getResultJson());
      assertEquals(0, fake.state().settleCalls);
      Worker.Counters c = worker.counters();
      assertEquals(1, c.completed());
      assertEquals(6, c.failed());
      assertEquals(3, c.uncertain());
    }
  }

  @Test
  void asyncFailuresSettleByTheNodesEffects() throws Exception {
    try (FakeTaskService fake = FakeTaskService.start(true);
        PraxisClients clients = Praxis.connect(fake.address(), "secret")) {
      fake.offer("att-undeclared", "{}");
      fake.offer("att-idempotent", "{}", NodeEffects.NODE_EFFECTS_IDEMPOTENT);
      Worker worker = Worker.builder(clients, "m").concurrency(2).leaseMs(1_000).pollMs(100)
          .asyncHandler(ctx -> CompletableFuture.supplyAsync(() -> {
            throw new IllegalArgumentException("gateway hung up");
          }))
          .build();
      worker.start();
      fake.await(s -> s.failed.size() == 2);
      worker.stop();
      FailTaskRequest undeclared = failure(fake, "att-undeclared");
      assertEquals(EffectOutcome.EFFECT_OUTCOME_UNCERTAIN, undeclared.getEffect());
      assertFalse(undeclared.getRetryable());
      assertEquals("java.lang.IllegalArgumentException: gateway hung up", undeclared.getError());
      FailTaskRequest idempotent = failure(fake, "att-idempotent");
      assertEquals(EffectOutcome.EFFECT_OUTCOME_NOT_APPLIED, idempotent.getEffect());
      assertTrue(idempotent.getRetryable());
      assertEquals("java.lang.IllegalArgumentException: gateway hung up", idempotent.getError());
    }
  }

  @Test
  void anInterruptAfterCancellationSettlesByTheNodesEffects() throws Exception {
    try (FakeTaskService fake = FakeTaskService.start(true);
        PraxisClients clients = Praxis.connect(fake.address(), "secret")) {
      fake.offer("att-undeclared", "{}");
      fake.offer("att-none", "{}", NodeEffects.NODE_EFFECTS_NONE);
      Worker worker = Worker.builder(clients, "m").concurrency(2).leaseMs(1_000).pollMs(100)
          .handler(ctx -> {
            Thread.sleep(60_000); // the InterruptedException propagates
            return "slept";
          })
          .build();
      worker.start();
      fake.await(s -> s.queue.isEmpty() && s.heartbeats >= 2);
      fake.set(s -> s.cancelHeartbeats = true);
      fake.await(s -> s.failed.size() == 2);
      worker.stop();
      FailTaskRequest undeclared = failure(fake, "att-undeclared");
      assertEquals("cancelled", undeclared.getError());
      assertEquals(EffectOutcome.EFFECT_OUTCOME_UNCERTAIN, undeclared.getEffect());
      assertFalse(undeclared.getRetryable());
      FailTaskRequest none = failure(fake, "att-none");
      assertEquals("cancelled", none.getError());
      assertEquals(EffectOutcome.EFFECT_OUTCOME_NOT_APPLIED, none.getEffect());
      assertTrue(none.getRetryable());
    }
  }

  @Test
  void cancelledHeartbeatInterruptsTheHandlerAndStopDrains() throws Exception {
    try (FakeTaskService fake = FakeTaskService.start(true);
        PraxisClients clients = Praxis.connect(fake.address(), "secret")) {
      fake.offer("att-hang", "{}");
      CompletableFuture<Boolean> sawCancel = new CompletableFuture<>();
      Worker sync = Worker.builder(clients, "m").leaseMs(1_000).pollMs(100)
          .handler(ctx -> {
            try {
              Thread.sleep(60_000);
              return "slept";
            } catch (InterruptedException e) {
              sawCancel.complete(ctx.isCancelled());
              throw Outcome.notApplied("cancelled", true).asException();
            }
          })
          .build();
      sync.start();
      fake.await(s -> s.heartbeats >= 1);
      fake.set(s -> s.cancelHeartbeats = true);
      fake.await(s -> !s.failed.isEmpty());
      assertTrue(sawCancel.get());
      assertEquals("cancelled", failure(fake, "att-hang").getError());
      fake.set(s -> s.cancelHeartbeats = false);
      sync.stop();
      fake.offer("att-async", "{}");
      Worker async = Worker.builder(clients, "m").leaseMs(1_000).pollMs(100)
          .drainTimeout(Duration.ofSeconds(10))
          .asyncHandler(ctx -> CompletableFuture.supplyAsync(() -> {
            try {
              Thread.sleep(500);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return Map.of("async", true);
          }))
          .build();
      async.start();
      fake.await(s -> s.queue.isEmpty());
      Thread.sleep(100);
      async.stop(); // drains: the 500 ms handler is settled before stop returns
      synchronized (fake) {
        assertEquals(1, fake.state().completed.size());
        assertEquals("{\"async\":true}", fake.state().completed.get(0).getResultJson());
      }
    }
  }

  @Test
  void progressRidesOnHeartbeatsBroughtForwardAndRateLimited() throws Exception {
    try (FakeTaskService fake = FakeTaskService.start(true);
        PraxisClients clients = Praxis.connect(fake.address(), "secret")) {
      fake.offer("att-p", "{}");
      java.util.List<String> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
      Worker worker = Worker.builder(clients, "m").leaseMs(60_000).pollMs(100)
          .handler(ctx -> {
            for (Runnable bad : java.util.List.<Runnable>of(
                () -> ctx.progress("x".repeat(513)),
                () -> ctx.progress("", Map.of("r", 0.5)),
                () -> ctx.progress("", java.util.List.of(1L << 53)))) {
              try {
                bad.run();
              } catch (IllegalArgumentException e) {
                refused.add(e.getMessage());
              }
            }
            for (int step = 1; step <= 5; step++) {
              ctx.progress("step " + step + " of 5", Map.of("step", step));
            }
            Thread.sleep(300);
            ctx.progress("step 6 of 5", Map.of("step", 6));
            Thread.sleep(1_500);
            return "done";
          })
          .build();
      worker.start();
      fake.await(s -> !s.completed.isEmpty());
      worker.stop();
      assertEquals(3, refused.size(), refused.toString());
      synchronized (fake) {
        var reports = fake.state().reports;
        var times = fake.state().reportedAtNanos;
        int n = reports.size();
        assertTrue(n >= 2 && n <= 3, "reports " + reports);
        assertEquals("step 6 of 5", reports.get(n - 1).getText());
        assertEquals("{\"step\":6}", reports.get(n - 1).getDataJson());
        assertTrue(times.get(n - 1) - times.get(n - 2) >= 900_000_000L, "not rate-limited");
      }
    }
  }

  @Test
  void optionsAreChecked() throws Exception {
    try (PraxisClients clients = Praxis.connect("127.0.0.1:1", "t")) {
      assertThrows(IllegalArgumentException.class, () -> Worker.builder(clients).handler(c -> 1).build());
      assertThrows(IllegalArgumentException.class,
          () -> Worker.builder(clients, "m").concurrency(0).handler(c -> 1).build());
      assertThrows(IllegalArgumentException.class,
          () -> Worker.builder(clients, "m").leaseMs(10).handler(c -> 1).build());
      assertThrows(IllegalArgumentException.class, () -> Worker.builder(clients, "m").build());
      String id = Worker.builder(clients, "m").handler(c -> 1).build().workerId();
      assertTrue(id.matches("worker-[0-9a-f]{12}"), id);
    }
  }
}
