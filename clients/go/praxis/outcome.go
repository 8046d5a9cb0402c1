package praxis

import (
	"encoding/json"
	"errors"
	"fmt"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// Outcome is how a worker handler settles its attempt: a result or a failure, the
// effect the handler observed on the outside world, and an optional cost. Build one with
// Applied, NotApplied, Uncertain or UncertainResult, then add a cost with WithCost.
type Outcome struct {
	complete  bool
	result    any
	effect    enginev1.EffectOutcome
	message   string
	retryable bool
	cost      string
}

// Applied completes the attempt with result (any value encoding/json can encode; a Go
// string for text outputs; a json.RawMessage is sent as it is): the effect happened.
func Applied(result any) Outcome {
	return Outcome{complete: true, result: result, effect: enginev1.EffectOutcome_EFFECT_OUTCOME_APPLIED}
}

// NotApplied fails the attempt with message: the effect did not happen, so a retry is
// safe. With retryable the node is retried while its retry policy allows; without it
// the node fails at once.
func NotApplied(message string, retryable bool) Outcome {
	return Outcome{message: message, retryable: retryable, effect: enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED}
}

// Uncertain fails the attempt with message when the handler cannot tell whether the
// effect happened. The node is BLOCKED until a human reconciles it; it is never retried
// automatically.
func Uncertain(message string) Outcome {
	return Outcome{message: message, effect: enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN}
}

// UncertainResult completes the attempt with result but says the effect is uncertain:
// the node is BLOCKED until a human reconciles it.
func UncertainResult(result any) Outcome {
	return Outcome{complete: true, result: result, effect: enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN}
}

// WithCost returns o carrying the attempt's cost in microcredits, a canonical decimal
// string ("12.5", never "12.50" or "1e3"); the run's contract counts it against its
// budget. A cost that is not canonical fails the attempt without a retry.
func (o Outcome) WithCost(microcredits string) Outcome {
	o.cost = microcredits
	return o
}

// Effect is the effect outcome the handler reported.
func (o Outcome) Effect() enginev1.EffectOutcome { return o.effect }

// PermanentError marks a handler error that must not be retried; see Permanent.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent wraps err so that a handler returning it fails the attempt without a retry
// (effect NOT_APPLIED) on any node. Any other error a handler returns (or a panic) says
// nothing of the effect: it fails the attempt retryably (NOT_APPLIED) only when the node
// is retry-safe (Task.RetrySafe), else with effect UNCERTAIN.
func Permanent(err error) error { return &PermanentError{Err: err} }

// maxErrorText bounds the failure text a worker sends (characters); longer text is cut.
const maxErrorText = 4000

// settlement turns what a handler returned into the settlement to send. It never
// fails: every problem (an unencodable result, a bad cost, a panic, an error) becomes a
// failure with a clear message; bug is true for a handler bug (unencodable result,
// invalid cost, zero outcome), which the worker logs at ERROR. retrySafe (the node
// declares its effects none or idempotent) decides how an error other than Permanent
// settles: NOT_APPLIED and retryable, or else UNCERTAIN (docs/workers.md, Outcomes).
func settlement(attemptID, workerID string, o Outcome, err error, retrySafe bool) (s *enginev1.Settlement, bug bool) {
	fail := func(message string, retryable bool, effect enginev1.EffectOutcome) *enginev1.Settlement {
		if r := []rune(message); len(r) > maxErrorText {
			message = string(r[:maxErrorText])
		}
		return &enginev1.Settlement{Outcome: &enginev1.Settlement_Fail{Fail: &enginev1.FailTaskRequest{
			AttemptId: attemptID, WorkerId: workerID, Error: message, Retryable: retryable,
			Effect: effect, CostMicrocredits: o.cost,
		}}}
	}
	if err != nil {
		var permanent *PermanentError
		if errors.As(err, &permanent) {
			return fail(err.Error(), false, enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED), false
		}
		// A crash says nothing of the effect: assumed not applied only where a repeat is safe.
		if retrySafe {
			return fail(err.Error(), true, enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED), false
		}
		return fail(err.Error(), false, enginev1.EffectOutcome_EFFECT_OUTCOME_UNCERTAIN), false
	}
	if o.effect == enginev1.EffectOutcome_EFFECT_OUTCOME_UNSPECIFIED {
		return fail("worker handler returned neither an outcome nor an error (a zero praxis.Outcome)",
			false, enginev1.EffectOutcome_EFFECT_OUTCOME_NOT_APPLIED), true
	}
	if o.cost != "" {
		if why := costProblem(o.cost); why != "" {
			bad := o.cost
			o.cost = ""
			return fail(fmt.Sprintf("invalid cost %q: %s", bad, why), false, o.effect), true
		}
	}
	if !o.complete {
		return fail(o.message, o.retryable, o.effect), false
	}
	raw, merr := encodeResult(o.result)
	if merr != nil {
		return fail(fmt.Sprintf("result is not JSON-serialisable: %v", merr), false, o.effect), true
	}
	return &enginev1.Settlement{Outcome: &enginev1.Settlement_Complete{Complete: &enginev1.CompleteTaskRequest{
		AttemptId: attemptID, WorkerId: workerID, ResultJson: raw, Effect: o.effect, CostMicrocredits: o.cost,
	}}}, false
}

// costProblem says why cost is not a canonical non-negative decimal ("" when it is).
func costProblem(cost string) string {
	if CheckDecimal(cost) != nil {
		return "not a canonical decimal (digits, an optional fraction without trailing zeros, no exponent)"
	}
	if cost[0] == '-' {
		return "negative"
	}
	return ""
}

func encodeResult(v any) (string, error) {
	if raw, ok := v.(json.RawMessage); ok {
		if !json.Valid(raw) {
			return "", errors.New("json.RawMessage result is not valid JSON")
		}
		return string(raw), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("%T: %w", v, err)
	}
	return string(b), nil
}
