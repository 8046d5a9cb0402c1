package praxis

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

func TestTokenIsSentAndAccepted(t *testing.T) {
	c := connectForTest(t, startFakeServer(t, "secret"), "secret")
	resp, err := c.Registry.GetEpochs(context.Background(), &enginev1.GetEpochsRequest{WorkOrderId: "wo-1"})
	if err != nil {
		t.Fatalf("GetEpochs: %v", err)
	}
	if got := resp.GetEpochs().GetInstallationId(); got != "inst-wo-1" {
		t.Errorf("installation id = %q", got)
	}
}

func TestErrorReasonOfWrongToken(t *testing.T) {
	for _, token := range []string{"", "wrong"} {
		c := connectForTest(t, startFakeServer(t, "secret"), token)
		_, err := c.Registry.GetEpochs(context.Background(), &enginev1.GetEpochsRequest{WorkOrderId: "wo-1"})
		code, reason := ErrorReason(err)
		if code != codes.Unauthenticated || reason != "CREDENTIAL_MISSING" {
			t.Errorf("token %q: ErrorReason = %v, %q", token, code, reason)
		}
		if v := FieldViolations(err); v != nil {
			t.Errorf("token %q: FieldViolations = %v, want nil", token, v)
		}
	}
}

func TestErrorReasonAndFieldViolations(t *testing.T) {
	c := connectForTest(t, startFakeServer(t, "secret"), "secret")
	_, err := c.Registry.GetEpochs(context.Background(), &enginev1.GetEpochsRequest{WorkOrderId: "bad id"})
	// Wrapping must not hide the status.
	err = fmt.Errorf("get epochs: %w", err)
	code, reason := ErrorReason(err)
	if code != codes.InvalidArgument || reason != enginev1.ErrorReason_IDENTIFIER_INVALID.String() {
		t.Errorf("ErrorReason = %v, %q", code, reason)
	}
	v := FieldViolations(err)
	if len(v) != 1 || v[0].GetField() != "work_order_id" {
		t.Errorf("FieldViolations = %v", v)
	}
}

func TestErrorReasonWithoutEngineDetail(t *testing.T) {
	cases := map[string]struct {
		err  error
		code codes.Code
	}{
		"nil":         {nil, codes.OK},
		"plain error": {errors.New("boom"), codes.Unknown},
		"bare status": {status.Error(codes.Unavailable, "down"), codes.Unavailable},
	}
	for name, c := range cases {
		code, reason := ErrorReason(c.err)
		if code != c.code || reason != "" {
			t.Errorf("%s: ErrorReason = %v, %q; want %v, \"\"", name, code, reason, c.code)
		}
	}
	// An ErrorInfo of another domain is not an engine reason.
	foreign, err := status.New(codes.Internal, "x").WithDetails(
		&errdetails.ErrorInfo{Domain: "googleapis.com", Reason: "INTERNAL_FAULT"})
	if err != nil {
		t.Fatal(err)
	}
	if code, reason := ErrorReason(foreign.Err()); code != codes.Internal || reason != "" {
		t.Errorf("foreign ErrorInfo: ErrorReason = %v, %q", code, reason)
	}
}

func TestCodeName(t *testing.T) {
	cases := map[codes.Code]string{
		codes.OK:                 "OK",
		codes.Canceled:           "CANCELLED",
		codes.FailedPrecondition: "FAILED_PRECONDITION",
		codes.Unauthenticated:    "UNAUTHENTICATED",
		codes.Code(42):           "CODE(42)",
	}
	for c, want := range cases {
		if got := CodeName(c); got != want {
			t.Errorf("CodeName(%d) = %q, want %q", c, got, want)
		}
	}
}
