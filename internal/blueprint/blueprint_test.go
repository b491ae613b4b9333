package blueprint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\n%s", name, got)
	}
}

const testBlueprint = "../../testdata/blueprint/src"

func TestLoadGolden(t *testing.T) {
	bp, err := Load(testBlueprint)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.MarshalIndent(map[string]any{"files": bp.Files, "nodes": bp.Nodes, "warnings": bp.Warnings}, "", "  ")
	golden(t, "nodes.json", append(out, '\n'))
	n := bp.Node("thm:odd-prime")
	if n == nil || !reflect.DeepEqual(n.Uses, []string{"def:odd"}) || !reflect.DeepEqual(n.ProofUses, []string{"lem:gcd-self"}) || !n.ProofOK || n.LeanOK {
		t.Errorf("thm:odd-prime: %+v", n)
	}
	if n := bp.Node("prop:euclid"); n == nil || n.Statement != "If a prime $p$ divides the product $a b$, then $p divides a$ or $p divides b$." {
		t.Errorf("prop:euclid's statement: %+v", n)
	}
}

func TestExpand(t *testing.T) {
	m := map[string]Macro{}
	defineMacros(`\newcommand{\R}{\mathbb{R}} \newcommand\abs[1]{|#1|} \newcommand{\pair}[2]{(#1, #2)}
\newcommand{\opt}[2][x]{#1^#2} \DeclareMathOperator{\Ent}{H} \DeclareMathOperator*{\argmax}{arg\,max}
\def\eps{\varepsilon} \newcommand{\loop}{\loop a} \providecommand{\R}{never} \renewcommand{\abs}[1]{\lvert #1\rvert}`, m)
	cases := []struct{ in, want string }{
		{`$x \in \R$`, `$x \in \mathbb{R}$`},
		{`\abs{x} + \abs y`, `\lvert x\rvert + \lvert y\rvert`},
		{`\pair{a}{\R}`, `(a, \mathbb{R})`},
		{`\opt{2} \opt[y]{3}`, `x^2 y^3`},
		{`\Ent[X] \argmax`, `\operatorname{H}[X] \operatorname*{arg\,max}`},
		{`\eps>0`, `\varepsilon>0`},
		{`\unknown{a} \Rx`, `\unknown{a} \Rx`},
		{`\pair{a}`, `\pair{a}`},
		{`\\R`, `\\R`},
	}
	for _, c := range cases {
		if got := Expand(c.in, m); got != c.want {
			t.Errorf("Expand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// A macro that expands to itself stops.
	if got := Expand(`\loop`, m); !strings.Contains(got, `\loop`) || len(got) > 1<<12 {
		t.Errorf("recursive macro: %d bytes", len(got))
	}
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"content.tex": `\input{a}`, "a.tex": `\include{b.tex}`, "b.tex": `\input{a}`}, `\input cycle: content.tex → a.tex → b.tex → a.tex`},
		{map[string]string{"content.tex": "x\n\\input{chap/missing}"}, `content.tex: \input{chap/missing}: no such file`},
		{map[string]string{"content.tex": `\input{a}`, "a.tex": `\input{gone}`}, `content.tex → a.tex: \input{gone}: no such file`},
	}
	for _, c := range cases {
		dir := t.TempDir()
		write(t, dir, c.files)
		_, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.files, err, c.want)
		}
	}
	if _, err := Find([]string{t.TempDir()}, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find: %v", err)
	}
}

func TestNodes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"content.tex": `
\begin{theorem}[Main \emph{result}]
\label{thm:a}\lean{A.a,  A.b}
\uses{x, y}\uses{y,z}
Text with \% percent and \{braces\}. % comment
\begin{theorem}\label{inner}nested is text\end{theorem}
\end{theorem}
\begin{remark}\label{rem}not a node\end{remark}
\begin{proof}\uses{w}\end{proof}
\begin{definition*}
unlabelled
\end{definition*}
\begin{lemma}\label{broken}
no end`})
	bp, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, n := range bp.Nodes {
		labels = append(labels, n.Label)
	}
	if want := []string{"thm:a", "content.tex:10", "broken"}; !reflect.DeepEqual(labels, want) {
		t.Fatalf("labels %v, want %v", labels, want)
	}
	a := bp.Nodes[0]
	if a.Title != `Main \emph{result}` || !reflect.DeepEqual(a.Lean, []string{"A.a", "A.b"}) || !reflect.DeepEqual(a.Uses, []string{"x", "y", "z"}) ||
		!reflect.DeepEqual(a.ProofUses, []string{"w"}) {
		t.Errorf("node a: %+v", a)
	}
	if !strings.HasPrefix(a.Statement, `Text with \% percent and \{braces\}. \begin{theorem}`) {
		t.Errorf("statement %q", a.Statement)
	}
	if bp.Nodes[1].Env != "definition" || len(bp.Warnings) == 0 {
		t.Errorf("starred env %q, warnings %v", bp.Nodes[1].Env, bp.Warnings)
	}
}

