// Command getepochs reads the epochs of work order wo-1 from a local `praxis serve`.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
	"github.com/praxis-engine/praxis/clients/go/praxis"
)

func main() {
	clients, err := praxis.Connect("127.0.0.1:50051", os.Getenv("PRAXIS_TOKEN"))
	if err != nil {
		log.Fatal(err)
	}
	defer clients.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	resp, err := clients.Registry.GetEpochs(ctx, &enginev1.GetEpochsRequest{WorkOrderId: "wo-1"})
	if err != nil {
		code, reason := praxis.ErrorReason(err) // e.g. UNAUTHENTICATED, "CREDENTIAL_INVALID"
		log.Fatalf("GetEpochs failed: %s %s", praxis.CodeName(code), reason)
	}
	fmt.Println("epochs:", resp.GetEpochs())

	// The same call by name, with proto-JSON in and out (what conformance runners use).
	out, err := clients.InvokeJSON(ctx, "RegistryService", "GetEpochs", []byte(`{"workOrderId":"wo-1"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("json:", string(out))
}
