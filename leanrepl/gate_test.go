package leanrepl

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

func TestGateAccepts(t *testing.T) {
	cases := []struct {
		stub    string
		keyword string
		name    string
		binders int
		typ     string
	}{
		{"theorem foo : 1 = 1 := by sorry", "theorem", "foo", 0, "1 = 1"},
		{"theorem foo : 1 = 1 := sorry", "theorem", "foo", 0, "1 = 1"},
		{"  lemma foo (n : ℕ) : n = n :=\nsorry\n", "lemma", "foo", 1, "n = n"},
		{"example : True := by\n  sorry", "example", "", 0, "True"},
		{"/-- A doc with `#eval` and := sorry inside. -/\ntheorem a.b {α : Type*} [Group α] (x y : α) : x * y = y * x := by sorry", "theorem", "a.b", 3, "x * y = y * x"},
		{"@[simp] theorem foo (x : ℕ) : x + 0 = x := by sorry", "theorem", "foo", 1, "x + 0 = x"},
		{"@[simp, norm_cast] theorem foo : (1 : ℤ) = ((1 : ℕ) : ℤ) := by sorry", "theorem", "foo", 0, "(1 : ℤ) = ((1 : ℕ) : ℤ)"},
		{"@[to_additive \"doc\"] theorem mul_foo : True := sorry", "theorem", "mul_foo", 0, "True"},
		{"theorem exercise_1_13a {f : ℂ → ℂ} (Ω : Set ℂ) (a b : Ω) (h : IsOpen Ω)\n  (hf : DifferentiableOn ℂ f Ω) (hc : ∃ (c : ℝ), ∀ z ∈ Ω, (f z).re = c) :\n  f a = f b :=\nsorry", "theorem", "exercise_1_13a", 6, "f a = f b"},
		{"theorem t (s : Set ℕ := {x | x > 0}) : s = s := by sorry", "theorem", "t", 1, "s = s"},
		{"theorem «my theorem» : ∀ x : ℕ, x = x := by sorry -- trailing comment", "theorem", "«my theorem»", 0, "∀ x : ℕ, x = x"},
		{"theorem t : \"a -/ b\" = \"a -/ b\" := by /- c -/ sorry", "theorem", "t", 0, "\"a -/ b\" = \"a -/ b\""},
		{"theorem t : 'a' ≠ '\\'' := by sorry", "theorem", "t", 0, "'a' ≠ '\\''"},
		{"protected theorem Nat.t x : x + 0 = x := sorry", "theorem", "Nat.t", 1, "x + 0 = x"},
		{"theorem t (h : (by sorry : Prop)) : True := sorry", "theorem", "t", 1, "True"},
		{"theorem t : ∑ i ∈ Finset.range 10, (i : ℝ) = 45 := by sorry", "theorem", "t", 0, "∑ i ∈ Finset.range 10, (i : ℝ) = 45"},
	}
	for _, c := range cases {
		s, err := Gate(c.stub)
		if err != nil {
			t.Errorf("Gate(%q) rejected: %v", c.stub, err)
			continue
		}
		if s.Keyword != c.keyword || s.Name != c.name || len(s.Binders) != c.binders || s.Type != c.typ {
			t.Errorf("Gate(%q) = keyword %q name %q %d binders type %q", c.stub, s.Keyword, s.Name, len(s.Binders), s.Type)
		}
	}
}

