package praxis

import (
	"encoding/json"
	"strings"
)

// FunctionPolicy is a node's function policy as the engine sends it in
// Task.Agent.FunctionsJson: the agent may call a function that matches an Allow pattern
// and no Deny pattern, `*` matching any run of characters (docs/workers.md, "The
// agent's settings").
type FunctionPolicy struct {
	Allow []string `json:"allow"`
	Deny  []string `json:"deny"`
}

// Provider is the provider the node asks to run its model with (empty leaves it to the
// worker's routing). A worker that cannot serve it fails the attempt as NOT_APPLIED
// rather than run the model elsewhere.
func (t *Task) Provider() string {
	return t.GetAgent().GetProvider()
}

// Functions returns the node's function policy; every function when the server sent
// none (an engine before the policy was normalized) or something unreadable is refused
// as no function at all.
func (t *Task) Functions() FunctionPolicy {
	text := t.GetAgent().GetFunctionsJson()
	if text == "" {
		return FunctionPolicy{Allow: []string{"*"}, Deny: []string{}}
	}
	var policy FunctionPolicy
	if err := json.Unmarshal([]byte(text), &policy); err != nil {
		return FunctionPolicy{Allow: []string{}, Deny: []string{}}
	}
	return policy
}

// FunctionAllowed reports whether the node's policy lets its agent call functionID. The
// engine never sees the agent's calls: the handler MUST offer only permitted functions
// and refuse any other call.
func (t *Task) FunctionAllowed(functionID string) bool {
	return t.Functions().Permits(functionID)
}

// Permits reports whether functionID matches an Allow pattern and no Deny pattern.
func (p FunctionPolicy) Permits(functionID string) bool {
	allowed := false
	for _, pattern := range p.Allow {
		if GlobMatches(pattern, functionID) {
			allowed = true
			break
		}
	}
	if !allowed {
		return false
	}
	for _, pattern := range p.Deny {
		if GlobMatches(pattern, functionID) {
			return false
		}
	}
	return true
}

// GlobMatches reports whether text matches pattern whole, `*` matching any run of
// characters and every other character itself.
func GlobMatches(pattern, text string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return text == pattern
	}
	first, last := parts[0], parts[len(parts)-1]
	if len(text) < len(first)+len(last) || !strings.HasPrefix(text, first) || !strings.HasSuffix(text, last) {
		return false
	}
	position, end := len(first), len(text)-len(last)
	for _, middle := range parts[1 : len(parts)-1] {
		found := strings.Index(text[position:end], middle)
		if found < 0 {
			return false
		}
		position += found + len(middle)
	}
	return true
}
