package praxis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc/codes"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// Task is one leased attempt as a handler sees it: the generated enginev1.Task (its
// AttemptId, RunId, NodeUid, NodeId, Attempt, Agent, InputJson ...) plus JSON helpers.
// GetTraceparent is the attempt's span as a W3C traceparent (empty unless the server
// exports traces); the handler's context already carries it as the remote parent span
// (OpenTelemetry), so spans started from that context sit under the attempt.
type Task struct {
	*enginev1.Task
	progress *progressBox // reports waiting for the next heartbeat (Progress)
}

// Input returns the task's input as raw JSON ("null" when the node has none).
func (t *Task) Input() json.RawMessage {
	if t.GetInputJson() == "" {
		return json.RawMessage("null")
	}
	return json.RawMessage(t.GetInputJson())
}

// RetrySafe reports whether the task's node declares its effects NONE or IDEMPOTENT
// (GetEffects): only then does a returned error or a panic settle as NOT_APPLIED and
// retryable; on any other node (EXTERNAL, or UNSPECIFIED: nothing declared) it settles
// as UNCERTAIN and the node waits for a human's reconciliation.
func (t *Task) RetrySafe() bool {
	switch t.GetEffects() {
	case enginev1.NodeEffects_NODE_EFFECTS_NONE, enginev1.NodeEffects_NODE_EFFECTS_IDEMPOTENT:
		return true
	}
	return false
}

// DecodeInput decodes the task's JSON input into v (a pointer), as json.Unmarshal does.
func (t *Task) DecodeInput(v any) error {
	if err := json.Unmarshal(t.Input(), v); err != nil {
		return fmt.Errorf("praxis: input of %s: %w", t.GetAttemptId(), err)
	}
	return nil
}

// Handler does the work of one task. Its context is cancelled when the attempt is
// cancelled (the run was stopped or the attempt superseded: context.Cause is
// ErrTaskCancelled), its lease is lost (ErrLeaseLost) or a shutdown's drain timeout runs
// out (ErrDrainTimeout); the handler should then stop and return. It returns an Outcome
// (Applied, NotApplied, Uncertain, UncertainResult, each optionally WithCost) or an
// error. An error wrapped with Permanent fails the attempt with effect NOT_APPLIED, not
// retryable. Any other error says nothing of the effect: it fails the attempt NOT_APPLIED
// and retryably on a node that declares its effects none or idempotent (Task.RetrySafe),
// and with effect UNCERTAIN (not retried; the node waits for a human) on any other node.
// A panic is recovered and settled like a returned error. When the
// task has a traceparent, the context carries the attempt's span as the remote
// OpenTelemetry parent: a span started from it is a child of the attempt.
type Handler func(ctx context.Context, task *Task) (Outcome, error)

// TypedHandler adapts a function from decoded JSON input to a JSON-encodable output into
// a Handler: the input is decoded into In (an input that does not decode fails without a
// retry) and the returned Out completes the attempt with effect APPLIED.
func TypedHandler[In, Out any](fn func(ctx context.Context, input In) (Out, error)) Handler {
	return func(ctx context.Context, task *Task) (Outcome, error) {
		var in In
		if err := task.DecodeInput(&in); err != nil {
			return Outcome{}, Permanent(err)
		}
		out, err := fn(ctx, in)
		if err != nil {
			return Outcome{}, err
		}
		return Applied(out), nil
	}
}

var (
	// ErrTaskCancelled is the context.Cause of a handler's context when a heartbeat
	// reports the attempt cancelled (run stopped, attempt superseded).
	ErrTaskCancelled = errors.New("praxis: the attempt was cancelled")
	// ErrLeaseLost is the context.Cause of a handler's context when a heartbeat finds the
	// attempt gone (LEASE_EXPIRED, ATTEMPT_SUPERSEDED, ATTEMPT_NOT_FOUND, RUN_TERMINAL,
	// WORKER_MISMATCH).
	ErrLeaseLost = errors.New("praxis: the attempt's lease was lost")
	// ErrDrainTimeout is the context.Cause of a handler's context when a shutdown's
	// WorkerOptions.DrainTimeout ran out before the handler returned.
	ErrDrainTimeout = errors.New("praxis: worker shutdown drain timeout")
)

