package praxis

import (
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	testingv1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/testing/v1"
	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

// Clients holds one connection and a typed client for every Praxis service. The field
// names are the service names every Praxis client uses (Python `registry`, `approvals`,
// ..., TypeScript `registry`, `approvals`, ...), capitalised.
type Clients struct {
	Conn            *grpc.ClientConn
	Registry        enginev1.RegistryServiceClient
	Approvals       enginev1.ApprovalServiceClient
	Admin           enginev1.AdminServiceClient
	Runs            enginev1.RunServiceClient
	Tasks           enginev1.TaskServiceClient
	Events          enginev1.EventServiceClient
	Contracts       enginev1.ContractServiceClient
	Reconciliations enginev1.ReconciliationServiceClient
	Waits           enginev1.WaitServiceClient
	Assessments     enginev1.AssessmentServiceClient
	Handoffs        enginev1.HandoffServiceClient
	Simulations     enginev1.SimulationServiceClient // dry runs by the server's pure core
	TestClock       testingv1.TestClockServiceClient // served only by a server in test-clock mode
}

// Connect opens a client connection to address ("127.0.0.1:50051") that sends token as a
// bearer credential on every call (none when token is ""). The connection is plaintext
// unless opts pass other transport credentials (grpc.WithTransportCredentials), which
// override the default. Like grpc.NewClient it does not dial until the first call.
func Connect(address, token string, opts ...grpc.DialOption) (*Clients, error) {
	all := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if token != "" {
		all = append(all, grpc.WithPerRPCCredentials(BearerToken(token)))
	}
	conn, err := grpc.NewClient(address, append(all, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("praxis: connect %s: %w", address, err)
	}
	return &Clients{
		Conn:            conn,
		Registry:        enginev1.NewRegistryServiceClient(conn),
		Approvals:       enginev1.NewApprovalServiceClient(conn),
		Admin:           enginev1.NewAdminServiceClient(conn),
		Runs:            enginev1.NewRunServiceClient(conn),
		Tasks:           enginev1.NewTaskServiceClient(conn),
		Events:          enginev1.NewEventServiceClient(conn),
		Contracts:       enginev1.NewContractServiceClient(conn),
		Reconciliations: enginev1.NewReconciliationServiceClient(conn),
		Waits:           enginev1.NewWaitServiceClient(conn),
		Assessments:     enginev1.NewAssessmentServiceClient(conn),
		Handoffs:        enginev1.NewHandoffServiceClient(conn),
		Simulations:     enginev1.NewSimulationServiceClient(conn),
		TestClock:       testingv1.NewTestClockServiceClient(conn),
	}, nil
}

// Close closes the connection.
func (c *Clients) Close() error { return c.Conn.Close() }
