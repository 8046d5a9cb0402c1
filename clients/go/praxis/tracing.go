package praxis

import (
	"context"
	"encoding/hex"

	"go.opentelemetry.io/otel/trace"
)

// A server that exports traces hands each task its attempt's span as a W3C traceparent
// (Task.GetTraceparent). The worker runs the handler with that span as the remote parent
// on the handler's context (trace.ContextWithRemoteSpanContext), so a span the handler
// starts from ctx with any OpenTelemetry SDK sits under the attempt, in the run's trace.
// Only the OpenTelemetry API (go.opentelemetry.io/otel/trace) is needed; without a
// registered SDK, spans are no-ops and nothing changes.

// attemptContext returns ctx with the attempt's span (traceparent) as its remote parent,
// or ctx unchanged when traceparent is empty or not a valid W3C traceparent.
func attemptContext(ctx context.Context, traceparent string) context.Context {
	sc, ok := parseTraceparent(traceparent)
	if !ok {
		return ctx
	}
	return trace.ContextWithRemoteSpanContext(ctx, sc)
}

// parseTraceparent parses a W3C Trace Context traceparent
// ("<version>-<32 hex trace id>-<16 hex span id>-<2 hex flags>", lowercase hex): version
// "ff" is invalid, version "00" has exactly these four fields, a later version may append
// "-<more>"; an all-zero trace or span id is invalid. Only the sampled flag is kept (the
// one version 00 defines). The span context is marked remote.
func parseTraceparent(s string) (trace.SpanContext, bool) {
	const size = 55 // 2 + 1 + 32 + 1 + 16 + 1 + 2
	if len(s) < size || s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return trace.SpanContext{}, false
	}
	version, ok := lowerHex(s[0:2])
	if !ok || version[0] == 0xff || (version[0] == 0 && len(s) != size) || (len(s) > size && s[size] != '-') {
		return trace.SpanContext{}, false
	}
	traceID, okT := lowerHex(s[3:35])
	spanID, okS := lowerHex(s[36:52])
	flags, okF := lowerHex(s[53:55])
	if !okT || !okS || !okF {
		return trace.SpanContext{}, false
	}
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID:    trace.TraceID(traceID),
		SpanID:     trace.SpanID(spanID),
		TraceFlags: trace.TraceFlags(flags[0]) & trace.FlagsSampled,
		Remote:     true,
	})
	return sc, sc.IsValid() // IsValid: neither id is all zeros
}

// lowerHex decodes s when it is lowercase hexadecimal only (W3C forbids uppercase).
func lowerHex(s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return nil, false
		}
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}
