module github.com/praxis-engine/praxis/conformance/workers/go

go 1.22.0

require (
	github.com/praxis-engine/praxis/clients/go v0.0.0
	go.opentelemetry.io/otel/trace v1.35.0
)

require (
	go.opentelemetry.io/otel v1.35.0 // indirect
	golang.org/x/net v0.35.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/text v0.22.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20250115164207-1a7da9e5054f // indirect
	google.golang.org/grpc v1.71.1 // indirect
	google.golang.org/protobuf v1.36.7 // indirect
)

replace github.com/praxis-engine/praxis/clients/go => ../../../clients/go
