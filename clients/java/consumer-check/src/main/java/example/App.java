package example;

import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import dev.praxis.client.worker.Outcome;
import dev.praxis.client.worker.Worker;
import java.util.Map;

/** A minimal worker, written as a user of the published artifact would. */
public final class App {
  private App() {}

  static Worker worker(PraxisClients clients) {
    return Worker.builder(clients, "echo")
        .concurrency(4)
        .handler(ctx -> Outcome.applied(Map.of("echo", ctx.input())))
        .build();
  }

  public static void main(String[] args) throws Exception {
    try (PraxisClients clients = Praxis.connect(args[0], System.getenv("PRAXIS_TOKEN"))) {
      worker(clients).run();
    }
  }
}
