package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// writeCorpus writes a small decls JSONL corpus mirroring testdata/workspace.
func writeCorpus(t *testing.T) string {
	t.Helper()
	decls := []*library.Decl{
		{Name: "Mm.Prime", Kind: library.KindDef, Signature: "def Mm.Prime (p : Nat) : Prop", Doc: "A natural number `p` is prime if it is at least `2` and its only divisors are `1` and `p`."},
		{Name: "Mm.Odd", Kind: library.KindDef, Signature: "def Mm.Odd (n : Nat) : Prop", Doc: "A natural number is odd if it has the form `2 * k + 1`."},
		{Name: "DriftExample.Primes.Prime.odd_of_ne_two", Kind: library.KindTheorem, Signature: "theorem DriftExample.Primes.Prime.odd_of_ne_two {p : Nat} (hp : Prime p) (h2 : p ≠ 2) : Odd p", Doc: "Every prime number other than `2` is odd.", StatementDeps: []string{"Mm.Prime", "Mm.Odd"}},
	}
	var b bytes.Buffer
	for _, d := range decls {
		line, _ := json.Marshal(d)
		b.Write(append(line, '\n'))
	}
	p := filepath.Join(t.TempDir(), "corpus.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFormalizeWithoutModel(t *testing.T) {
	tests := []struct {
		name, local, dir string
		want             []string
	}{
		{"local model turned off", "off", "", []string{"DRIFT_LLM_BASE_URL"}},
		{"local model not installed", "auto", t.TempDir(), []string{"DRIFT_LLM_BASE_URL", "drift-lsp setup model"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DRIFT_LLM_BASE_URL", "")
			t.Setenv("DRIFT_LLM_LOCAL", tc.local)
			t.Setenv("DRIFT_LOCAL_LLM_DIR", tc.dir)
			var out, errb bytes.Buffer
			if rc := dispatch([]string{"formalize", "Every prime is odd."}, &out, &errb); rc != 2 {
				t.Fatalf("exit %d", rc)
			}
			if lines := strings.Count(strings.TrimSpace(errb.String()), "\n"); lines != 0 {
				t.Fatalf("want one line, got %q", errb.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(errb.String(), w) {
					t.Fatalf("%q lacks %q", errb.String(), w)
				}
			}
		})
	}
}

func TestFormalizeCommand(t *testing.T) {
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	t.Setenv("DRIFT_LLM_BASE_URL", srv.URL)
	t.Setenv("DRIFT_LLM_MODEL", "fake")
	t.Setenv("DRIFT_LLM_CACHE", t.TempDir())
	t.Setenv("OPENAI_API_KEY", "sk-cli-test-key-42")
	corpus := writeCorpus(t)
	args := []string{"formalize", "--cache", "", "--corpus", corpus, "--name", "odd_of_two_lt", "Every prime number greater than 2 is odd."}

	var out, errb bytes.Buffer
	if rc := dispatch(args, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	text := out.String()
	for _, want := range []string{
		"Sub-queries (2):", "Mm.Prime", "[sub-query 1]", "Proposed names (2, hallucination rate 0%)",
		"DriftExample.Primes.Prime.odd_of_ne_two  (covers Mm.Prime, Mm.Odd)", "coverage 100%",
		"Model calls: 5", "Chosen stub:\ntheorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry",
		"Lean not run: Lean REPL not found",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	// The premises are printed as soon as they are found: first those of
	// the whole statement (unless the fake model's instant Decompose let
	// the final ones come first: then the first look is dropped), then the
	// candidates' context, before the drawing.
	progress := errb.String()
	first, final, drawing := strings.Index(progress, "while the model decomposes it):\n  Mm."), strings.Index(progress, "(the context the candidates are drawn with):\n  Mm."), strings.Index(progress, "[formalize] Formalizing: drawing")
	if final < 0 || drawing < 0 || final > drawing || first > final {
		t.Errorf("premises not printed in order before the drawing:\n%s", progress)
	}
	if strings.Contains(text+errb.String(), "sk-cli-test-key-42") {
		t.Fatal("the API key was printed")
	}
	if r := srv.Requests()[0]; r.Authorization != "Bearer sk-cli-test-key-42" {
		t.Fatalf("key not sent: %q", r.Authorization)
	}

	// The repeat is free, and --json carries the same result.
	out.Reset()
	errb.Reset()
	before := len(srv.Requests())
	if rc := dispatch(append([]string{"formalize", "--json"}, args[1:]...), &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	var res struct {
		Stub     string `json:"stub"`
		Premises []struct {
			Name     string `json:"name"`
			SubQuery int    `json:"sub_query"`
		} `json:"premises"`
		Usage struct {
			Calls     int `json:"calls"`
			CacheHits int `json:"cache_hits"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if !strings.HasPrefix(res.Stub, "theorem odd_of_two_lt") || len(res.Premises) != 2 || res.Usage.Calls != 0 || res.Usage.CacheHits != 5 {
		t.Fatalf("json %+v", res)
	}
	if len(srv.Requests()) != before {
		t.Fatal("the repeat reached the model")
	}
}

// TestFormalizeWithREPL checks candidates with Lean through --repl, played by
// leanrepl's protocol-faithful fake REPL: a candidate Lean rejects ranks
// below one it accepts, whatever the agreement.
func TestFormalizeWithREPL(t *testing.T) {
	dir := t.TempDir()
	fake := buildReplFake(t)
	rules := filepath.Join(dir, "rules.json")
	os.WriteFile(rules, []byte(`{"known": ["Mm.Prime", "Mm.Odd"], "rules": [{"match": "2 ≤ p", "data": "type mismatch"}]}`), 0o600)

	bad := "```lean\ntheorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 ≤ p) : Mm.Odd p := by sorry\n```"
	good := "```lean\ntheorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry\n```"
	var n atomic.Int32 // the handler runs concurrently, one goroutine per sample
	ws := llmtest.Workspace()
	srv := llmtest.New(t, func(i int, req llmtest.Request) llmtest.Reply {
		if llmtest.StageOf(req) == llm.StageFormalize {
			// The second answer drawn is the good one.
			var texts []string
			for range max(req.N, 1) {
				if n.Add(1) == 2 {
					texts = append(texts, good)
				} else {
					texts = append(texts, bad)
				}
			}
			return llmtest.Reply{Text: texts[0], Choices: texts}
		}
		return ws(i, req)
	})
	defer srv.Close()
	t.Setenv("DRIFT_LLM_BASE_URL", srv.URL)
	t.Setenv("DRIFT_LLM_MODEL", "fake")
	t.Setenv("DRIFT_LLM_CACHE", "off")
	var out, errb bytes.Buffer
	args := []string{"formalize", "--cache", "", "--corpus", writeCorpus(t), "--repl", fake + " -rules " + rules,
		"--header", "import Minimath.Basic", "--name", "odd_of_two_lt", "Every prime number greater than 2 is odd."}
	if rc := dispatch(args, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	text := out.String()
	if !strings.Contains(text, "Chosen stub:\n"+strings.TrimSuffix(strings.TrimPrefix(good, "```lean\n"), "\n```")) ||
		!strings.Contains(text, "agreement 1, Lean: ok") || !strings.Contains(text, "agreement 4, Lean: rejected\n     1:55 type mismatch") {
		t.Fatalf("output:\n%s\nstderr:\n%s", text, errb.String())
	}
}

// TestFormalizeInformalize describes the user's undocumented declarations
// first (in dependency order), and a repeat serves them from the cache.
func TestFormalizeInformalize(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "lakefile.lean"), []byte("import Lake\nopen Lake DSL\npackage mine\nlean_lib Mine\n"), 0o600)
	os.MkdirAll(filepath.Join(ws, "Mine"), 0o755)
	os.WriteFile(filepath.Join(ws, "Mine", "Basic.lean"), []byte("namespace Mine\n\ndef IsOddNat (n : Nat) : Prop := n % 2 = 1\n\ntheorem odd_sq (n : Nat) (h : IsOddNat n) : IsOddNat (n * n) := by\n  sorry\n\nend Mine\n"), 0o600)
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	t.Setenv("DRIFT_LLM_BASE_URL", srv.URL)
	t.Setenv("DRIFT_LLM_MODEL", "fake")
	t.Setenv("DRIFT_LLM_CACHE", t.TempDir())
	args := []string{"formalize", "--cache", "", "--root", ws, "--informalize", "--name", "odd_sq'", "The square of an odd number is odd."}
	// The fake model writes Mm.Odd, which this workspace lacks: the stub is
	// shown as failing the name check, and the exit status says so.
	var out, errb bytes.Buffer
	if rc := dispatch(args, &out, &errb); rc != 1 || !strings.Contains(out.String(), "Chosen stub (FAILED the checks: unknown names: Mm.Odd") {
		t.Fatalf("exit %d: %s\n%s", rc, errb.String(), out.String())
	}
	var informal []string
	for _, r := range srv.Requests() {
		if llmtest.StageOf(r) == llm.StageInformalize {
			informal = append(informal, r.Prompt())
		}
	}
	if len(informal) != 2 || !strings.Contains(informal[0], "IsOddNat (n : Nat)") || !strings.Contains(informal[1], "It uses:\n- Mine.IsOddNat:") {
		t.Fatalf("informalize prompts %q\nstderr %s", informal, errb.String())
	}
	if !strings.Contains(errb.String(), "described 2 of 2 undocumented declarations (2 calls, 0 cache hits)") {
		t.Fatalf("stderr %s", errb.String())
	}
	errb.Reset()
	if rc := dispatch(args, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "(0 calls, 2 cache hits)") {
		t.Fatalf("repeat: exit %d: %s", rc, errb.String())
	}
}

// TestFormalizeRepairsAsEditor: the command repairs with the editor's
// budget (pipeline.repairBudget, 4) unless --repair says otherwise: the
// model's stub omits "greater than 2" (which of the two primes is greater
// than 2 the words do not say, so no hypothesis is added without the
// model) and the repair stage fixes it.
func TestFormalizeRepairsAsEditor(t *testing.T) {
	const omits = "theorem odd_of_two_lt (n m : Nat) (hp : Mm.Prime n) (hq : Mm.Prime m) : Mm.Odd n := by sorry"
	const fixed = "theorem odd_of_two_lt (n : Nat) (hp : Mm.Prime n) (h : 2 < n) : Mm.Odd n := by sorry"
	ws := llmtest.Workspace()
	srv := llmtest.New(t, func(i int, req llmtest.Request) llmtest.Reply {
		switch llmtest.StageOf(req) {
		case llm.StageFormalize:
			return llmtest.Reply{Text: "```lean\n" + omits + "\n```"}
		case llm.StageRepair:
			return llmtest.Reply{Text: "```lean\n" + fixed + "\n```"}
		}
		return ws(i, req)
	})
	defer srv.Close()
	t.Setenv("DRIFT_LLM_BASE_URL", srv.URL)
	t.Setenv("DRIFT_LLM_MODEL", "fake")
	t.Setenv("DRIFT_LLM_CACHE", "off")
	t.Setenv("DRIFT_REPAIR_BUDGET", "")
	corpus := writeCorpus(t)
	for _, c := range []struct {
		flags []string
		rc    int
		want  string
	}{
		{nil, 0, "Chosen stub:\n" + fixed},
		{[]string{"--repair", "0"}, 1, "Chosen stub (FAILED the checks: omits 'greater than 2'"},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"formalize", "--cache", "", "--corpus", corpus}, c.flags...), "Every prime number greater than 2 is odd.")
		if rc := dispatch(args, &out, &errb); rc != c.rc || !strings.Contains(out.String(), c.want) {
			t.Errorf("%v: exit %d, want %d and %q:\n%s%s", c.flags, rc, c.rc, c.want, out.String(), errb.String())
		}
	}
}
