package leanrepl

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/lake"
	"github.com/drift-lsp/drift-lsp/internal/proctest"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// writeScript writes an executable shell script.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindLean(t *testing.T) {
	dir := t.TempDir()
	elan := filepath.Join(dir, "elan")
	tc := lake.ToolchainDir(elan, "leanprover/lean4:v4.35.0")
	if want := filepath.Join(elan, "toolchains", "leanprover--lean4---v4.35.0"); tc != want {
		t.Fatalf("ElanToolchainDir = %s, want %s", tc, want)
	}
	os.MkdirAll(filepath.Join(tc, "bin"), 0o755)
	tcLean := writeScript(t, filepath.Join(tc, "bin"), "lean", "exit 0\n")
	pathDir := filepath.Join(dir, "path")
	os.MkdirAll(pathDir, 0o755)
	pathLean := writeScript(t, pathDir, "lean", "exit 0\n")

	// Workspaces: one naming the installed toolchain, one naming another,
	// one with nothing, one a Lake workspace with a built package.
	ws := func(name, toolchain string, lakefile bool) string {
		root := filepath.Join(dir, name)
		os.MkdirAll(root, 0o755)
		if toolchain != "" {
			os.WriteFile(filepath.Join(root, "lean-toolchain"), []byte(toolchain+"\n"), 0o644)
		}
		if lakefile {
			os.WriteFile(filepath.Join(root, "lakefile.toml"), []byte("name = \"w\"\n"), 0o644)
		}
		return root
	}
	installed := ws("installed", "leanprover/lean4:v4.35.0", false)
	other := ws("other", "leanprover/lean4:v4.9.0", false)
	plain := ws("plain", "", false)
	lakeWS := ws("lake", "leanprover/lean4:v4.35.0", true)
	built := filepath.Join(installed, ".lake", "packages", "mathlib", ".lake", "build", "lib", "lean")
	os.MkdirAll(built, 0o755)

	cases := []struct {
		name    string
		root    string
		command []string
		path    string // PATH
		lakeBin bool   // a lake in the elan toolchain
		want    []string
		env     string
		source  string
		err     string
	}{
		{"setting wins", installed, []string{pathLean}, pathDir, false, []string{pathLean}, "LEAN_PATH=" + built, "setting lean.command", ""},
		{"setting missing", plain, []string{filepath.Join(dir, "nope")}, pathDir, false, nil, "", "", "the configured lean command"},
		{"elan toolchain", installed, nil, pathDir, false, []string{tcLean}, "LEAN_PATH=" + built, "toolchain leanprover/lean4:v4.35.0 of " + filepath.Join(installed, "lean-toolchain"), ""},
		{"toolchain not installed, PATH", other, nil, pathDir, false, []string{pathLean}, "", "lean on PATH", ""},
		{"PATH", plain, nil, pathDir, false, []string{pathLean}, "", "lean on PATH", ""},
		{"lake env", lakeWS, nil, "", true, []string{filepath.Join(tc, "bin", "lake"), "env", "lean"}, "", "lake env in the Lake workspace " + lakeWS, ""},
		{"Lake workspace without lake", lakeWS, nil, "", false, []string{tcLean}, "", "toolchain leanprover/lean4:v4.35.0 of " + filepath.Join(lakeWS, "lean-toolchain"), ""},
		{"nothing", other, nil, filepath.Join(dir, "empty"), false, nil, "", "",
			"no Lean toolchain found: lean-toolchain names leanprover/lean4:v4.9.0, not installed in " + lake.ToolchainDir(elan, "leanprover/lean4:v4.9.0") + "; no lean on PATH (install elan, or set lean.command)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("ELAN_HOME", elan)
			t.Setenv("PATH", c.path)
			t.Setenv("LEAN_PATH", "")
			lakeBin := filepath.Join(tc, "bin", "lake")
			if c.lakeBin {
				writeScript(t, filepath.Join(tc, "bin"), "lake", "exit 0\n")
				defer os.Remove(lakeBin)
			}
			got, err := FindLean(c.root, c.command, processEnv())
			if c.err != "" {
				if err == nil || !errors.Is(err, ErrLeanNotFound) || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("FindLean = %v, %v; want an ErrLeanNotFound with %q", got, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got.Command, " ") != strings.Join(c.want, " ") || strings.Join(got.Env, " ") != c.env || got.Source != c.source {
				t.Errorf("FindLean = %+v\nwant command %v, env %q, source %q", got, c.want, c.env, c.source)
			}
		})
	}
}

