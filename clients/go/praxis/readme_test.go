package praxis

import (
	"os"
	"strings"
	"testing"
)

// The README's quick start must be the example program that `go vet ./...` compiles.
func TestReadmeQuickStartIsTheCompiledExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../examples/getepochs/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(example)+"```") {
		t.Error("README.md quick start differs from examples/getepochs/main.go")
	}
}

// The README's "write a worker" section must be the example program whose test runs it.
func TestReadmeWorkerIsTheTestedExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../examples/worker/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(example)+"```") {
		t.Error("README.md worker differs from examples/worker/main.go")
	}
}
