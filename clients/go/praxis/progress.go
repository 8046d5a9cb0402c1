package praxis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

const (
	// MaxProgressTextBytes is the cap on a progress report's text, in UTF-8 bytes.
	MaxProgressTextBytes = 512
	// MaxProgressDataBytes is the cap on a progress report's data, in bytes of JSON.
	MaxProgressDataBytes = 1024
	// ProgressInterval is how long a progress report waits at most after the attempt's
	// previous heartbeat (the rate limit: about one heartbeat a second carries a report).
	ProgressInterval = time.Second
	maxSafeInteger   = 1<<53 - 1
)

// ErrProgressInvalid is wrapped by the error of a progress report past the server's caps.
var ErrProgressInvalid = errors.New("praxis: progress report refused")

// progressBox holds an attempt's report not yet sent and wakes its heartbeat loop.
type progressBox struct {
	mu      sync.Mutex
	pending *enginev1.ProgressReport
	wake    chan struct{}
}

func newTask(t *enginev1.Task) *Task {
	return &Task{Task: t, progress: &progressBox{wake: make(chan struct{}, 1)}}
}

// Progress reports how far the handler got (docs/workers.md 4a): a short text and/or
// JSON-encodable data (nil for none). The report replaces one not yet sent and goes with
// the attempt's next heartbeat, brought forward: at once, or ProgressInterval after the
// previous one. It returns an error wrapping ErrProgressInvalid, and sends nothing, when
// text is over 512 UTF-8 bytes or data is not JSON of safe integers within 1,024 bytes.
func (t *Task) Progress(text string, data any) error {
	report, err := ProgressReport(text, data)
	if err != nil {
		return err
	}
	if t.progress == nil {
		return fmt.Errorf("%w: the task is not run by a Worker", ErrProgressInvalid)
	}
	t.progress.mu.Lock()
	t.progress.pending = report
	t.progress.mu.Unlock()
	select {
	case t.progress.wake <- struct{}{}:
	default:
	}
	return nil
}

// ReportProgress is Task.Progress for a handler that has only its context (TypedHandler).
func ReportProgress(ctx context.Context, text string, data any) error {
	task, ok := ctx.Value(taskKey{}).(*Task)
	if !ok {
		return fmt.Errorf("%w: the context is not a Worker handler's", ErrProgressInvalid)
	}
	return task.Progress(text, data)
}

type taskKey struct{}

func (t *Task) takeProgress() *enginev1.ProgressReport {
	t.progress.mu.Lock()
	defer t.progress.mu.Unlock()
	report := t.progress.pending
	t.progress.pending = nil
	return report
}

// restoreProgress keeps an unsent report for the next heartbeat unless a newer one waits.
func (t *Task) restoreProgress(report *enginev1.ProgressReport) {
	t.progress.mu.Lock()
	defer t.progress.mu.Unlock()
	if t.progress.pending == nil {
		t.progress.pending = report
	}
}

// ProgressReport checks a report against the server's caps and builds its message.
func ProgressReport(text string, data any) (*enginev1.ProgressReport, error) {
	if len(text) > MaxProgressTextBytes {
		return nil, fmt.Errorf("%w: text is %d bytes; at most %d", ErrProgressInvalid, len(text), MaxProgressTextBytes)
	}
	if data == nil {
		return &enginev1.ProgressReport{Text: text}, nil
	}
	encoded, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("%w: data: %v", ErrProgressInvalid, err)
	}
	if len(encoded) > MaxProgressDataBytes {
		return nil, fmt.Errorf("%w: data is %d bytes of JSON; at most %d", ErrProgressInvalid, len(encoded), MaxProgressDataBytes)
	}
	decoder := json.NewDecoder(bytes.NewReader(encoded))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		return nil, fmt.Errorf("%w: data: %v", ErrProgressInvalid, err)
	}
	if err := safeNumbers(value); err != nil {
		return nil, err
	}
	return &enginev1.ProgressReport{Text: text, DataJson: string(encoded)}, nil
}

// safeNumbers refuses what the document profile refuses: fractions and integers past 2^53-1.
func safeNumbers(value any) error {
	switch v := value.(type) {
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || n > maxSafeInteger || n < -maxSafeInteger {
			return fmt.Errorf("%w: data: %s is not a safe integer (send it as a string)", ErrProgressInvalid, v)
		}
	case []any:
		for _, item := range v {
			if err := safeNumbers(item); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, item := range v {
			if err := safeNumbers(item); err != nil {
				return err
			}
		}
	}
	return nil
}

// resetTimer moves timer to fire after d (Go 1.22: stop and drain first).
func resetTimer(timer *time.Timer, d time.Duration) {
	if !timer.Stop() {
		select {
		case <-timer.C:
		default:
		}
	}
	timer.Reset(d)
}
