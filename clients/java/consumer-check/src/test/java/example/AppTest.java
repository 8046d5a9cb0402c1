package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.praxis.aiws.engine.v1.GetEpochsRequest;
import dev.praxis.client.Json;
import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import dev.praxis.client.PraxisError;
import io.grpc.StatusRuntimeException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The artifact links and runs from a consumer's classpath: stubs, gRPC transport, helpers. */
class AppTest {
  @Test
  void theClientWorksFromTheConsumersClasspath() throws Exception {
    assertEquals("{\"a\":1,\"b\":[true]}", Json.toJson(Map.of("b", java.util.List.of(true), "a", 1)));
    try (PraxisClients clients = Praxis.connect("127.0.0.1:1", "token")) {
      assertTrue(App.worker(clients).workerId().startsWith("worker-"));
      try {
        clients.registry().withDeadlineAfter(60, TimeUnit.SECONDS)
            .getEpochs(GetEpochsRequest.newBuilder().setWorkOrderId("wo").build());
        fail("a call to a closed port succeeded");
      } catch (StatusRuntimeException e) {
        // nothing listens there: the netty transport ran and reported UNAVAILABLE
        assertEquals(io.grpc.Status.Code.UNAVAILABLE, PraxisError.from(e).code());
      }
    }
  }
}
