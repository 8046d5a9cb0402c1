package praxis

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// batchTasks serves the given tasks through SettleTasks (the batch path), records every
// settlement and closes all once total are settled; a wrong token is UNAUTHENTICATED.
type batchTasks struct {
	enginev1.UnimplementedTaskServiceServer
	mu       sync.Mutex
	tasks    []*enginev1.Task
	total    int
	settled  map[string]*enginev1.Settlement
	maxAsked int32
	all      chan struct{}
}

func (f *batchTasks) SettleTasks(ctx context.Context, req *enginev1.SettleTasksRequest) (*enginev1.SettleTasksResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer good" {
		return nil, engineErrorT(codes.Unauthenticated, enginev1.ErrorReason_CREDENTIAL_INVALID)
	}
	f.mu.Lock()
	resp := &enginev1.SettleTasksResponse{}
	for _, s := range req.GetSettlements() {
		f.settled[attemptOf(s)] = s
		resp.Results = append(resp.Results, &enginev1.SettlementResult{AttemptId: attemptOf(s),
			Result: &enginev1.SettlementResult_Complete{Complete: &enginev1.CompleteTaskResponse{}}})
	}
	if len(f.settled) == f.total && f.all != nil {
		close(f.all)
		f.all = nil
	}
	if c := req.GetClaim(); c != nil {
		f.maxAsked = max(f.maxAsked, c.GetMaxTasks())
		n := min(int(c.GetMaxTasks()), len(f.tasks))
		resp.Tasks, f.tasks = f.tasks[:n], f.tasks[n:]
	}
	f.mu.Unlock()
	if req.GetClaim() != nil && len(resp.GetTasks()) == 0 && len(req.GetSettlements()) == 0 {
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	return resp, nil
}

func engineErrorT(code codes.Code, reason enginev1.ErrorReason) error {
	return engineError(code, reason)
}

