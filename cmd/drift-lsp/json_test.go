package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestJSONGolden")

// timingKeys are JSON keys whose values are timings or machine figures;
// goldens hold 0 for them.
var timingKeys = map[string]bool{
	"seconds": true, "check_ms": true, "duration_ns": true, "ms": true, "p50_ms": true, "p95_ms": true,
	"cold_s": true, "warm_s": true, "cold_cpu_s": true, "warm_cpu_s": true, "reparse_ms": true, "reparse_cpu_ms": true,
	"peak_rss_mb": true, "cpus": true,
	// The falsifier tries as many assignments as its time box allows.
	"assignments": true,
	// Concurrent model calls reach the server in any order, and what its
	// prompt cache serves depends on that order.
	"cached_prompt_tokens": true,
}

// assignmentsRE finds the falsifier's assignment count in a verdict.
var assignmentsRE = regexp.MustCompile(`\(\d+ assignments\)`)

// unorderedKeys hold lists whose order is not deterministic (model calls
// in the order they ended); goldens hold them sorted.
var unorderedKeys = map[string]bool{"calls": true}

// normalize rewrites a decoded JSON value for a golden file: timings and the
// falsifier's assignment counts become 0 (N in verdicts), absolute paths of
// the workspace become $WORKSPACE, floats are rounded to 4 decimals.
func normalize(v any, key, ws string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e, k, ws)
		}
	case []any:
		for i, e := range x {
			x[i] = normalize(e, key, ws)
		}
		if unorderedKeys[key] {
			sort.Slice(x, func(i, j int) bool {
				a, _ := json.Marshal(x[i])
				b, _ := json.Marshal(x[j])
				return string(a) < string(b)
			})
		}
	case float64:
		if timingKeys[key] {
			return 0
		}
		return math.Round(x*1e4) / 1e4
	case string:
		return assignmentsRE.ReplaceAllString(strings.ReplaceAll(x, ws, "$WORKSPACE"), "(N assignments)")
	}
	return v
}

// TestJSONGolden pins the --json output of every command on
// testdata/workspace: snake_case keys from tagged structs, [] for empty
// lists. Run with -update to rewrite the goldens after an intended change.
func TestJSONGolden(t *testing.T) {
	// The commands rank as serve does: no dense model from the machine.
	t.Setenv("DRIFT_EMBED_PROVIDER", "none")
	t.Setenv("PATH", t.TempDir()) // no Lean REPL or lean from the machine either
	ws, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	// No Lean sources or toolchains from the machine; the path (which
	// reports name) does not exist.
	t.Setenv("ELAN_HOME", filepath.Join(ws, ".no-elan"))
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	t.Setenv("DRIFT_LLM_BASE_URL", srv.URL)
	t.Setenv("DRIFT_LLM_MODEL", "fake")
	t.Setenv("DRIFT_LLM_CACHE", "off")
	t.Setenv("DRIFT_LLM_GRAMMAR", "llama.cpp") // Formalize's grammar report, as with the local model
	root := []string{"--root", ws, "--cache", ""}
	cases := []struct {
		name  string
		args  []string
		code  int
		jsonl bool // one object per line (decls): the first 5 are pinned
	}{
		{"index", append([]string{"index", "--json"}, root...), 0, false},
		{"decls", append([]string{"decls"}, root...), 0, true},
		{"search", append(append([]string{"search", "--json", "-k", "3"}, root...), "prime odd"), 0, false},
		{"search_nothing", append(append([]string{"search", "--json", "--kind", "axiom"}, root...), "zzzqqq"), 0, false},
		{"retrieve", append(append([]string{"retrieve", "--json", "-k", "3", "-m", "2"}, root...), "Every prime number other than 2 is odd."), 0, false},
		{"check_unknown_name", append(append([]string{"check", "--json", "--no-lean"}, root...), "theorem t (x : Nat := 1) (p : Nat) (hp : Mm.Prime p) : Mm.IsOdd p := by sorry"), 1, false},
		{"check_gate", []string{"check", "--json", "theorem t : True := by decide"}, 1, false},
		{"check_refuted", append(append([]string{"check", "--json", "--no-lean", "--header", "open Minimath Mm", "--statement", "Every prime number greater than 2 is odd."}, root...),
			"theorem odd_of_prime (n : ℕ) (hp : Mm.Prime n) : Mm.Odd n := by sorry"), 1, false},
		{"formalize", append(append([]string{"formalize", "--json", "--name", "odd_of_two_lt"}, root...), "Every prime number greater than 2 is odd."), 0, false},
		{"bench_index", []string{"bench", "index", "--root", ws, "--runs", "1", "--reparses", "1", "--json"}, 0, false},
		{"bench_retrieval", append([]string{"bench", "retrieval", "--json", "--bench", filepath.Join("testdata", "bench.jsonl")}, root...), 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := dispatch(c.args, &out, &errb); code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out.String(), errb.String())
			}
			docs := []string{out.String()}
			if c.jsonl {
				docs = strings.SplitN(strings.TrimSpace(out.String()), "\n", 6)[:5]
			}
			var got bytes.Buffer
			for _, doc := range docs {
				var v any
				dec := json.NewDecoder(strings.NewReader(doc))
				if err := dec.Decode(&v); err != nil {
					t.Fatalf("output is not JSON: %v\n%s", err, doc)
				}
				if dec.More() {
					t.Fatalf("more than one JSON value in\n%s", doc)
				}
				if path := firstBad(v, "", nullList); path != "" {
					t.Errorf("null where a list belongs at %s", path)
				}
				if path := firstBad(v, "", badKey); path != "" {
					t.Errorf("key not in snake_case: %s", path)
				}
				b, _ := json.MarshalIndent(normalize(v, "", ws), "", "  ")
				got.Write(append(b, '\n'))
			}
			golden := filepath.Join("testdata", "json", c.name+".json")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got.String() != string(want) {
				t.Errorf("%s differs from the golden file (run with -update after an intended change)\n--- want\n%s--- got\n%s", c.name, want, got.String())
			}
		})
	}
}

// firstBad walks a decoded JSON value in key order and returns the path of
// the first object member for which bad is true, or "".
func firstBad(v any, path string, bad func(path, key string, val any) bool) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if bad(path, k, x[k]) {
				return path + "." + k
			}
			if p := firstBad(x[k], path+"."+k, bad); p != "" {
				return p
			}
		}
	case []any:
		for i, e := range x {
			if p := firstBad(e, fmt.Sprintf("%s[%d]", path, i), bad); p != "" {
				return p
			}
		}
	}
	return ""
}

// nullList is true for a null where a list belongs.
func nullList(_, key string, val any) bool { return val == nil && listKeys[key] }

// badKey is true for an object key that is not snake_case (map keys of
// per_stage, stages, channels and recall_at are data).
func badKey(path, key string, _ any) bool {
	data := strings.HasSuffix(path, ".per_stage") || strings.HasSuffix(path, ".stages") || strings.HasSuffix(path, ".channels") || strings.HasSuffix(path, ".recall_at")
	return !data && (key != strings.ToLower(key) || strings.ContainsAny(key, "- "))
}

// listKeys are the keys that hold lists in the commands' JSON.
var listKeys = map[string]bool{
	"unknown": true, "lints": true, "findings": true, "suggestions": true, "opens": true, "sub_queries": true,
	"premises": true, "proposed": true, "resolved": true, "illustrative": true, "covers": true, "candidates": true,
	"notes": true, "seeds": true, "warnings": true, "calls": true, "attrs": true, "statement_deps": true, "proof_deps": true,
}
