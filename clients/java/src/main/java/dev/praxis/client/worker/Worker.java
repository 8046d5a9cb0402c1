package dev.praxis.client.worker;

import dev.praxis.aiws.engine.v1.ClaimTasksRequest;
import dev.praxis.aiws.engine.v1.ClaimTasksResponse;
import dev.praxis.aiws.engine.v1.CompleteTaskRequest;
import dev.praxis.aiws.engine.v1.EffectOutcome;
import dev.praxis.aiws.engine.v1.FailTaskRequest;
import dev.praxis.aiws.engine.v1.HeartbeatRequest;
import dev.praxis.aiws.engine.v1.HeartbeatResponse;
import dev.praxis.aiws.engine.v1.ProgressReport;
import dev.praxis.aiws.engine.v1.SettleTasksRequest;
import dev.praxis.aiws.engine.v1.SettleTasksResponse;
import dev.praxis.aiws.engine.v1.Settlement;
import dev.praxis.aiws.engine.v1.SettlementError;
import dev.praxis.aiws.engine.v1.SettlementResult;
import dev.praxis.aiws.engine.v1.Task;
import dev.praxis.aiws.engine.v1.TaskServiceGrpc;
import dev.praxis.client.Decimals;
import dev.praxis.client.Json;
import dev.praxis.client.PraxisClients;
import dev.praxis.client.PraxisError;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The worker runtime (docs/workers.md): you write the handler, the worker claims, heartbeats
 * and settles.
 *
 * <pre>{@code
 * try (PraxisClients clients = Praxis.connect("127.0.0.1:50051", token)) {
 *   Worker worker = Worker.builder(clients, "echo")
 *       .concurrency(4)
 *       .handler(ctx -> Map.of("echo", ctx.input()))
 *       .build();
 *   worker.run();   // until SIGTERM / Ctrl-C (a shutdown hook stops it gracefully)
 * }
 * }</pre>
 *
 * <p>It claims with long polls (interrupted at once by {@link #stop}) and never runs more than
 * {@code concurrency} handlers; heartbeats each attempt about every lease/3 and cancels the
 * attempt's {@link TaskContext} when a heartbeat answers {@code cancelled} or the lease is gone;
 * settles in batches with {@code TaskService.SettleTasks} (or {@code CompleteTask} / {@code
 * FailTask} when the server answers {@code UNIMPLEMENTED}); turns a result that is not JSON into
 * a non-retryable failure with a clear message; retries transient transport errors with capped
 * exponential backoff (so it carries on across a server restart); drains on stop; and fails
 * {@link #start()} loudly on a bad token. Logs go to {@code java.util.logging} logger {@code
 * praxis.worker} (bridged to SLF4J by {@code jul-to-slf4j} if you use it).
 */
public final class Worker implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger("praxis.worker");
  /** Attempts settled in one {@code SettleTasks} call at most (the server's limit). */
  public static final int MAX_SETTLE_BATCH = 100;
  /** Error texts are cut to this many characters. */
  public static final int MAX_ERROR_CHARS = 4_000;

  private static final Set<String> GONE =
      Set.of("LEASE_EXPIRED", "ATTEMPT_SUPERSEDED", "ATTEMPT_NOT_FOUND", "RUN_TERMINAL",
          "WORKER_MISMATCH", "ATTEMPT_ALREADY_SETTLED");
  private static final Set<Status.Code> FATAL =
      Set.of(Status.Code.UNAUTHENTICATED, Status.Code.PERMISSION_DENIED,
          Status.Code.INVALID_ARGUMENT, Status.Code.UNIMPLEMENTED);
  private static final long CALL_TIMEOUT_MS = 15_000;
  /** A progress report waits at most this long after the attempt's previous heartbeat. */
  static final long PROGRESS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long BACKOFF_START_MS = 100;
  private static final long BACKOFF_MAX_MS = 5_000;

  private final TaskServiceGrpc.TaskServiceBlockingStub blocking;
  private final TaskServiceGrpc.TaskServiceStub async;
  private final List<String> models;
  private final String workerId;
  private final int concurrency;
  private final long leaseMs;
  private final long pollMs;
  private final Duration drainTimeout;
  private final Handler handler;
  private final AsyncHandler asyncHandler;

  private final Semaphore slots;
  private final ExecutorService handlers;
  private final ScheduledExecutorService beats;
  private final ExecutorService settlers;
  private final BlockingQueue<Pending> settleQueue = new LinkedBlockingQueue<>();
  private final Map<String, Attempt> inHand = new ConcurrentHashMap<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicBoolean settleUnsupported;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Object drainLock = new Object();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong uncertain = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private volatile WorkerException fatal;
  private volatile Context.CancellableContext claimCall;
  private volatile Thread claimThread;
  private volatile Thread settleThread;

  private Worker(Builder b) {
    this.blocking = TaskServiceGrpc.newBlockingStub(b.clients.channel()).withCallCredentials(b.clients.credentials());
    this.async = TaskServiceGrpc.newStub(b.clients.channel()).withCallCredentials(b.clients.credentials());
    this.models = List.copyOf(b.models);
    this.workerId = b.workerId;
    this.concurrency = b.concurrency;
    this.leaseMs = b.leaseMs;
    this.pollMs = b.pollMs;
    this.drainTimeout = b.drainTimeout;
    this.handler = b.handler;
    this.asyncHandler = b.asyncHandler;
    this.settleUnsupported = new AtomicBoolean(!b.batchSettle);
    this.slots = new Semaphore(concurrency);
    this.handlers = Executors.newFixedThreadPool(concurrency, threads("praxis-worker-handler"));
    this.beats = Executors.newSingleThreadScheduledExecutor(threads("praxis-worker-heartbeat"));
    this.settlers = Executors.newFixedThreadPool(concurrency, threads("praxis-worker-settle-call"));
  }

  /**
   * A builder for a worker over {@code clients} serving {@code models} (at least one).
   *
   * @param clients from {@link dev.praxis.client.Praxis#connect}; the worker uses its channel
   *     and credentials for {@code TaskService}
   * @param models the models claimed
   */
  public static Builder builder(PraxisClients clients, String... models) {
    return new Builder(clients, List.of(models));
  }

  /** Options and handler of a {@link Worker} (docs/workers.md section 1). */
  public static final class Builder {
    private final PraxisClients clients;
    private final List<String> models;
    private String workerId = "worker-" + HexFormat.of().formatHex(randomBytes(6));
    private int concurrency = 1;
    private long leaseMs = 30_000;
    private long pollMs = 10_000;
    private boolean batchSettle = true;
    private Duration drainTimeout = Duration.ofSeconds(30);
    private Handler handler;
    private AsyncHandler asyncHandler;

    private Builder(PraxisClients clients, List<String> models) {
      this.clients = Objects.requireNonNull(clients, "clients");
      this.models = models;
    }

    /** The worker id recorded on each attempt (default {@code worker-<12 hex>}). */
    public Builder workerId(String id) {
      this.workerId = Objects.requireNonNull(id);
      return this;
    }

    /** Handlers running at once at most, 1 to 100 (default 1). */
    public Builder concurrency(int n) {
      this.concurrency = n;
      return this;
    }

    /** The lease asked at claim and heartbeat, 1 000 to 3 600 000 ms (default 30 000). */
    public Builder leaseMs(long ms) {
      this.leaseMs = ms;
      return this;
    }

    /** The long-poll wait of a claim, 0 to 60 000 ms (default 10 000). */
    public Builder pollMs(long ms) {
      this.pollMs = ms;
      return this;
    }

    /** Settle with {@code SettleTasks} in batches (default true). */
    public Builder batchSettle(boolean on) {
      this.batchSettle = on;
      return this;
    }

    /** How long {@link Worker#stop()} waits for running handlers (default 30 s). */
    public Builder drainTimeout(Duration timeout) {
      this.drainTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /** A synchronous handler (one of the worker's threads per running attempt). */
    public Builder handler(Handler handler) {
      this.handler = Objects.requireNonNull(handler);
      this.asyncHandler = null;
      return this;
    }

    /** An asynchronous handler returning a {@link CompletableFuture}. */
    public Builder asyncHandler(AsyncHandler handler) {
      this.asyncHandler = Objects.requireNonNull(handler);
      this.handler = null;
      return this;
    }

    /**
     * The worker; nothing is sent yet.
     *
     * @throws IllegalArgumentException when an option is out of range or no handler was given
     */
    public Worker build() {
      if (models.isEmpty() || models.stream().anyMatch(m -> m == null || m.isEmpty())) {
        throw new IllegalArgumentException("models: at least one, none empty");
      }
      if (workerId.isEmpty()) {
        throw new IllegalArgumentException("workerId: not empty");
      }
      if (concurrency < 1 || concurrency > 100) {
        throw new IllegalArgumentException("concurrency: 1 to 100");
      }
      if (leaseMs < 1_000 || leaseMs > 3_600_000) {
        throw new IllegalArgumentException("leaseMs: 1000 to 3600000");
      }
      if (pollMs < 0 || pollMs > 60_000) {
        throw new IllegalArgumentException("pollMs: 0 to 60000");
      }
      if (handler == null && asyncHandler == null) {
        throw new IllegalArgumentException("a handler or an asyncHandler is required");
      }
      return new Worker(this);
    }
  }

  /** A snapshot of the counters (docs/workers.md section 9). */
  public record Counters(long completed, long failed, long uncertain, long dropped, long inFlight) {}

  /** The counters right now. */
  public Counters counters() {
    return new Counters(completed.get(), failed.get(), uncertain.get(), dropped.get(), inHand.size());
  }

  /** The worker id. */
  public String workerId() {
    return workerId;
  }

  // --- lifecycle -------------------------------------------------------------------------

  /**
   * Sends the first claim ({@code wait_ms = 0}) and returns once it was answered, then claims
   * in the background. A transient failure of that claim does not fail the start.
   *
   * @throws WorkerException when the claim is refused with {@code UNAUTHENTICATED}, {@code
   *     PERMISSION_DENIED}, {@code INVALID_ARGUMENT} or {@code UNIMPLEMENTED}; nothing keeps
   *     running then
   * @throws IllegalStateException when started twice
   */
  public void start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("worker already started");
    }
    List<Task> first = List.of();
    int permits = takePermitsNow();
    try {
      first = blocking.withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
          .claimTasks(claimRequest(permits, 0)).getTasksList();
    } catch (StatusRuntimeException e) {
      PraxisError error = PraxisError.from(e);
      if (FATAL.contains(error.code())) {
        slots.release(permits);
        shutdownExecutors(true);
        stopped.countDown();
        WorkerException ex = fatalError(error, e);
        LOG.log(Level.SEVERE, ex.getMessage());
        throw ex;
      }
      LOG.warning("first claim failed (" + error + "); claiming goes on with backoff");
    }
    LOG.info("worker started: id " + workerId + ", models " + models + ", concurrency " + concurrency);
    dispatch(first, permits);
    settleThread = threads("praxis-worker-settle").newThread(this::settleLoop);
    settleThread.start();
    claimThread = threads("praxis-worker-claim").newThread(this::claimLoop);
    claimThread.start();
  }

  /** Starts, then blocks until the worker stopped ({@link #stop} or a fatal claim error). */
  public void run() throws InterruptedException {
    start();
    Thread hook = new Thread(this::stop, "praxis-worker-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      awaitTermination();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting: the hook is running
      }
    }
  }

  /**
   * Blocks until the worker stopped.
   *
   * @throws WorkerException when it stopped on a fatal claim error
   */
  public void awaitTermination() throws InterruptedException {
    stopped.await();
    if (fatal != null) {
      throw fatal;
    }
  }

  /** {@link #stop(Duration)} with the drain timeout. */
  public void stop() {
    stop(drainTimeout);
  }

  /** {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  /**
   * Stops claiming at once, waits up to {@code timeout} for the running handlers (heartbeating
   * them meanwhile), settles them, and returns. Handlers still running at the timeout are
   * cancelled and their attempts left to expire. Idempotent; callable from any thread.
   */
  public void stop(Duration timeout) {
    if (!started.get()) {
      return;
    }
    if (!stopping.compareAndSet(false, true)) {
      try {
        stopped.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    Context.CancellableContext call = claimCall;
    if (call != null) {
      call.cancel(null);
    }
    Thread claimer = claimThread;
    try {
      if (claimer != null && claimer != Thread.currentThread()) {
        claimer.interrupt();
        claimer.join();
      }
      LOG.info("stopped claiming; draining " + inHand.size() + " attempt(s)");
      synchronized (drainLock) {
        while (!inHand.isEmpty()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            break;
          }
          drainLock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
      }
      boolean timedOut = !inHand.isEmpty();
      if (timedOut) {
        LOG.warning("drain timeout: cancelling " + inHand.size()
            + " handler(s); their attempts are left to expire");
        inHand.values().forEach(a -> a.ctx.cancel());
      }
      settleQueue.add(Pending.END);
      Thread settler = settleThread;
      if (settler != null) {
        settler.join(timedOut ? 1_000 : 0);
        settler.interrupt();
      }
      shutdownExecutors(timedOut);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      Counters c = counters();
      LOG.info("worker stopped: completed " + c.completed() + ", failed " + c.failed()
          + ", uncertain " + c.uncertain() + ", dropped " + c.dropped());
      stopped.countDown();
    }
  }

  private void shutdownExecutors(boolean now) {
    if (now) {
      handlers.shutdownNow();
    } else {
      handlers.shutdown();
    }
    beats.shutdownNow();
    settlers.shutdownNow();
  }

  private WorkerException fatalError(PraxisError error, Throwable cause) {
    return new WorkerException("the engine refused the worker's claim: " + error.code() + " "
        + error.reason().orElse("(no reason)") + ": " + error.message(), error, cause);
  }

  // --- claiming --------------------------------------------------------------------------

  private ClaimTasksRequest claimRequest(int max, long waitMs) {
    return ClaimTasksRequest.newBuilder().setWorkerId(workerId).addAllModels(models)
        .setMaxTasks(max).setLeaseMs(leaseMs).setWaitMs(waitMs).build();
  }

  private int takePermitsNow() {
    int n = slots.drainPermits();
    return n;
  }

  private void claimLoop() {
    long backoff = BACKOFF_START_MS;
    boolean trouble = false;
    while (!stopping.get()) {
      int permits;
      try {
        slots.acquire();
        permits = 1 + slots.drainPermits();
      } catch (InterruptedException e) {
        break;
      }
      Context.CancellableContext call = Context.current().withCancellation();
      claimCall = call;
      ClaimTasksResponse response;
      try {
        if (stopping.get()) {
          slots.release(permits);
          break;
        }
        LOG.fine("claim " + permits);
        response = call.call(() -> blocking
            .withDeadlineAfter(pollMs + CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
            .claimTasks(claimRequest(permits, pollMs)));
      } catch (Exception e) {
        slots.release(permits);
        if (stopping.get()) {
          break;
        }
        PraxisError error = PraxisError.from(e);
        if (FATAL.contains(error.code())) {
          fatal = fatalError(error, e);
          LOG.log(Level.SEVERE, fatal.getMessage() + "; worker stopping");
          Thread stopper = new Thread(this::stop, "praxis-worker-stop");
          stopper.setDaemon(true);
          stopper.start();
          break;
        }
        if (!trouble) {
          LOG.warning("claim failed (" + error + "); retrying with backoff");
          trouble = true;
        }
        try {
          Thread.sleep(ThreadLocalRandom.current().nextLong(backoff + 1));
        } catch (InterruptedException ie) {
          break;
        }
        backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
        continue;
      } finally {
        call.cancel(null);
      }
      if (trouble) {
        LOG.info("reconnected");
        trouble = false;
      }
      backoff = BACKOFF_START_MS;
      dispatch(response.getTasksList(), permits);
    }
  }

  /** Runs each task on one of {@code permits} slots and releases the rest. */
  private void dispatch(List<Task> tasks, int permits) {
    int used = 0;
    for (Task task : tasks) {
      if (used == permits) {
        LOG.severe("the engine sent more tasks than asked for; " + task.getAttemptId() + " left to expire");
        continue;
      }
      used++;
      Attempt attempt = new Attempt(task);
      inHand.put(task.getAttemptId(), attempt);
      long every = Math.max(200, leaseMs / 3);
      attempt.beat = beats.scheduleWithFixedDelay(() -> heartbeat(attempt), every, every, TimeUnit.MILLISECONDS);
      attempt.ctx.onProgress(() -> progressDue(attempt));
      handlers.execute(() -> runHandler(attempt));
    }
    slots.release(permits - used);
  }

  // --- handling --------------------------------------------------------------------------

  private static final class Attempt {
    final Task task;
    final TaskContext ctx;
    final AtomicBoolean beating = new AtomicBoolean();
    final AtomicBoolean progressQueued = new AtomicBoolean();
    volatile long lastBeatNanos = System.nanoTime() - PROGRESS_INTERVAL_NANOS;
    volatile ScheduledFuture<?> beat;

    Attempt(Task task) {
      this.task = task;
      this.ctx = new TaskContext(task);
    }
  }

  private void runHandler(Attempt attempt) {
    TaskContext ctx = attempt.ctx;
    LOG.fine("attempt " + ctx.attemptId() + " of " + ctx.nodeUid() + " started");
    ctx.bind(Thread.currentThread());
    Object value = null;
    Throwable error = null;
    CompletableFuture<?> future = null;
    // With the OpenTelemetry API present, the handler runs on this thread with the
    // attempt's span as its current remote parent (AttemptTrace).
    try (AttemptTrace.Entered trace = AttemptTrace.enter(ctx.traceparent())) {
      if (asyncHandler != null) {
        future = asyncHandler.handle(ctx);
        if (future == null) {
          throw new NullPointerException("the async handler returned no future");
        }
      } else {
        value = handler.handle(ctx);
      }
    } catch (Throwable t) {
      error = t;
    } finally {
      ctx.unbind();
    }
    if (future != null) {
      future.whenComplete((v, t) -> finish(attempt, v, t));
    } else {
      finish(attempt, value, error);
    }
  }

  private void finish(Attempt attempt, Object value, Throwable error) {
    Settlement settlement;
    try {
      settlement = toSettlement(attempt, value, error);
    } catch (RuntimeException bug) {
      settlement = fail(attempt.task.getAttemptId(), "settling failed: " + bug,
          false, EffectOutcome.EFFECT_OUTCOME_NOT_APPLIED, "");
    }
    settleQueue.add(new Pending(settlement, attempt));
  }

  private Settlement toSettlement(Attempt attempt, Object value, Throwable error) {
    String attemptId = attempt.task.getAttemptId();
    Outcome outcome;
    if (error != null) {
      Throwable cause = error;
      while ((cause instanceof CompletionException || cause instanceof ExecutionException)
          && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof Outcome.OutcomeException oe) {
        outcome = oe.outcome();
      } else {
        String text;
        if (cause instanceof InterruptedException && attempt.ctx.isCancelled()) {
          text = "cancelled";
        } else {
          LOG.log(Level.WARNING, "handler of " + attemptId + " failed", cause);
          text = cause.getClass().getName() + ": " + cause.getMessage();
        }
        // A crash (or an interrupt mid-work) says nothing of the effect: assumed not
        // applied only where the node declares a repeat safe (docs/workers.md, Outcomes).
        outcome = attempt.ctx.isRetrySafe() ? Outcome.notApplied(text, true) : Outcome.uncertain(text);
      }
    } else if (value instanceof Outcome o) {
      outcome = o;
    } else {
      outcome = Outcome.applied(value);
    }
    String cost = outcome.cost();
    if (!cost.isEmpty() && (!Decimals.isCanonical(cost) || cost.startsWith("-"))) {
      String why = cost.startsWith("-") ? "negative" : "not a canonical decimal";
      LOG.severe("attempt " + attemptId + ": invalid cost \"" + cost + "\"");
      return fail(attemptId, "invalid cost \"" + cost + "\": " + why, false, outcome.effect(), "");
    }
    if (!outcome.isComplete()) {
      return fail(attemptId, outcome.error(), outcome.retryable(), outcome.effect(), cost);
    }
    String json;
    try {
      json = Json.toJson(outcome.result());
    } catch (Json.NotJsonException e) {
      String text = "result is not JSON-serialisable: " + e.getMessage();
      LOG.severe("attempt " + attemptId + ": " + text);
      return fail(attemptId, text, false, outcome.effect(), cost);
    }
    return Settlement.newBuilder().setComplete(CompleteTaskRequest.newBuilder()
        .setAttemptId(attemptId).setWorkerId(workerId).setResultJson(json)
        .setEffect(outcome.effect()).setCostMicrocredits(cost)).build();
  }

  private Settlement fail(String attemptId, String error, boolean retryable, EffectOutcome effect, String cost) {
    String text = error == null ? "" : error;
    if (text.codePointCount(0, text.length()) > MAX_ERROR_CHARS) {
      text = text.substring(0, text.offsetByCodePoints(0, MAX_ERROR_CHARS));
    }
    return Settlement.newBuilder().setFail(FailTaskRequest.newBuilder()
        .setAttemptId(attemptId).setWorkerId(workerId).setError(text).setRetryable(retryable)
        .setEffect(effect).setCostMicrocredits(cost)).build();
  }

  // --- heartbeats ------------------------------------------------------------------------

  /**
   * Brings the attempt's next heartbeat forward for a progress report: at once, or {@link
   * #PROGRESS_INTERVAL_NANOS} after its previous one (the rate limit); one is queued at most.
   */
  private void progressDue(Attempt attempt) {
    if (attempt.ctx.isCancelled() || !inHand.containsKey(attempt.task.getAttemptId())
        || !attempt.progressQueued.compareAndSet(false, true)) {
      return;
    }
    long wait = Math.max(0, attempt.lastBeatNanos + PROGRESS_INTERVAL_NANOS - System.nanoTime());
    try {
      beats.schedule(() -> progressBeat(attempt), wait, TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException stopped) {
      attempt.progressQueued.set(false);
    }
  }

  private void progressBeat(Attempt attempt) {
    attempt.progressQueued.set(false);
    if (!heartbeat(attempt) && attempt.ctx.hasProgress()) {
      progressDue(attempt); // a heartbeat was in flight: the report goes with the next one
    }
  }

  /** Sends one heartbeat unless one is in flight (false then), with any report waiting. */
  private boolean heartbeat(Attempt attempt) {
    if (attempt.ctx.isCancelled() || !attempt.beating.compareAndSet(false, true)) {
      return false;
    }
    String attemptId = attempt.task.getAttemptId();
    LOG.fine("heartbeat " + attemptId);
    attempt.lastBeatNanos = System.nanoTime();
    ProgressReport report = attempt.ctx.takeProgress();
    HeartbeatRequest.Builder builder = HeartbeatRequest.newBuilder().setAttemptId(attemptId)
        .setWorkerId(workerId).setLeaseMs(leaseMs);
    if (report != null) {
      builder.setProgress(report);
    }
    HeartbeatRequest request = builder.build();
    async.withDeadlineAfter(Math.max(2_000, leaseMs / 3), TimeUnit.MILLISECONDS)
        .heartbeat(request, new StreamObserver<HeartbeatResponse>() {
          @Override
          public void onNext(HeartbeatResponse response) {
            if (response.getCancelled()) {
              LOG.info("attempt " + attemptId + " cancelled by the engine");
              cancel(attempt);
            }
          }

          @Override
          public void onError(Throwable t) {
            attempt.beating.set(false);
            PraxisError error = PraxisError.from(t);
            if (error.reason().map(GONE::contains).orElse(false)) {
              LOG.info("attempt " + attemptId + ": lease gone (" + error + "); cancelling the handler");
              cancel(attempt);
            } else if (report != null && error.code() == Status.Code.INVALID_ARGUMENT) {
              LOG.warning("progress of " + attemptId + " refused (" + error + "); heartbeating without it");
              beats.execute(() -> heartbeat(attempt)); // the lease still needs extending
            } else {
              LOG.warning("heartbeat of " + attemptId + " failed (" + error + "); retrying at the next interval");
              if (isTransient(error)) {
                attempt.ctx.restoreProgress(report); // sent with the next heartbeat
              }
            }
          }

          @Override
          public void onCompleted() {
            attempt.beating.set(false);
          }
        });
    return true;
  }

  private static void cancel(Attempt attempt) {
    attempt.ctx.cancel();
    ScheduledFuture<?> beat = attempt.beat;
    if (beat != null) {
      beat.cancel(false);
    }
  }

  // --- settling --------------------------------------------------------------------------

  private record Pending(Settlement settlement, Attempt attempt) {
    static final Pending END = new Pending(null, null);
  }

  private void settleLoop() {
    List<Pending> batch = new ArrayList<>();
    boolean end = false;
    while (!end) {
      batch.clear();
      try {
        batch.add(settleQueue.take());
      } catch (InterruptedException e) {
        return;
      }
      settleQueue.drainTo(batch, MAX_SETTLE_BATCH - 1);
      if (batch.remove(Pending.END)) {
        end = true;
        settleQueue.drainTo(batch, MAX_SETTLE_BATCH - batch.size());
      }
      if (batch.isEmpty()) {
        continue;
      }
      List<Settlement> work = new ArrayList<>();
      for (Pending p : batch) {
        work.add(p.settlement());
      }
      // A completion refused with INVALID_ARGUMENT is settled again as a failure, once.
      for (int round = 0; round < 2 && !work.isEmpty(); round++) {
        work = settleBatch(work);
      }
      for (Pending p : batch) {
        ScheduledFuture<?> beat = p.attempt().beat;
        if (beat != null) {
          beat.cancel(false);
        }
        inHand.remove(p.attempt().task.getAttemptId());
        slots.release();
      }
      synchronized (drainLock) {
        drainLock.notifyAll();
      }
    }
  }

  /** Settles; returns the failures to send for completions refused with INVALID_ARGUMENT. */
  private List<Settlement> settleBatch(List<Settlement> work) {
    List<SettlementResult> results = null;
    if (!settleUnsupported.get()) {
      try {
        SettleTasksRequest request = SettleTasksRequest.newBuilder().addAllSettlements(work).build();
        LOG.fine("settle " + work.size());
        SettleTasksResponse response = withRetry(() -> blocking
            .withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS).settleTasks(request));
        if (response.getResultsCount() != work.size()) {
          throw Status.INTERNAL.withDescription("SettleTasks answered a different number of results")
              .asRuntimeException();
        }
        results = response.getResultsList();
      } catch (StatusRuntimeException e) {
        PraxisError error = PraxisError.from(e);
        if (error.code() == Status.Code.UNIMPLEMENTED) {
          LOG.info("the server has no SettleTasks; settling with CompleteTask / FailTask");
          settleUnsupported.set(true);
        } else {
          results = new ArrayList<>();
          for (Settlement s : work) {
            results.add(errorResult(s, error));
          }
        }
      }
    }
    if (results == null) {
      // One call per attempt, up to `concurrency` at once.
      List<CompletableFuture<SettlementResult>> calls = new ArrayList<>();
      for (Settlement s : work) {
        calls.add(CompletableFuture.supplyAsync(() -> settleOne(s), settlers));
      }
      results = new ArrayList<>();
      for (int i = 0; i < calls.size(); i++) {
        try {
          results.add(calls.get(i).join());
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
          results.add(errorResult(work.get(i), PraxisError.from(e)));
        }
      }
    }
    List<Settlement> followups = new ArrayList<>();
    for (int i = 0; i < work.size(); i++) {
      Settlement f = judge(work.get(i), results.get(i));
      if (f != null) {
        followups.add(f);
      }
    }
    return followups;
  }

  private static String attemptOf(Settlement s) {
    return s.hasComplete() ? s.getComplete().getAttemptId() : s.getFail().getAttemptId();
  }

  private static SettlementResult errorResult(Settlement s, PraxisError error) {
    return SettlementResult.newBuilder().setAttemptId(attemptOf(s))
        .setError(SettlementError.newBuilder().setCode(error.code().value())
            .setReason(error.reason().orElse("")).setMessage(error.message()))
        .build();
  }

  private SettlementResult settleOne(Settlement s) {
    try {
      if (s.hasComplete()) {
        var r = withRetry(() -> blocking.withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
            .completeTask(s.getComplete()));
        return SettlementResult.newBuilder().setAttemptId(attemptOf(s)).setComplete(r).build();
      }
      var r = withRetry(() -> blocking.withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
          .failTask(s.getFail()));
      return SettlementResult.newBuilder().setAttemptId(attemptOf(s)).setFail(r).build();
    } catch (StatusRuntimeException e) {
      return errorResult(s, PraxisError.from(e));
    }
  }

  private static boolean isTransient(PraxisError error) {
    return switch (error.code()) {
      case UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED -> true;
      case ABORTED -> error.reason().map("VERSION_CONFLICT"::equals).orElse(false);
      default -> false;
    };
  }

  private interface Call<T> {
    T call();
  }

  /** Retries transient errors with backoff; bounded by the drain timeout once stopping. */
  private <T> T withRetry(Call<T> call) {
    long backoff = BACKOFF_START_MS;
    long stoppingSince = 0;
    boolean warned = false;
    while (true) {
      try {
        return call.call();
      } catch (StatusRuntimeException e) {
        PraxisError error = PraxisError.from(e);
        if (!isTransient(error)) {
          throw e;
        }
        if (stopping.get()) {
          if (stoppingSince == 0) {
            stoppingSince = System.nanoTime();
          } else if (System.nanoTime() - stoppingSince > drainTimeout.toNanos()) {
            throw e;
          }
        }
        if (!warned) {
          LOG.warning("settle failed (" + error + "); retrying with backoff");
          warned = true;
        }
        try {
          Thread.sleep(ThreadLocalRandom.current().nextLong(backoff + 1));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
        backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
      }
    }
  }

  /** Counts and logs one answer; a completion refused with INVALID_ARGUMENT becomes a failure. */
  private Settlement judge(Settlement s, SettlementResult result) {
    EffectOutcome effect = s.hasComplete() ? s.getComplete().getEffect() : s.getFail().getEffect();
    String attemptId = attemptOf(s);
    if (!result.hasError()) {
      if (effect == EffectOutcome.EFFECT_OUTCOME_UNCERTAIN) {
        uncertain.incrementAndGet();
      } else if (result.hasComplete()) {
        completed.incrementAndGet();
      } else {
        failed.incrementAndGet();
      }
      return null;
    }
    dropped.incrementAndGet();
    SettlementError error = result.getError();
    Status.Code code = Status.fromCodeValue(error.getCode()).getCode();
    if (GONE.contains(error.getReason())) {
      LOG.info("result of " + attemptId + " dropped: " + error.getReason());
      return null;
    }
    if (s.hasComplete() && code == Status.Code.INVALID_ARGUMENT) {
      LOG.severe("result of " + attemptId + " rejected: " + error.getReason() + ": " + error.getMessage());
      CompleteTaskRequest c = s.getComplete();
      return fail(attemptId, "result rejected: " + error.getReason() + ": " + error.getMessage(),
          "RESULT_CONTRACT_VIOLATION".equals(error.getReason()), c.getEffect(), c.getCostMicrocredits());
    }
    LOG.severe("settlement of " + attemptId + " refused: " + code + " " + error.getReason() + ": "
        + error.getMessage());
    return null;
  }

  // --- small things ----------------------------------------------------------------------

  private static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    new java.security.SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private static ThreadFactory threads(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
