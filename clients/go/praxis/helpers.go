package praxis

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/protobuf/proto"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// ToJSON returns v as canonical JSON for an `*_json` field: object keys sorted, no
// insignificant whitespace, numbers as encoding/json writes them (a json.Number or
// json.RawMessage passes through unchanged).
func ToJSON(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("praxis: encode JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep their exact text
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return "", fmt.Errorf("praxis: encode JSON: %w", err)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(generic); err != nil { // maps encode with sorted keys
		return "", fmt.Errorf("praxis: encode JSON: %w", err)
	}
	return string(bytes.TrimRight(out.Bytes(), "\n")), nil
}

// FromJSON decodes an `*_json` field into a T ("" decodes as null).
func FromJSON[T any](document string) (T, error) {
	var v T
	if document == "" {
		document = "null"
	}
	if err := json.Unmarshal([]byte(document), &v); err != nil {
		return v, fmt.Errorf("praxis: decode JSON: %w", err)
	}
	return v, nil
}

// IsTerminal reports whether a run state is final: COMPLETED, FAILED or CANCELLED.
func IsTerminal(state enginev1.RunState) bool {
	switch state {
	case enginev1.RunState_RUN_STATE_COMPLETED, enginev1.RunState_RUN_STATE_FAILED,
		enginev1.RunState_RUN_STATE_CANCELLED:
		return true
	}
	return false
}

// RunFailed is the error of ResultOf for a run that did not complete.
type RunFailed struct {
	RunID        string
	State        enginev1.RunState
	ResultReason string // an ErrorReason name such as BUDGET_EXCEEDED, or ""
	ResultError  string
}

func (e *RunFailed) Error() string {
	return fmt.Sprintf("praxis: run %s ended %s: %s %s", e.RunID, e.State, e.ResultReason, e.ResultError)
}

// ResultOf decodes the result of a COMPLETED run into a T, or returns a *RunFailed for
// a run that ended otherwise.
func ResultOf[T any](run *enginev1.Run) (T, error) {
	if run.GetState() != enginev1.RunState_RUN_STATE_COMPLETED {
		var zero T
		return zero, &RunFailed{RunID: run.GetRunId(), State: run.GetState(),
			ResultReason: run.GetResultReason(), ResultError: run.GetResultError()}
	}
	return FromJSON[T](run.GetResultJson())
}

// RunAndWait starts a run (a request_id is generated when req has none; retrying the
// same one returns the existing run) and follows it with WatchRun until it is
// COMPLETED, FAILED or CANCELLED, watching again after transient errors and server
// restarts. It returns the final Run; read its result with ResultOf. ctx bounds the
// whole wait.
func (c *Clients) RunAndWait(ctx context.Context, req *enginev1.StartRunRequest) (*enginev1.Run, error) {
	if req.GetRequestId() == "" {
		req = proto.Clone(req).(*enginev1.StartRunRequest)
		req.RequestId = "run-" + randomHex(8)
	}
	var started *enginev1.StartRunResponse
	if err := retryTransient(ctx, func(ctx context.Context) (err error) {
		started, err = c.Runs.StartRun(ctx, req)
		return err
	}); err != nil {
		return nil, err
	}
	return c.WaitForRun(ctx, started.GetRun().GetRunId())
}

// WaitForRun follows a run with WatchRun until it is terminal and returns its final
// snapshot, watching again after transient errors.
func (c *Clients) WaitForRun(ctx context.Context, runID string) (*enginev1.Run, error) {
	b := backoff{}
	for {
		run, err := c.watchOnce(ctx, runID)
		if run != nil && IsTerminal(run.GetState()) {
			return run, nil
		}
		if ctx.Err() != nil {
			return run, ctx.Err()
		}
		if err != nil && !transient(err) {
			return run, err
		}
		if !sleepCtx(ctx, b.next()) {
			return run, ctx.Err()
		}
	}
}

// watchOnce reads one WatchRun stream until a terminal snapshot or the stream's end.
func (c *Clients) watchOnce(ctx context.Context, runID string) (*enginev1.Run, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.Runs.WatchRun(ctx, &enginev1.WatchRunRequest{RunId: runID})
	if err != nil {
		return nil, err
	}
	var last *enginev1.Run
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return last, nil
		}
		if err != nil {
			return last, err
		}
		last = resp.GetRun()
		if IsTerminal(last.GetState()) {
			return last, nil
		}
	}
}

