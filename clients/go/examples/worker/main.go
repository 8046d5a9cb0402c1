// Command worker is a minimal Praxis worker: it serves the model "summarise", four tasks
// at a time, until SIGINT or SIGTERM, then finishes the tasks in hand and exits.
package main

import (
	"context"
	"log"
	"os"

	"github.com/praxis-engine/praxis/clients/go/praxis"
)

// handle does one task: {"text": ...} -> {"summary": its first 100 characters}.
// ctx is cancelled when the run is stopped or the lease is lost.
func handle(ctx context.Context, task *praxis.Task) (praxis.Outcome, error) {
	var in struct {
		Text string `json:"text"`
	}
	if err := task.DecodeInput(&in); err != nil || in.Text == "" {
		return praxis.NotApplied("no text to summarise", false), nil
	}
	summary := []rune(in.Text) // the real work: call a model, a tool, an API ...
	summary = summary[:min(len(summary), 100)]
	return praxis.Applied(map[string]string{"summary": string(summary)}).WithCost("12.5"), nil
}

func main() {
	opts := praxis.WorkerOptions{Models: []string{"summarise"}, Concurrency: 4}
	if err := praxis.RunWorker(os.Getenv("PRAXIS_ADDRESS"), os.Getenv("PRAXIS_TOKEN"), opts, handle); err != nil {
		log.Fatal(err)
	}
}