func TestGateBinders(t *testing.T) {
	s, err := Gate("theorem t {α : Type*} [inst : Group α] [Fintype α] (x y : α) ⦃z⦄ (n : ℕ := 3) w : x = y := by sorry")
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, b := range s.Binders {
		got = append(got, append([]string{b.Bracket, b.Type, b.Default}, b.Names...))
	}
	want := [][]string{
		{"{", "Type*", "", "α"}, {"[", "Group α", "", "inst"}, {"[", "Fintype α", ""}, {"(", "α", "", "x", "y"},
		{"⦃", "", "", "z"}, {"(", "ℕ", "3", "n"}, {"", "", "", "w"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("binders:\n got %q\nwant %q", got, want)
	}
}

// TestGateRejects is the hostile and malformed stub corpus: each must be
// rejected with a reason mentioning the given text.
func TestGateRejects(t *testing.T) {
	cases := []struct{ stub, reason string }{
		{"", "empty"},
		{"#eval IO.println \"hi\"", "#eval"},
		{"#print axioms foo", "#print"},
		{"theorem t : True := by sorry\n#eval 1", "#eval"},
		{"run_cmd Lean.logInfo \"x\"", "run_cmd"},
		{"theorem t : True := by run_tac pure ()", "exactly `sorry`"},
		{"theorem t (h : (by run_tac pure () : True)) : True := sorry", "tactic block"},
		{"macro \"x\" : term => `(1)", "macro"},
		{"syntax \"foo\" : term", "syntax"},
		{"elab \"foo\" : term => pure default", "elaborator"},
		{"notation \"ℵ\" => Nat", "notation"},
		{"initialize IO.println \"x\"", "initializer"},
		{"import Mathlib\ntheorem t : True := sorry", "import"},
		{"open Nat in\ntheorem t : True := sorry", "`open`"},
		{"theorem t : (open Nat in Prime 2) := sorry", "`open`"},
		{"set_option maxHeartbeats 0 in\ntheorem t : True := sorry", "set_option"},
		{"theorem t : (set_option pp.all true in True) := sorry", "set_option"},
		{"attribute [simp] foo\ntheorem t : True := sorry", "attribute"},
		{"instance : Inhabited Nat := ⟨0⟩", "instance"},
		{"def f := 1\ntheorem t : f = 1 := sorry", "definition"},
		{"unsafe theorem t : True := sorry", "unsafe"},
		{"@[extern \"c_fn\"] theorem t : True := sorry", "extern"},
		{"@[implemented_by foo] theorem t : True := sorry", "implemented_by"},
		{"@[simp, implemented_by foo] theorem t : True := sorry", "implemented_by"},
		{"@[local simp] theorem t : True := sorry", "local"},
		{"theorem t : 1 = 1 := by rfl", "exactly `sorry`"},
		{"theorem t : 1 = 1 := rfl", "exactly `sorry`"},
		{"theorem t : 1 = 1 := by\n  norm_num\n  sorry", "exactly `sorry`"},
		{"theorem t : 1 = 1 := by sorry; exact rfl", "after the declaration"},
		{"theorem t : 1 = 1 := by sorry\ntheorem u : 2 = 2 := by sorry", "second declaration"},
		{"theorem t : 1 = 1 := by sorry\n/-- doc -/", "doc comment"},
		{"theorem t : 1 = 1 := by sorry )", "after the declaration"},
		{"theorem t : 1 = 1", "no proof"},
		{"theorem t := sorry", "no type"},
		{"theorem : True := sorry", "theorem name"},
		{"theorem t (x : ℕ : x = x := sorry", "binder"},
		{"theorem t : (1 = 1 := sorry", "no proof"},
		{"theorem t : 1 = 1) := sorry", "unbalanced"},
		{"theorem t : \"unterminated := sorry", "unterminated string"},
		{"theorem t : True := sorry /- unterminated", "unterminated block comment"},
		{"theorem «t : True := sorry", "unterminated «name»"},
		{"theorem t : True := sorry\x00", "control character"},
		{"theorem t : True := sorry \u202e", "control character"},
		{"theorem t : True := sorry \xff", "UTF-8"},
		{"theorem t : `(1) = `(1) := sorry", "quotation"},
		{"theorem t : True := by_elab pure default", "exactly `sorry`"},
		{"theorem t : (by_elab pure (Lean.mkConst ``True)) := sorry", "by_elab"},
		{"theorem t : True := by decide", "exactly `sorry`"},
		{"noncomputable def x : ℝ := 1", "noncomputable"},
		{"namespace Foo\ntheorem t : True := sorry", "namespace"},
		{"variable (n : ℕ)\ntheorem t : n = n := sorry", "variable"},
		{"theorem t : True := sorry where foo := 1", "after the declaration"},
		{"theorem t : do let x ← pure 1; pure x = 1 := sorry", "do-notation"},
		{"axiom cheat : False", "axiom"},
		{"mutual\ntheorem t : True := sorry\nend", "mutual"},
		{"theorem t : True := sorry\nend", "after the declaration"},
		{strings.Repeat("theorem t : True := sorry ", 3000), "limit"},
		{"theorem t : True := by sorry termination_by 1", "after the declaration"},
	}
	if len(cases) < 30 {
		t.Fatalf("the corpus has only %d stubs", len(cases))
	}
	for _, c := range cases {
		s, err := Gate(c.stub)
		var ge *GateError
		if err == nil || !errors.As(err, &ge) {
			t.Errorf("Gate(%q) accepted: %+v", textcut.Cut(c.stub, 80), s)
			continue
		}
		if !strings.Contains(err.Error(), c.reason) {
			t.Errorf("Gate(%q) = %v; want a reason mentioning %q", textcut.Cut(c.stub, 80), err, c.reason)
		}
	}
}

// FuzzGate checks that the gate never panics, that whatever it accepts ends
// in sorry with no forbidden command, and that accepted stubs survive a
// round trip through their own fields.
func FuzzGate(f *testing.F) {
	seeds := []string{
		"theorem foo : 1 = 1 := by sorry",
		"/-- d -/ @[simp] theorem a.b {α : Type*} [Group α] (x : α := 1) : x = x := sorry",
		"theorem t : ∀ ε > 0, ∃ δ > 0, |x| < δ → |f x| < ε := by sorry",
		"#eval 1", "theorem t : \"-/\" = '\\'' := sorry", "example : {x | x ∈ s} = s := sorry",
		"theorem t (h : (by sorry : Prop)) : «x y».z := sorry", "@[to_additive (attr := simp)] lemma t : 1 = 1 := sorry",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Gate(in)
		if err != nil {
			var ge *GateError
			if !errors.As(err, &ge) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if ge.Offset > len(in) {
				t.Fatalf("offset %d beyond input", ge.Offset)
			}
			return
		}
		if !utf8.ValidString(in) {
			t.Fatal("accepted invalid UTF-8")
		}
		toks, _ := leansrc.Lex(s.Text)
		last := toks[len(toks)-1]
		if last.Text != "sorry" {
			t.Fatalf("accepted a stub not ending in sorry: %q", in)
		}
		for _, tk := range toks {
			if tk.Kind == leansrc.LexHash || tk.Kind == leansrc.LexBacktick {
				t.Fatalf("accepted %q in %q", tk.Text, in)
			}
			if _, bad := forbidden[tk.Text]; bad && tk.Kind == leansrc.LexKeyword && tk.Text != s.Keyword {
				t.Fatalf("accepted forbidden %q in %q", tk.Text, in)
			}
		}
		if s.Text[s.TypeStart:s.TypeEnd] != s.Type || s.Type == "" {
			t.Fatalf("type range wrong: %+v", s)
		}
		// Checks run on anything the gate accepts; they must not panic either.
		_ = analyze(s, readHeader(""), nil, nil)
		_ = analyze(s, readHeader("open Nat Real"), testLibrary, nil)
	})
}

