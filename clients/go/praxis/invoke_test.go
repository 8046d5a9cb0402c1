package praxis

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// allServices are the services SPEC.md section 4 fixes; FindMethod must resolve them all.
var allServices = []string{
	"aiws.engine.v1.RegistryService", "aiws.engine.v1.ApprovalService",
	"aiws.engine.v1.AdminService", "aiws.engine.v1.RunService", "aiws.engine.v1.TaskService",
	"aiws.engine.v1.EventService", "aiws.engine.v1.ContractService",
	"aiws.engine.v1.ReconciliationService", "aiws.engine.v1.WaitService",
	"aiws.engine.v1.AssessmentService", "aiws.engine.v1.HandoffService",
	"aiws.engine.v1.ScheduleService", "aiws.engine.v1.WorkOrderService",
	"aiws.engine.testing.v1.TestClockService",
}

func TestFindMethodResolvesEveryMethodAndItsTypes(t *testing.T) {
	count := 0
	for _, name := range allServices {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(name))
		if err != nil {
			t.Fatalf("%s not registered: %v", name, err)
		}
		methods := d.(protoreflect.ServiceDescriptor).Methods()
		for i := 0; i < methods.Len(); i++ {
			m := methods.Get(i)
			short := name[strings.LastIndex(name, ".")+1:]
			for _, svc := range []string{name, short} {
				got, err := FindMethod(svc, string(m.Name()))
				if err != nil || got.FullName() != m.FullName() {
					t.Errorf("FindMethod(%s, %s) = %v, %v", svc, m.Name(), got, err)
				}
			}
			for _, md := range []protoreflect.MessageDescriptor{m.Input(), m.Output()} {
				if _, err := newMessage(md); err != nil {
					t.Errorf("%s: %v", m.FullName(), err)
				}
			}
			count++
		}
	}
	if count < 30 {
		t.Errorf("only %d methods found", count)
	}
	for _, bad := range [][2]string{{"RegistryService", "Nope"}, {"NopeService", "GetEpochs"},
		{"aiws.engine.v1.Epochs", "GetEpochs"}, {"registryservice", "GetEpochs"}} {
		if _, err := FindMethod(bad[0], bad[1]); err == nil {
			t.Errorf("FindMethod(%s, %s) succeeded", bad[0], bad[1])
		}
	}
}

// A proto-JSON request survives the conversion InvokeJSON does, including int64 values
// above 2^53 (strings in proto-JSON), enums by name, maps and oneofs.
func TestRequestJSONRoundTrip(t *testing.T) {
	in := `{"epochs":{"installationId":"i-1","ownershipEpoch":"9007199254740993","authorityEpoch":"2"},
		"requestId":"r-1","command":{"propose":{"ref":{"workOrderId":"wo-1","runId":"run-1"},
		"proposalId":"p-1","baseRevision":"3","definitionJson":"{\"version\":1}",
		"policyDigests":{"safety":"sha256:00"}}}}`
	md, err := FindMethod("RegistryService", "Execute")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := newMessage(md.Input())
	if err := protojson.Unmarshal([]byte(in), req.Interface()); err != nil {
		t.Fatal(err)
	}
	typed := req.Interface().(*enginev1.ExecuteRequest)
	if typed.GetEpochs().GetOwnershipEpoch() != 9007199254740993 ||
		typed.GetCommand().GetPropose().GetPolicyDigests()["safety"] != "sha256:00" {
		t.Errorf("decoded request = %v", typed)
	}
	out, err := marshalJSON(req)
	if err != nil {
		t.Fatal(err)
	}
	again := &enginev1.ExecuteRequest{}
	if err := protojson.Unmarshal(out, again); err != nil || !proto.Equal(again, typed) {
		t.Errorf("round trip changed the request: %s", out)
	}
	// snake_case names are accepted as well, as proto-JSON requires.
	snake := &enginev1.GetEpochsRequest{}
	if err := protojson.Unmarshal([]byte(`{"work_order_id":"wo-1"}`), snake); err != nil || snake.GetWorkOrderId() != "wo-1" {
		t.Errorf("snake_case request: %v, %v", snake, err)
	}
}

func TestInvokeJSON(t *testing.T) {
	c := connectForTest(t, startFakeServer(t, "secret"), "secret")
	ctx := context.Background()

	got, err := c.InvokeJSON(ctx, "RegistryService", "GetEpochs", []byte(`{"workOrderId": "wo-1"}`))
	want := `{"epochs":{"installationId":"inst-wo-1","ownershipEpoch":"1","authorityEpoch":"9007199254740993"}}`
	if err != nil || string(got) != want {
		t.Errorf("InvokeJSON = %s, %v; want %s", got, err, want)
	}

	_, err = c.InvokeJSON(ctx, "aiws.engine.v1.RegistryService", "GetEpochs", []byte(`{"workOrderId":"bad id"}`))
	if code, reason := ErrorReason(err); code != codes.InvalidArgument || reason != "IDENTIFIER_INVALID" {
		t.Errorf("InvokeJSON error = %v, %q", code, reason)
	}

	// The fake registers only RegistryService: other services answer UNIMPLEMENTED.
	_, err = c.InvokeJSON(ctx, "TestClockService", "Advance", []byte(`{"byMs":"5"}`))
	if code, _ := ErrorReason(err); code != codes.Unimplemented {
		t.Errorf("unregistered service: %v", err)
	}
}