// WorkerOptions configure a Worker. Only Models is required.
type WorkerOptions struct {
	// Models are the model ids whose tasks the worker claims; at least one.
	Models []string
	// WorkerID names the worker on the server; default "worker-<12 hex>".
	WorkerID string
	// Concurrency is the most handlers running at once (1 to 100); default 1.
	Concurrency int
	// LeaseMs is each attempt's lease (1,000 to 3,600,000); default 30,000. Heartbeats
	// extend it every LeaseMs/3.
	LeaseMs int64
	// PollMs is how long one claim waits for work on the server (0 to 60,000); default
	// 10,000. Use PollNone for 0.
	PollMs int64
	// LegacySettle settles with CompleteTask and FailTask instead of the batched
	// TaskService.SettleTasks (which the worker also gives up by itself on a server that
	// answers UNIMPLEMENTED).
	LegacySettle bool
	// DrainTimeout bounds a graceful shutdown: once it runs out, the handlers still
	// running are cancelled (ErrDrainTimeout) and their attempts left to expire. Default
	// 30 s; negative waits however long the handlers take.
	DrainTimeout time.Duration
	// Logger receives the worker's logs; default slog.Default().
	Logger *slog.Logger
}

// PollNone is the WorkerOptions.PollMs of a worker whose claims never wait on the server.
const PollNone int64 = -1

// WorkerStats counts what a worker settled.
type WorkerStats struct {
	Completed int64 // APPLIED completions accepted
	Failed    int64 // failures accepted
	Uncertain int64 // UNCERTAIN settlements accepted
	Dropped   int64 // settlements refused (lease lost, run over, ...)
	InFlight  int64 // handlers running now
}

// Worker claims tasks for its models, runs a Handler on each with at most Concurrency
// at once, heartbeats them and settles them (docs/workers.md is the specification).
// Create one with NewWorker, then Run it (or Start, Stop and Wait).
type Worker struct {
	clients *Clients
	opts    WorkerOptions
	handler Handler
	log     *slog.Logger

	legacy                                      atomic.Bool
	completed, failed, uncertain, dropped, busy atomic.Int64

	slots chan struct{} // one token per free handler slot
	wg    sync.WaitGroup
	// claims ends the claim loop (Stop). hard outlives it: heartbeats and settle retries
	// use it until the drain is over. handlers is the parent of the handler contexts.
	claims, hard, handlers                context.Context
	stopClaims, stopHard                  context.CancelFunc
	cancelHandlers                        context.CancelCauseFunc
	isStarted                             atomic.Bool
	stopOnce                              sync.Once
	done                                  chan struct{} // closed when the worker has stopped
	err                                   error         // the fatal error, read after done
	mu                                    sync.Mutex
	pending                               []*enginev1.Settlement
	claiming, loopGone, flusherGone, ran  bool
	kick                                  chan struct{}
	loopDone, flusherDone, stopFlusherNow chan struct{}
}

