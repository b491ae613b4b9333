package leanrepl

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// listNames is a small Names implementation over a name list, standing in
// for the retrieval package's suffix-array index.
type listNames struct {
	names []string
	set   map[string]bool
}

func newListNames(names ...string) *listNames {
	l := &listNames{set: map[string]bool{}}
	for _, n := range names {
		if !l.set[n] {
			l.set[n] = true
			l.names = append(l.names, n)
		}
	}
	sort.Strings(l.names)
	return l
}

func (l *listNames) Exact(n string) bool { return l.set[n] }

func (l *listNames) Suffix(s string) []string {
	var out []string
	for _, n := range l.names {
		if n == s || strings.HasSuffix(n, "."+s) {
			out = append(out, n)
		}
	}
	return out
}

func (l *listNames) Partial(s string, limit int) []string {
	var out []string
	for _, n := range l.names {
		if strings.Contains(n, s) && len(out) < limit {
			out = append(out, n)
		}
	}
	return out
}

func (l *listNames) Similar(name string, limit int) []string {
	last := name[strings.LastIndexByte(name, '.')+1:]
	var out []string
	for _, n := range l.names {
		nl := n[strings.LastIndexByte(n, '.')+1:]
		if n != name && (nl == last || editDistance(nl, last) <= 2) && len(out) < limit {
			out = append(out, n)
		}
	}
	return out
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev = cur
	}
	return prev[len(rb)]
}

// testLibrary is a slice of Mathlib's names used by the tests.
var testLibrary = newListNames(
	"Nat.Prime", "Prime", "Nat.Prime.two_le", "Finset", "Finset.range", "Finset.sum", "Finset.card", "Set", "Set.ncard",
	"Real", "Real.pi", "Real.exp", "Real.sqrt", "Real.log", "Complex.exp", "Complex.I", "Complex.abs", "IsOpen",
	"DifferentiableOn", "Polynomial", "Polynomial.eval", "Polynomial.X", "Nat.totient", "ZMod", "Irrational",
	"Real.cos", "Real.sin", "Filter.Tendsto", "nhds", "Filter.atTop", "Group", "Subgroup", "Subgroup.index",
	"Finset.prod", "MonoidHom", "Function.Injective", "Nat.factorial", "Metric.ball", "Continuous", "Matrix.det",
	"Nat.ModEq", "Int.ModEq", "Nat.Coprime", "orderOf", "IsCyclic", "Fintype.card",
)

func TestAnalyzeUnknownNames(t *testing.T) {
	cases := []struct {
		header, stub string
		unknown      []string
	}{
		{"import Mathlib", "theorem t (p : ℕ) (hp : Nat.Prime p) : 2 ≤ p := by sorry", nil},
		{"import Mathlib", "theorem t (p : ℕ) (hp : Nat.IsPrime p) : 2 ≤ p := by sorry", []string{"Nat.IsPrime"}},
		{"import Mathlib\nopen Nat", "theorem t (p : ℕ) (hp : Prime p) (h : p.Prime) : totient p = p - 1 := by sorry", nil},
		{"import Mathlib", "theorem t (n : ℕ) : totient n ≤ n := by sorry", []string{"totient"}},
		{"import Mathlib\nopen Real", "theorem t : Real.sqrt 4 = 2 ∧ sqrt 9 = 3 ∧ exp 0 = 1 := by sorry", nil},
		{"import Mathlib", "theorem t : ∀ x : ℝ, ∃ y, y = Real.exp x ∧ ∀ ε > 0, ε + y > y := by sorry", nil},
		{"import Mathlib", "theorem t (s : Finset ℕ) : ∑ i ∈ s, i = ∑ j in s, j ∧ ∏ k ∈ Finset.range 3, k = 0 := by sorry", nil},
		{"import Mathlib", "theorem t : {x : ℕ | x > 0} = {y | 0 < y} ∧ (fun z => z + 1) 0 = 1 ∧ (λ w ↦ w) 1 = 1 := by sorry", nil},
		{"import Mathlib", "theorem t : let m := 3; m = 3 := by sorry", nil},
		{"import Mathlib", "theorem t (f : ℕ → ℕ) (h : Function.Injective f) : (f 1).succ = f 1 + 1 := by sorry", nil},
		{"import Mathlib", "theorem t (G : Type*) [Group G] (H : Subgroup G) : H.index = H.index := by sorry", nil},
		{"import Mathlib", "theorem t (x : ℝ) : Real.cosh x ≥ 1 := by sorry", []string{"Real.cosh"}},
		{"import Mathlib", "theorem t : Finset.sum_of_squares 3 = 14 := by sorry", []string{"Finset.sum_of_squares"}},
		{"import Mathlib", "theorem Nat.t (p : ℕ) : Prime p → p.Prime := by sorry", nil},
		{"import Mathlib\nopen Nat (totient)", "theorem t (n : ℕ) : totient n ≤ n := by sorry", nil},
		{"import Mathlib\nnamespace Nat", "theorem t (n : ℕ) : totient n ≤ n := by sorry", nil},
		{"import Mathlib\ndef myFun (n : ℕ) : ℕ := n", "theorem t : myFun 1 = 1 := by sorry", nil},
		{"import Mathlib\nvariable {G : Type*} [Group G] (g : G)", "theorem t : orderOf g = orderOf g := by sorry", nil},
		{"import Mathlib", "theorem t (n : ℕ) : Nat.Prime n ∨ ¬ Nat.Prime n := by sorry", nil},
		{"import Mathlib", "theorem t (l : List ℕ) : l.length = List.length l ∧ (Nat.succ 0 : ℕ) = 1 := by sorry", nil},
		{"import Mathlib", "theorem t (x : ℕ) : x ∈ ({1, 2} : Finset ℕ) → x ≤ 2 := by sorry", nil},
		{"import Mathlib", "theorem t (a : ℕ) : Nat.Primes a := by sorry", []string{"Nat.Primes"}},
		{"import Mathlib", "theorem t : Real.pi.le = Real.pi.le := by sorry", nil},
		{"import Mathlib", "theorem t : ∃ p : ℕ × ℕ, match p with | (a, b) => a = b := by sorry", nil},
		{"import Mathlib", "theorem t : ∀ᶠ x in Filter.atTop, x > (0 : ℝ) := by sorry", nil},
		{"import Mathlib", "theorem t (s : Set ℕ) : s.ncard = Set.ncard s ∧ Set.ncardd s = 0 := by sorry", []string{"Set.ncardd"}},
	}
	for _, c := range cases {
		s, err := Gate(c.stub)
		if err != nil {
			t.Fatalf("Gate(%q): %v", c.stub, err)
		}
		a := Analyze(s, c.header, testLibrary)
		var got []string
		for _, u := range a.Unknown {
			got = append(got, u.Name)
			if s.Text[u.Start:u.End] != u.Name {
				t.Errorf("%q: range %d-%d is %q", c.stub, u.Start, u.End, s.Text[u.Start:u.End])
			}
		}
		if !reflect.DeepEqual(got, c.unknown) {
			t.Errorf("Analyze(%q | %q) unknown = %q, want %q", c.header, c.stub, got, c.unknown)
		}
	}
}