func TestOrder(t *testing.T) {
	mk := func(label string, uses ...string) *Node { return &Node{Label: label, Uses: uses} }
	nodes := []*Node{mk("c", "b"), mk("a"), mk("b", "a", "zz"), mk("x", "y"), mk("y", "x")}
	order, cycles := Order(nodes)
	var got []string
	for _, n := range order {
		got = append(got, n.Label)
	}
	if want := []string{"a", "b", "c", "y", "x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if want := [][]string{{"x", "y"}}; !reflect.DeepEqual(cycles, want) {
		t.Errorf("cycles %v, want %v", cycles, want)
	}
}

func TestNameFromLabel(t *testing.T) {
	for in, want := range map[string]string{"lem:foo-bar": "foo_bar", "thm:1.2": "node_1.2", "plain": "plain", "a:b:c d": "c_d", "x:": "x"} {
		if got := NameFromLabel(in); got != want {
			t.Errorf("NameFromLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOutKeepsUserText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Out.lean")
	user := "import Foo\n\n-- mine\ntheorem mine : True := trivial"
	if err := os.WriteFile(path, []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	o := &Out{Path: path, Header: "import Ignored"}
	if err := o.Append(Block{Label: "lem:a", Env: "lemma", Statement: "A -/ b.", Stub: "theorem a : True := by sorry", Imports: []string{"import Bar", "import Foo"}, Opens: []string{"open Nat"}}); err != nil {
		t.Fatal(err)
	}
	if err := o.Append(Block{Label: "lem:b", Env: "lemma", Stub: "theorem b : False := by sorry", Failed: true, Verdict: "refuted", Opens: []string{"open Nat"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "import Foo\nimport Bar\n\n-- mine\ntheorem mine : True := trivial\n\nopen Nat\n\n-- blueprint: lem:a (lemma)\n/-- A - / b. -/\ntheorem a : True := by sorry\n\n-- blueprint: lem:b (lemma)\n-- FAILED the checks: refuted\ntheorem b : False := by sorry\n"
	if string(got) != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	ex, err := ReadExisting(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"mine", "a", "b"} {
		if _, ok := ex.Decls[n]; !ok {
			t.Errorf("ReadExisting lacks %s: %v", n, ex.Decls)
		}
	}
	if ex.Decls["a"] != "theorem a : True := by sorry" {
		t.Errorf("stub of a: %q", ex.Decls["a"])
	}
}

// TestRun: statuses, order, dependencies handed over, concurrency bound,
// resumption from the output file, and cancellation keeping what finished.
func TestRun(t *testing.T) {
	bp, err := Load(testBlueprint)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "Blue.lean")
	inLean := map[string]bool{"Mm.Odd": true, "DriftExample.gcd_self": true}
	var calls, running, most atomic.Int32
	deps := map[string][]string{}
	fz := func(ctx context.Context, j Job) (Outcome, error) {
		calls.Add(1)
		if n := running.Add(1); n > most.Load() {
			most.Store(n)
		}
		defer running.Add(-1)
		var ds []string
		for _, d := range j.Deps {
			ds = append(ds, d.Label+"="+d.Stub)
		}
		deps[j.Node.Label] = ds
		kw, proof := "theorem", ":= by sorry"
		if j.Def {
			kw, proof = "def", ":= sorry"
		}
		return Outcome{Stub: kw + " " + j.Name + " : True " + proof, Passed: j.Node.Label != "cor:twin-odd", Verdict: "ok", Calls: 2}, nil
	}
	opts := func() Options {
		ex, err := ReadExisting(path)
		if err != nil {
			t.Fatal(err)
		}
		return Options{Resolves: func(n string) bool { return inLean[n] }, Formalize: fz, Concurrency: 1, Out: &Out{Path: path, Header: "import DriftExample"}, Existing: ex}
	}
	rep, err := Run(context.Background(), bp, opts())
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.MarshalIndent(rep, "", "  ")
	golden(t, "run.json", append(out, '\n'))
	file, _ := os.ReadFile(path)
	golden(t, "Blue.lean", file)
	if got := deps["lem:square-odd"]; !reflect.DeepEqual(got, []string{"thm:odd-prime=theorem Blue.odd_of_prime : True := by sorry", "def:odd="}) {
		t.Errorf("deps of lem:square-odd: %v", got)
	}
	// Resumed: nothing to do.
	calls.Store(0)
	rep2, err := Run(context.Background(), bp, opts())
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 0 || rep2.Summary.InLean != rep2.Summary.Nodes-1 {
		t.Errorf("second run: %d formalizations, summary %+v", calls.Load(), rep2.Summary)
	}
}

func TestRunCancel(t *testing.T) {
	bp, err := Load(testBlueprint)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "Blue.lean")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	fz := func(ctx context.Context, j Job) (Outcome, error) {
		if n++; n == 2 {
			cancel() // interrupted while the second node runs
			<-ctx.Done()
			return Outcome{}, ctx.Err()
		}
		return Outcome{Stub: "theorem " + j.Name + " : True := by sorry", Passed: true}, nil
	}
	rep, err := Run(ctx, bp, Options{Formalize: fz, Out: &Out{Path: path}})
	if !errors.Is(err, context.Canceled) || !rep.Summary.Cancelled || rep.Summary.Stubbed != 1 {
		t.Fatalf("err %v, summary %+v", err, rep.Summary)
	}
	ex, _ := ReadExisting(path)
	if len(ex.Decls) != 1 {
		t.Errorf("the finished node is not kept: %v", ex.Decls)
	}
}

// TestRunPlaceholder: a node the formalizer makes no stub for is failed,
// and a placeholder under its name is written, so that the next run
// leaves it alone.
func TestRunPlaceholder(t *testing.T) {
	bp, err := Load(testBlueprint)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "Blue.lean")
	calls := 0
	fz := func(ctx context.Context, j Job) (Outcome, error) {
		calls++
		return Outcome{}, errors.New("drift: no usable candidate\nsample 1: …")
	}
	rep, err := Run(context.Background(), bp, Options{Formalize: fz, Out: &Out{Path: path}, Only: []string{"thm:odd-prime", "def:twin"}})
	if err != nil || rep.Summary.Failed != 2 {
		t.Fatalf("err %v, summary %+v", err, rep.Summary)
	}
	ex, _ := ReadExisting(path)
	if ex.Decls["Blue.odd_of_prime"] != "theorem Blue.odd_of_prime : sorry := by sorry" || ex.Decls["Blue.TwinPrimes"] != "def Blue.TwinPrimes : Prop := sorry" {
		t.Errorf("placeholders: %v", ex.Decls)
	}
	file, _ := os.ReadFile(path)
	if !strings.Contains(string(file), "-- FAILED the checks: no stub: drift: no usable candidate\n") {
		t.Errorf("file:\n%s", file)
	}
	calls = 0
	if _, err := Run(context.Background(), bp, Options{Formalize: fz, Out: &Out{Path: path}, Existing: ex, Only: []string{"thm:odd-prime", "def:twin"}}); err != nil || calls != 0 {
		t.Errorf("second run: %d calls, %v", calls, err)
	}
}

// TestWebPreambleMacros checks that the macros of the files web.tex's
// preamble \input's are expanded wherever those files are (Con-NF's
// macro/common.tex), and that an \input after \begin{document} is no
// macro file.
func TestWebPreambleMacros(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"web.tex":             "\\documentclass{report}\n% \\input{macro/commented}\n\\input{macro/common}\n\\begin{document}\n\\input{macro/late}\n\\input{content}\n\\end{document}\n",
		"macro/common.tex":    `\newcommand{\Atom}{{\mathcal A}} \newcommand{\near}{\mathrel{\sim}}`,
		"macro/late.tex":      `\newcommand{\late}{never}`,
		"macro/commented.tex": `\newcommand{\late}{commented}`,
		"content.tex":         "\\begin{definition}\\label{d}\\lean{A}\nAn atom \\( a : \\Atom \\), \\( a \\near b \\), \\late.\n\\end{definition}\n",
	})
	bp, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := bp.Node("d").Statement, `An atom \( a : {\mathcal A} \), \( a \mathrel{\sim} b \), \late.`; got != want {
		t.Errorf("statement %q, want %q", got, want)
	}
}
