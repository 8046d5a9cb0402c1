package praxis

import (
	"context"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

const testTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// Strict W3C parsing: the valid forms give a remote span context, anything else none.
func TestParseTraceparent(t *testing.T) {
	sc, ok := parseTraceparent(testTraceparent)
	if !ok || sc.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" ||
		sc.SpanID().String() != "00f067aa0ba902b7" || !sc.IsSampled() || !sc.IsRemote() {
		t.Fatalf("parse(%q) = %v, %v", testTraceparent, sc, ok)
	}
	if sc, ok := parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"); !ok || sc.IsSampled() {
		t.Errorf("an unsampled traceparent parsed as %v, %v", sc, ok)
	}
	if sc, ok := parseTraceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-later"); !ok || !sc.IsSampled() || sc.TraceFlags() != trace.FlagsSampled {
		t.Errorf("a later version with more fields parsed as %v, %v", sc, ok)
	}
	for _, bad := range []string{
		"",
		"garbage",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", // version 00 has 4 fields
		"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",       // version ff
		"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",       // uppercase
		"00-00000000000000000000000000000000-00f067aa0ba902b7-01",       // zero trace id
		"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",       // zero span id
		"00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",       // misplaced dash
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",       // non-hex flags
		"0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",       // non-hex version
		" 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",      // whitespace
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 ",      // whitespace
		"cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",      // later version, no dash
		"00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",       // wrong separators
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",        // short flags
	} {
		if sc, ok := parseTraceparent(bad); ok || sc.IsValid() {
			t.Errorf("parse(%q) = %v, want invalid", bad, sc)
		}
	}
}

// A span the handler starts is a child of the task's traceparent (same trace, parent span
// id = the attempt's span id, remote); with an empty or malformed traceparent the span is
// a root and the handler still runs.
func TestHandlerSpansContinueTheAttemptTrace(t *testing.T) {
	exporter := tracetest.NewInMemoryExporter()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	defer func() { _ = provider.Shutdown(context.Background()) }()
	tracer := provider.Tracer("praxis-worker-test")

	inputs := map[string]string{
		"att-traced":    testTraceparent,
		"att-empty":     "",
		"att-malformed": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
	}
	fake := &batchTasks{total: len(inputs), settled: map[string]*enginev1.Settlement{}, all: make(chan struct{})}
	for id, tp := range inputs {
		fake.tasks = append(fake.tasks, &enginev1.Task{AttemptId: id, Traceparent: tp, InputJson: `"x"`})
	}
	done := fake.all
	c := connectForTest(t, serveTasks(t, fake), "good")
	w := NewWorker(c, WorkerOptions{Models: []string{"m"}, Concurrency: 3, PollMs: 100}, func(ctx context.Context, task *Task) (Outcome, error) {
		_, span := tracer.Start(ctx, "handler "+task.GetAttemptId())
		span.End()
		return Applied(task.GetAttemptId()), nil
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

	spans := map[string]tracetest.SpanStub{}
	for _, s := range exporter.GetSpans() {
		spans[strings.TrimPrefix(s.Name, "handler ")] = s
	}
	if len(spans) != len(inputs) {
		t.Fatalf("recorded %d handler spans, want %d", len(spans), len(inputs))
	}
	for id := range inputs {
		if c := fake.settled[id].GetComplete(); c == nil || c.GetResultJson() != `"`+id+`"` {
			t.Errorf("%s settled as %v", id, fake.settled[id])
		}
	}
	traced := spans["att-traced"]
	if got := traced.SpanContext.TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("the handler's span is in trace %s", got)
	}
	if p := traced.Parent; p.SpanID().String() != "00f067aa0ba902b7" || !p.IsRemote() || !p.IsSampled() {
		t.Errorf("the handler's span has parent %v", p)
	}
	for _, id := range []string{"att-empty", "att-malformed"} {
		s := spans[id]
		if s.Parent.IsValid() || !s.SpanContext.IsValid() {
			t.Errorf("%s: want a valid root span, got parent %v", id, s.Parent)
		}
		if s.SpanContext.TraceID() == traced.SpanContext.TraceID() {
			t.Errorf("%s: the root span reused the attempt's trace id", id)
		}
	}
}
