package dev.praxis.client.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * The handler runs inside the attempt's trace (AttemptTrace): with the OpenTelemetry API on the
 * class path (a test dependency here, optional for users), a span the handler starts is a child of
 * the task's traceparent; an empty or malformed one gives a root span and the handler still runs.
 */
class WorkerTraceTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN = "00f067aa0ba902b7";
  private static final String PARENT = "00-" + TRACE + "-" + SPAN + "-01";

  @Test
  void theApiIsDetected() {
    assertTrue(AttemptTrace.AVAILABLE);
  }

  @Test
  void traceparentsAreParsedStrictly() {
    AttemptTrace.Parent p = AttemptTrace.parse(PARENT);
    assertNotNull(p);
    assertEquals(TRACE, p.traceId());
    assertEquals(SPAN, p.spanId());
    assertEquals("01", p.flags());
    assertNotNull(AttemptTrace.parse("01" + PARENT.substring(2) + "-later-fields"));
    assertNotNull(AttemptTrace.parse("01" + PARENT.substring(2)));
    for (String bad : new String[] {
        null, "", "garbage", PARENT.substring(0, 54), PARENT + "-", "01" + PARENT.substring(2) + "x",
        "ff" + PARENT.substring(2), PARENT.toUpperCase(), PARENT.replace("4bf9", "4bg9"),
        "00-00000000000000000000000000000000-" + SPAN + "-01",
        "00-" + TRACE + "-0000000000000000-01", "00_" + TRACE + "-" + SPAN + "-01",
        "00-" + TRACE + "-" + SPAN + "-0x"}) {
      assertNull(AttemptTrace.parse(bad), bad);
    }
  }

  @Test
  void handlerSpansAreChildrenOfTheAttempt() throws Exception {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    try (SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
        FakeTaskService fake = FakeTaskService.start(true);
        PraxisClients clients = Praxis.connect(fake.address(), "secret")) {
      Tracer tracer = provider.get("handler");
      fake.offerTraced("att-traced", "{}", PARENT);
      fake.offerTraced("att-empty", "{}", "");
      fake.offerTraced("att-malformed", "{}", "00-" + TRACE + "-" + SPAN);
      fake.offerTraced("att-zero", "{}", "00-" + TRACE + "-0000000000000000-01");
      Worker worker = Worker.builder(clients, "m").concurrency(2).leaseMs(1_000).pollMs(100)
          .handler(ctx -> {
            SpanContext current = Span.current().getSpanContext();
            tracer.spanBuilder(ctx.attemptId()).startSpan().end();
            return Map.of("remote", current.isRemote(), "span", current.getSpanId());
          })
          .build();
      worker.start();
      fake.await(s -> s.completed.size() == 4);
      worker.stop();
      assertFalse(Span.current().getSpanContext().isValid(), "the worker's thread context leaked");
      List<SpanData> spans = exporter.getFinishedSpanItems();
      assertEquals(4, spans.size());
      SpanData traced = named(spans, "att-traced");
      assertEquals(TRACE, traced.getTraceId());
      assertEquals(SPAN, traced.getParentSpanId());
      assertTrue(traced.getParentSpanContext().isRemote());
      for (String root : new String[] {"att-empty", "att-malformed", "att-zero"}) {
        SpanData s = named(spans, root);
        assertFalse(s.getParentSpanContext().isValid(), root + " has a parent");
        assertNotEquals(TRACE, s.getTraceId(), root);
      }
      synchronized (fake) {
        assertEquals("{\"remote\":true,\"span\":\"" + SPAN + "\"}", result(fake, "att-traced"));
        assertEquals("{\"remote\":false,\"span\":\"0000000000000000\"}", result(fake, "att-empty"));
      }
    }
  }

  @Test
  void anAsyncHandlerIsCalledInsideTheAttemptsTrace() throws Exception {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    try (SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
        FakeTaskService fake = FakeTaskService.start(true);
        PraxisClients clients = Praxis.connect(fake.address(), "secret")) {
      Tracer tracer = provider.get("handler");
      fake.offerTraced("att-async", "{}", PARENT);
      Worker worker = Worker.builder(clients, "m").leaseMs(1_000).pollMs(100)
          // The call runs in the attempt's context; work handed to another thread carries it
          // with Context.current().wrap(...), as with any OpenTelemetry context.
          .asyncHandler(ctx -> CompletableFuture.supplyAsync(() -> {
            tracer.spanBuilder("async-work").startSpan().end();
            return "done";
          }, Context.current().wrap(ForkJoinPool.commonPool())))
          .build();
      worker.start();
      fake.await(s -> s.completed.size() == 1);
      worker.stop();
      SpanData span = named(exporter.getFinishedSpanItems(), "async-work");
      assertEquals(TRACE, span.getTraceId());
      assertEquals(SPAN, span.getParentSpanId());
    }
  }

  private static SpanData named(List<SpanData> spans, String name) {
    return spans.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
  }

  private static String result(FakeTaskService fake, String attemptId) {
    return fake.state().completed.stream().filter(c -> c.getAttemptId().equals(attemptId))
        .findFirst().orElseThrow().getResultJson();
  }
}
