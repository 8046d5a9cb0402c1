// Command runner is the Go conformance runner (see conformance/README.md for the contract).
//
//	go run . -address 127.0.0.1:50051 -credentials creds.json \
//	  [-vectors DIR] [-expected-failures FILE] [-results FILE] [-filter TEXT]
//
// Every call goes through the Go client's praxis.InvokeJSON, and every server stream
// through praxis.InvokeStreamJSON (protojson over the generated descriptors); it prints
// "N passed, N failed".
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/praxis-engine/praxis/clients/go/praxis"
	"google.golang.org/grpc/status"
)

const (
	language = "go"
	nsCode   = "go"
	anyValue = "<any>"
)

type object = map[string]any

type missingT struct{}

var missing = missingT{}

var varPattern = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)([+-][0-9]+)?\}`)

type vectorError struct{ msg string }

func (e *vectorError) Error() string { return e.msg }

func fail(format string, args ...any) error { return &vectorError{fmt.Sprintf(format, args...)} }

// outcome is a proto-JSON response, a status, or a local refusal of the request.
type outcome struct {
	response    any
	ok          bool
	code        string
	reason      string
	clientError string
}

func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func substitute(value any, vars map[string]string) (any, error) {
	switch v := value.(type) {
	case string:
		var problem error
		out := varPattern.ReplaceAllStringFunc(v, func(m string) string {
			parts := varPattern.FindStringSubmatch(m)
			text, ok := vars[parts[1]]
			if !ok {
				problem = fail("unknown variable ${%s}", parts[1])
				return m
			}
			if parts[2] == "" {
				return text
			}
			base, ok1 := new(big.Int).SetString(text, 10)
			offset, ok2 := new(big.Int).SetString(strings.TrimPrefix(parts[2], "+"), 10)
			if !ok1 || !ok2 {
				problem = fail("${%s} is not an integer", parts[1])
				return m
			}
			return base.Add(base, offset).String()
		})
		return out, problem
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			s, err := substitute(item, vars)
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	case object:
		out := object{}
		for key, item := range v {
			s, err := substitute(item, vars)
			if err != nil {
				return nil, err
			}
			out[key] = s
		}
		return out, nil
	}
	return value, nil
}

func show(value any) string {
	if value == missing {
		return "(absent)"
	}
	data, _ := json.Marshal(value)
	if len(data) > 200 {
		return string(data[:200]) + "..."
	}
	return string(data)
}

// mismatch says why actual does not match the pattern expected ("" when it does).
func mismatch(expected, actual any, path string) string {
	if s, ok := expected.(string); ok && s == anyValue {
		if actual == missing {
			return path + ": missing"
		}
		return ""
	}
	if expected == nil {
		if actual == missing {
			return ""
		}
		return fmt.Sprintf("%s: expected absent, got %s", path, show(actual))
	}
	if actual == missing {
		return fmt.Sprintf("%s: missing, expected %s", path, show(expected))
	}
	switch want := expected.(type) {
	case object:
		got, ok := actual.(object)
		if !ok {
			return fmt.Sprintf("%s: expected an object, got %s", path, show(actual))
		}
		keys := make([]string, 0, len(want))
		for key := range want {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			var item any = missing
			if value, present := got[key]; present {
				item = value
			}
			if problem := mismatch(want[key], item, path+"."+key); problem != "" {
				return problem
			}
		}
		return ""
	case []any:
		got, ok := actual.([]any)
		if !ok || len(got) != len(want) {
			return fmt.Sprintf("%s: expected %d items, got %s", path, len(want), show(actual))
		}
		for i := range want {
			if problem := mismatch(want[i], got[i], fmt.Sprintf("%s.%d", path, i)); problem != "" {
				return problem
			}
		}
		return ""
	case json.Number:
		if got, ok := actual.(json.Number); ok && got.String() == want.String() {
			return ""
		}
	case string:
		if got, ok := actual.(string); ok && got == want {
			return ""
		}
	case bool:
		if got, ok := actual.(bool); ok && got == want {
			return ""
		}
	}
	return fmt.Sprintf("%s: expected %s, got %s", path, show(expected), show(actual))
}

func capture(response any, path string) (string, error) {
	value := response
	for _, part := range strings.Split(path, ".") {
		switch v := value.(type) {
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(v) {
				return "", fail("capture %q: no such value in the response", path)
			}
			value = v[i]
		case object:
			item, ok := v[part]
			if !ok {
				return "", fail("capture %q: no such value in the response", path)
			}
			value = item
		default:
			return "", fail("capture %q: no such value in the response", path)
		}
	}
	switch v := value.(type) {
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	case bool:
		return strconv.FormatBool(v), nil
	}
	data, _ := json.Marshal(value)
	return string(data), nil
}

type runner struct {
	address        string
	credentials    map[string]string
	clients        map[string]*praxis.Clients
	nonce          string
	installationID string
	streams        map[string]*serverStream // kept open by this vector's steps
}

// streamDeadline bounds how long one stream step waits for its messages and its end.
const streamDeadline = 5 * time.Second

// streamItem is one proto-JSON message of a server stream or, with end, how it ended.
type streamItem struct {
	message      any
	end          bool
	code, reason string
}

// serverStream is an open InvokeStreamJSON call; a goroutine moves what it receives
// into items so that a step can wait for the next one with a deadline.
type serverStream struct {
	items  chan streamItem
	cancel context.CancelFunc
	ended  *streamItem
}

func (s *serverStream) next(deadline time.Time) (streamItem, bool) {
	if s.ended != nil {
		return *s.ended, true
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case item := <-s.items:
		if item.end {
			s.ended = &item
		}
		return item, true
	case <-timer.C:
		return streamItem{}, false
	}
}

// openStream opens a server stream; a request the client refuses comes back as text.
func (r *runner) openStream(principal, service, method string, request any) (*serverStream, string, error) {
	c, err := r.client(principal)
	if err != nil {
		return nil, "", err
	}
	body, err := json.Marshal(request)
	if err != nil {
		return nil, "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	call, err := c.InvokeStreamJSON(ctx, service, method, body)
	if err != nil {
		cancel()
		if _, isStatus := status.FromError(err); !isStatus {
			return nil, err.Error(), nil
		}
		code, reason := praxis.ErrorReason(err)
		s := &serverStream{items: make(chan streamItem, 1), cancel: func() {}}
		s.items <- streamItem{end: true, code: praxis.CodeName(code), reason: reason}
		return s, "", nil
	}
	s := &serverStream{items: make(chan streamItem, 64), cancel: cancel}
	go func() {
		for {
			var item streamItem
			msg, err := call.Recv()
			switch {
			case err == io.EOF:
				item = streamItem{end: true, code: "OK"}
			case err != nil:
				code, reason := praxis.ErrorReason(err)
				item = streamItem{end: true, code: praxis.CodeName(code), reason: reason}
			default:
				value, derr := decode(msg)
				if derr != nil {
					item = streamItem{end: true, code: "RUNNER_ERROR", reason: derr.Error()}
				} else {
					item = streamItem{message: value}
				}
			}
			select {
			case s.items <- item:
			case <-ctx.Done():
				return
			}
			if item.end {
				return
			}
		}
	}()
	return s, "", nil
}

// readStream reads a stream step's messages and then, with end or error, the end.
func readStream(s *serverStream, want object, where string) ([]any, error) {
	patterns, _ := want["messages"].([]any)
	deadline := time.Now().Add(streamDeadline)
	received := []any{}
	for len(received) < len(patterns) {
		item, ok := s.next(deadline)
		if !ok {
			return nil, fail("%s: expected %d messages within %v, got %d", where, len(patterns), streamDeadline, len(received))
		}
		if item.end {
			return nil, fail("%s: expected %d messages, got %d and then the stream ended with (%s, %s)",
				where, len(patterns), len(received), item.code, item.reason)
		}
		received = append(received, item.message)
	}
	wantEnd, code, reason := false, "OK", ""
	if end, _ := want["end"].(bool); end {
		wantEnd = true
	} else if e, ok := want["error"].(object); ok {
		wantEnd = true
		code, _ = e["code"].(string)
		reason, _ = e["reason"].(string)
	}
	if wantEnd {
		item, ok := s.next(deadline)
		if !ok {
			return nil, fail("%s: expected the stream to end within %v", where, streamDeadline)
		}
		if !item.end {
			return nil, fail("%s: expected the stream to end, got %s", where, show(item.message))
		}
		if item.code != code || item.reason != reason {
			return nil, fail("%s: expected the stream to end with (%s, %s), got (%s, %s)",
				where, code, reason, item.code, item.reason)
		}
	}
	return received, nil
}

// streamStep opens a server stream (or resumes a kept one) and checks what it delivers.
func (r *runner) streamStep(step, want object, vars map[string]string) error {
	var s *serverStream
	var where string
	resume, _ := want["resume"].(string)
	if resume != "" {
		where = fmt.Sprintf("stream %q", resume)
		s = r.streams[resume]
		if s == nil {
			return fail("%s: no stream kept under that name", where)
		}
		delete(r.streams, resume)
	} else {
		service, _ := step["service"].(string)
		method, _ := step["method"].(string)
		principal, _ := step["principal"].(string)
		where = service + "." + method
		var raw any = object{}
		if req, ok := step["request"]; ok {
			raw = req
		}
		request, err := substitute(raw, vars)
		if err != nil {
			return err
		}
		opened, refused, err := r.openStream(principal, service, method, request)
		if err != nil {
			return err
		}
		if refused != "" {
			return fail("%s: client refused: %s", where, refused)
		}
		s = opened
	}
	received, err := readStream(s, want, where)
	if err != nil {
		s.cancel()
		return err
	}
	patterns, _ := want["messages"].([]any)
	if patterns == nil {
		patterns = []any{}
	}
	expected, err := substitute(patterns, vars)
	if err != nil {
		s.cancel()
		return err
	}
	if problem := mismatch(expected, received, "messages"); problem != "" {
		s.cancel()
		return fail("%s: %s", where, problem)
	}
	keep := resume
	if keep == "" {
		keep, _ = want["keep"].(string)
	}
	_, wantEnd := want["end"]
	_, wantErr := want["error"]
	if keep != "" && s.ended == nil && !wantEnd && !wantErr {
		r.streams[keep] = s
	} else {
		s.cancel()
	}
	if captures, ok := step["captures"].(object); ok {
		for name, path := range captures {
			value, err := capture(received, fmt.Sprint(path))
			if err != nil {
				return err
			}
			vars[name] = value
		}
	}
	return nil
}

func (r *runner) client(principal string) (*praxis.Clients, error) {
	if c, ok := r.clients[principal]; ok {
		return c, nil
	}
	token := ""
	if principal != "" {
		t, ok := r.credentials[principal]
		if !ok {
			return nil, fail("no credential for principal %q", principal)
		}
		token = t
	}
	c, err := praxis.Connect(r.address, token)
	if err != nil {
		return nil, err
	}
	r.clients[principal] = c
	return c, nil
}

func (r *runner) invoke(principal, service, method string, request any) (outcome, error) {
	c, err := r.client(principal)
	if err != nil {
		return outcome{}, err
	}
	body, err := json.Marshal(request)
	if err != nil {
		return outcome{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := c.InvokeJSON(ctx, service, method, body)
	if err != nil {
		if _, isStatus := status.FromError(err); !isStatus {
			return outcome{clientError: err.Error()}, nil
		}
		code, reason := praxis.ErrorReason(err)
		return outcome{code: praxis.CodeName(code), reason: reason}, nil
	}
	response, err := decode(out)
	if err != nil {
		return outcome{}, err
	}
	return outcome{response: response, ok: true}, nil
}

func (r *runner) clock(change object, t0 string) (string, error) {
	var o outcome
	var err error
	if advance, ok := change["advanceMs"]; ok {
		o, err = r.invoke("alice", "TestClockService", "Advance", object{"byMs": advance})
	} else {
		base, _ := new(big.Int).SetString(t0, 10)
		offset, _ := new(big.Int).SetString(fmt.Sprint(change["setOffsetMs"]), 10)
		o, err = r.invoke("alice", "TestClockService", "SetTime", object{"nowMs": base.Add(base, offset).String()})
	}
	if err != nil {
		return "", err
	}
	if !o.ok {
		return "", fail("test clock call failed: %s %s %s", o.code, o.reason, o.clientError)
	}
	return fmt.Sprint(o.response.(object)["nowMs"]), nil
}

func (r *runner) setup() error {
	o, err := r.invoke("alice", "RegistryService", "GetEpochs", object{"workOrderId": nsCode + "-setup"})
	if err != nil {
		return err
	}
	if !o.ok {
		return fmt.Errorf("GetEpochs failed: %s %s %s", o.code, o.reason, o.clientError)
	}
	r.installationID = fmt.Sprint(o.response.(object)["epochs"].(object)["installationId"])
	return nil
}

func (r *runner) runVector(vector object, index int) error {
	vars := map[string]string{
		"ns":              fmt.Sprintf("%s-%s-%04d", nsCode, r.nonce, index),
		"installation_id": r.installationID,
	}
	t0, err := r.clock(object{"advanceMs": "1000"}, "0")
	if err != nil {
		return err
	}
	vars["t0"] = t0
	r.streams = map[string]*serverStream{}
	defer func() {
		for _, s := range r.streams {
			s.cancel()
		}
	}()
	steps, _ := vector["steps"].([]any)
	for i, s := range steps {
		if err := r.step(s.(object), vars); err != nil {
			var ve *vectorError
			if errors.As(err, &ve) {
				return fail("step %d: %s", i+1, ve.msg)
			}
			return err
		}
	}
	return nil
}

func (r *runner) step(step object, vars map[string]string) error {
	if change, ok := step["clock"].(object); ok {
		if _, err := r.clock(change, vars["t0"]); err != nil {
			return err
		}
	}
	if want, ok := step["stream"].(object); ok {
		return r.streamStep(step, want, vars)
	}
	service, _ := step["service"].(string)
	if service == "" {
		return nil
	}
	method, _ := step["method"].(string)
	principal, _ := step["principal"].(string)
	where := service + "." + method
	var raw any = object{}
	if req, ok := step["request"]; ok {
		raw = req
	}
	request, err := substitute(raw, vars)
	if err != nil {
		return err
	}
	o, err := r.invoke(principal, service, method, request)
	if err != nil {
		return err
	}
	if wantErr, ok := step["error"].(object); ok {
		code, _ := wantErr["code"].(string)
		reason, _ := wantErr["reason"].(string)
		want := fmt.Sprintf("(%s, %s)", code, reason)
		switch {
		case o.ok:
			return fail("%s: expected %s, got a response", where, want)
		case o.clientError != "":
			return fail("%s: expected %s, client refused: %s", where, want, o.clientError)
		case o.code != code || o.reason != reason:
			return fail("%s: expected %s, got (%s, %s)", where, want, o.code, o.reason)
		}
		return nil
	}
	if _, ok := step["clientError"]; ok {
		if o.clientError == "" {
			got := o.code
			if o.ok {
				got = "a response"
			}
			return fail("%s: expected the client to refuse, got %s", where, got)
		}
		return nil
	}
	if !o.ok {
		got := o.clientError
		if got == "" {
			got = o.code + " " + o.reason
		}
		return fail("%s: expected a response, got %s", where, got)
	}
	var pattern any = object{}
	if p, ok := step["response"]; ok {
		pattern = p
	}
	expected, err := substitute(pattern, vars)
	if err != nil {
		return err
	}
	if problem := mismatch(expected, o.response, "response"); problem != "" {
		return fail("%s: %s", where, problem)
	}
	if captures, ok := step["captures"].(object); ok {
		for name, path := range captures {
			value, err := capture(o.response, fmt.Sprint(path))
			if err != nil {
				return err
			}
			vars[name] = value
		}
	}
	return nil
}

func loadVectors(dir string) ([]object, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []object
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		doc, err := decode(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		vectors, _ := doc.(object)["vectors"].([]any)
		for _, v := range vectors {
			out = append(out, v.(object))
		}
	}
	return out, nil
}

func loadExpectedFailures(path string) map[string]bool {
	out := map[string]bool{}
	data, err := os.ReadFile(path)
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.SplitN(line, "#", 2)[0])
		if line != "" {
			out[line] = true
		}
	}
	return out
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func main() {
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(self), "..", "..")
	address := flag.String("address", env("PRAXIS_ADDRESS", "127.0.0.1:50051"), "server host:port")
	credentialsPath := flag.String("credentials", env("PRAXIS_CREDENTIALS", ""), "JSON map principal -> token")
	vectorsDir := flag.String("vectors", env("PRAXIS_VECTORS", filepath.Join(root, "vectors")), "vectors directory")
	expectedPath := flag.String("expected-failures", filepath.Join(root, "expected_failures", language+".txt"), "expected failures")
	resultsPath := flag.String("results", env("PRAXIS_RESULTS", ""), "JSON lines results file")
	filter := flag.String("filter", "", "run only vectors whose name contains this")
	flag.Parse()
	if *credentialsPath == "" {
		fmt.Fprintln(os.Stderr, "-credentials (or PRAXIS_CREDENTIALS) is required")
		os.Exit(2)
	}
	data, err := os.ReadFile(*credentialsPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	credentials := map[string]string{}
	if err := json.Unmarshal(data, &credentials); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	nonce := make([]byte, 3)
	_, _ = rand.Read(nonce)
	r := &runner{address: *address, credentials: credentials, clients: map[string]*praxis.Clients{}, nonce: hex.EncodeToString(nonce)}
	defer func() {
		for _, c := range r.clients {
			_ = c.Close()
		}
	}()
	if err := r.setup(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	vectors, err := loadVectors(*vectorsDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	expected := loadExpectedFailures(*expectedPath)
	type result struct {
		Language string `json:"language"`
		Vector   string `json:"vector"`
		Status   string `json:"status"`
		Message  string `json:"message"`
	}
	var results []result
	for index, vector := range vectors {
		name, _ := vector["name"].(string)
		if *filter != "" && !strings.Contains(name, *filter) {
			continue
		}
		message := ""
		if err := r.runVector(vector, index); err != nil {
			var ve *vectorError
			if errors.As(err, &ve) {
				message = ve.msg
			} else {
				message = "runner error: " + err.Error()
			}
		}
		passed := message == ""
		status := "pass"
		switch {
		case expected[name] && passed:
			status = "xpass"
		case expected[name]:
			status = "xfail"
		case !passed:
			status = "fail"
		}
		results = append(results, result{language, name, status, message})
	}
	passed, failed, xfailed := 0, 0, 0
	var lines bytes.Buffer
	for _, res := range results {
		switch res.Status {
		case "pass":
			passed++
		case "xfail":
			xfailed++
		case "fail":
			failed++
			fmt.Printf("FAIL %s: %s\n", res.Vector, res.Message)
		case "xpass":
			failed++
			fmt.Printf("XPASS %s: listed as an expected failure but passed\n", res.Vector)
		}
		enc := json.NewEncoder(&lines)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(res)
	}
	if *resultsPath != "" {
		if err := os.WriteFile(*resultsPath, lines.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	summary := fmt.Sprintf("%d passed, %d failed", passed, failed)
	if xfailed > 0 {
		summary += fmt.Sprintf(", %d expected failures", xfailed)
	}
	fmt.Println(summary)
	if failed > 0 {
		os.Exit(1)
	}
}