// ReviewApproveExecute is the human-tool flow for a registry command that needs an
// approval (REGISTER, ACTIVATE or REJECT; its approval_id is set here): Review the
// command under epochs (read with GetEpochs when nil), record the approval of the exact
// material digest as approver (clients holding the human's token), then Execute the
// command with that approval_id on c, reusing one request_id on every retry of a
// transient error. It returns the ExecuteResponse.
func (c *Clients) ReviewApproveExecute(ctx context.Context, approver *Clients,
	command *enginev1.RegistryCommand, epochs *enginev1.Epochs,
) (*enginev1.ExecuteResponse, error) {
	command = proto.Clone(command).(*enginev1.RegistryCommand)
	ref, setApproval := commandApproval(command)
	if setApproval == nil {
		return nil, errors.New("praxis: ReviewApproveExecute takes a REGISTER, ACTIVATE or REJECT command")
	}
	if epochs == nil {
		var got *enginev1.GetEpochsResponse
		if err := retryTransient(ctx, func(ctx context.Context) (err error) {
			got, err = c.Registry.GetEpochs(ctx, &enginev1.GetEpochsRequest{WorkOrderId: ref.GetWorkOrderId()})
			return err
		}); err != nil {
			return nil, err
		}
		epochs = got.GetEpochs()
	}
	var review *enginev1.ReviewResponse
	if err := retryTransient(ctx, func(ctx context.Context) (err error) {
		review, err = c.Registry.Review(ctx, &enginev1.ReviewRequest{Epochs: epochs, Command: command})
		return err
	}); err != nil {
		return nil, err
	}
	approvalID := "approval-" + randomHex(8)
	if err := retryTransient(ctx, func(ctx context.Context) error {
		_, err := approver.Approvals.CreateApproval(ctx, &enginev1.CreateApprovalRequest{
			ApprovalId: approvalID, MaterialDigest: review.GetMaterialDigest(),
			ExpiresAtMs: time.Now().Add(10 * time.Minute).UnixMilli(), WorkOrderId: ref.GetWorkOrderId(),
		})
		return err
	}); err != nil {
		return nil, err
	}
	setApproval(approvalID)
	req := &enginev1.ExecuteRequest{Epochs: epochs, RequestId: "execute-" + randomHex(8), Command: command}
	var resp *enginev1.ExecuteResponse
	err := retryTransient(ctx, func(ctx context.Context) (err error) {
		resp, err = c.Registry.Execute(ctx, req)
		return err
	})
	return resp, err
}

// commandApproval returns the ref of a command that needs an approval and a setter of
// its approval_id (nil for any other command).
func commandApproval(command *enginev1.RegistryCommand) (*enginev1.WorkflowRef, func(string)) {
	switch {
	case command.GetRegister() != nil:
		c := command.GetRegister()
		return c.GetRef(), func(id string) { c.ApprovalId = id }
	case command.GetActivate() != nil:
		c := command.GetActivate()
		return c.GetRef(), func(id string) { c.ApprovalId = id }
	case command.GetReject() != nil:
		c := command.GetReject()
		return c.GetRef(), func(id string) { c.ApprovalId = id }
	}
	return nil, nil
}

// retryTransient runs call until it succeeds, fails otherwise than transiently, or ctx
// ends, with the worker's backoff.
func retryTransient(ctx context.Context, call func(ctx context.Context) error) error {
	b := backoff{}
	for {
		err := call(ctx)
		if err == nil || !transient(err) {
			return err
		}
		if !sleepCtx(ctx, b.next()) {
			return err
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
