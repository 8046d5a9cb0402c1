package dev.praxis.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.praxis.aiws.engine.v1.CompleteTaskRequest;
import dev.praxis.aiws.engine.v1.EffectOutcome;
import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import dev.praxis.client.worker.FakeTaskService;
import dev.praxis.client.worker.Worker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's "write a worker" snippet: shown verbatim, compiled, and run. */
class SummariseWorkerTest {
  @Test
  void readmeShowsTheExampleVerbatim() throws Exception {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    String example = Files.readString(
        Path.of("src/test/java/dev/praxis/examples/SummariseWorker.java"), StandardCharsets.UTF_8);
    assertTrue(readme.contains(example), "README.md must contain SummariseWorker.java verbatim");
  }

  @Test
  void theExampleWorkerCompletesWithResultAndCost() throws Exception {
    try (FakeTaskService fake = FakeTaskService.start(true)) {
      fake.offer("att-1", "{\"text\":\"" + "x".repeat(150) + "\"}");
      try (PraxisClients clients = Praxis.connect(fake.address(), "secret")) {
        Worker worker = SummariseWorker.worker(clients);
        worker.start();
        fake.await(s -> !s.completed.isEmpty());
        worker.stop();
        CompleteTaskRequest done = fake.state().completed.get(0);
        assertEquals("att-1", done.getAttemptId());
        assertEquals("{\"summary\":\"" + "x".repeat(100) + "\"}", done.getResultJson());
        assertEquals(EffectOutcome.EFFECT_OUTCOME_APPLIED, done.getEffect());
        assertEquals("12.5", done.getCostMicrocredits());
        assertEquals(1, fake.state().settleCalls);
        assertEquals(1, worker.counters().completed());
      }
    }
  }
}
