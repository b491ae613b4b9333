package leanrepl

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/falsify"

	"github.com/drift-lsp/drift-lsp/internal/progress"
)

// stubPool starts a pool over the stub-answering double with the given
// rules (known names and message rules).
func stubPool(t *testing.T, rules map[string]any, extra ...string) *Pool {
	t.Helper()
	bin := needFake(t)
	path := filepath.Join(t.TempDir(), "rules.json")
	b, _ := json.Marshal(rules)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	pool, err := NewPool(Config{Command: append([]string{bin, "-rules", path}, extra...), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	return pool
}

var known = []string{"Nat.totient", "Nat.Prime", "Finset.range", "Finset.sum", "Real.exp", "Real.pi", "Real.cos"}

func TestCheckWithoutLean(t *testing.T) {
	c := NewChecker(CheckerConfig{Names: testLibrary})
	rep, err := c.Check(context.Background(), CheckRequest{Header: "import Mathlib", Stub: "theorem t (n : ℕ) : Nat.totiently n ≤ n := by sorry"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.GatePassed || len(rep.Unknown) != 1 || rep.Unknown[0].Suggestions[0] != "Nat.totient" || rep.LeanRan || rep.LeanSkipped == "" || rep.Passed() {
		t.Fatalf("report %+v", rep)
	}
	rep, _ = c.Check(context.Background(), CheckRequest{Header: "import Mathlib", Stub: "#eval 1"})
	if rep.GatePassed || !strings.Contains(rep.GateReason, "#eval") || rep.Passed() || !strings.Contains(rep.Verdict(), "safety gate") {
		t.Fatalf("report %+v", rep)
	}
	rep, _ = c.Check(context.Background(), CheckRequest{Header: "import Mathlib", Stub: "theorem t (n : ℕ) : Nat.totient n ≤ n := by sorry"})
	if !rep.Passed() || !strings.Contains(rep.Verdict(), "Lean not run") || rep.LeanSkipped != "no Lean REPL configured" {
		t.Fatalf("report %+v: %s", rep, rep.Verdict())
	}
	rep, _ = NewChecker(CheckerConfig{}).Check(context.Background(), CheckRequest{Stub: "theorem t : Foo.bar := by sorry"})
	if rep.NamesSkipped == "" || !rep.Passed() {
		t.Fatalf("report without names %+v", rep)
	}
}

func TestCheckWithLean(t *testing.T) {
	pool := stubPool(t, map[string]any{"known": known, "rules": []map[string]string{
		{"match": `\(n : ℕ\) : n = n \+ 1`, "data": "type mismatch\n  n\nhas type\n  ℕ : Type\nbut is expected to have type\n  n + 1 : ℕ"},
	}})
	c := NewChecker(CheckerConfig{Names: testLibrary, Pool: pool})
	ctx := context.Background()
	rep, err := c.Check(ctx, CheckRequest{Header: "import Mathlib", Stub: "theorem t (n : ℕ) :\n  Nat.totient n ≤ n := by sorry"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.LeanRan || !rep.LeanOK || len(rep.Messages) != 0 || !rep.Passed() {
		t.Fatalf("report %+v", rep)
	}
	// A name the index has but Lean lacks: Lean's verdict, mapped back to
	// the stub's own coordinates despite the autoImplicit line.
	rep, _ = c.Check(ctx, CheckRequest{Header: "import Mathlib", Stub: "theorem t (n : ℕ) :\n  Nat.factorial n ≥ 1 := by sorry"})
	if !rep.LeanRan || rep.LeanOK || len(rep.Messages) != 1 || rep.Passed() {
		t.Fatalf("report %+v", rep)
	}
	m := rep.Messages[0]
	if m.Class != Hallucination || m.Name != "Nat.factorial" || m.Pos != (Pos{2, 2}) || rep.Stub[m.Start:m.End] != "Nat.factorial" {
		t.Fatalf("message %+v", m)
	}
	if len(rep.Hallucinations()) != 1 || !strings.Contains(rep.Verdict(), "Lean reported 1 error") {
		t.Fatalf("summary %q", rep.Verdict())
	}
	rep, _ = c.Check(ctx, CheckRequest{Header: "import Mathlib", Stub: "theorem t (n : ℕ) : n = n + 1 := by sorry"})
	if rep.LeanOK || rep.Messages[0].Category != "type-mismatch" || rep.Messages[0].Class != OtherError {
		t.Fatalf("report %+v", rep)
	}
}

// TestCheckProgressREPL: a check on the REPL path tells its Progress that
// the REPL starts and imports the header the first time, and only that it
// checks the next time (the process keeps the header's environment).
func TestCheckProgressREPL(t *testing.T) {
	c := NewChecker(CheckerConfig{Names: testLibrary, Pool: stubPool(t, map[string]any{"known": known})})
	durations := regexp.MustCompile(`in [0-9.]+(ms|s|m)$`)
	for _, want := range [][]string{
		{"Starting the Lean REPL…", "Importing the header (seconds to minutes with Mathlib)…", "Checking with Lean (repl)…", "Lean (repl) finished in D"},
		{"Checking with Lean (repl)…", "Lean (repl) finished in D"},
	} {
		var got []string
		rep, err := c.Check(context.Background(), CheckRequest{Header: "import Mathlib", Stub: "theorem t (n : ℕ) : Nat.totient n ≤ n := by sorry",
			Progress: func(ev progress.Event) { got = append(got, durations.ReplaceAllString(ev.Message, "in D")) }})
		if err != nil || !rep.LeanRan {
			t.Fatalf("report %+v, error %v", rep, err)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("progress %q, want %q", got, want)
		}
	}
}

func TestCheckLeanFailure(t *testing.T) {
	pool := stubPool(t, map[string]any{"known": known}, "-fault", "hang", "-at", "2")
	pool.cfg.Timeout = 200 * time.Millisecond
	c := NewChecker(CheckerConfig{Names: testLibrary, Pool: pool})
	rep, err := c.Check(context.Background(), CheckRequest{Header: "import Mathlib", Stub: "theorem t : 1 = 1 := by sorry"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.LeanRan || !rep.LeanFailed || !strings.Contains(rep.LeanSkipped, "Lean did not answer in 200ms") || rep.Passed() {
		t.Fatalf("report %+v", rep)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Check(ctx, CheckRequest{Header: "import Mathlib", Stub: "theorem t : 1 = 1 := by sorry"}); err == nil {
		t.Fatal("a cancelled check returned no error")
	}
}

func TestOffsetOf(t *testing.T) {
	text := "theorem t :\n  ∀ x : ℕ, x = x := by sorry"
	cases := []struct {
		p    Pos
		want int
	}{{Pos{1, 0}, 0}, {Pos{1, 8}, 8}, {Pos{2, 2}, 14}, {Pos{2, 4}, 18}, {Pos{3, 0}, -1}, {Pos{1, 40}, -1}, {Pos{0, 0}, -1}}
	for _, c := range cases {
		if got := OffsetOf(text, c.p); got != c.want {
			t.Errorf("OffsetOf(%v) = %d, want %d", c.p, got, c.want)
		}
	}
}

// TestFindingsLocateLeanErrors: an invented name that Lean reports comes
// back as a finding at Lean's position, classified, with suggestions from
// the name index; the index's own unknown-name finding comes first.
func TestFindingsLocateLeanErrors(t *testing.T) {
	checkNoLeaks(t)
	pool := stubPool(t, map[string]any{"known": known})
	stub := "theorem euler_bound (n : ℕ) : Nat.totiently n ≤ n := by sorry"
	for _, names := range []Names{nil, testLibrary} {
		c := NewChecker(CheckerConfig{Names: names, Pool: pool})
		rep, err := c.Check(context.Background(), CheckRequest{Header: "import Mathlib", Stub: stub})
		if err != nil {
			t.Fatal(err)
		}
		fs := rep.Findings()
		var lean *Finding
		for i, f := range fs {
			if f.Code == CodeLean && f.Category == "unknown-identifier" {
				lean = &fs[i]
			}
		}
		at := strings.Index(stub, "Nat.totiently")
		if lean == nil || lean.Name != "Nat.totiently" || lean.Line != 1 || lean.Column != 30 || lean.Start != at || lean.Severity != SeverityError ||
			!strings.Contains(lean.Message, "Unknown identifier `Nat.totiently`") {
			t.Fatalf("Lean's error not located: %+v", fs)
		}
		if names == nil {
			continue
		}
		if fs[0].Code != CodeUnknownName || fs[0].Start != at || fs[0].End != at+len("Nat.totiently") || len(lean.Suggestions) == 0 ||
			!strings.Contains(lean.Message, "did you mean") {
			t.Fatalf("findings %+v", fs)
		}
	}
}

// TestFindingsOfRejectedStub: a gate rejection is one finding about the
// whole stub.
func TestFindingsOfRejectedStub(t *testing.T) {
	rep, _ := NewChecker(CheckerConfig{}).Check(context.Background(), CheckRequest{Stub: "theorem t : 1 = 1 := by norm_num"})
	fs := rep.Findings()
	if len(fs) != 1 || fs[0].Code != CodeGate || fs[0].Start != -1 || fs[0].Line != 0 || fs[0].Column != -1 || fs[0].Suggestions == nil {
		t.Fatalf("findings %+v", fs)
	}
}

func TestOpenChecker(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no repl on PATH
	cases := []struct {
		name     string
		cfg      CheckerConfig
		pool     Config
		wantPool bool
		wantErr  error
		skipped  string
	}{
		{"lean disabled", CheckerConfig{NoLean: "--no-lean"}, Config{Command: []string{"repl"}}, false, nil, "--no-lean"},
		{"command given", CheckerConfig{}, Config{Command: []string{"repl"}}, true, nil, ""},
		{"no repl found", CheckerConfig{}, Config{Root: t.TempDir()}, false, ErrNotFound, "Lean REPL not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checker, pool, err := OpenChecker(c.cfg, c.pool)
			if !errors.Is(err, c.wantErr) || (err == nil) != (c.wantErr == nil) {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
			if (pool != nil) != c.wantPool || checker.HasLean() != c.wantPool {
				t.Fatalf("pool = %v, HasLean = %v, want %v", pool, checker.HasLean(), c.wantPool)
			}
			if pool != nil {
				pool.Close()
				return
			}
			rep, err := checker.Check(context.Background(), CheckRequest{Stub: "theorem t : 1 = 1 := by sorry"})
			if err != nil || rep.LeanRan || !strings.Contains(rep.LeanSkipped, c.skipped) {
				t.Fatalf("report %+v, err %v; want Lean skipped with %q", rep, err, c.skipped)
			}
		})
	}
}

// TestCheckMeaning: the falsifier and the coverage check in the report,
// the verdict and Passed, without a library (built-in vocabulary) and
// without Lean; the stub's docstring stands in for a missing statement.
func TestCheckMeaning(t *testing.T) {
	const statement = "Every prime number greater than 2 is odd."
	tests := []struct {
		name, stub, statement string
		refuted               string // the counterexample, "" when not refuted
		omits                 string // the coverage finding, "" when none
		passed                bool
		verdict               string
	}{
		{"dropped bound", "theorem t (n : ℕ) (hp : Nat.Prime n) : Odd n := by sorry", statement, "n = 2", "omits 'greater than 2'", false,
			"refuted: n = 2 · omits 'greater than 2' · names not checked · Lean not run"},
		{"faithful", "theorem t (n : ℕ) (hp : Nat.Prime n) (h : 2 < n) : Odd n := by sorry", statement, "", "", true,
			"names not checked · Lean not run · not refuted (N assignments) · covers 2/2 conditions"},
		{"docstring", "/-- Every prime number greater than 2 is odd. -/\ntheorem t (n : ℕ) (hp : Nat.Prime n) : Odd n := by sorry", "", "n = 2", "omits 'greater than 2'", false,
			"refuted: n = 2 · omits 'greater than 2' · names not checked · Lean not run"},
		{"no statement", "theorem t (a b : ℕ) : a - b + b = a := by sorry", "", "a = 0, b = 1", "", false,
			"refuted: a = 0, b = 1 · names not checked · Lean not run"},
		{"outside the fragment", "theorem t (s : Set ℕ) : s = s := by sorry", "", "", "", true,
			"names not checked · Lean not run · falsifier undecided (REASON)"},
		// a conclusion that is a hypothesis states nothing, whatever else covers
		{"conclusion assumed", "theorem t (x : ℝ) (h : x >= 0) : x ≥ 0 := by sorry", "The absolute value of a real number is nonnegative.", "", "omits 'absolute value'; states nothing: its conclusion is its hypothesis 'x >= 0'", false,
			"omits 'absolute value', states nothing: its conclusion is its hypothesis 'x >= 0' · names not checked · Lean not run · not refuted (N assignments)"},
		{"conclusion True", "theorem t (n : ℕ) (h : Odd n) : True := by sorry", "The square of an odd number is odd.", "", "omits 'square'; states nothing: its conclusion is True", false,
			"omits 'square', states nothing: its conclusion is True · names not checked · Lean not run · not refuted (N assignments)"},
		// a conclusion that relates a term to itself states nothing (the
		// bundled model's stub for a ProofNet integral)
		{"conclusion reflexive", "theorem t (x : ℝ) (h : Even x) : (-1 : ℝ) = (-1 : ℝ) := by sorry", "Show that the identity holds for every real x.", "",
			"states nothing: its conclusion '(-1 : ℝ) = (-1 : ℝ)' holds of any term", false,
			"states nothing: its conclusion '(-1 : ℝ) = (-1 : ℝ)' holds of any term · names not checked · Lean not run · falsifier undecided (REASON)"},
		// hypotheses that cannot all hold state nothing, with or without a
		// statement (AIME 1987 problem 8, as the bundled model wrote it)
		{"hypotheses contradict", "theorem largest_n (n : ℤ) (hn : 0 < n) (hn' : 8/15 < n) (hn_1 : n < 7/13) : n = 112 := by sorry",
			"What is the largest positive integer $n$ for which there is a unique integer $k$ such that $\\frac{8}{15} < \\frac{n}{n + k} < \\frac{7}{13}$?", "",
			"states nothing: its hypotheses contradict (0 < n, and n < 7/13, where 7/13 = 0 in ℤ)", false,
			"states nothing: its hypotheses contradict (0 < n, and n < 7/13, where 7/13 = 0 in ℤ) · names not checked · Lean not run · falsifier undecided (REASON)"},
		{"hypotheses contradict, no statement", "theorem t (n : ℕ) (h₀ : 0 < n) (h₁ : n < 6) (h₂ : n ^ 2 = 7) : n = 1 := by sorry", "", "",
			"states nothing: its hypotheses contradict (0 < n, n < 6 leave n in 1 … 5, and none of these values meets every hypothesis)", false,
			"states nothing: its hypotheses contradict (0 < n, n < 6 leave n in 1 … 5, and none of these values meets every hypothesis) · names not checked · Lean not run · falsifier undecided (REASON)"},
		{"hypotheses hold", "theorem t (n : ℕ) (h₀ : 0 < n) (h₁ : n < 6) (h₂ : n ^ 2 = 9) : n = 3 := by sorry", "", "", "", true,
			"names not checked · Lean not run · not refuted (N assignments)"},
		{"a conclusion False claims the contradiction", "theorem t (n : ℕ) (h₀ : n < 6) (h₂ : n ^ 2 = 7) : False := by sorry", "", "", "", true,
			"names not checked · Lean not run · falsifier undecided (REASON)"},
	}
	c := NewChecker(CheckerConfig{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := c.Check(context.Background(), CheckRequest{Stub: tc.stub, Statement: tc.statement})
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.JSON().Counterexample; got != tc.refuted || rep.Refuted() != (tc.refuted != "") {
				t.Errorf("counterexample %q (refuted %v), want %q", got, rep.Refuted(), tc.refuted)
			}
			var omits []string
			for _, f := range rep.CoverageFindings() {
				omits = append(omits, f.Message)
			}
			if got := strings.Join(omits, "; "); got != tc.omits {
				t.Errorf("coverage findings %q, want %q", got, tc.omits)
			}
			if rep.Passed() != tc.passed {
				t.Errorf("passed %v, want %v", rep.Passed(), tc.passed)
			}
			v := regexp.MustCompile(`\d+ assignments`).ReplaceAllString(rep.Verdict(), "N assignments")
			if rep.Falsifier.Verdict == falsify.Unknown {
				v = strings.Replace(v, rep.Falsifier.Reason, "REASON", 1)
			}
			if v != tc.verdict {
				t.Errorf("verdict %q, want %q", v, tc.verdict)
			}
		})
	}
}