func TestAnalyzeSuggestions(t *testing.T) {
	s, _ := Gate("theorem t (n : ℕ) : Nat.totiient n ≤ n ∧ Finset.sumn = 0 := by sorry")
	a := Analyze(s, "import Mathlib", testLibrary)
	if len(a.Unknown) != 2 {
		t.Fatalf("unknown = %+v", a.Unknown)
	}
	if a.Unknown[0].Suggestions[0] != "Nat.totient" || a.Unknown[1].Suggestions[0] != "Finset.sum" {
		t.Errorf("suggestions = %q, %q", a.Unknown[0].Suggestions, a.Unknown[1].Suggestions)
	}
}

func TestLints(t *testing.T) {
	cases := []struct {
		header, stub string
		codes        []string
		unknown      int
	}{
		{"import Mathlib", "theorem t : e ^ 2 > 7 := by sorry", []string{LintAutoBound}, 0},
		{"import Mathlib", "theorem t : Real.cos pi = -1 := by sorry", []string{LintAutoBound}, 1},
		{"import Mathlib", "theorem t : Real.cos π = -1 := by sorry", []string{LintAutoBound}, 0},
		{"import Mathlib\nopen Real", "theorem t : Real.cos π = -1 := by sorry", nil, 0},
		{"import Mathlib\nopen scoped Real", "theorem t : Real.cos π = -1 := by sorry", nil, 0},
		{"import Mathlib", "theorem t (x : ℝ) : exp x > 0 := by sorry", []string{LintAutoBound}, 1},
		{"import Mathlib", "theorem t (e : ℝ) (h : e = 2) : e ^ 2 = 4 := by sorry", nil, 0},
		{"import Mathlib", "theorem t (x : ℝ := 2) : x = 2 := by sorry", []string{LintDefaultArg}, 0},
		{"import Mathlib", "theorem t (h : sorry) : True := by sorry", []string{LintSorryInStatement}, 0},
		{"import Mathlib", "theorem t (f : ℕ → ℕ := sorry) : f 0 = 0 := by sorry", []string{LintDefaultArg, LintSorryInStatement}, 0},
		{"import Mathlib", "theorem t : (by sorry : ℕ) = 1 := by sorry", []string{LintSorryInStatement}, 0},
		{"import Mathlib", "theorem t (z : ℂ) : z * I = I * z := by sorry", []string{LintAutoBound}, 0},
		{"import Mathlib\nopen Complex", "theorem t (z : ℂ) : z * I = I * z := by sorry", nil, 0},
	}
	for _, c := range cases {
		s, err := Gate(c.stub)
		if err != nil {
			t.Fatalf("Gate(%q): %v", c.stub, err)
		}
		a := Analyze(s, c.header, testLibrary)
		var codes []string
		for _, l := range a.Lints {
			codes = append(codes, l.Code)
			if l.Message == "" || l.End <= l.Start {
				t.Errorf("%q: bad lint %+v", c.stub, l)
			}
		}
		if !reflect.DeepEqual(codes, c.codes) || len(a.Unknown) != c.unknown {
			t.Errorf("Analyze(%q | %q) lints %q unknown %+v; want %q and %d unknown", c.header, c.stub, codes, a.Unknown, c.codes, c.unknown)
		}
	}
}

// TestAnalyzeExportAlias: a name an `export` inside a namespace brings
// (`MeasureTheory.volume` of `export MeasureSpace (volume)` inside
// `namespace MeasureTheory`) is known when the kinds answer aliases, and
// unknown without them.
func TestAnalyzeExportAlias(t *testing.T) {
	s, err := Gate("theorem t (s : Set ℝ) : MeasureTheory.volume s ≤ MeasureTheory.volume s := by sorry")
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(string) (*library.Decl, bool) { return nil, false }
	alias := func(name string) (string, bool) {
		return "MeasureTheory.MeasureSpace.volume", name == "MeasureTheory.volume"
	}
	for _, c := range []struct {
		kinds   KindFunc
		unknown int
	}{{LibraryKinds(lookup, alias), 0}, {LibraryKinds(lookup, nil), 2}} {
		if got := len(AnalyzeWithKinds(s, "import Mathlib", testLibrary, c.kinds).Unknown); got != c.unknown {
			t.Errorf("%d unknown names, want %d", got, c.unknown)
		}
	}
}
