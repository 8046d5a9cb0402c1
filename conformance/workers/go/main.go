// Command scenario-worker is the Go scenario worker of the worker conformance suite
// (conformance/workers/README.md): the public praxis.Worker with the scripted handler.
// It prints ready, cancelled and stopped events as JSON lines on stdout, logs on stderr.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/praxis-engine/praxis/clients/go/praxis"
)

var printMu sync.Mutex

func emit(event map[string]string) {
	line, _ := json.Marshal(event)
	printMu.Lock()
	defer printMu.Unlock()
	fmt.Fprintln(os.Stdout, string(line))
}

// handle is the scripted handler: the input's "do" decides.
func handle(ctx context.Context, task *praxis.Task) (praxis.Outcome, error) {
	var spec map[string]any
	if json.Unmarshal(task.Input(), &spec) != nil || spec["do"] == nil {
		return praxis.Applied(map[string]json.RawMessage{"echo": task.Input()}), nil
	}
	result := func() any {
		if r, ok := spec["result"]; ok {
			return r
		}
		return task.Input()
	}
	text := func(key, fallback string) string {
		if s, ok := spec[key].(string); ok {
			return s
		}
		return fallback
	}
	switch spec["do"] {
	case "complete":
		return praxis.Applied(result()).WithCost(text("cost", "")), nil
	case "fail":
		retryable, _ := spec["retryable"].(bool)
		return praxis.NotApplied(text("error", "failed"), retryable), nil
	case "uncertain":
		if r, ok := spec["result"]; ok {
			return praxis.UncertainResult(r), nil
		}
		return praxis.Uncertain(text("error", "uncertain")), nil
	case "raise":
		// A plain error, never an outcome: the runtime settles it by the node's effects.
		return praxis.Outcome{}, errors.New(text("error", "raised"))
	case "sleep":
		ms, _ := spec["ms"].(float64)
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-ctx.Done():
			emit(map[string]string{"event": "cancelled", "attempt_id": task.GetAttemptId()})
		}
		return praxis.Applied(result()), nil
	case "hang":
		<-ctx.Done()
		emit(map[string]string{"event": "cancelled", "attempt_id": task.GetAttemptId()})
		switch text("then", "") {
		case "not_applied": // stopped before the effect: say so
			return praxis.NotApplied(text("error", "stopped before the effect"), false), nil
		case "applied": // the effect happened before the stop landed
			if r, ok := spec["result"]; ok {
				return praxis.Applied(r), nil
			}
		}
		return praxis.Applied(map[string]bool{"hung": true}), nil
	case "trace":
		// The attempt's traceparent and the span context current in the handler's
		// context, as the OpenTelemetry API sees it ("" when none is valid).
		current := ""
		if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
			current = fmt.Sprintf("00-%s-%s-%s", sc.TraceID(), sc.SpanID(), sc.TraceFlags())
		}
		return praxis.Applied(map[string]string{"traceparent": task.GetTraceparent(), "current": current}), nil
	case "progress":
		steps, _ := spec["steps"].(float64)
		ms, _ := spec["ms"].(float64)
		hold, _ := spec["hold_ms"].(float64)
		pause := func(d float64) bool {
			select {
			case <-time.After(time.Duration(d) * time.Millisecond):
				return true
			case <-ctx.Done():
				return false
			}
		}
		n := int(steps)
		for step := 1; step <= n; step++ {
			data := map[string]int{"step": step, "of": n}
			if err := task.Progress(fmt.Sprintf("step %d of %d", step, n), data); err != nil {
				return praxis.Outcome{}, err
			}
			if !pause(ms) {
				break
			}
		}
		pause(hold)
		return praxis.Applied(map[string]int{"steps": n}), nil
	case "unserializable":
		return praxis.Applied(map[string]any{"a channel": make(chan int)}), nil
	}
	return praxis.Applied(map[string]json.RawMessage{"echo": task.Input()}), nil
}

func main() {
	address := flag.String("address", "", "host:port of the server")
	token := flag.String("token", "", "bearer token")
	model := flag.String("model", "", "the model to claim")
	workerID := flag.String("worker-id", "", "the worker id")
	concurrency := flag.Int("concurrency", 4, "handlers at once")
	leaseMs := flag.Int64("lease-ms", 30_000, "lease per attempt")
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))

	clients, err := praxis.Connect(*address, *token)
	if err != nil {
		fmt.Fprintln(os.Stderr, "scenario worker:", err)
		os.Exit(2)
	}
	defer clients.Close()
	worker := praxis.NewWorker(clients, praxis.WorkerOptions{
		Models: []string{*model}, WorkerID: *workerID, Concurrency: *concurrency, LeaseMs: *leaseMs,
	}, handle)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := worker.Start(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "scenario worker:", err)
		os.Exit(2)
	}
	emit(map[string]string{"event": "ready"})
	if err := worker.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "scenario worker:", err)
		os.Exit(3)
	}
	emit(map[string]string{"event": "stopped"})
}