// NewWorker returns a worker that runs handler on the tasks of opts.Models. Nothing is
// sent before Run or Start.
func NewWorker(clients *Clients, opts WorkerOptions, handler Handler) *Worker {
	if opts.Concurrency == 0 {
		opts.Concurrency = 1
	}
	if opts.LeaseMs == 0 {
		opts.LeaseMs = 30_000
	}
	switch opts.PollMs {
	case 0:
		opts.PollMs = 10_000
	case PollNone:
		opts.PollMs = 0
	}
	if opts.DrainTimeout == 0 {
		opts.DrainTimeout = 30 * time.Second
	}
	if opts.WorkerID == "" {
		var b [6]byte
		_, _ = rand.Read(b[:])
		opts.WorkerID = "worker-" + hex.EncodeToString(b[:])
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	w := &Worker{
		clients: clients, opts: opts, handler: handler,
		log:  opts.Logger.With("logger", "praxis.worker", "worker_id", opts.WorkerID),
		kick: make(chan struct{}, 1), done: make(chan struct{}),
		loopDone: make(chan struct{}), flusherDone: make(chan struct{}), stopFlusherNow: make(chan struct{}),
	}
	w.legacy.Store(opts.LegacySettle)
	return w
}

// ID is the worker id sent to the server.
func (w *Worker) ID() string { return w.opts.WorkerID }

// Stats returns a snapshot of the worker's counters.
func (w *Worker) Stats() WorkerStats {
	return WorkerStats{
		Completed: w.completed.Load(), Failed: w.failed.Load(), Uncertain: w.uncertain.Load(),
		Dropped: w.dropped.Load(), InFlight: w.busy.Load(),
	}
}

func (w *Worker) validate() error {
	o := w.opts
	switch {
	case len(o.Models) == 0:
		return errors.New("praxis: WorkerOptions.Models is empty")
	case o.Concurrency < 1 || o.Concurrency > 100:
		return fmt.Errorf("praxis: WorkerOptions.Concurrency %d is outside 1..100", o.Concurrency)
	case o.LeaseMs < 1_000 || o.LeaseMs > 3_600_000:
		return fmt.Errorf("praxis: WorkerOptions.LeaseMs %d is outside 1000..3600000", o.LeaseMs)
	case o.PollMs < 0 || o.PollMs > 60_000:
		return fmt.Errorf("praxis: WorkerOptions.PollMs %d is outside 0..60000", o.PollMs)
	case w.handler == nil:
		return errors.New("praxis: the worker handler is nil")
	case w.clients == nil:
		return errors.New("praxis: the worker has no clients")
	}
	return nil
}

// Run starts the worker (see Start; unless Start was already called), runs it until ctx
// is cancelled or a fatal error, then stops it gracefully (see Stop). It returns Start's
// error, or the fatal error that stopped the worker, or nil after a graceful stop.
func (w *Worker) Run(ctx context.Context) error {
	if !w.isStarted.Load() {
		if err := w.Start(ctx); err != nil {
			return err
		}
	}
	select {
	case <-ctx.Done():
		w.Stop()
	case <-w.loopDone:
	}
	return w.Wait()
}

// Start sends the first claim (without waiting for work) and returns once it was
// answered; the worker then runs in the background until Stop. A refusal that retrying
// cannot fix fails Start with the server's error and leaves nothing running: a bad token
// (UNAUTHENTICATED), a missing grant (PERMISSION_DENIED), invalid options
// (INVALID_ARGUMENT) or a server without TaskService (UNIMPLEMENTED); read the code and
// reason with ErrorReason. Transient failures (the server is still starting) are logged
// and retried with backoff. ctx bounds only Start itself.
func (w *Worker) Start(ctx context.Context) error {
	if err := w.validate(); err != nil {
		return err
	}
	if w.isStarted.Swap(true) {
		return errors.New("praxis: a Worker starts once")
	}
	w.claims, w.stopClaims = context.WithCancel(context.Background())
	w.hard, w.stopHard = context.WithCancel(context.Background())
	w.handlers, w.cancelHandlers = context.WithCancelCause(context.Background())
	w.slots = make(chan struct{}, w.opts.Concurrency)
	for i := 0; i < w.opts.Concurrency; i++ {
		w.slots <- struct{}{}
	}
	go w.flusher()
	startCtx, cancel := context.WithCancel(w.claims)
	defer cancel()
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-startCtx.Done():
		}
	}()
	<-w.slots // the first claim asks for every slot
	free := w.takeFree(1)
	tasks, err := w.claim(startCtx, free, 0)
	if err != nil {
		w.returnSlots(free)
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		w.shutdownAfterStartFailure()
		return err
	}
	w.log.Info("praxis worker started", "models", w.opts.Models, "concurrency", w.opts.Concurrency)
	w.dispatch(tasks, free)
	go w.claimLoop()
	return nil
}

