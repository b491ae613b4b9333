package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/retrieval"
)

// TestBenchSearchSets runs bench search over two sets of the main library,
// one of an out-of-distribution library and two of a third (here the same
// workspace read as further engines): one result per set, named by its
// file, with recall that a wrong ranking or a lost set would change.
func TestBenchSearchSets(t *testing.T) {
	// The commands rank as serve does: no dense model from the machine.
	t.Setenv("DRIFT_EMBED_PROVIDER", "none")
	ws, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, lines string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dev := write("topics-dev.jsonl", `{"full_name":"a","informal_stmt":"greatest common divisor","mathlib_dependencies":["Mm.gcd"]}
{"full_name":"b","informal_stmt":"no such thing zzzqqq","mathlib_dependencies":["Mm.gcd"]}
`)
	test := write("topics-test.jsonl", `{"full_name":"c","informal_stmt":"partial order","mathlib_dependencies":["Mm.PartialOrder"]}
`)
	ood := write("ood.jsonl", `{"full_name":"d","informal_stmt":"group","mathlib_dependencies":["Mm.Group"]}
`)
	third := write("third.jsonl", `{"full_name":"e","informal_stmt":"no such thing zzzqqq","mathlib_dependencies":["Mm.Group"]}
`)
	var out, errb bytes.Buffer
	args := []string{"bench", "search", "--json", "--root", ws, "--cache", "", "--bench", dev, "--bench", test, "--ood-bench", ood, "--ood-root", ws,
		"--ood-lib", ws + "=" + ood + "," + third}
	if code := dispatch(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	var got []string
	dec := json.NewDecoder(&out)
	for dec.More() {
		var r retrieval.SearchBenchResult
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %d %g", r.Set, r.Queries, r.RecallAt["1"]))
	}
	want := []string{"topics-dev 2 50", "topics-test 1 100", "ood 1 100", "ood 1 100", "third 1 0"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("bench search sets = %q, want %q", got, want)
	}
	// Without the out-of-distribution library its sets are a usage error.
	if code := dispatch([]string{"bench", "search", "--root", ws, "--cache", "", "--ood-bench", ood}, &out, &errb); code != 2 {
		t.Errorf("--ood-bench without --ood-root: exit %d, want 2", code)
	}
	// An --ood-lib without its sets is a usage error.
	if code := dispatch([]string{"bench", "search", "--cache", "", "--ood-lib", ws}, &out, &errb); code != 2 {
		t.Errorf("--ood-lib without =FILE: exit %d, want 2", code)
	}
}
