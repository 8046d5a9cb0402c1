package dev.praxis.client;

import dev.praxis.aiws.engine.testing.v1.TestClockServiceGrpc;
import dev.praxis.aiws.engine.v1.AdminServiceGrpc;
import dev.praxis.aiws.engine.v1.ApprovalServiceGrpc;
import dev.praxis.aiws.engine.v1.AssessmentServiceGrpc;
import dev.praxis.aiws.engine.v1.ContractServiceGrpc;
import dev.praxis.aiws.engine.v1.EventServiceGrpc;
import dev.praxis.aiws.engine.v1.HandoffServiceGrpc;
import dev.praxis.aiws.engine.v1.ReconciliationServiceGrpc;
import dev.praxis.aiws.engine.v1.RegistryServiceGrpc;
import dev.praxis.aiws.engine.v1.RunServiceGrpc;
import dev.praxis.aiws.engine.v1.SimulationServiceGrpc;
import dev.praxis.aiws.engine.v1.TaskServiceGrpc;
import dev.praxis.aiws.engine.v1.WaitServiceGrpc;
import io.grpc.CallCredentials;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import java.util.concurrent.TimeUnit;

/**
 * The typed blocking clients of every engine service over one channel, each sending the
 * same bearer token, named as in every Praxis client: {@code registry()}, {@code
 * approvals()}, {@code admin()}, {@code runs()}, {@code tasks()}, {@code events()}, {@code
 * contracts()}, {@code reconciliations()}, {@code waits()}, {@code assessments()}, {@code
 * handoffs()}, {@code simulations()}, {@code testClock()}. Close it to shut the channel down when {@link
 * Praxis#connect} opened it. For asynchronous calls, build {@code *Grpc.newStub(channel())}
 * stubs with {@link #credentials()}.
 */
public final class PraxisClients implements AutoCloseable {
  private final Channel channel;
  private final ManagedChannel owned;
  private final CallCredentials credentials;
  private final RegistryServiceGrpc.RegistryServiceBlockingStub registry;
  private final ApprovalServiceGrpc.ApprovalServiceBlockingStub approvals;
  private final AdminServiceGrpc.AdminServiceBlockingStub admin;
  private final RunServiceGrpc.RunServiceBlockingStub runs;
  private final TaskServiceGrpc.TaskServiceBlockingStub tasks;
  private final EventServiceGrpc.EventServiceBlockingStub events;
  private final ContractServiceGrpc.ContractServiceBlockingStub contracts;
  private final ReconciliationServiceGrpc.ReconciliationServiceBlockingStub reconciliations;
  private final WaitServiceGrpc.WaitServiceBlockingStub waits;
  private final AssessmentServiceGrpc.AssessmentServiceBlockingStub assessments;
  private final HandoffServiceGrpc.HandoffServiceBlockingStub handoffs;
  private final SimulationServiceGrpc.SimulationServiceBlockingStub simulations;
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
    this.approvals = ApprovalServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.admin = AdminServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.runs = RunServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.tasks = TaskServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.events = EventServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.contracts = ContractServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.reconciliations = ReconciliationServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.waits = WaitServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.assessments = AssessmentServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.handoffs = HandoffServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.simulations = SimulationServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.testClock = TestClockServiceGrpc.newBlockingStub(channel).withCallCredentials(credentials);
  }

  /** {@code aiws.engine.v1.RegistryService}. */
  public RegistryServiceGrpc.RegistryServiceBlockingStub registry() {
    return registry;
  }

  /** {@code aiws.engine.v1.ApprovalService}. */
  public ApprovalServiceGrpc.ApprovalServiceBlockingStub approvals() {
    return approvals;
  }

  /** {@code aiws.engine.v1.AdminService}. */
  public AdminServiceGrpc.AdminServiceBlockingStub admin() {
    return admin;
  }

  /** {@code aiws.engine.v1.RunService}. */
  public RunServiceGrpc.RunServiceBlockingStub runs() {
    return runs;
  }

  /** {@code aiws.engine.v1.TaskService}. */
  public TaskServiceGrpc.TaskServiceBlockingStub tasks() {
    return tasks;
  }

  /** {@code aiws.engine.v1.EventService}. */
  public EventServiceGrpc.EventServiceBlockingStub events() {
    return events;
  }

  /** {@code aiws.engine.v1.ContractService}. */
  public ContractServiceGrpc.ContractServiceBlockingStub contracts() {
    return contracts;
  }

  /** {@code aiws.engine.v1.ReconciliationService}. */
  public ReconciliationServiceGrpc.ReconciliationServiceBlockingStub reconciliations() {
    return reconciliations;
  }

  /** {@code aiws.engine.v1.WaitService}. */
  public WaitServiceGrpc.WaitServiceBlockingStub waits() {
    return waits;
  }

  /** {@code aiws.engine.v1.AssessmentService}. */
  public AssessmentServiceGrpc.AssessmentServiceBlockingStub assessments() {
    return assessments;
  }

  /** {@code aiws.engine.v1.HandoffService}. */
  public HandoffServiceGrpc.HandoffServiceBlockingStub handoffs() {
    return handoffs;
  }

  /** {@code aiws.engine.v1.SimulationService}: dry runs by the server's pure core. */
  public SimulationServiceGrpc.SimulationServiceBlockingStub simulations() {
    return simulations;
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
