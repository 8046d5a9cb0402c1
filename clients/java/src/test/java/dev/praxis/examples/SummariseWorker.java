package dev.praxis.examples;

import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import dev.praxis.client.worker.Outcome;
import dev.praxis.client.worker.Worker;
import java.util.Map;

public final class SummariseWorker {
  static Worker worker(PraxisClients clients) {
    return Worker.builder(clients, "summarise")
        .concurrency(4)
        .handler(ctx -> { // {"text": ...} -> {"summary": its first 100 characters}
          Object text = ctx.input() instanceof Map<?, ?> input ? input.get("text") : null;
          if (!(text instanceof String s) || s.isEmpty()) {
            return Outcome.notApplied("no text to summarise", false);
          }
          int end = s.offsetByCodePoints(0, Math.min(100, s.codePointCount(0, s.length())));
          return Outcome.applied(Map.of("summary", s.substring(0, end))).withCost("12.5");
        })
        .build();
  }

  public static void main(String[] args) throws Exception {
    try (PraxisClients clients = Praxis.connect("127.0.0.1:50051", System.getenv("PRAXIS_TOKEN"))) {
      worker(clients).run(); // until SIGTERM / Ctrl-C; then drains and settles
    }
  }
}