func TestDecodeLeanLine(t *testing.T) {
	// Lines printed by the real Lean 4.35.0 (`lean --json`).
	cases := []struct {
		line string
		ok   bool
		want Message
	}{
		{`{"caption":"","data":"Unknown identifier ` + "`foo`" + `","endPos":{"column":25,"line":4},"fileName":"a.lean","isSilent":false,"keepFullRange":false,"kind":"lean.unknownIdentifier._namedError","pos":{"column":22,"line":4},"severity":"error"}`,
			true, Message{Severity: "error", Pos: Pos{4, 22}, EndPos: &Pos{4, 25}, Data: "Unknown identifier `foo`"}},
		{`{"caption":"","data":"unknown tactic","endPos":null,"fileName":"e3.lean","isSilent":false,"keepFullRange":true,"kind":"[anonymous]","pos":{"column":26,"line":4},"severity":"error"}`,
			true, Message{Severity: "error", Pos: Pos{4, 26}, Data: "unknown tactic"}},
		{`{"caption":"","data":"hello","endPos":null,"fileName":"x.lean","isSilent":false,"keepFullRange":false,"kind":"[anonymous]","pos":{"column":0,"line":1},"severity":"information"}` + "\r\n",
			true, Message{Severity: "info", Pos: Pos{1, 0}, Data: "hello"}},
		{"✔ [2/3] Built DriftPrelude\n", false, Message{}},
		{`{"not":"a message"}`, false, Message{}},
		{`{"severity":"error","pos":`, false, Message{}},
		{"", false, Message{}},
	}
	for _, c := range cases {
		got, ok := decodeLeanLine([]byte(c.line))
		if ok != c.ok || fmt.Sprint(got.Severity, got.Pos, got.EndPos != nil, got.Data) != fmt.Sprint(c.want.Severity, c.want.Pos, c.want.EndPos != nil, c.want.Data) ||
			(got.EndPos != nil && *got.EndPos != *c.want.EndPos) {
			t.Errorf("decodeLeanLine(%.60q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// editorView renders what the editor shows for a report: Lean's verdict and
// backend, then one line per finding (Report.Findings, which the server
// publishes as diagnostics) with its range in LSP coordinates (0-based
// line, UTF-16 column) within the stub.
func editorView(rep *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "backend: %s\n", rep.LeanBackend)
	switch {
	case rep.LeanFailed:
		fmt.Fprintf(&b, "lean: failed: %s\n", rep.LeanSkipped)
	case !rep.LeanRan:
		fmt.Fprintf(&b, "lean: not run: %s\n", rep.LeanSkipped)
	case rep.LeanOK:
		b.WriteString("lean: accepted\n")
	default:
		b.WriteString("lean: rejected\n")
	}
	fmt.Fprintf(&b, "passed: %v\n", rep.Passed())
	for _, f := range rep.Findings() {
		sl, sc := lspPos(rep.Stub, f.Start)
		el, ec := lspPos(rep.Stub, f.End)
		kind := f.Severity.String() + " " + f.Code
		if f.Category != "" {
			kind += "/" + f.Category
		}
		if f.Name != "" {
			kind += " " + f.Name
		}
		fmt.Fprintf(&b, "%d:%d-%d:%d %s: %s\n", sl, sc, el, ec, kind, f.Message)
	}
	return b.String()
}

// lspPos converts a byte offset in text to a 0-based line and UTF-16
// column, independently of the code under test.
func lspPos(text string, off int) (int, int) {
	if off < 0 || off > len(text) {
		return -1, -1
	}
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	col := 0
	for s := text[start:off]; s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		col += len(utf16.Encode([]rune{r}))
		s = s[n:]
	}
	return line, col
}

// preludeRunner returns a runner over the real lean for a fresh prelude
// workspace.
func preludeRunner(t *testing.T, cfg Config) (*LeanRunner, string) {
	t.Helper()
	lean := leantest.Binary(t)
	root := leantest.PreludeWorkspace(t)
	tc, err := FindLean(root, []string{lean}, Env{})
	if err != nil {
		t.Fatal(err)
	}
	return NewLeanRunner(tc, cfg), root
}

// TestRealLeanMessages checks stubs with the real Lean 4.35.0 through the
// Checker, as the editor and `check` do, and compares the report with its
// golden file.
func TestRealLeanMessages(t *testing.T) {
	run, _ := preludeRunner(t, Config{Timeout: time.Minute})
	c := NewChecker(CheckerConfig{Lean: run})
	cases := []struct{ name, stub string }{
		{"accepted", "/-- Addition is commutative. -/\ntheorem add_comm' (m n : Nat) : Eq (Nat.add m n) (Nat.add n m) := sorry"},
		{"accepted-even", "theorem zero_even : Nat.Even Nat.zero := sorry"},
		// Lean gets term-mode sorry: the tactic is declared in Init.
		{"accepted-by-sorry", "theorem refl' (n : Nat) : Eq n n := by\n  sorry"},
		{"unknown-identifier", "theorem t (n : Nat) : Eq n (double n) := sorry"},
		{"unknown-constant", "theorem t (n : Nat) : Nat.Odd n := sorry"},
		{"invalid-field", "theorem t (n : Nat) : n.IsEven := sorry"},
		{"type-mismatch", "theorem t : Eq (Nat.zero : Prop) Nat.zero := sorry"},
		{"application-type-mismatch", "theorem t (n : Nat) (h : Eq n n) : Eq h n := sorry"},
		{"syntax", "theorem t (n : Nat) :\n  Eq n n → := sorry"},
		{"unicode", "theorem «t₁» (αβγ : Nat) (𝔸 : Nat) :\n  Eq 𝔸 (Nat.add αβγ fooé) := sorry"},
		{"not-a-proposition", "theorem t : Nat := sorry"},
		{"two-errors", "theorem t (n : Nat) : And (Eq n Nat) (Eq (f n) n) := sorry"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := c.Check(context.Background(), CheckRequest{Header: leantest.PreludeHeader, Stub: tc.stub})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.LeanRan || rep.LeanBackend != BackendLean {
				t.Fatalf("Lean did not run: %+v", rep)
			}
			leantest.Golden(t, filepath.Join("testdata", "leanrun", tc.name+".golden"), editorView(rep), *update)
			if tc.name == "unicode" {
				// Lean counts code points (𝔸 is one), the editor UTF-16
				// units (𝔸 is two): column 20 becomes 21.
				m := rep.Messages[0]
				if _, col := lspPos(rep.Stub, m.Start); m.Pos.Column != 20 || col != 21 {
					t.Errorf("Lean column %d, UTF-16 column %d; want 20 and 21", m.Pos.Column, col)
				}
			}
		})
	}
}

// TestRealLeanHeaderError: a header that does not elaborate fails the check
// and says why; nothing is reported as accepted.
func TestRealLeanHeaderError(t *testing.T) {
	run, _ := preludeRunner(t, Config{})
	c := NewChecker(CheckerConfig{Lean: run})
	rep, err := c.Check(context.Background(), CheckRequest{Header: "prelude\nimport NoSuchModule", Stub: "theorem t : True := sorry"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.LeanRan || !rep.LeanFailed || rep.Passed() || !strings.HasPrefix(rep.LeanSkipped, "Lean failed: the header does not elaborate: 1:0: unknown module prefix 'NoSuchModule'") {
		t.Errorf("report %+v", rep)
	}
}

// faultRunner runs the real lean through a wrapper script.
func faultRunner(t *testing.T, script string, cfg Config) (*LeanRunner, string) {
	t.Helper()
	lean := leantest.Binary(t)
	root := leantest.PreludeWorkspace(t)
	dir := t.TempDir()
	w := writeScript(t, dir, "lean-wrapper", strings.ReplaceAll(strings.ReplaceAll(script, "$LEAN", lean), "$DIR", dir))
	tc, err := FindLean(root, []string{w}, Env{})
	if err != nil {
		t.Fatal(err)
	}
	return NewLeanRunner(tc, cfg), dir
}

// gone reports whether the process whose pid is in file has exited (gone,
// or a zombie left to init). SIGKILL is delivered asynchronously, so it
// waits up to 10 s for the exit, on a pidfd: it becomes readable when the
// process terminates.
func gone(t *testing.T, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the wrapper did not record its child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	ok, err := proctest.WaitExit(pid, 10*time.Second)
	if err != nil {
		t.Fatalf("waiting for process %d: %v", pid, err)
	}
	return ok
}

func TestRealLeanFaults(t *testing.T) {
	stub := "theorem t (m n : Nat) : Eq (Nat.add m n) (Nat.add n m) := sorry"
	cases := []struct {
		name   string
		script string
		cfg    Config
		kind   error
		want   string
	}{
		// lean hangs after starting a child: both are killed at the
		// deadline (Timeout + ImportTimeout).
		{"hang", "sleep 600 &\necho $! > $DIR/child\nwait\n", Config{Timeout: 1 * time.Second, ImportTimeout: 1 * time.Second},
			ErrTimeout, "Lean failed: Lean (lean --json) did not finish in 2 s"},
		// lean prints its real verdict, then crashes: a failure, not a
		// success.
		{"crash after verdict", "\"$LEAN\" \"$@\"\nkill -SEGV $$\n", Config{},
			ErrDied, "Lean failed: Lean (lean --json) crashed (signal: segmentation fault)"},
		// The real lean under a 2 GiB address-space limit aborts: it
		// cannot map its threads' stacks.
		{"memory limit", "until [ \"$(ulimit -v)\" != unlimited ]; do sleep 0.01; done\nexec \"$LEAN\" \"$@\"\n", Config{MemoryLimit: 2 << 30},
			ErrOutOfMemory, "Lean failed: Lean (lean --json) ran out of memory (limit 2 GiB): signal: aborted"},
		// Exit status 1 without an error message is no verdict.
		{"status 1 without errors", "echo 'cannot read the file' >&2\nexit 1\n", Config{},
			ErrDied, "Lean failed: Lean (lean --json) failed without reporting an error (exit status 1); stderr: cannot read the file"},
		{"garbage", "echo 'Segmentation fault in module loader'\nexit 139\n", Config{},
			ErrDied, "Lean failed: Lean (lean --json) crashed (exit status 139); output: Segmentation fault in module loader"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run, dir := faultRunner(t, c.script, c.cfg)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, err := run.Run(ctx, leantest.PreludeHeader, stub)
			if !errors.Is(err, c.kind) {
				t.Fatalf("Run error = %v; want %v", err, c.kind)
			}
			rep, err := NewChecker(CheckerConfig{Lean: run}).Check(ctx, CheckRequest{Header: leantest.PreludeHeader, Stub: stub})
			if err != nil {
				t.Fatal(err)
			}
			if rep.LeanRan || rep.LeanOK || !rep.LeanFailed || rep.Passed() || rep.LeanBackend != BackendLean || !strings.HasPrefix(rep.LeanSkipped, c.want) {
				t.Errorf("report %+v\nwant a failure starting %q", rep, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "child")); err == nil && !gone(t, filepath.Join(dir, "child")) {
				t.Errorf("the wrapper's child outlived the run")
			}
		})
	}
}

// TestSilentLeanIsNoSuccess: a lean command that exits 0 without a word
// (here `true`) did not check the stub: the report says Lean failed.
func TestSilentLeanIsNoSuccess(t *testing.T) {
	dir := t.TempDir()
	tc, err := FindLean(dir, []string{writeScript(t, dir, "lean", "exit 0\n")}, Env{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := NewChecker(CheckerConfig{Lean: NewLeanRunner(tc, Config{})}).Check(context.Background(), CheckRequest{Stub: "theorem t : True := sorry"})
	if err != nil {
		t.Fatal(err)
	}
	want := "Lean failed: it reported neither an error nor \"declaration uses `sorry`\", so it did not check the stub"
	if rep.LeanRan || rep.LeanOK || !rep.LeanFailed || rep.Passed() || rep.LeanSkipped != want {
		t.Errorf("report %+v", rep)
	}
}

// TestRealLeanCacheAndConcurrency: a repeated check is answered from the
// cache; at most Size runs happen at once.
func TestRealLeanCacheAndConcurrency(t *testing.T) {
	// The wrapper counts runs and detects overlapping ones.
	script := "echo run >> $DIR/runs\nmkdir $DIR/busy 2>/dev/null || echo overlap >> $DIR/overlaps\n\"$LEAN\" \"$@\"\ns=$?\nrmdir $DIR/busy\nexit $s\n"
	run, dir := faultRunner(t, script, Config{Size: 1})
	c := NewChecker(CheckerConfig{Lean: run})
	ctx := context.Background()
	stubs := []string{
		"theorem a : True := sorry",
		"theorem b : Eq Nat.zero Nat.zero := sorry",
		"theorem c (n : Nat) : Eq n Nat := sorry",
	}
	var wg sync.WaitGroup
	reps := make([]*Report, 2*len(stubs))
	for i := range reps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.Check(ctx, CheckRequest{Header: leantest.PreludeHeader, Stub: stubs[i%len(stubs)]})
			if err != nil {
				t.Error(err)
				return
			}
			reps[i] = r
		}()
	}
	wg.Wait()
	for i, r := range reps {
		if r == nil || !r.LeanRan {
			t.Fatalf("check %d: %+v", i, r)
		}
		if want := i%len(stubs) < 2; r.LeanOK != want {
			t.Errorf("check %d (%s): LeanOK = %v", i, stubs[i%len(stubs)], r.LeanOK)
		}
	}
	runs, _ := os.ReadFile(filepath.Join(dir, "runs"))
	// An identical check waiting for its turn finds the first one's result.
	if n := strings.Count(string(runs), "run"); n != len(stubs) {
		t.Errorf("%d lean runs for %d checks of %d stubs", n, len(reps), len(stubs))
	}
	before := strings.Count(string(runs), "run")
	for _, s := range stubs {
		if _, err := c.Check(ctx, CheckRequest{Header: leantest.PreludeHeader, Stub: s}); err != nil {
			t.Fatal(err)
		}
	}
	runs, _ = os.ReadFile(filepath.Join(dir, "runs"))
	if after := strings.Count(string(runs), "run"); after != before {
		t.Errorf("repeated checks ran lean %d more times; want the cache", after-before)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "overlaps")); err == nil {
		t.Errorf("lean runs overlapped with Size 1: %q", b)
	}
}

// BenchmarkRealLeanCheck measures one uncached check of a stub by the real
// lean on the prelude workspace (a fresh stub per iteration, so the cache
// never answers).
func BenchmarkRealLeanCheck(b *testing.B) {
	lean := leantest.Binary(b)
	root := leantest.PreludeWorkspace(b)
	tc, err := FindLean(root, []string{lean}, Env{})
	if err != nil {
		b.Fatal(err)
	}
	c := NewChecker(CheckerConfig{Lean: NewLeanRunner(tc, Config{})})
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		rep, err := c.Check(ctx, CheckRequest{Header: leantest.PreludeHeader, Stub: fmt.Sprintf("theorem t%d (m n : Nat) : Eq (Nat.add m n) (Nat.add n m) := sorry", i)})
		if err != nil || !rep.LeanOK {
			b.Fatalf("%v %+v", err, rep)
		}
	}
}

