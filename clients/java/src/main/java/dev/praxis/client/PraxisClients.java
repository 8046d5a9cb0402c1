package dev.praxis.client;

import dev.praxis.aiws.engine.testing.v1.TestClockServiceGrpc;
import dev.praxis.aiws.engine.v1.AdminServiceGrpc;
import dev.praxis.aiws.engine.v1.ApprovalServiceGrpc;
import dev.praxis.aiws.engine.v1.EventServiceGrpc;
import dev.praxis.aiws.engine.v1.RegistryServiceGrpc;
import dev.praxis.aiws.engine.v1.RunServiceGrpc;
import dev.praxis.aiws.engine.v1.TaskServiceGrpc;
import io.grpc.CallCredentials;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import java.util.concurrent.TimeUnit;

/**
 * The typed blocking clients of every engine service over one channel, each sending the
 * same bearer token. Close it to shut the channel down when {@link Praxis#connect} opened it.
 * For asynchronous calls, build {@code *Grpc.newStub(channel())} stubs with {@link
 * #credentials()}.
 */
public final class PraxisClients implements AutoCloseable {
  private final Channel channel;
  private final ManagedChannel owned;
  private final CallCredentials credentials;
  private final RegistryServiceGrpc.RegistryServiceBlockingStub registry;
  private final ApprovalServiceGrpc.ApprovalServiceBlockingStub approval;
  private final AdminServiceGrpc.AdminServiceBlockingStub admin;
  private final RunServiceGrpc.RunServiceBlockingStub run;
  private final TaskServiceGrpc.TaskServiceBlockingStub task;
  private final EventServiceGrpc.EventServiceBlockingStub event;
  private final TestClockServiceGrpc.TestClockServiceBlockingStub testClock;

  /**
   * Wraps a channel the caller owns (and closes).
   *
   * @param channel the channel to the engine
   * @param credentials sent on every call, usually a {@link BearerToken}
   */
  public PraxisClients(Channel channel, CallCredentials credentials) {
    this(channel, null, credentials);
  }

  PraxisClients(Channel channel, ManagedChannel owned, CallCredentials credentials) {
    this.channel = channel;
    this.owned = owned;
    this.credentials = credentials;
    this.registry = RegistryServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.approval = ApprovalServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.admin = AdminServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.run = RunServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.task = TaskServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.event = EventServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.testClock = TestClockServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
  }

  /** {@code aiws.engine.v1.RegistryService}. */
  public RegistryServiceGrpc.RegistryServiceBlockingStub registry() {
    return registry;
  }

  /** {@code aiws.engine.v1.ApprovalService}. */
  public ApprovalServiceGrpc.ApprovalServiceBlockingStub approval() {
    return approval;
  }

  /** {@code aiws.engine.v1.AdminService}. */
  public AdminServiceGrpc.AdminServiceBlockingStub admin() {
    return admin;
  }

  /** {@code aiws.engine.v1.RunService}. */
  public RunServiceGrpc.RunServiceBlockingStub run() {
    return run;
  }

  /** {@code aiws.engine.v1.TaskService}. */
  public TaskServiceGrpc.TaskServiceBlockingStub task() {
    return task;
  }

  /** {@code aiws.engine.v1.EventService}. */
  public EventServiceGrpc.EventServiceBlockingStub event() {
    return event;
  }

  /** {@code aiws.engine.testing.v1.TestClockService}; only on a server in test-clock mode. */
  public TestClockServiceGrpc.TestClockServiceBlockingStub testClock() {
    return testClock;
  }

  /** The channel every client uses. */
  public Channel channel() {
    return channel;
  }

  /** The credentials every client sends. */
  public CallCredentials credentials() {
    return credentials;
  }

  /** A dynamic (proto-JSON) invoker over the same channel and credentials. */
  public DynamicInvoker dynamic() {
    return new DynamicInvoker(channel, credentials);
  }

  /** Shuts down the channel if {@link Praxis#connect} opened it; waits up to 5 seconds. */
  @Override
  public void close() throws InterruptedException {
    if (owned != null) {
      owned.shutdown();
      if (!owned.awaitTermination(5, TimeUnit.SECONDS)) {
        owned.shutdownNow();
      }
    }
  }
}