// TestScreen: code-running constructs are rejected anywhere in a model's
// answer; declarations, imports and opens are left to the gate.
func TestScreen(t *testing.T) {
	cases := []struct{ code, reason string }{
		{"import Mathlib\nopen Nat\ntheorem a : True := by sorry", ""},
		{"def helper := 3\ntheorem a : helper = 3 := by\n  exact unsafe_elab_thing", ""},
		{"theorem a : List.prefix l l := sorry", ""},
		{"theorem a : True := by sorry\n#eval IO.println \"hi\"", "#eval"},
		{"run_cmd Lean.logInfo \"x\"\ntheorem a : True := by sorry", "run_cmd"},
		{"set_option maxHeartbeats 0 in\ntheorem a : True := by sorry", "set_option"},
		{"unsafe def x : Nat := 1", "unsafe"},
		{"@[implemented_by foo] theorem a : True := sorry", "implemented_by"},
		{"@[simp, extern \"c\"] theorem a : True := sorry", "extern"},
		{"@[export lean_x] def x := 1", "export"},
		{"instance : Inhabited Nat := ⟨0⟩", "instance"},
		{"macro \"x\" : term => `(1)", "macro"},
	}
	for _, c := range cases {
		err := Screen(c.code)
		switch {
		case c.reason == "" && err != nil:
			t.Errorf("Screen(%q) = %v, want nil", c.code, err)
		case c.reason != "" && (err == nil || !strings.Contains(err.Error(), c.reason)):
			t.Errorf("Screen(%q) = %v, want a reason mentioning %q", c.code, err, c.reason)
		}
	}
}

// TestGateDef: GateDef takes one `def … := sorry` (a blueprint's
// definition node) and still nothing else; Gate never takes a def.
func TestGateDef(t *testing.T) {
	for _, ok := range []string{
		"def Blue.TwinPrime (p q : Nat) : Prop := sorry",
		"def f : Nat → Nat := by sorry",
		"theorem foo : 1 = 1 := by sorry",
	} {
		if _, err := GateDef(ok); err != nil {
			t.Errorf("GateDef(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{
		"def f : Nat := 3",
		"def f : Nat := sorry\ndef g : Nat := sorry",
		"def f : Nat := sorry\ntheorem t : True := sorry",
		"noncomputable def f : Nat := sorry",
		"def f : Nat := sorry #eval 1",
		"@[extern \"x\"] def f : Nat := sorry",
		"def f : Nat where x := sorry",
		"instance : Inhabited Nat := sorry",
		"abbrev f : Nat := sorry",
	} {
		if _, err := GateDef(bad); err == nil {
			t.Errorf("GateDef(%q) accepted it", bad)
		}
	}
	if _, err := Gate("def f : Nat := sorry"); err == nil {
		t.Error("Gate accepted a def")
	}
}