func (w *Worker) shutdownAfterStartFailure() {
	w.stopClaims()
	close(w.loopDone)
	w.mu.Lock()
	w.loopGone = true
	w.mu.Unlock()
	close(w.stopFlusherNow)
	<-w.flusherDone
	w.stopHard()
	w.cancelHandlers(context.Canceled)
	w.stopOnce.Do(func() { close(w.done) })
}

// Stop shuts the worker down gracefully: it stops claiming at once, waits for the
// handlers in flight (heartbeating them) for at most DrainTimeout, settles what they
// returned and returns once all that is done. Handlers still running after DrainTimeout
// are cancelled and their attempts left to expire. Stop is idempotent and safe from any
// goroutine; RunWorker calls it on SIGINT or SIGTERM.
func (w *Worker) Stop() {
	if w.claims == nil {
		return // never started
	}
	w.stopOnce.Do(func() {
		w.stopClaims()
		<-w.loopDone
		w.finish()
		close(w.done)
	})
	<-w.done
}

// Wait blocks until the worker has stopped and returns the fatal error that stopped it
// (a claim refused with UNAUTHENTICATED, PERMISSION_DENIED, INVALID_ARGUMENT or
// UNIMPLEMENTED), or nil after Stop.
func (w *Worker) Wait() error {
	<-w.loopDone
	w.Stop()
	return w.err
}

// finish drains the handlers, flushes the settlements and releases everything.
func (w *Worker) finish() {
	w.mu.Lock()
	w.loopGone = true
	w.mu.Unlock()
	w.nudge()
	if n := w.busy.Load(); n > 0 {
		w.log.Info("praxis worker stopping: draining the tasks in hand", "in_flight", n)
	}
	handlersDone := make(chan struct{})
	go func() { w.wg.Wait(); close(handlersDone) }()
	var timeout <-chan time.Time
	if w.opts.DrainTimeout > 0 {
		timer := time.NewTimer(w.opts.DrainTimeout)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case <-handlersDone:
		close(w.stopFlusherNow)
		select {
		case <-w.flusherDone:
		case <-timeout:
			w.log.Warn("praxis worker drain timeout: the last settlements could not be sent")
		}
	case <-timeout:
		w.log.Warn("praxis worker drain timeout: cancelling the handlers still running; their attempts will expire",
			"in_flight", w.busy.Load())
		w.cancelHandlers(ErrDrainTimeout)
	}
	w.stopHard() // ends heartbeats and settle retries
	<-handlersDone
	w.mu.Lock()
	if !w.flusherGone {
		w.flusherGone = true
		w.mu.Unlock()
		select {
		case <-w.stopFlusherNow:
		default:
			close(w.stopFlusherNow)
		}
	} else {
		w.mu.Unlock()
	}
	<-w.flusherDone
	w.cancelHandlers(context.Canceled)
	s := w.Stats()
	w.log.Info("praxis worker stopped", "completed", s.Completed, "failed", s.Failed,
		"uncertain", s.Uncertain, "dropped", s.Dropped)
}

// claimLoop claims while slots are free, until Stop or a fatal refusal.
func (w *Worker) claimLoop() {
	defer close(w.loopDone)
	for {
		select {
		case <-w.claims.Done():
			return
		case <-w.slots:
		}
		free := w.takeFree(1)
		tasks, err := w.claim(w.claims, free, w.opts.PollMs)
		if err != nil {
			w.returnSlots(free)
			if w.claims.Err() == nil {
				w.log.Error("praxis worker: a claim was refused; stopping", "error", err)
				w.err = err
			}
			return
		}
		w.dispatch(tasks, free)
	}
}

// takeFree takes every free slot without blocking, on top of the have already taken.
func (w *Worker) takeFree(have int) int {
	for have < min(w.opts.Concurrency, 100) {
		select {
		case <-w.slots:
			have++
		default:
			return have
		}
	}
	return have
}

func (w *Worker) returnSlots(n int) {
	for i := 0; i < n; i++ {
		w.slots <- struct{}{}
	}
}

