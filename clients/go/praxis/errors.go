package praxis

import (
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrorDomain is the `google.rpc.ErrorInfo.domain` of every error the engine reports.
const ErrorDomain = "engine.aiws"

// ErrorReason returns the gRPC code of a failed call and the reason of its engine
// `google.rpc.ErrorInfo` (the name of an enginev1.ErrorReason value, such as
// "EPOCH_MISMATCH"). The reason is "" when the status carries no ErrorInfo of the
// engine's domain (for example a transport failure). A nil error gives (codes.OK, "");
// an error that is not a gRPC status gives codes.Unknown. Compare reasons with
// enginev1.ErrorReason_EPOCH_MISMATCH.String().
func ErrorReason(err error) (codes.Code, string) {
	st := status.Convert(err)
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == ErrorDomain {
			return st.Code(), info.GetReason()
		}
	}
	return st.Code(), ""
}

// FieldViolations returns the `google.rpc.BadRequest` field violations of a failed call,
// or nil when it carries none.
func FieldViolations(err error) []*errdetails.BadRequest_FieldViolation {
	var out []*errdetails.BadRequest_FieldViolation
	for _, d := range status.Convert(err).Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			out = append(out, br.GetFieldViolations()...)
		}
	}
	return out
}

// codeNames are the canonical names of the gRPC codes, indexed by code.
var codeNames = [...]string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
	"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
	"UNAUTHENTICATED",
}

// CodeName returns the canonical name of a gRPC code as the protos and conformance
// vectors spell it ("FAILED_PRECONDITION"), or "CODE(n)" for a code outside the set.
func CodeName(c codes.Code) string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("CODE(%d)", uint32(c))
}
