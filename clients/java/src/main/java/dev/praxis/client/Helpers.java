package dev.praxis.client;

import dev.praxis.aiws.engine.v1.CreateApprovalRequest;
import dev.praxis.aiws.engine.v1.Epochs;
import dev.praxis.aiws.engine.v1.ExecuteRequest;
import dev.praxis.aiws.engine.v1.ExecuteResponse;
import dev.praxis.aiws.engine.v1.GetEpochsRequest;
import dev.praxis.aiws.engine.v1.RegistryCommand;
import dev.praxis.aiws.engine.v1.ReviewRequest;
import dev.praxis.aiws.engine.v1.ReviewResponse;
import dev.praxis.aiws.engine.v1.Run;
import dev.praxis.aiws.engine.v1.RunState;
import dev.praxis.aiws.engine.v1.StartRunRequest;
import dev.praxis.aiws.engine.v1.WatchRunRequest;
import dev.praxis.aiws.engine.v1.WatchRunResponse;
import dev.praxis.aiws.engine.v1.WorkflowRef;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Run and registry helpers, with the same names in every Praxis client (docs/workers.md
 * section 12): {@link #runAndWait}, {@link #resultOf}, {@link #reviewApproveExecute}; typed JSON
 * is {@link Json}.
 */
public final class Helpers {
  private Helpers() {}

  /** A run that did not complete: its state, {@code result_reason} and {@code result_error}. */
  public static final class RunFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String runId;
    private final RunState state;
    private final String resultReason;
    private final String resultError;

    RunFailedException(Run run) {
      super("run " + run.getRunId() + " " + run.getState() + ": " + run.getResultReason() + " "
          + run.getResultError());
      this.runId = run.getRunId();
      this.state = run.getState();
      this.resultReason = run.getResultReason();
      this.resultError = run.getResultError();
    }

    /** The run. */
    public String runId() {
      return runId;
    }

    /** FAILED, CANCELLED, or a state that is not final yet. */
    public RunState state() {
      return state;
    }

    /** The {@code ErrorReason} name of the failure, e.g. {@code BUDGET_EXCEEDED}. */
    public String resultReason() {
      return resultReason;
    }

    /** What went wrong, for people. */
    public String resultError() {
      return resultError;
    }
  }

  /** Whether a run state is final (COMPLETED, FAILED or CANCELLED). */
  public static boolean isTerminal(RunState state) {
    return state == RunState.RUN_STATE_COMPLETED || state == RunState.RUN_STATE_FAILED
        || state == RunState.RUN_STATE_CANCELLED;
  }

  private static boolean isTransient(StatusRuntimeException e) {
    Status.Code code = e.getStatus().getCode();
    return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
        || code == Status.Code.RESOURCE_EXHAUSTED;
  }

  private static String randomId(String prefix) {
    byte[] bytes = new byte[8];
    ThreadLocalRandom.current().nextBytes(bytes);
    return prefix + "-" + HexFormat.of().formatHex(bytes);
  }

  /**
   * Starts a run ({@code StartRun}; a {@code request_id} is generated when empty) and waits with
   * {@code WatchRun} up to {@code timeout} until it is COMPLETED, FAILED or CANCELLED, watching
   * again after transient errors. Returns the final run whatever its state.
   *
   * @throws StatusRuntimeException on a non-transient error, or {@code DEADLINE_EXCEEDED} when
   *     the run is still going at the timeout
   */
  public static Run runAndWait(PraxisClients clients, StartRunRequest request, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    StartRunRequest req = request.getRequestId().isEmpty()
        ? request.toBuilder().setRequestId(randomId("run")).build() : request;
    Run run = retry(deadline, () -> clients.runs()
        .withDeadlineAfter(left(deadline), TimeUnit.NANOSECONDS).startRun(req).getRun());
    long backoff = 100;
    while (!isTerminal(run.getState())) {
      try {
        Iterator<WatchRunResponse> stream = clients.runs()
            .withDeadlineAfter(left(deadline), TimeUnit.NANOSECONDS)
            .watchRun(WatchRunRequest.newBuilder().setRunId(run.getRunId()).build());
        while (stream.hasNext()) {
          WatchRunResponse next = stream.next();
          if (next.hasRun()) {
            run = next.getRun();
            if (isTerminal(run.getState())) {
              break;
            }
          }
        }
        backoff = 100;
      } catch (StatusRuntimeException e) {
        if (!isTransient(e) || System.nanoTime() + backoff * 1_000_000 > deadline) {
          throw e;
        }
        Thread.sleep(backoff);
        backoff = Math.min(backoff * 2, 5_000);
      }
    }
    return run;
  }

  private static long left(long deadline) {
    return Math.max(1, deadline - System.nanoTime());
  }

  private static <T> T retry(long deadline, Supplier<T> call) throws InterruptedException {
    long backoff = 100;
    while (true) {
      try {
        return call.get();
      } catch (StatusRuntimeException e) {
        if (!isTransient(e) || System.nanoTime() + backoff * 1_000_000 > deadline) {
          throw e;
        }
        Thread.sleep(backoff);
        backoff = Math.min(backoff * 2, 5_000);
      }
    }
  }

  /**
   * The result of a COMPLETED run as plain Java values (maps, lists, strings, exact numbers).
   *
   * @throws RunFailedException when the run did not complete
   */
  public static Object resultOf(Run run) {
    return resultOf(run, Object.class);
  }

  /**
   * The result of a COMPLETED run decoded into {@code type}.
   *
   * @throws RunFailedException when the run did not complete
   */
  public static <T> T resultOf(Run run, Type type) {
    if (run.getState() != RunState.RUN_STATE_COMPLETED) {
      throw new RunFailedException(run);
    }
    return Json.fromJson(run.getResultJson(), type);
  }

  /**
   * The human-tool flow for a registry command that needs an approval (REGISTER, ACTIVATE,
   * REJECT): {@code Review} the command (without its {@code approval_id}) under {@code epochs}
   * (read with {@code GetEpochs} when null), {@code CreateApproval} of the material digest as
   * {@code approver} (clients holding the human's token), valid for {@code approvalTtl}, then
   * {@code Execute} the command with that approval id (the command's own, or generated) through
   * {@code clients}, one request id reused on every retry of a transient error.
   *
   * @throws IllegalArgumentException for a command that takes no approval (PROPOSE)
   * @throws StatusRuntimeException when a call fails; {@link PraxisError#from} reads it
   */
  public static ExecuteResponse reviewApproveExecute(
      PraxisClients clients, PraxisClients approver, RegistryCommand command, Epochs epochs,
      Duration approvalTtl) throws InterruptedException {
    String approvalId;
    WorkflowRef ref;
    RegistryCommand unapproved;
    switch (command.getCommandCase()) {
      case REGISTER -> {
        approvalId = command.getRegister().getApprovalId();
        ref = command.getRegister().getRef();
        unapproved = command.toBuilder().setRegister(command.getRegister().toBuilder().clearApprovalId()).build();
      }
      case ACTIVATE -> {
        approvalId = command.getActivate().getApprovalId();
        ref = command.getActivate().getRef();
        unapproved = command.toBuilder().setActivate(command.getActivate().toBuilder().clearApprovalId()).build();
      }
      case REJECT -> {
        approvalId = command.getReject().getApprovalId();
        ref = command.getReject().getRef();
        unapproved = command.toBuilder().setReject(command.getReject().toBuilder().clearApprovalId()).build();
      }
      default -> throw new IllegalArgumentException(
          "only REGISTER, ACTIVATE and REJECT take an approval; Execute other commands directly");
    }
    String id = approvalId.isEmpty() ? randomId("approval") : approvalId;
    RegistryCommand approved = switch (command.getCommandCase()) {
      case REGISTER -> command.toBuilder().setRegister(command.getRegister().toBuilder().setApprovalId(id)).build();
      case ACTIVATE -> command.toBuilder().setActivate(command.getActivate().toBuilder().setApprovalId(id)).build();
      default -> command.toBuilder().setReject(command.getReject().toBuilder().setApprovalId(id)).build();
    };
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    Epochs at = epochs != null ? epochs : retry(deadline, () -> clients.registry()
        .getEpochs(GetEpochsRequest.newBuilder().setWorkOrderId(ref.getWorkOrderId()).build()).getEpochs());
    ReviewResponse review = retry(deadline, () -> clients.registry()
        .review(ReviewRequest.newBuilder().setEpochs(at).setCommand(unapproved).build()));
    long expires = EpochMillis.fromInstant(Instant.now().plus(approvalTtl));
    retry(deadline, () -> approver.approvals().createApproval(CreateApprovalRequest.newBuilder()
        .setApprovalId(id).setMaterialDigest(review.getMaterialDigest()).setExpiresAtMs(expires)
        .setWorkOrderId(ref.getWorkOrderId()).build()));
    ExecuteRequest execute = ExecuteRequest.newBuilder().setEpochs(at)
        .setRequestId(randomId("execute")).setCommand(approved).build();
    return retry(deadline, () -> clients.registry().execute(execute));
  }
}
