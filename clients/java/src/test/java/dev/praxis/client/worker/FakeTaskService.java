package dev.praxis.client.worker;

import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import dev.praxis.aiws.engine.v1.ClaimTasksRequest;
import dev.praxis.aiws.engine.v1.ClaimTasksResponse;
import dev.praxis.aiws.engine.v1.CompleteTaskRequest;
import dev.praxis.aiws.engine.v1.CompleteTaskResponse;
import dev.praxis.aiws.engine.v1.FailTaskRequest;
import dev.praxis.aiws.engine.v1.FailTaskResponse;
import dev.praxis.aiws.engine.v1.HeartbeatRequest;
import dev.praxis.aiws.engine.v1.HeartbeatResponse;
import dev.praxis.aiws.engine.v1.ProgressReport;
import dev.praxis.aiws.engine.v1.NodeEffects;
import dev.praxis.aiws.engine.v1.SettleTasksRequest;
import dev.praxis.aiws.engine.v1.SettleTasksResponse;
import dev.praxis.aiws.engine.v1.Settlement;
import dev.praxis.aiws.engine.v1.SettlementResult;
import dev.praxis.aiws.engine.v1.Task;
import dev.praxis.aiws.engine.v1.TaskServiceGrpc;
import dev.praxis.client.BearerToken;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A TaskService on a loopback port that hands out queued tasks and records settlements. */
public final class FakeTaskService extends TaskServiceGrpc.TaskServiceImplBase implements AutoCloseable {
  /** What the fake saw; guarded by the fake. */
  public static final class State {
    public final List<Task> queue = new ArrayList<>();
    public final List<CompleteTaskRequest> completed = new ArrayList<>();
    public final List<FailTaskRequest> failed = new ArrayList<>();
    public int settleCalls;
    public int heartbeats;
    public boolean cancelHeartbeats;
    public final List<ProgressReport> reports = new ArrayList<>();
    public final List<Long> reportedAtNanos = new ArrayList<>();
  }

  private final State state = new State();
  private final boolean settleTasks;
  private Server server;

  private FakeTaskService(boolean settleTasks) {
    this.settleTasks = settleTasks;
  }

  /** Starts one; {@code settleTasks} false answers SettleTasks with UNIMPLEMENTED. */
  public static FakeTaskService start(boolean settleTasks) throws Exception {
    FakeTaskService fake = new FakeTaskService(settleTasks);
    ServerInterceptor auth = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (!"Bearer secret".equals(headers.get(BearerToken.AUTHORIZATION))) {
          com.google.rpc.Status status = com.google.rpc.Status.newBuilder()
              .setCode(Code.UNAUTHENTICATED_VALUE).setMessage("bad token")
              .addDetails(com.google.protobuf.Any.pack(ErrorInfo.newBuilder()
                  .setReason("CREDENTIAL_INVALID").setDomain("engine.aiws").build()))
              .build();
          io.grpc.StatusRuntimeException e = StatusProto.toStatusRuntimeException(status);
          call.close(e.getStatus(), e.getTrailers());
          return new ServerCall.Listener<>() {};
        }
        return Contexts.interceptCall(io.grpc.Context.current(), call, headers, next);
      }
    };
    fake.server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
        .addService(ServerInterceptors.intercept(fake, auth)).build().start();
    return fake;
  }

  public String address() {
    return "127.0.0.1:" + server.getPort();
  }

  public State state() {
    return state;
  }

  public synchronized void offer(String attemptId, String inputJson) {
    state.queue.add(Task.newBuilder().setAttemptId(attemptId).setRunId("run-1").setNodeUid("a")
        .setNodeId("a").setAttempt(1).setInputJson(inputJson).build());
  }

  /** Offers a task of a node that declares {@code effects}. */
  public synchronized void offer(String attemptId, String inputJson, NodeEffects effects) {
    state.queue.add(Task.newBuilder().setAttemptId(attemptId).setRunId("run-1").setNodeUid("a")
        .setNodeId("a").setAttempt(1).setInputJson(inputJson).setEffects(effects).build());
  }

  /** Offers a task carrying {@code traceparent} (the attempt's span). */
  public synchronized void offerTraced(String attemptId, String inputJson, String traceparent) {
    state.queue.add(Task.newBuilder().setAttemptId(attemptId).setRunId("run-1").setNodeUid("a")
        .setNodeId("a").setAttempt(1).setInputJson(inputJson).setTraceparent(traceparent).build());
  }

  public synchronized void set(java.util.function.Consumer<State> change) {
    change.accept(state);
  }

  /** Waits up to 10 s for {@code condition}. */
  public void await(Predicate<State> condition) throws InterruptedException {
    for (int i = 0; i < 400; i++) {
      synchronized (this) {
        if (condition.test(state)) {
          return;
        }
      }
      Thread.sleep(25);
    }
    throw new AssertionError("condition not reached in 10 s");
  }

  @Override
  public void claimTasks(ClaimTasksRequest request, StreamObserver<ClaimTasksResponse> out) {
    List<Task> tasks = new ArrayList<>();
    synchronized (this) {
      while (tasks.size() < request.getMaxTasks() && !state.queue.isEmpty()) {
        tasks.add(state.queue.remove(0));
      }
    }
    if (tasks.isEmpty() && request.getWaitMs() > 0) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    out.onNext(ClaimTasksResponse.newBuilder().addAllTasks(tasks).build());
    out.onCompleted();
  }

  @Override
  public synchronized void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> out) {
    state.heartbeats++;
    if (request.hasProgress()) {
      state.reports.add(request.getProgress());
      state.reportedAtNanos.add(System.nanoTime());
    }
    out.onNext(HeartbeatResponse.newBuilder().setCancelled(state.cancelHeartbeats).build());
    out.onCompleted();
  }

  @Override
  public synchronized void completeTask(CompleteTaskRequest request, StreamObserver<CompleteTaskResponse> out) {
    state.completed.add(request);
    out.onNext(CompleteTaskResponse.getDefaultInstance());
    out.onCompleted();
  }

  @Override
  public synchronized void failTask(FailTaskRequest request, StreamObserver<FailTaskResponse> out) {
    state.failed.add(request);
    out.onNext(FailTaskResponse.getDefaultInstance());
    out.onCompleted();
  }

  @Override
  public synchronized void settleTasks(SettleTasksRequest request, StreamObserver<SettleTasksResponse> out) {
    if (!settleTasks) {
      out.onError(Status.UNIMPLEMENTED.asRuntimeException());
      return;
    }
    state.settleCalls++;
    SettleTasksResponse.Builder response = SettleTasksResponse.newBuilder();
    for (Settlement s : request.getSettlementsList()) {
      if (s.hasComplete()) {
        state.completed.add(s.getComplete());
        response.addResults(SettlementResult.newBuilder().setAttemptId(s.getComplete().getAttemptId())
            .setComplete(CompleteTaskResponse.getDefaultInstance()));
      } else {
        state.failed.add(s.getFail());
        response.addResults(SettlementResult.newBuilder().setAttemptId(s.getFail().getAttemptId())
            .setFail(FailTaskResponse.getDefaultInstance()));
      }
    }
    out.onNext(response.build());
    out.onCompleted();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }
}