func serveTasks(t *testing.T, impl enginev1.TaskServiceServer) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	enginev1.RegisterTaskServiceServer(srv, impl)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// Tasks through SettleTasks: each outcome becomes the settlement the spec says; a
// returned error by what the task's node declares of its effects.
func TestWorkerSettlesInBatches(t *testing.T) {
	fake := &batchTasks{total: 7, settled: map[string]*enginev1.Settlement{}, all: make(chan struct{})}
	done := fake.all
	effects := map[string]enginev1.NodeEffects{
		"err-idempotent": enginev1.NodeEffects_NODE_EFFECTS_IDEMPOTENT,
		"err-external":   enginev1.NodeEffects_NODE_EFFECTS_EXTERNAL,
	}
	for _, in := range []string{`"ok"`, `"fail"`, `"chan"`, `"cost"`, `"err"`, `"err-idempotent"`, `"err-external"`} {
		name := strings.Trim(in, `"`)
		fake.tasks = append(fake.tasks, &enginev1.Task{AttemptId: "att-" + name, InputJson: in, Effects: effects[name]})
	}
	c := connectForTest(t, serveTasks(t, fake), "good")
	var safeMu sync.Mutex
	safe := map[string]bool{}
	w := NewWorker(c, WorkerOptions{Models: []string{"m"}, Concurrency: 2, PollMs: 100}, func(ctx context.Context, task *Task) (Outcome, error) {
		var in string
		if err := task.DecodeInput(&in); err != nil {
			return Outcome{}, err
		}
		safeMu.Lock()
		safe[in] = task.RetrySafe()
		safeMu.Unlock()
		if strings.HasPrefix(in, "err") {
			return Outcome{}, errors.New("crashed on " + in)
		}
		switch in {
		case "fail":
			return NotApplied("no", true), nil
		case "chan":
			return Applied(make(chan int)), nil
		case "cost":
			return Applied(1).WithCost("1.50"), nil
		}
		return Applied(in).WithCost("2.5"), nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("not every task was settled")
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if fake.maxAsked > 2 {
		t.Errorf("claimed %d tasks with concurrency 2", fake.maxAsked)
	}
	if c := fake.settled["att-ok"].GetComplete(); c.GetResultJson() != `"ok"` || c.GetCostMicrocredits() != "2.5" {
		t.Errorf("ok settled as %v", fake.settled["att-ok"])
	}
	if f := fake.settled["att-fail"].GetFail(); !f.GetRetryable() || f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED {
		t.Errorf("fail settled as %v", fake.settled["att-fail"])
	}
	if f := fake.settled["att-chan"].GetFail(); f.GetRetryable() || !strings.Contains(f.GetError(), "not JSON-serialisable") {
		t.Errorf("an unencodable result settled as %v", fake.settled["att-chan"])
	}
	if f := fake.settled["att-cost"].GetFail(); f.GetRetryable() || !strings.HasPrefix(f.GetError(), `invalid cost "1.50"`) || f.GetCostMicrocredits() != "" {
		t.Errorf("a non-canonical cost settled as %v", fake.settled["att-cost"])
	}
	// A returned error says nothing of the effect: UNCERTAIN unless the node is retry-safe.
	for _, name := range []string{"err", "err-external"} {
		if f := fake.settled["att-"+name].GetFail(); f.GetRetryable() || f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN || f.GetError() != "crashed on "+name {
			t.Errorf("an error on an effectful node settled as %v", fake.settled["att-"+name])
		}
	}
	if f := fake.settled["att-err-idempotent"].GetFail(); !f.GetRetryable() || f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED || f.GetError() != "crashed on err-idempotent" {
		t.Errorf("an error on an idempotent node settled as %v", fake.settled["att-err-idempotent"])
	}
	safeMu.Lock()
	if !safe["err-idempotent"] || safe["err"] || safe["err-external"] {
		t.Errorf("Task.RetrySafe: %v", safe)
	}
	safeMu.Unlock()
	if s := w.Stats(); s.Completed != 1 || s.Failed != 4 || s.Uncertain != 2 || s.InFlight != 0 {
		t.Errorf("stats %+v", s)
	}
}

// A bad token fails Start at once with UNAUTHENTICATED; nothing keeps running.
func TestWorkerBadTokenFailsStart(t *testing.T) {
	fake := &batchTasks{settled: map[string]*enginev1.Settlement{}}
	c := connectForTest(t, serveTasks(t, fake), "bad")
	w := NewWorker(c, WorkerOptions{Models: []string{"m"}}, func(context.Context, *Task) (Outcome, error) {
		return Applied(nil), nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := w.Run(ctx)
	if code, reason := ErrorReason(err); code != codes.Unauthenticated || reason != "CREDENTIAL_INVALID" {
		t.Fatalf("Run: %v (%s %s)", err, CodeName(code), reason)
	}
}

// Handler errors: a plain error is retryable on a retry-safe node and UNCERTAIN on any
// other, Permanent is never retried, a panic is caught and settled like an error.
func TestSettlementOfErrors(t *testing.T) {
	s, _ := settlement("a", "w", Outcome{}, context.DeadlineExceeded, true)
	if f := s.GetFail(); !f.GetRetryable() || f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED {
		t.Errorf("a plain error on a retry-safe node settled as %v", s)
	}
	s, _ = settlement("a", "w", Outcome{}, context.DeadlineExceeded, false)
	if f := s.GetFail(); f.GetRetryable() || f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN || f.GetError() != context.DeadlineExceeded.Error() {
		t.Errorf("a plain error on an effectful node settled as %v", s)
	}
	for _, retrySafe := range []bool{true, false} {
		s, _ = settlement("a", "w", Outcome{}, Permanent(context.Canceled), retrySafe)
		if f := s.GetFail(); f.GetRetryable() || f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED {
			t.Errorf("a Permanent error settled as %v", s)
		}
		// An explicit NotApplied is the handler's own statement: it retries on any node.
		s, _ = settlement("a", "w", NotApplied("nothing sent", true), nil, retrySafe)
		if f := s.GetFail(); !f.GetRetryable() || f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED {
			t.Errorf("NotApplied(retryable) settled as %v", s)
		}
	}
	s, _ = settlement("a", "w", Uncertain(strings.Repeat("é", 5000)), nil, false)
	if f := s.GetFail(); f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN || len([]rune(f.GetError())) != 4000 {
		t.Errorf("uncertain settled as effect %v with %d characters", f.GetEffect(), len([]rune(f.GetError())))
	}
	s, _ = settlement("a", "w", UncertainResult(map[string]int{"x": 1}), nil, true)
	if c := s.GetComplete(); c.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN || c.GetResultJson() != `{"x":1}` {
		t.Errorf("uncertain result settled as %v", s)
	}
	w := &Worker{handler: func(context.Context, *Task) (Outcome, error) { panic("boom") }}
	o, err := w.call(context.Background(), &Task{Task: &enginev1.Task{}})
	if s, _ := settlement("a", "w", o, err, true); !s.GetFail().GetRetryable() || s.GetFail().GetError() != "panic: boom" {
		t.Errorf("a panic on a retry-safe node settled as %v", s)
	}
	if s, _ := settlement("a", "w", o, err, false); s.GetFail().GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN || s.GetFail().GetError() != "panic: boom" {
		t.Errorf("a panic on an effectful node settled as %v", s)
	}
}

// Task.RetrySafe: only NONE and IDEMPOTENT; an undeclared node is EXTERNAL.
func TestTaskRetrySafe(t *testing.T) {
	for effects, want := range map[enginev1.NodeEffects]bool{
		enginev1.NodeEffects_NODE_EFFECTS_UNSPECIFIED: false,
		enginev1.NodeEffects_NODE_EFFECTS_NONE:        true,
		enginev1.NodeEffects_NODE_EFFECTS_IDEMPOTENT:  true,
		enginev1.NodeEffects_NODE_EFFECTS_EXTERNAL:    false,
	} {
		if got := (&Task{Task: &enginev1.Task{Effects: effects}}).RetrySafe(); got != want {
			t.Errorf("%v: RetrySafe() = %v", effects, got)
		}
	}
}

func TestToJSONSortsKeys(t *testing.T) {
	type doc struct {
		Z int    `json:"z"`
		A string `json:"a"`
	}
	got, err := ToJSON(doc{Z: 1, A: "<"})
	if err != nil || got != `{"a":"<","z":1}` {
		t.Errorf("ToJSON = %s, %v", got, err)
	}
	v, err := FromJSON[map[string]int](`{"k":2}`)
	if err != nil || v["k"] != 2 {
		t.Errorf("FromJSON = %v, %v", v, err)
	}
}