// TestRealLeanFoundThroughElan: the prelude workspace's lean-toolchain
// names leanprover/lean4:v4.35.0; with the real toolchain in an elan
// directory and nothing on PATH, FindLean finds it there and sets
// LEAN_PATH to the workspace's build directory, and the check runs.
// TestRealLeanProgress: a check tells its Progress what Lean does: the run
// of lean, then its end; a repeated check, the cache.
func TestRealLeanProgress(t *testing.T) {
	tc, err := FindLean(leantest.PreludeWorkspace(t), []string{leantest.Binary(t)}, Env{})
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(CheckerConfig{Lean: NewLeanRunner(tc, Config{})})
	durations := regexp.MustCompile(`in [0-9.]+(ms|s|m)$`)
	for _, want := range [][]string{
		{"Running lean --json (each run imports the header again: seconds to minutes with Mathlib)…", "Lean (lean) finished in D"},
		{"Lean's result from the cache (same toolchain, header and stub)", "Lean (lean) finished in D"},
	} {
		var got []string
		rep, err := c.Check(context.Background(), CheckRequest{Header: leantest.PreludeHeader, Stub: "theorem t : True := sorry",
			Progress: func(ev progress.Event) {
				if ev.Stage != StageLean {
					t.Errorf("stage %q, want %q", ev.Stage, StageLean)
				}
				got = append(got, durations.ReplaceAllString(ev.Message, "in D"))
			}})
		if err != nil || !rep.LeanRan {
			t.Fatalf("report %+v, error %v", rep, err)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("progress %q, want %q", got, want)
		}
	}
}

