package praxis

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// progressTasks serves one task through SettleTasks and records the heartbeats' reports.
type progressTasks struct {
	batchTasks
	beatsMu sync.Mutex
	reports []*enginev1.ProgressReport
	times   []time.Time
}

func (f *progressTasks) Heartbeat(ctx context.Context, req *enginev1.HeartbeatRequest) (*enginev1.HeartbeatResponse, error) {
	f.beatsMu.Lock()
	defer f.beatsMu.Unlock()
	if req.GetProgress() != nil {
		f.reports = append(f.reports, req.GetProgress())
		f.times = append(f.times, time.Now())
	}
	return &enginev1.HeartbeatResponse{}, nil
}

// Reports ride on heartbeats brought forward, coalesced (the latest waiting) and rate-limited.
func TestProgressRidesOnHeartbeats(t *testing.T) {
	fake := &progressTasks{batchTasks: batchTasks{total: 1, settled: map[string]*enginev1.Settlement{}, all: make(chan struct{})}}
	done := fake.all
	fake.tasks = []*enginev1.Task{{AttemptId: "att-p", InputJson: `"p"`}}
	c := connectForTest(t, serveTasks(t, fake), "good")
	var refused []error
	w := NewWorker(c, WorkerOptions{Models: []string{"m"}, PollMs: 100, LeaseMs: 60_000}, func(ctx context.Context, task *Task) (Outcome, error) {
		for _, bad := range []func() error{
			func() error { return task.Progress(strings.Repeat("x", 513), nil) },
			func() error { return task.Progress("", map[string]any{"r": 0.5}) },
			func() error { return task.Progress("", []int64{1 << 53}) },
			func() error { return task.Progress("", make(chan int)) },
		} {
			if err := bad(); errors.Is(err, ErrProgressInvalid) {
				refused = append(refused, err)
			}
		}
		for step := 1; step <= 5; step++ {
			if err := ReportProgress(ctx, "step "+string(rune('0'+step))+" of 5", map[string]int{"step": step}); err != nil {
				return Outcome{}, err
			}
		}
		time.Sleep(300 * time.Millisecond)
		if err := task.Progress("step 6 of 5", map[string]int{"step": 6}); err != nil {
			return Outcome{}, err
		}
		time.Sleep(1500 * time.Millisecond)
		return Applied("done"), nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the task was not settled")
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if len(refused) != 4 {
		t.Errorf("refused %d bad reports, want 4: %v", len(refused), refused)
	}
	fake.beatsMu.Lock()
	defer fake.beatsMu.Unlock()
	n := len(fake.reports)
	if n < 2 || n > 3 {
		t.Fatalf("%d heartbeats carried reports, want 2 or 3 (coalesced)", n)
	}
	if last := fake.reports[n-1]; last.GetText() != "step 6 of 5" || last.GetDataJson() != `{"step":6}` {
		t.Errorf("the last report sent is %v", last)
	}
	if first := fake.reports[0]; !strings.HasPrefix(first.GetText(), "step ") || first.GetText() == "step 6 of 5" {
		t.Errorf("the first report sent is %v", first)
	}
	if gap := fake.times[n-1].Sub(fake.times[n-2]); gap < 900*time.Millisecond {
		t.Errorf("reports %v apart: not rate-limited to ProgressInterval", gap)
	}
}
