package leanrepl

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// devStub is one line of testdata/types/devset.txt.
type devStub struct {
	ill  bool
	stub string
}

func readDevSet(t testing.TB) []devStub {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "types", "devset.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []devStub
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if kind, stub, ok := strings.Cut(line, " "); ok && (kind == "ill" || kind == "ok") {
			out = append(out, devStub{ill: kind == "ill", stub: stub})
		}
	}
	return out
}

// mathlibChecker is a Checker over the Mathlib library (DRIFT_MATHLIB), without Lean.
func mathlibChecker(tb testing.TB) *Checker {
	ix := mathlibNames(tb)
	return NewChecker(CheckerConfig{Names: ix, Kinds: mathlibKinds, Library: func() *library.Library { return mathlibLib }, NoLean: "test"})
}

// TestTypesDevSet runs the light elaborator on its dev set against
// Mathlib: every ill-typed stub but the ones the golden file marks MISSED
// gets a `type` finding, no well-typed one does, and the findings are the
// golden file's.
func TestTypesDevSet(t *testing.T) {
	c := mathlibChecker(t)
	var b strings.Builder
	caught, ill, flaggedOK := 0, 0, 0
	for _, d := range readDevSet(t) {
		rep, err := c.Check(context.Background(), CheckRequest{Header: "import Mathlib", Stub: d.stub})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\n", d.stub)
		for _, f := range rep.Types {
			fmt.Fprintf(&b, "  [%d,%d) %s\n", f.Start, f.End, f.Message)
			if f.Retype != "" {
				fixed, _ := elab.Retype(rep.Stub, rep.Types)
				fmt.Fprintf(&b, "  retype: %s\n", fixed)
			}
		}
		switch {
		case d.ill && len(rep.Types) > 0:
			caught++
			if rep.Passed() {
				t.Errorf("%s: passed with type findings", d.stub)
			}
		case d.ill:
			b.WriteString("  MISSED\n")
		case len(rep.Types) > 0:
			flaggedOK++
			t.Errorf("well-typed stub flagged: %s: %s", d.stub, rep.Types[0].Message)
		}
		if d.ill {
			ill++
		}
	}
	fmt.Fprintf(&b, "caught %d of %d ill-typed; %d well-typed flagged\n", caught, ill, flaggedOK)
	t.Logf("caught %d of %d ill-typed; %d well-typed flagged", caught, ill, flaggedOK)
	golden := filepath.Join("testdata", "types", "devset.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != b.String() {
		t.Errorf("findings differ from %s (run with -update to see):\n%s", golden, b.String())
	}
	if caught*10 < ill*9 {
		t.Errorf("caught %d of %d ill-typed stubs, under 90 %%", caught, ill)
	}
}

// BenchmarkTypeCheckMathlib times the light elaborator alone on the dev
// set's stubs with Mathlib loaded and reports the median and p95 per stub.
func BenchmarkTypeCheckMathlib(b *testing.B) {
	c := mathlibChecker(b)
	set := readDevSet(b)
	type prepared struct {
		env  elab.Env
		stub string
	}
	var ds []time.Duration
	for i := 0; i < b.N; i++ {
		for _, d := range set {
			start := time.Now()
			s, err := Gate(d.stub)
			if err != nil {
				b.Fatal(err)
			}
			elab.Check(s, TypeEnv(s, "import Mathlib", mathlibLib, c.cfg.Names, c.cfg.Kinds, false))
			ds = append(ds, time.Since(start))
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds()), "median-µs")
	b.ReportMetric(float64(ds[len(ds)*95/100].Microseconds()), "p95-µs")
}

// repoStubs reads the stubs that the repository's test data holds (Lean
// files, goldens, transcripts, recorded answers): every `theorem`, `lemma`
// or `example` up to a `sorry`, the lines before it in its file as header.
func repoStubs(t *testing.T) []CheckRequest {
	t.Helper()
	var out []CheckRequest
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "editors":
				return filepath.SkipDir
			}
			return nil
		}
		slash := filepath.ToSlash(path)
		// the dev set is ill-typed on purpose; recorded model answers are
		// not references (many are ill-typed: `(G : Group)`)
		if !strings.Contains(slash, "/testdata/") || strings.Contains(slash, "/testdata/types/") || strings.Contains(slash, "/testdata/answers/") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil || len(data) > 4<<20 {
			return nil
		}
		text := string(data)
		// JSON-escaped answers: unescape the common escapes
		if strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".json") {
			text = strings.NewReplacer(`\n`, "\n", `\"`, `"`, `\u003e`, ">", `\u003c`, "<", `\u0026`, "&").Replace(text)
		}
		for _, kw := range []string{"theorem ", "lemma ", "example "} {
			for off := 0; ; {
				i := strings.Index(text[off:], kw)
				if i < 0 {
					break
				}
				start := off + i
				off = start + len(kw)
				if start > 0 && !strings.ContainsRune(" \n\t`(\"", rune(text[start-1])) {
					continue
				}
				end := strings.Index(text[start:], "sorry")
				if end < 0 || end > 2000 {
					continue
				}
				stub := text[start : start+end+len("sorry")]
				if _, err := Gate(stub); err != nil {
					continue
				}
				header := ""
				if nl := strings.LastIndex(text[:start], "\n"); nl > 0 && strings.HasSuffix(path, ".lean") {
					header = text[:nl]
				}
				out = append(out, CheckRequest{Header: header, Stub: stub, Statement: path})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTypesRepoStubs: no stub of the repository's test data gets a type
// finding, with the test workspace's library and, when DRIFT_MATHLIB is
// set, with Mathlib's.
func TestTypesRepoStubs(t *testing.T) {
	stubs := repoStubs(t)
	if len(stubs) < 20 {
		t.Fatalf("only %d stubs found in the test data", len(stubs))
	}
	libs := map[string]*library.Library{}
	ws, err := library.Discover(filepath.Join("..", "testdata", "workspace"), nil)
	if err != nil {
		t.Fatal(err)
	}
	small, err := library.Load(context.Background(), ws, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	libs["workspace"] = small
	if os.Getenv("DRIFT_MATHLIB") != "" {
		mathlibNames(t)
		libs["mathlib"] = mathlibLib
	}
	for name, lib := range libs {
		checked := 0
		for _, req := range stubs {
			s, err := Gate(req.Stub)
			if err != nil {
				continue
			}
			checked++
			for _, f := range elab.Check(s, TypeEnv(s, req.Header, lib, nil, nil, false)) {
				t.Errorf("%s library: %s: %s: %s", name, req.Statement, s.Text, f.Message)
			}
		}
		t.Logf("%s library: %d reference stubs checked", name, checked)
	}
}
