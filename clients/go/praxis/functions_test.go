package praxis

import (
	"testing"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
)

func TestTheTaskCarriesTheProviderAndTheFunctionPolicy(t *testing.T) {
	task := &Task{Task: &enginev1.Task{Agent: &enginev1.AgentSpec{
		Model:         "m",
		Provider:      "acme",
		FunctionsJson: `{"allow":["calc","web.*"],"deny":["*.fetch"]}`,
	}}}
	if task.Provider() != "acme" {
		t.Fatalf("provider %q", task.Provider())
	}
	for id, want := range map[string]bool{"calc": true, "web.search": true, "web.fetch": false, "shell": false, "calculator": false} {
		if got := task.FunctionAllowed(id); got != want {
			t.Errorf("FunctionAllowed(%q) = %v, want %v", id, got, want)
		}
	}
	old := &Task{Task: &enginev1.Task{Agent: &enginev1.AgentSpec{Model: "m"}}}
	if !old.FunctionAllowed("anything") || old.Provider() != "" {
		t.Fatal("no policy sent means every function")
	}
}

func TestGlobMatches(t *testing.T) {
	cases := []struct {
		pattern, text string
		want          bool
	}{
		{"*", "", true}, {"a*b*c", "axxbyyc", true}, {"a*b", "ab.c", false},
		{"ab*ba", "aba", false}, {"a*a", "a", false}, {"*.fetch", "web.fetch", true},
		{"x", "x", true}, {"x", "xy", false}, {"a**b", "ab", true},
	}
	for _, c := range cases {
		if got := GlobMatches(c.pattern, c.text); got != c.want {
			t.Errorf("GlobMatches(%q, %q) = %v, want %v", c.pattern, c.text, got, c.want)
		}
	}
}
