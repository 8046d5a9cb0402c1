package praxis

import (
	"context"
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

// Four tasks through SettleTasks: each outcome becomes the settlement the spec says.
func TestWorkerSettlesInBatches(t *testing.T) {
	fake := &batchTasks{total: 4, settled: map[string]*enginev1.Settlement{}, all: make(chan struct{})}
	done := fake.all
	for _, in := range []string{`"ok"`, `"fail"`, `"chan"`, `"cost"`} {
		fake.tasks = append(fake.tasks, &enginev1.Task{AttemptId: "att-" + strings.Trim(in, `"`), InputJson: in})
	}
	c := connectForTest(t, serveTasks(t, fake), "good")
	w := NewWorker(c, WorkerOptions{Models: []string{"m"}, Concurrency: 2, PollMs: 100}, func(ctx context.Context, task *Task) (Outcome, error) {
		var in string
		if err := task.DecodeInput(&in); err != nil {
			return Outcome{}, err
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
	if s := w.Stats(); s.Completed != 1 || s.Failed != 3 || s.InFlight != 0 {
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

// Handler errors: a plain error is retryable, Permanent is not, a panic is caught.
func TestSettlementOfErrors(t *testing.T) {
	s, _ := settlement("a", "w", Outcome{}, context.DeadlineExceeded)
	if !s.GetFail().GetRetryable() {
		t.Error("a plain error must be retryable")
	}
	s, _ = settlement("a", "w", Outcome{}, Permanent(context.Canceled))
	if s.GetFail().GetRetryable() {
		t.Error("a Permanent error must not be retryable")
	}
	s, _ = settlement("a", "w", Uncertain(strings.Repeat("é", 5000)), nil)
	if f := s.GetFail(); f.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN || len([]rune(f.GetError())) != 4000 {
		t.Errorf("uncertain settled as effect %v with %d characters", f.GetEffect(), len([]rune(f.GetError())))
	}
	s, _ = settlement("a", "w", UncertainResult(map[string]int{"x": 1}), nil)
	if c := s.GetComplete(); c.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN || c.GetResultJson() != `{"x":1}` {
		t.Errorf("uncertain result settled as %v", s)
	}
	w := &Worker{handler: func(context.Context, *Task) (Outcome, error) { panic("boom") }}
	o, err := w.call(context.Background(), &Task{Task: &enginev1.Task{}})
	if s, _ := settlement("a", "w", o, err); !s.GetFail().GetRetryable() || s.GetFail().GetError() != "panic: boom" {
		t.Errorf("a panic settled as %v", s)
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
