package leanrepl

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const transcriptDir = "testdata/transcripts"

// readBlocks splits a transcript file into its blank-line separated blocks.
// For requests it drops raw line breaks inside a block, as the real REPL's
// reader does (transcripts invalid_line_break and line_breaks show it).
func readBlocks(t *testing.T, path string, joinLines bool) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var cur strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	flush := func() {
		if cur.Len() > 0 {
			blocks = append(blocks, cur.String())
			cur.Reset()
		}
	}
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if cur.Len() > 0 && !joinLines {
			cur.WriteByte('\n')
		}
		cur.WriteString(line)
	}
	flush()
	return blocks
}

// typedRequest converts a recorded request into the client's request type.
func typedRequest(raw string) (Request, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, err
	}
	var req Request
	switch {
	case m["cmd"] != nil:
		req = &Command{}
	case m["path"] != nil:
		req = &File{}
	case m["tactic"] != nil:
		req = &Tactic{}
	case m["pickleTo"] != nil && m["env"] != nil:
		req = &PickleEnv{}
	case m["pickleTo"] != nil:
		req = &PickleProofState{}
	case m["unpickleEnvFrom"] != nil:
		req = &UnpickleEnv{}
	case m["unpickleProofStateFrom"] != nil:
		req = &UnpickleProofState{}
	default:
		return nil, fmt.Errorf("unknown request %s", raw)
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(req); err != nil {
		return nil, err
	}
	return req, nil
}

func genericJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}

type transcript struct {
	name     string
	in       string
	requests []string
	expected []string // nil when no expected output was recorded
}

func loadTranscripts(t *testing.T) []transcript {
	t.Helper()
	ins, _ := filepath.Glob(filepath.Join(transcriptDir, "*.in"))
	more, _ := filepath.Glob(filepath.Join(transcriptDir, "Mathlib", "*.in"))
	ins = append(ins, more...)
	if len(ins) < 70 {
		t.Fatalf("found only %d transcripts under %s", len(ins), transcriptDir)
	}
	var out []transcript
	for _, in := range ins {
		name, _ := filepath.Rel(transcriptDir, in)
		tr := transcript{name: strings.TrimSuffix(name, ".in"), in: in, requests: readBlocks(t, in, true)}
		if _, err := os.Stat(strings.TrimSuffix(in, ".in") + ".expected.out"); err == nil {
			tr.expected = readBlocks(t, strings.TrimSuffix(in, ".in")+".expected.out", false)
		}
		out = append(out, tr)
	}
	return out
}

// TestRequestsRoundTrip checks that every recorded request is expressible
// with the client's types and encodes to the same JSON, on one line.
func TestRequestsRoundTrip(t *testing.T) {
	n := 0
	for _, tr := range loadTranscripts(t) {
		for i, raw := range tr.requests {
			req, err := typedRequest(raw)
			if err != nil {
				t.Errorf("%s request %d: %v", tr.name, i+1, err)
				continue
			}
			enc, err := EncodeRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Count(enc, []byte("\n")) != 2 || !bytes.HasSuffix(enc, []byte("}\n\n")) {
				t.Errorf("%s request %d: encoding is not one line plus a blank line: %q", tr.name, i+1, enc)
			}
			if !reflect.DeepEqual(genericJSON(t, enc), genericJSON(t, []byte(raw))) {
				t.Errorf("%s request %d: encoded %s, recorded %s", tr.name, i+1, enc, raw)
			}
			n++
		}
	}
	t.Logf("%d recorded requests round-trip", n)
}

// TestConformance drives the client through every recorded transcript
// against the replaying double, started as a real subprocess, and compares
// each parsed response with the recorded one. The variants add CRLF line
// endings, noise lines and output split into 3-byte writes.
func TestConformance(t *testing.T) {
	bin := needFake(t)
	variants := map[string][]string{"plain": nil, "crlf+noise+split": {"-crlf", "-noise", "-split"}}
	for vname, flags := range variants {
		t.Run(vname, func(t *testing.T) {
			responses := 0
			for _, tr := range loadTranscripts(t) {
				if tr.expected == nil {
					continue
				}
				t.Run(tr.name, func(t *testing.T) {
					responses += runTranscript(t, bin, tr, flags)
				})
			}
			t.Logf("%d responses matched", responses)
		})
	}
}

func runTranscript(t *testing.T, bin string, tr transcript, flags []string) int {
	if len(tr.expected) != len(tr.requests) {
		t.Fatalf("%d requests but %d recorded responses", len(tr.requests), len(tr.expected))
	}
	args := append([]string{bin, "-transcript", tr.in}, flags...)
	p, err := StartProcess(ProcessConfig{Command: args})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i, raw := range tr.requests {
		req, err := typedRequest(raw)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := p.Send(context.Background(), req, 20*time.Second)
		var re *ReplError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("request %d: %v", i+1, err)
		}
		if resp == nil {
			t.Fatalf("request %d: no response", i+1)
		}
		if re != nil && (re.Message != resp.Message || strings.HasPrefix(re.Message, "replfake:")) {
			t.Fatalf("request %d: %v", i+1, re)
		}
		got, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		want := tr.expected[i]
		if !reflect.DeepEqual(genericJSON(t, got), genericJSON(t, []byte(want))) {
			t.Errorf("request %d:\n got %s\nwant %s", i+1, got, want)
		}
	}
	return len(tr.requests)
}

// TestParsedFields spot-checks the typed fields of a few recorded responses.
func TestParsedFields(t *testing.T) {
	parse := func(s string) *Response {
		var r Response
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatal(err)
		}
		return &r
	}
	rd := readBlocks(t, filepath.Join(transcriptDir, "readme.expected.out"), false)
	r := parse(rd[0])
	if r.Env == nil || *r.Env != 0 || len(r.Sorries) != 1 || *r.Sorries[0].ProofState != 0 ||
		r.Sorries[0].Goal != "x : Unit\n⊢ Nat" || *r.Sorries[0].Pos != (Pos{1, 29}) ||
		r.Messages[0].Severity != "warning" || r.Messages[0].Data != "declaration uses `sorry`" ||
		r.Messages[0].Pos != (Pos{1, 4}) || *r.Messages[0].EndPos != (Pos{1, 5}) {
		t.Errorf("readme response 1 parsed as %+v", r)
	}
	r = parse(rd[1])
	if !r.IsTactic() || r.ProofStatus != "Incomplete: open goals remain" || *r.ProofState != 1 || !reflect.DeepEqual(r.Goals, []string{"x : Unit\n⊢ Int"}) {
		t.Errorf("readme response 2 parsed as %+v", r)
	}
	r = parse(readBlocks(t, filepath.Join(transcriptDir, "all_tactics.expected.out"), false)[0])
	if len(r.Tactics) != 2 || r.Tactics[1].Tactic != "exact t" || r.Tactics[1].Goals != "t : Nat\n⊢ Nat" || !reflect.DeepEqual(r.Tactics[0].UsedConstants, []string{"instOfNatNat", "Nat", "OfNat.ofNat"}) {
		t.Errorf("all_tactics parsed as %+v", r)
	}
	r = parse(readBlocks(t, filepath.Join(transcriptDir, "trace_simp.expected.out"), false)[6])
	if len(r.Traces) != 2 || r.ProofStatus != "Completed" {
		t.Errorf("trace_simp parsed as %+v", r)
	}
	r = parse(`{"env": 3, "newField": {"a": 1}}`)
	if string(r.Extra["newField"]) != `{"a": 1}` {
		t.Errorf("unknown field lost: %+v", r)
	}
}