func TestInvokeJSONLocalFailures(t *testing.T) {
	c := connectForTest(t, "127.0.0.1:1", "") // never dialled: each call fails before sending
	cases := map[string][3]string{
		"unknown field":    {"RegistryService", "GetEpochs", `{"workOrder":"wo-1"}`},
		"malformed json":   {"RegistryService", "GetEpochs", `{"workOrderId":`},
		"wrong type":       {"RegistryService", "GetEpochs", `{"workOrderId":1}`},
		"streaming method": {"RunService", "WatchRun", `{}`},
		"unknown method":   {"RunService", "Nope", `{}`},
	}
	for name, c3 := range cases {
		_, err := c.InvokeJSON(context.Background(), c3[0], c3[1], []byte(c3[2]))
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if _, isStatus := status.FromError(err); isStatus {
			t.Errorf("%s: local failure reported as a gRPC status: %v", name, err)
		}
	}
}

// fakeEvents streams the events after the request's cursor up to seq 3 and ends, or
// (with a run filter) stays open until the caller cancels; a negative cursor fails with
// PAGE_INVALID after no messages.
type fakeEvents struct {
	enginev1.UnimplementedEventServiceServer
}

func (fakeEvents) StreamEvents(req *enginev1.StreamEventsRequest, stream grpc.ServerStreamingServer[enginev1.StreamEventsResponse]) error {
	if req.GetAfter() < 0 {
		return engineError(codes.InvalidArgument, enginev1.ErrorReason_PAGE_INVALID)
	}
	for seq := req.GetAfter() + 1; seq <= 3; seq++ {
		event := &enginev1.Event{Seq: seq + 9007199254740990, Kind: enginev1.EventKind_EVENT_KIND_RUN_STARTED, RunId: "run-1"}
		if err := stream.Send(&enginev1.StreamEventsResponse{Event: event}); err != nil {
			return err
		}
	}
	if req.GetRunId() != "" {
		<-stream.Context().Done()
		return stream.Context().Err()
	}
	return nil
}

func TestInvokeStreamJSON(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	enginev1.RegisterEventServiceServer(srv, fakeEvents{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	c := connectForTest(t, lis.Addr().String(), "")

	read := func(s *JSONStream) ([]string, error) {
		var out []string
		for {
			msg, err := s.Recv()
			if err != nil {
				return out, err
			}
			out = append(out, string(msg))
		}
	}

	// Messages in proto-JSON (int64 above 2^53 as strings), then io.EOF.
	s, err := c.InvokeStreamJSON(context.Background(), "EventService", "StreamEvents", []byte(`{"after":"1"}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := read(s)
	want := []string{
		`{"event":{"seq":"9007199254740992","kind":"EVENT_KIND_RUN_STARTED","runId":"run-1"}}`,
		`{"event":{"seq":"9007199254740993","kind":"EVENT_KIND_RUN_STARTED","runId":"run-1"}}`,
	}
	if err != io.EOF || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stream = %v, %v; want %v, io.EOF", got, err, want)
	}

	// A refused call fails at the first Recv with the engine's reason.
	s, err = InvokeStreamJSON(context.Background(), c.Conn, "aiws.engine.v1.EventService", "StreamEvents", []byte(`{"after":"-1"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := read(s); len(got) != 0 {
		t.Errorf("refused stream sent %v", got)
	} else if code, reason := ErrorReason(err); code != codes.InvalidArgument || reason != "PAGE_INVALID" {
		t.Errorf("refused stream: %v, %q", code, reason)
	}

	// Cancelling the context ends a stream the server keeps open.
	ctx, cancel := context.WithCancel(context.Background())
	s, err = c.InvokeStreamJSON(ctx, "EventService", "StreamEvents", []byte(`{"runId":"run-1","after":"2"}`))
	if err != nil {
		t.Fatal(err)
	}
	if msg, err := s.Recv(); err != nil || !strings.Contains(string(msg), `"seq":"9007199254740993"`) {
		t.Fatalf("first message = %s, %v", msg, err)
	}
	cancel()
	if _, err := s.Recv(); status.Code(err) != codes.Canceled {
		t.Errorf("after cancel: %v", err)
	}
}

func TestInvokeStreamJSONLocalFailures(t *testing.T) {
	c := connectForTest(t, "127.0.0.1:1", "") // never dialled: each call fails before sending
	cases := map[string][3]string{
		"unknown field":  {"RunService", "WatchRun", `{"run":"r"}`},
		"malformed json": {"EventService", "StreamEvents", `{"after":`},
		"unary method":   {"RunService", "GetRun", `{}`},
		"unknown method": {"RunService", "Nope", `{}`},
	}
	for name, c3 := range cases {
		_, err := c.InvokeStreamJSON(context.Background(), c3[0], c3[1], []byte(c3[2]))
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if _, isStatus := status.FromError(err); isStatus {
			t.Errorf("%s: local failure reported as a gRPC status: %v", name, err)
		}
	}
}
