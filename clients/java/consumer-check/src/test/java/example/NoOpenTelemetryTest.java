package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.praxis.aiws.engine.v1.ClaimTasksRequest;
import dev.praxis.aiws.engine.v1.ClaimTasksResponse;
import dev.praxis.aiws.engine.v1.CompleteTaskResponse;
import dev.praxis.aiws.engine.v1.HeartbeatRequest;
import dev.praxis.aiws.engine.v1.HeartbeatResponse;
import dev.praxis.aiws.engine.v1.SettleTasksRequest;
import dev.praxis.aiws.engine.v1.SettleTasksResponse;
import dev.praxis.aiws.engine.v1.Settlement;
import dev.praxis.aiws.engine.v1.SettlementResult;
import dev.praxis.aiws.engine.v1.Task;
import dev.praxis.aiws.engine.v1.TaskServiceGrpc;
import dev.praxis.client.Praxis;
import dev.praxis.client.PraxisClients;
import dev.praxis.client.worker.Worker;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The client's OpenTelemetry dependency is optional: it is not on a consumer's class path, and a
 * worker handed a task with a traceparent still runs its handler and settles.
 */
class NoOpenTelemetryTest {
  @Test
  void aTracedTaskRunsWithoutTheApi() throws Exception {
    assertThrows(ClassNotFoundException.class, () -> Class.forName("io.opentelemetry.context.Context"));
    AtomicBoolean offered = new AtomicBoolean();
    CompletableFuture<String> settled = new CompletableFuture<>();
    TaskServiceGrpc.TaskServiceImplBase fake = new TaskServiceGrpc.TaskServiceImplBase() {
      @Override
      public void claimTasks(ClaimTasksRequest request, StreamObserver<ClaimTasksResponse> out) {
        ClaimTasksResponse.Builder response = ClaimTasksResponse.newBuilder();
        if (!offered.getAndSet(true)) {
          response.addTasks(Task.newBuilder().setAttemptId("att-1").setRunId("run-1")
              .setNodeUid("a").setNodeId("a").setAttempt(1).setInputJson("{\"x\":1}")
              .setTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
        }
        out.onNext(response.build());
        out.onCompleted();
      }

      @Override
      public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> out) {
        out.onNext(HeartbeatResponse.getDefaultInstance());
        out.onCompleted();
      }

      @Override
      public void settleTasks(SettleTasksRequest request, StreamObserver<SettleTasksResponse> out) {
        SettleTasksResponse.Builder response = SettleTasksResponse.newBuilder();
        for (Settlement s : request.getSettlementsList()) {
          settled.complete(s.hasComplete() ? s.getComplete().getResultJson() : "failed: " + s.getFail().getError());
          String id = s.hasComplete() ? s.getComplete().getAttemptId() : s.getFail().getAttemptId();
          response.addResults(SettlementResult.newBuilder().setAttemptId(id)
              .setComplete(CompleteTaskResponse.getDefaultInstance()));
        }
        out.onNext(response.build());
        out.onCompleted();
      }
    };
    Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
        .addService(fake).build().start();
    try (PraxisClients clients = Praxis.connect("127.0.0.1:" + server.getPort(), "token")) {
      Worker worker = App.worker(clients);
      worker.start();
      assertEquals("{\"echo\":{\"x\":1}}", settled.get(30, TimeUnit.SECONDS));
      worker.stop();
    } finally {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
