package leanrepl

import (
	"reflect"
	"testing"
)

// TestInstanceFactsMathlib checks what Mathlib's instances say (with
// DRIFT_MATHLIB): Prop is a complete Boolean algebra but has no Add, Mul or
// Semiring; only the scoped algebraMap coercion may take ℝ or ℂ to a
// function; no CoeSort of Finset, Set or Filter may give Prop; ℝ and ℂ
// coerce to EReal (ℝ only), WithTop, Option (Lean core's), a quaternion
// (through notation the parser does not read) and an algebra, never to a
// Filter, a Finset, a polynomial or ℝ≥0; a type variable with [Group G]
// has Mul and Div but no Add or LE, with [AddGroup G] Add but no Mul; ℂ
// has no order and no lattice without `open ComplexOrder` (whose scoped
// instance attributes the index does not read), ℝ both.
func TestInstanceFactsMathlib(t *testing.T) {
	mathlibNames(t)
	f := libraryInstances(mathlibLib)
	for c, want := range map[string]bool{"Add": false, "Mul": false, "Semiring": false, "AddGroup": false,
		"Lattice": true, "CompleteLattice": true, "BooleanAlgebra": true, "Inhabited": true} {
		if got := f.prop[classArg{c, 0}]; got != want {
			t.Errorf("%s Prop: got %v, want %v", c, got, want)
		}
	}
	for _, n := range []string{"ℝ", "ℂ"} {
		if got := f.toFunction[n]; !reflect.DeepEqual(got, []string{"algebraMap"}) {
			t.Errorf("coercions from %s to functions: %q, want only the scoped algebraMap", n, got)
		}
	}
	for _, c := range []struct {
		n, full string
		want    bool
	}{{"ℝ", "EReal", true}, {"ℂ", "EReal", false}, {"ℝ", "WithTop", true}, {"ℂ", "Option", true}, {"ℝ", "Quaternion", true},
		{"ℝ", "Matrix", true}, {"ℝ", "Filter", false}, {"ℂ", "Finset", false}, {"ℝ", "Polynomial", false}, {"ℝ", "NNReal", false}} {
		if got := f.coercesTo(c.n, c.full); got != c.want {
			t.Errorf("coercion %s → %s: %v, want %v", c.n, c.full, got, c.want)
		}
	}
	for _, c := range []struct {
		classes []string
		class   string
		want    bool
	}{{[]string{"Group"}, "Mul", true}, {[]string{"Group"}, "Div", true}, {[]string{"Group"}, "Add", false}, {[]string{"Group"}, "LE", false},
		{[]string{"AddGroup"}, "Add", true}, {[]string{"AddGroup"}, "Mul", false}, {[]string{"Field"}, "Div", true},
		{[]string{"Group", "LinearOrder"}, "LE", true}, {nil, "Add", false}} {
		if got := f.variableHas(c.classes, c.class); got != c.want {
			t.Errorf("a type variable with %v has %s: %v, want %v", c.classes, c.class, got, c.want)
		}
	}
	for _, c := range []struct {
		n, class string
		want     bool
	}{{"ℂ", "LE", false}, {"ℂ", "Lattice", false}, {"ℝ", "LE", true}, {"ℝ", "Lattice", true}, {"ℂ", "Field", true}} {
		if got := f.numberHas(c.n, c.class); got != c.want {
			t.Errorf("%s has %s: %v, want %v", c.n, c.class, got, c.want)
		}
	}
	for _, ty := range []string{"*", "Finset", "Set", "Filter", "Multiset"} {
		if f.sortToProp[ty] {
			t.Errorf("CoeSort of %s may give Prop", ty)
		}
	}
}
