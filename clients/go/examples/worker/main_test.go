package main

import (
	"context"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// fakeTasks serves one task, then empty claims; it has no SettleTasks (UNIMPLEMENTED),
// so the worker falls back to CompleteTask.
type fakeTasks struct {
	enginev1.UnimplementedTaskServiceServer
	mu        sync.Mutex
	served    bool
	completed chan *enginev1.CompleteTaskRequest
}

func (f *fakeTasks) ClaimTasks(ctx context.Context, req *enginev1.ClaimTasksRequest) (*enginev1.ClaimTasksResponse, error) {
	f.mu.Lock()
	first := !f.served && req.GetModels()[0] == "summarise"
	f.served = f.served || first
	f.mu.Unlock()
	if first {
		return &enginev1.ClaimTasksResponse{Tasks: []*enginev1.Task{{
			AttemptId: "att-1", NodeUid: "a", InputJson: `{"text":"` + strings.Repeat("é", 150) + `"}`,
		}}}, nil
	}
	select {
	case <-ctx.Done():
	case <-time.After(min(time.Duration(req.GetWaitMs())*time.Millisecond, 200*time.Millisecond)):
	}
	return &enginev1.ClaimTasksResponse{}, nil
}

func (f *fakeTasks) CompleteTask(_ context.Context, req *enginev1.CompleteTaskRequest) (*enginev1.CompleteTaskResponse, error) {
	f.completed <- req
	return &enginev1.CompleteTaskResponse{}, nil
}

// The README's worker runs as written: it completes a task, then stops on SIGTERM.
func TestReadmeWorkerRuns(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeTasks{completed: make(chan *enginev1.CompleteTaskRequest, 1)}
	srv := grpc.NewServer()
	enginev1.RegisterTaskServiceServer(srv, fake)
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	t.Setenv("PRAXIS_ADDRESS", lis.Addr().String())
	t.Setenv("PRAXIS_TOKEN", "t")

	stopped := make(chan struct{})
	go func() { defer close(stopped); main() }()
	select {
	case req := <-fake.completed:
		if req.GetResultJson() != `{"summary":"`+strings.Repeat("é", 100)+`"}` || req.GetCostMicrocredits() != "12.5" ||
			req.GetEffect() != enginev1.EffectOutcome_EFFECT_OUTCOME_APPLIED || req.GetAttemptId() != "att-1" {
			t.Errorf("completed with %v", req)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the worker completed nothing")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-time.After(20 * time.Second):
		t.Fatal("the worker did not stop on SIGTERM")
	}
}