// dispatch starts one handler per task and gives back the slots left unused.
func (w *Worker) dispatch(tasks []*enginev1.Task, free int) {
	for _, t := range tasks {
		w.wg.Add(1)
		w.busy.Add(1)
		go w.handle(newTask(t))
	}
	w.returnSlots(free - len(tasks))
}

// fatalCodes are the claim refusals that retrying cannot fix.
var fatalCodes = map[codes.Code]bool{
	codes.Unauthenticated: true, codes.PermissionDenied: true,
	codes.InvalidArgument: true, codes.Unimplemented: true,
}

// claim asks for up to max tasks (sending the pending settlements along when the server
// has SettleTasks), retrying everything but a fatal refusal with backoff. It returns an
// error for a fatal refusal or when ctx ends.
func (w *Worker) claim(ctx context.Context, max int, waitMs int64) ([]*enginev1.Task, error) {
	req := &enginev1.ClaimTasksRequest{
		WorkerId: w.opts.WorkerID, Models: w.opts.Models, MaxTasks: int32(max),
		LeaseMs: w.opts.LeaseMs, WaitMs: waitMs,
	}
	b := backoff{}
	troubled := false
	for {
		tasks, err := w.claimOnce(ctx, req)
		if err == nil {
			if troubled {
				w.log.Info("praxis worker: reconnected")
			}
			return tasks, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		code, reason := ErrorReason(err)
		if fatalCodes[code] {
			return nil, fmt.Errorf("praxis worker: claim refused: %s %s: %w", CodeName(code), reason, err)
		}
		if !troubled {
			troubled = true
			level := slog.LevelWarn
			if !transient(err) {
				level = slog.LevelError
			}
			w.log.Log(ctx, level, "praxis worker: claims are failing; retrying with backoff",
				"code", CodeName(code), "reason", reason, "error", err)
		}
		if !sleepCtx(ctx, b.next()) {
			return nil, ctx.Err()
		}
	}
}

func (w *Worker) claimOnce(ctx context.Context, req *enginev1.ClaimTasksRequest) ([]*enginev1.Task, error) {
	callCtx, cancel := context.WithTimeout(ctx, time.Duration(req.GetWaitMs())*time.Millisecond+10*time.Second)
	defer cancel()
	if w.legacy.Load() {
		resp, err := w.clients.Tasks.ClaimTasks(callCtx, req)
		return resp.GetTasks(), err
	}
	w.mu.Lock()
	batch := takeBatch(&w.pending)
	w.claiming = true
	w.mu.Unlock()
	w.nudge() // settlements finishing during the long poll are the flusher's
	resp, err := w.clients.Tasks.SettleTasks(callCtx, &enginev1.SettleTasksRequest{Settlements: batch, Claim: req})
	w.mu.Lock()
	w.claiming = false
	if err != nil {
		w.pending = append(batch, w.pending...) // sent again later: settling is idempotent
	}
	w.mu.Unlock()
	if code, _ := ErrorReason(err); code == codes.Unimplemented {
		w.switchToLegacy()
		return w.claimOnce(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	w.record(batch, resp.GetResults())
	return resp.GetTasks(), nil
}

func (w *Worker) switchToLegacy() {
	if !w.legacy.Swap(true) {
		w.log.Info("praxis worker: the server has no TaskService.SettleTasks; settling with CompleteTask and FailTask")
	}
	w.nudge() // the flusher re-sends what was pending, one by one
}

// takeBatch removes and returns up to 100 settlements (the SettleTasks limit).
func takeBatch(pending *[]*enginev1.Settlement) []*enginev1.Settlement {
	n := min(len(*pending), 100)
	batch := append([]*enginev1.Settlement(nil), (*pending)[:n]...)
	*pending = (*pending)[n:]
	return batch
}

// record handles the server's answer for each settlement of a batch, as the answer of
// the corresponding CompleteTask or FailTask would be handled.
func (w *Worker) record(batch []*enginev1.Settlement, results []*enginev1.SettlementResult) {
	for i, s := range batch {
		if i >= len(results) {
			w.refused(s, codes.Internal, "", "the server answered fewer results than settlements")
			continue
		}
		if e := results[i].GetError(); e != nil {
			code := codes.Code(e.GetCode())
			if retry := w.resultRejected(s, code, e.GetReason(), e.GetMessage()); retry != nil {
				w.enqueue(retry)
				continue
			}
			w.refused(s, code, e.GetReason(), e.GetMessage())
			continue
		}
		w.settled(s)
	}
}

// resultRejected turns a completion refused with INVALID_ARGUMENT into the failure to
// send instead (nil for any other refusal).
func (w *Worker) resultRejected(s *enginev1.Settlement, code codes.Code, reason, message string) *enginev1.Settlement {
	c := s.GetComplete()
	if c == nil || code != codes.InvalidArgument {
		return nil
	}
	w.log.Error("praxis worker: the server rejected the result; failing the attempt",
		"attempt_id", c.GetAttemptId(), "reason", reason, "message", message)
	return &enginev1.Settlement{Outcome: &enginev1.Settlement_Fail{Fail: &enginev1.FailTaskRequest{
		AttemptId: c.GetAttemptId(), WorkerId: c.GetWorkerId(),
		Error:     fmt.Sprintf("result rejected: %s: %s", reason, message),
		Retryable: reason == "RESULT_CONTRACT_VIOLATION", Effect: c.GetEffect(),
		CostMicrocredits: c.GetCostMicrocredits(),
	}}}
}

func (w *Worker) settled(s *enginev1.Settlement) {
	var effect enginev1.EffectOutcome
	if c := s.GetComplete(); c != nil {
		effect = c.GetEffect()
	} else {
		effect = s.GetFail().GetEffect()
	}
	switch {
	case effect == enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN:
		w.uncertain.Add(1)
	case s.GetComplete() != nil:
		w.completed.Add(1)
	default:
		w.failed.Add(1)
	}
	w.log.Debug("praxis worker: settled", "attempt_id", attemptOf(s))
}

// goneReasons mean the attempt is no longer the worker's: its settlement is dropped,
// its heartbeat cancels the handler.
var goneReasons = map[string]bool{
	"LEASE_EXPIRED": true, "ATTEMPT_SUPERSEDED": true, "ATTEMPT_NOT_FOUND": true,
	"RUN_TERMINAL": true, "WORKER_MISMATCH": true, "ATTEMPT_ALREADY_SETTLED": true,
}

func (w *Worker) refused(s *enginev1.Settlement, code codes.Code, reason, message string) {
	w.dropped.Add(1)
	if goneReasons[reason] {
		w.log.Info("praxis worker: result dropped", "attempt_id", attemptOf(s), "reason", reason)
		return
	}
	w.log.Error("praxis worker: settlement refused", "attempt_id", attemptOf(s),
		"code", CodeName(code), "reason", reason, "message", message)
}

func attemptOf(s *enginev1.Settlement) string {
	if c := s.GetComplete(); c != nil {
		return c.GetAttemptId()
	}
	return s.GetFail().GetAttemptId()
}

func (w *Worker) nudge() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// enqueue queues a settlement: the claim loop's next call carries it, or the flusher
// sends it when the claim loop is inside a long poll or gone.
func (w *Worker) enqueue(s *enginev1.Settlement) {
	w.mu.Lock()
	w.pending = append(w.pending, s)
	w.mu.Unlock()
	w.nudge()
}

// flusher sends the settlements that cannot ride on a claim: while the claim loop is
// inside a call or gone, and all of them once the server lacks SettleTasks. After
// stopFlusherNow it sends what is left and returns.
func (w *Worker) flusher() {
	defer close(w.flusherDone)
	stopping := false
	for {
		select {
		case <-w.kick:
		case <-w.stopFlusherNow:
			stopping = true
		}
		for {
			w.mu.Lock()
			mine := w.claiming || w.loopGone || stopping || w.legacy.Load()
			if !mine || len(w.pending) == 0 {
				w.mu.Unlock()
				break
			}
			batch := takeBatch(&w.pending)
			w.mu.Unlock()
			w.send(batch)
		}
		if stopping {
			return
		}
	}
}

// send settles a batch with retries, through SettleTasks or one by one.
func (w *Worker) send(batch []*enginev1.Settlement) {
	if !w.legacy.Load() {
		var resp *enginev1.SettleTasksResponse
		err := w.retry("SettleTasks", func(ctx context.Context) (err error) {
			resp, err = w.clients.Tasks.SettleTasks(ctx, &enginev1.SettleTasksRequest{Settlements: batch})
			return err
		})
		code, reason := ErrorReason(err)
		switch {
		case err == nil:
			w.record(batch, resp.GetResults())
			return
		case code != codes.Unimplemented:
			for _, s := range batch {
				w.refused(s, code, reason, err.Error())
			}
			return
		}
		w.switchToLegacy()
	}
	for _, s := range batch {
		w.sendOne(s)
	}
}

// sendOne settles one attempt with CompleteTask or FailTask, with retries.
func (w *Worker) sendOne(s *enginev1.Settlement) {
	err := w.retry("settle", func(ctx context.Context) error {
		if c := s.GetComplete(); c != nil {
			_, err := w.clients.Tasks.CompleteTask(ctx, c)
			return err
		}
		_, err := w.clients.Tasks.FailTask(ctx, s.GetFail())
		return err
	})
	if err == nil {
		w.settled(s)
		return
	}
	code, reason := ErrorReason(err)
	if retry := w.resultRejected(s, code, reason, err.Error()); retry != nil {
		w.sendOne(retry)
		return
	}
	w.refused(s, code, reason, err.Error())
}

// transient reports the errors worth retrying: UNAVAILABLE, DEADLINE_EXCEEDED,
// RESOURCE_EXHAUSTED, and ABORTED with reason VERSION_CONFLICT.
func transient(err error) bool {
	code, reason := ErrorReason(err)
	switch code {
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted:
		return true
	case codes.Aborted:
		return reason == "VERSION_CONFLICT"
	}
	return false
}

// retry runs call until it succeeds, fails with a non-transient error, or the drain is
// over.
func (w *Worker) retry(what string, call func(ctx context.Context) error) error {
	b := backoff{}
	for {
		ctx, cancel := context.WithTimeout(w.hard, 30*time.Second)
		err := call(ctx)
		cancel()
		if err == nil || !transient(err) || w.hard.Err() != nil {
			return err
		}
		code, _ := ErrorReason(err)
		w.log.Debug("praxis worker: call failed; retrying", "call", what, "code", CodeName(code))
		if !sleepCtx(w.hard, b.next()) {
			return err
		}
	}
}

// handle runs the handler on one task with heartbeats, then queues its settlement.
func (w *Worker) handle(task *Task) {
	defer w.wg.Done()
	log := w.log.With("attempt_id", task.GetAttemptId(), "node_uid", task.GetNodeUid())
	ctx, cancel := context.WithCancelCause(w.handlers)
	defer cancel(context.Canceled)
	stopBeats, beatsDone := make(chan struct{}), make(chan struct{})
	go func() { defer close(beatsDone); w.heartbeats(task, cancel, stopBeats, log) }()

	ctx = context.WithValue(ctx, taskKey{}, task) // ReportProgress
	outcome, err := w.call(attemptContext(ctx, task.GetTraceparent()), task)
	close(stopBeats)
	<-beatsDone
	s, bug := settlement(task.GetAttemptId(), w.opts.WorkerID, outcome, err, task.RetrySafe())
	if f := s.GetFail(); f != nil {
		if bug {
			log.Error("praxis worker: "+f.GetError(), "effect", f.GetEffect().String())
		} else if err != nil {
			log.Warn("praxis worker: the handler failed", "error", f.GetError(), "retryable", f.GetRetryable(),
				"effect", f.GetEffect().String())
		}
	}
	if ctx.Err() != nil && context.Cause(ctx) != context.Canceled {
		log.Info("praxis worker: the handler returned after cancellation", "cause", context.Cause(ctx))
	}
	if w.legacy.Load() {
		w.sendOne(s)
	} else {
		w.enqueue(s)
	}
	w.busy.Add(-1)
	w.slots <- struct{}{}
}

// call runs the handler, settling a panic like a returned error.
func (w *Worker) call(ctx context.Context, task *Task) (outcome Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			outcome, err = Outcome{}, fmt.Errorf("panic: %v", p)
		}
	}()
	return w.handler(ctx, task)
}

// heartbeats extends the task's lease every LeaseMs/3 until stop is closed, cancelling
// the handler when the server reports the attempt cancelled or gone. A progress report
// (Task.Progress) brings the next heartbeat forward, at most to ProgressInterval after
// the previous one, and rides on it.
func (w *Worker) heartbeats(task *Task, cancel context.CancelCauseFunc, stop <-chan struct{}, log *slog.Logger) {
	interval := max(time.Duration(w.opts.LeaseMs)*time.Millisecond/3, 200*time.Millisecond)
	timer := time.NewTimer(interval)
	defer timer.Stop()
	due := time.Now().Add(interval)
	var last time.Time
	for {
		select {
		case <-stop:
			return
		case <-w.hard.Done():
			return
		case <-task.progress.wake:
			soon := max(time.Until(last.Add(ProgressInterval)), 0)
			if time.Now().Add(soon).Before(due) {
				due = time.Now().Add(soon)
				resetTimer(timer, soon)
			}
			continue
		case <-timer.C:
		}
		last = time.Now()
		due = last.Add(interval)
		timer.Reset(interval)
		report := task.takeProgress()
		req := &enginev1.HeartbeatRequest{
			AttemptId: task.GetAttemptId(), WorkerId: w.opts.WorkerID, LeaseMs: w.opts.LeaseMs, Progress: report,
		}
		ctx, done := context.WithTimeout(w.hard, interval)
		resp, err := w.clients.Tasks.Heartbeat(ctx, req)
		done()
		if err == nil && resp.GetCancelled() {
			log.Info("praxis worker: the attempt was cancelled; cancelling the handler")
			cancel(ErrTaskCancelled)
			return
		}
		if err != nil {
			code, reason := ErrorReason(err)
			if goneReasons[reason] {
				log.Info("praxis worker: the attempt is gone; cancelling the handler", "reason", reason)
				cancel(fmt.Errorf("%w: %s", ErrLeaseLost, reason))
				return
			}
			if report != nil && code == codes.InvalidArgument {
				log.Warn("praxis worker: progress refused; heartbeating without it", "reason", reason)
				due = time.Now()
				resetTimer(timer, 0) // the lease still needs extending
				continue
			}
			log.Warn("praxis worker: heartbeat failed; trying again next interval",
				"code", CodeName(code), "reason", reason, "error", err)
			if transient(err) {
				task.restoreProgress(report) // sent with the next heartbeat
			}
		}
	}
}

// backoff is exponential from 100 ms, doubling, capped at 5 s, with full jitter.
type backoff struct{ attempt int }

func (b *backoff) next() time.Duration {
	ceiling := min(100*time.Millisecond<<min(b.attempt, 6), 5*time.Second)
	b.attempt++
	var r [8]byte
	_, _ = rand.Read(r[:])
	n := uint64(r[0]) | uint64(r[1])<<8 | uint64(r[2])<<16 | uint64(r[3])<<24 | uint64(r[4])<<32
	return time.Duration(n % uint64(ceiling+1))
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// RunWorker connects to address with token and runs a worker until SIGINT or SIGTERM,
// then stops it gracefully (see Worker.Run). It returns Run's error: a bad token, for
// example, fails at once with UNAUTHENTICATED.
func RunWorker(address, token string, opts WorkerOptions, handler Handler) error {
	clients, err := Connect(address, token)
	if err != nil {
		return err
	}
	defer clients.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return NewWorker(clients, opts, handler).Run(ctx)
}
