package praxis

import (
	"context"
	"net"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// fakeRegistry answers GetEpochs the way the engine does: a missing or wrong bearer token
// fails with UNAUTHENTICATED, an invalid work order id with INVALID_ARGUMENT and a
// BadRequest, and otherwise it returns epochs.
type fakeRegistry struct {
	enginev1.UnimplementedRegistryServiceServer
	token string
}

func (f fakeRegistry) GetEpochs(ctx context.Context, req *enginev1.GetEpochsRequest) (*enginev1.GetEpochsResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer "+f.token {
		return nil, engineError(codes.Unauthenticated, enginev1.ErrorReason_CREDENTIAL_MISSING)
	}
	if req.GetWorkOrderId() == "" || req.GetWorkOrderId() == "bad id" {
		return nil, engineError(codes.InvalidArgument, enginev1.ErrorReason_IDENTIFIER_INVALID,
			&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
				{Field: "work_order_id", Description: "not an identifier"},
			}})
	}
	return &enginev1.GetEpochsResponse{Epochs: &enginev1.Epochs{
		InstallationId: "inst-" + req.GetWorkOrderId(), OwnershipEpoch: 1, AuthorityEpoch: 9007199254740993,
	}}, nil
}

func engineError(code codes.Code, reason enginev1.ErrorReason, extra ...*errdetails.BadRequest) error {
	st, err := status.New(code, "message text is not part of the contract").WithDetails(
		&errdetails.ErrorInfo{Domain: ErrorDomain, Reason: reason.String()})
	if err != nil {
		panic(err)
	}
	for _, e := range extra {
		if st, err = st.WithDetails(e); err != nil {
			panic(err)
		}
	}
	return st.Err()
}

// startFakeServer serves fakeRegistry on a loopback port for the duration of the test.
func startFakeServer(t *testing.T, token string) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	enginev1.RegisterRegistryServiceServer(srv, fakeRegistry{token: token})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

func connectForTest(t *testing.T, address, token string) *Clients {
	t.Helper()
	c, err := Connect(address, token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
