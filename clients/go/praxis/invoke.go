package praxis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	// The generated packages register every Praxis service and message with the global
	// registries that FindMethod and InvokeJSON read (connect.go imports them too).
	_ "github.com/praxis-engine/praxis/clients/go/aiws/engine/testing/v1"
	_ "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// servicePackages are tried, in order, for a service name given without its package.
var servicePackages = []string{"aiws.engine.v1", "aiws.engine.testing.v1"}

// FindMethod resolves a method by service and method name. The service is a full name
// ("aiws.engine.v1.RegistryService") or a bare name ("RegistryService", "TestClockService").
func FindMethod(service, method string) (protoreflect.MethodDescriptor, error) {
	names := []string{service}
	if !strings.Contains(service, ".") {
		names = names[:0]
		for _, pkg := range servicePackages {
			names = append(names, pkg+"."+service)
		}
	}
	for _, name := range names {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(name))
		if err != nil {
			continue
		}
		sd, ok := d.(protoreflect.ServiceDescriptor)
		if !ok {
			break
		}
		if md := sd.Methods().ByName(protoreflect.Name(method)); md != nil {
			return md, nil
		}
		return nil, fmt.Errorf("praxis: service %s has no method %q", sd.FullName(), method)
	}
	return nil, fmt.Errorf("praxis: unknown service %q", service)
}

// InvokeJSON calls one unary RPC by service and method name (see FindMethod) with a
// request in proto-JSON form and returns the response in proto-JSON form (compact, so
// byte-stable). Unknown request fields are rejected. A failed call returns the gRPC error
// unchanged: read it with ErrorReason and FieldViolations. Local problems (unknown
// method, streaming method, malformed JSON) return errors that carry no gRPC status.
func InvokeJSON(ctx context.Context, conn grpc.ClientConnInterface, service, method string,
	requestJSON []byte, opts ...grpc.CallOption,
) ([]byte, error) {
	md, err := FindMethod(service, method)
	if err != nil {
		return nil, err
	}
	if md.IsStreamingClient() || md.IsStreamingServer() {
		return nil, fmt.Errorf("praxis: %s is a streaming method; InvokeJSON calls unary methods only", md.FullName())
	}
	req, err := newMessage(md.Input())
	if err != nil {
		return nil, err
	}
	if err := protojson.Unmarshal(requestJSON, req.Interface()); err != nil {
		return nil, fmt.Errorf("praxis: request for %s: %w", md.FullName(), err)
	}
	resp, err := newMessage(md.Output())
	if err != nil {
		return nil, err
	}
	path := "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
	if err := conn.Invoke(ctx, path, req.Interface(), resp.Interface(), opts...); err != nil {
		return nil, err
	}
	return marshalJSON(resp)
}

// JSONStream is a server stream opened by InvokeStreamJSON.
type JSONStream struct {
	stream grpc.ClientStream
	md     protoreflect.MethodDescriptor
}

// Recv returns the next message in proto-JSON form (compact, as InvokeJSON returns).
// It returns io.EOF once the server has ended the stream with OK, and otherwise the
// stream's gRPC error unchanged (read it with ErrorReason); cancelling the context
// given to InvokeStreamJSON ends the stream.
func (s *JSONStream) Recv() ([]byte, error) {
	resp, err := newMessage(s.md.Output())
	if err != nil {
		return nil, err
	}
	if err := s.stream.RecvMsg(resp.Interface()); err != nil {
		return nil, err
	}
	return marshalJSON(resp)
}

// InvokeStreamJSON opens one server-streaming RPC by service and method name (see
// FindMethod) with a request in proto-JSON form, for example RunService.WatchRun or
// EventService.StreamEvents; read the messages with Recv and cancel ctx to stop early.
// Unknown request fields are rejected. Local problems (unknown method, a method that is
// not server-streaming, malformed JSON) return errors that carry no gRPC status; a call
// the server refuses fails at the first Recv.
func InvokeStreamJSON(ctx context.Context, conn grpc.ClientConnInterface, service, method string,
	requestJSON []byte, opts ...grpc.CallOption,
) (*JSONStream, error) {
	md, err := FindMethod(service, method)
	if err != nil {
		return nil, err
	}
	if md.IsStreamingClient() || !md.IsStreamingServer() {
		return nil, fmt.Errorf("praxis: %s is not a server-streaming method; InvokeStreamJSON calls those only", md.FullName())
	}
	req, err := newMessage(md.Input())
	if err != nil {
		return nil, err
	}
	if err := protojson.Unmarshal(requestJSON, req.Interface()); err != nil {
		return nil, fmt.Errorf("praxis: request for %s: %w", md.FullName(), err)
	}
	desc := &grpc.StreamDesc{StreamName: string(md.Name()), ServerStreams: true}
	path := "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
	stream, err := conn.NewStream(ctx, desc, path, opts...)
	if err != nil {
		return nil, err
	}
	// io.EOF means the server has already ended the call: Recv reports its status.
	if err := stream.SendMsg(req.Interface()); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if err := stream.CloseSend(); err != nil {
		return nil, err
	}
	return &JSONStream{stream: stream, md: md}, nil
}

func newMessage(d protoreflect.MessageDescriptor) (protoreflect.Message, error) {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(d.FullName())
	if err != nil {
		return nil, fmt.Errorf("praxis: message type %s: %w", d.FullName(), err)
	}
	return mt.New(), nil
}

// marshalJSON writes proto-JSON without the whitespace protojson varies on purpose.
func marshalJSON(m protoreflect.Message) ([]byte, error) {
	raw, err := protojson.Marshal(m.Interface())
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Compact(&out, raw); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// InvokeJSON calls a unary RPC on c's connection; see the package-level InvokeJSON.
func (c *Clients) InvokeJSON(ctx context.Context, service, method string, requestJSON []byte,
	opts ...grpc.CallOption,
) ([]byte, error) {
	return InvokeJSON(ctx, c.Conn, service, method, requestJSON, opts...)
}

// InvokeStreamJSON opens a server stream on c's connection; see the package-level
// InvokeStreamJSON.
func (c *Clients) InvokeStreamJSON(ctx context.Context, service, method string, requestJSON []byte,
	opts ...grpc.CallOption,
) (*JSONStream, error) {
	return InvokeStreamJSON(ctx, c.Conn, service, method, requestJSON, opts...)
}
