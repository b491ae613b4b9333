package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

var updateBlueprint = flag.Bool("update-blueprint", false, "rewrite testdata/blueprint/*.golden")

// TestBlueprintCommand runs `drift-lsp blueprint` on testdata/blueprint
// over testdata/workspace with the fake workspace model: the JSON report
// and the written file match the golden ones; a second run makes no model
// call and reports every formalized node in_lean.
func TestBlueprintCommand(t *testing.T) {
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	t.Setenv("DRIFT_LLM_BASE_URL", srv.URL)
	t.Setenv("DRIFT_LLM_MODEL", "fake")
	t.Setenv("DRIFT_LLM_CACHE", t.TempDir())
	t.Setenv("DRIFT_REPL", "")
	t.Setenv("DRIFT_PIPELINE_CONCURRENCY", "1") // the file's order is the order nodes finish in
	out := filepath.Join(t.TempDir(), "Blue.lean")
	args := []string{"blueprint", "--cache", t.TempDir(), "--root", "../../testdata/workspace", "--tex", "../../testdata/blueprint/src", "--out", out, "--json"}
	var stdout, stderr bytes.Buffer
	rc := dispatch(args, &stdout, &stderr)
	var rep struct {
		Nodes []struct {
			Label, Status, Stub, Verdict string
		} `json:"nodes"`
		Summary struct {
			Nodes, InLean, Stubbed, Failed, ModelCalls int
		} `json:"summary"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", rc, err, stdout.String(), stderr.String())
	}
	wantRC := 0
	if rep.Summary.Failed > 0 {
		wantRC = 1
	}
	if rc != wantRC {
		t.Errorf("exit %d with %d failed nodes", rc, rep.Summary.Failed)
	}
	file, _ := os.ReadFile(out)
	goldenBlueprint(t, "report.json", stdout.Bytes())
	goldenBlueprint(t, "Blue.lean", file)
	if len(srv.Requests()) == 0 {
		t.Fatal("no model call")
	}
	// A node's formalized dependency is a premise of its prompt: the stub
	// of thm:odd-prime (this run) in lem:square-odd's Formalize prompt.
	found := false
	for _, r := range srv.Requests() {
		p := r.Prompt()
		if llmtest.StageOf(r) == "formalize" && strings.Contains(p, "The square of an odd number is odd.") && strings.Contains(p, "Blue.odd_of_prime") {
			found = true
		}
	}
	if !found {
		t.Error("lem:square-odd was formalized without its dependency Blue.odd_of_prime among the premises")
	}
	// The second run: everything formalized is in the file.
	before := len(srv.Requests())
	stdout.Reset()
	stderr.Reset()
	if rc := dispatch(args, &stdout, &stderr); rc != 0 {
		t.Errorf("second run: exit %d\n%s", rc, stderr.String())
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("second run made %d model calls", n)
	}
	if !strings.Contains(stdout.String(), `"stubbed": 0`) || strings.Contains(stdout.String(), `"status": "failed"`) {
		t.Errorf("second run:\n%s", stdout.String())
	}
	after, _ := os.ReadFile(out)
	if !bytes.Equal(after, file) {
		t.Error("the second run changed the file")
	}
}

func goldenBlueprint(t *testing.T, name string, got []byte) {
	t.Helper()
	got = assignmentsRE.ReplaceAll(got, []byte("(N assignments)"))
	path := filepath.Join("testdata", "blueprint", name)
	if *updateBlueprint {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/drift-lsp -run TestBlueprint -update-blueprint)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (-update-blueprint to accept):\n%s", name, got)
	}
}