func TestRealLeanFoundThroughElan(t *testing.T) {
	leantest.Binary(t)
	root := leantest.PreludeWorkspace(t)
	elan := t.TempDir()
	tc := lake.ToolchainDir(elan, "leanprover/lean4:v4.35.0")
	os.MkdirAll(filepath.Dir(tc), 0o755)
	if err := os.Symlink(leantest.Home(), tc); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ELAN_HOME", elan)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LEAN_PATH", "")
	found, err := FindLean(root, nil, processEnv())
	if err != nil {
		t.Fatal(err)
	}
	want := "LEAN_PATH=" + filepath.Join(root, ".lake", "build", "lib", "lean") + " " + filepath.Join(tc, "bin", "lean") +
		" (toolchain leanprover/lean4:v4.35.0 of " + filepath.Join(root, "lean-toolchain") + ")"
	if found.String() != want {
		t.Fatalf("found %s\nwant  %s", found, want)
	}
	rep, err := NewChecker(CheckerConfig{Lean: NewLeanRunner(found, Config{})}).Check(context.Background(),
		CheckRequest{Header: leantest.PreludeHeader, Stub: "theorem t (n : Nat) : Nat.Even n := sorry"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.LeanRan || !rep.LeanOK || rep.LeanCommand != want {
		t.Errorf("report %+v", rep)
	}
}

// TestOpenCheckerBackends: the REPL is preferred when there is one; without
// it `lean --json` runs; without either the checker says why not, for both.
func TestOpenCheckerBackends(t *testing.T) {
	fake := needFake(t)
	dir := t.TempDir()
	lean := writeScript(t, dir, "lean", "exit 0\n")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("ELAN_HOME", t.TempDir())
	cases := []struct {
		name         string
		pool         Config
		backend, cmd string
		noLean       string
	}{
		{"repl preferred", Config{Command: []string{fake}, Root: dir, LeanCommand: []string{lean}, Env: processEnv()}, BackendREPL, fake, ""},
		{"lean without a repl", Config{Root: dir, LeanCommand: []string{lean}, Env: processEnv()}, BackendLean, lean + " (setting lean.command)", ""},
		{"neither", Config{Root: dir, Env: processEnv()}, "", "",
			"Lean REPL not found: no repl binary under " + dir + "/.lake or on PATH (build leanprover-community/repl or pass --repl); no Lean toolchain found: no lean on PATH (install elan, or set lean.command)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checker, pool, err := OpenChecker(CheckerConfig{}, c.pool)
			if pool != nil {
				defer pool.Close()
			}
			backend, cmd := checker.Backend()
			if backend != c.backend || cmd != c.cmd || checker.HasLean() != (c.backend != "") {
				t.Errorf("backend %q %q (HasLean %v); want %q %q", backend, cmd, checker.HasLean(), c.backend, c.cmd)
			}
			if c.noLean != "" {
				rep, _ := checker.Check(context.Background(), CheckRequest{Stub: "theorem t : True := sorry"})
				if err == nil || rep.LeanRan || rep.LeanBackend != "" || rep.LeanSkipped != c.noLean {
					t.Errorf("error %v, report %+v\nwant lean_skipped %q", err, rep, c.noLean)
				}
			}
		})
	}
}
