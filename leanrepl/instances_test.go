package leanrepl

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestInstanceFactsMathlib checks what Mathlib's instances say (with
// DRIFT_MATHLIB): Prop is a complete Boolean algebra but has no Add, Mul or
// Semiring; a universe is a category but no monoid; only the scoped algebraMap coercion may take ℝ or ℂ to a
// function; no CoeSort of Finset, Set or Filter may give Prop; ℝ and ℂ
// coerce to EReal (ℝ only), WithTop, Option (Lean core's) and a quaternion
// (through notation the parser does not read), never to a Filter, a
// Finset, a polynomial, a matrix or ℝ≥0 (to an algebra only under `open
// algebraMap`); a type variable with [Group G] has Mul and Div but no Add
// or LE, with [AddGroup G] Add but no Mul; ℂ has no order and no lattice
// without `open ComplexOrder` (a scoped instance attribute), ℝ both; a
// polynomial or a filter has no coercion to a function, bundled maps and
// measures have; instances written in notation (`Semiring R[X]`, `ℝ≥0`)
// and sorts written `Type*` are read; a Finset has no numerals (but under
// `open Pointwise`) and no cast from ℕ, a polynomial both; ZMod's field
// needs a Fact, its Fintype a NeZero; a class's second argument is read
// through parents (InnerProductSpace 𝕜 E gives Inner 𝕜 E); a graph's
// neighbour set is a Fintype only under an instance about the graph.
func TestInstanceFactsMathlib(t *testing.T) {
	mathlibNames(t)
	f := libraryInstances(mathlibLib)
	none := func(string) bool { return false }
	for c, want := range map[string]bool{"Add": false, "Mul": false, "Semiring": false, "AddGroup": false,
		"Lattice": true, "CompleteLattice": true, "BooleanAlgebra": true, "Inhabited": true} {
		if got := f.prop[classArg{c, 0}]; got != want {
			t.Errorf("%s Prop: got %v, want %v", c, got, want)
		}
	}
	// a universe is a category (Mathlib's `types`), not a monoid or a ring
	for c, want := range map[string]bool{"Monoid": false, "Semiring": false, "Group": false, "Category": true, "Inhabited": true} {
		if got := f.universe[classArg{c, 0}]; got != want {
			t.Errorf("%s (Type u): got %v, want %v", c, got, want)
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
		{"ℝ", "Matrix", false}, {"ℝ", "Filter", false}, {"ℂ", "Finset", false}, {"ℝ", "Polynomial", false}, {"ℝ", "NNReal", false}} {
		if got := f.coercesTo(c.n, c.full, none); got != c.want {
			t.Errorf("coercion %s → %s: %v, want %v", c.n, c.full, got, c.want)
		}
	}
	// the coercion R → A of an algebra is scoped: `open algebraMap` puts it in force
	for _, full := range []string{"Polynomial", "Matrix"} {
		if !f.coercesTo("ℝ", full, func(ns string) bool { return ns == "algebraMap" }) {
			t.Errorf("coercion ℝ → %s under open algebraMap: false, want true", full)
		}
	}
	for _, c := range []struct {
		classes []string
		class   string
		want    bool
	}{{[]string{"Group"}, "Mul", true}, {[]string{"Group"}, "Div", true}, {[]string{"Group"}, "Add", false}, {[]string{"Group"}, "LE", false},
		{[]string{"AddGroup"}, "Add", true}, {[]string{"AddGroup"}, "Mul", false}, {[]string{"Field"}, "Div", true},
		{[]string{"Group", "LinearOrder"}, "LE", true}, {nil, "Add", false},
		// a field made an instance, a to_additive twin, an abbreviation of a class
		{[]string{"Group"}, "Fintype", false}, {[]string{"MetricSpace"}, "UniformSpace", true},
		{[]string{"AddGroup"}, "IsRightCancelAdd", true}, {[]string{"Category"}, "SmallCategory", true},
		// Equiv.Inv is an abbreviation of an instance, not of a class: Inv is read
		{[]string{"CommRing"}, "Inv", false}, {[]string{"DivisionRing"}, "Inv", true},
		// Algebra.Generators.Ring, an abbreviation, is not the class Ring
		{[]string{"Ring"}, "Inv", false}, {[]string{"Ring"}, "Neg", true},
		// an abbreviation of a class is read through its value; one of a structure is not
		{[]string{"AddCommGroup", "Module@1", "FiniteDimensional@1"}, "Semiring", false},
		{[]string{"SignedMeasure"}, "MeasurableSpace", true},
		// a class the variable stands in beside others (Module R M's M)
		{[]string{"AddCommGroup", "Module@1"}, "Mul", false},
		{[]string{"Field", "Algebra@1"}, "Mul", true},
		// a class's second argument, through parents declared with Type*
		{[]string{"NormedAddCommGroup", "InnerProductSpace@1"}, "Inner@1", true},
		{[]string{"NormedAddCommGroup", "NormedSpace@1"}, "Module@1", true},
		{[]string{"NormedAddCommGroup"}, "Inner@1", false}} {
		if got := f.variableHas(c.classes, c.class); got != c.want {
			t.Errorf("a type variable with %v has %s: %v, want %v", c.classes, c.class, got, c.want)
		}
	}
	for full, want := range map[string]bool{"Polynomial": false, "Filter": false, "Finset": false, "MonoidHom": true,
		"ContinuousMap": true, "MeasureTheory.Measure": true, "StieltjesFunction": true, "Equiv": true, "LinearMap": true,
		"ContinuousAlternatingMap": true} {
		// CoeFun instances, FunLike ones through the abbreviation, written in notation
		if got := f.coercesToFunction(full); got != want {
			t.Errorf("a %s coerces to a function: %v, want %v", full, got, want)
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
	// instances written in notation (R[X], ℝ≥0), a sort written Type*
	for _, c := range []struct{ head, class string }{{"Polynomial", "NatCast"}, {"NNReal", "Semiring"}, {"PNat", "One"}} {
		if !f.classesOf(c.head)[classArg{c.class, 0}] {
			t.Errorf("%s has no %s", c.head, c.class)
		}
	}
	if !f.coercesToSort("BddDistLat") {
		t.Errorf("BddDistLat (CoeSort BddDistLat Type*) has no coercion to a sort")
	}
	// instances that scoped attribute commands give: only under their opens
	for head, ns := range map[string]string{"ℂ": "ComplexOrder", "Finset": "Pointwise"} {
		if !slices.Contains(f.scoped[head], ns) {
			t.Errorf("no scoped instance on %s in %s: %v", head, ns, f.scoped[head])
		}
	}
	pointwise := func(ns string) bool { return ns == "Pointwise" }
	for _, c := range []struct {
		full, n string
		opens   func(string) bool
		want    bool
	}{{"Finset", "ℕ", none, false}, {"Finset", "", none, false}, {"Finset", "", pointwise, true}, {"List", "ℤ", none, false},
		{"Polynomial", "ℕ", none, true}, {"Polynomial", "", none, true}, {"Polynomial", "ℝ", none, false},
		{"Nat.Primes", "ℕ", none, true}, {"Subgroup", "ℕ", none, false},
		// a numeral by its value: a measure has a 0 but no 1
		{"MeasureTheory.Measure", "0", none, true}, {"MeasureTheory.Measure", "1", none, false}, {"Polynomial", "2", none, true}} {
		if got := f.numberBeside(c.full, c.n, c.opens); got != c.want {
			t.Errorf("a %s beside a number of type %q: %v, want %v", c.full, c.n, got, c.want)
		}
	}
	// an argument of type ℕ+ given a ℕ: ℕ+ coerces to ℕ, not back
	if !f.numberBeside("PNat", "ℕ", none) || f.numberTo("PNat", "ℕ", none) {
		t.Errorf("ℕ+ beside ℕ: %v (want true); ℕ to ℕ+: %v (want false)", f.numberBeside("PNat", "ℕ", none), f.numberTo("PNat", "ℕ", none))
	}
	// the values a structure takes once applied (its FunLike codomain)
	for full, want := range map[string][2]string{"MeasureTheory.Measure": {"Set", "ENNReal"}, "MeasureTheory.ProbabilityMeasure": {"Set", "NNReal"}, "Polynomial": {"", ""}} {
		if dom, cod := f.functionType(full); dom != want[0] || cod != want[1] {
			t.Errorf("a %s applied: %q → %q, want %q", full, dom, cod, want)
		}
	}
	for _, ty := range []string{"*", "Finset", "Set", "Filter", "Multiset"} {
		if f.sortToProp[ty] {
			t.Errorf("CoeSort of %s may give Prop", ty)
		}
	}
	// ZMod n is a field, a domain, only under `[Fact p.Prime]` (a section
	// variable of the instances' file), finite only under `[NeZero n]`
	// (its instance on ZMod 1 is none on a variable's); its ring and its
	// inverse need none
	for c, want := range map[string]bool{"Field": true, "IsDomain": true, "CommRing": false, "Inv": false, "Fintype": true} {
		if got := f.needsFact("ZMod", c, 0); got != want {
			t.Errorf("ZMod's %s only through a Fact: %v, want %v", c, got, want)
		}
	}
	// a Fintype of a graph's neighbour set or edge set, of a subgroup or a
	// set as a type, only from an instance about the graph, the subgroup,
	// the set; a Finset as a type is one with none
	for _, c := range []struct {
		typeHead, field, binder string
		want                    bool
	}{{"SimpleGraph", "neighborSet", "DecidableRel G.Adj", true}, {"SimpleGraph", "edgeSet", "DecidableRel G.Adj", true},
		{"Subgroup", "", "DecidablePred (· ∈ K)", true}, {"Set", "", "", true}, {"Finset", "", "", false}} {
		if got := f.receiverNeeds("Fintype", c.typeHead, c.field); got.ok != c.want || c.want && got.binder != c.binder {
			t.Errorf("Fintype of %s.%s only through an instance about it: %+v, want %v (%s)", c.typeHead, c.field, got, c.want, c.binder)
		}
	}
}

// TestClassAndFirst: an instance header the parser cannot read whole is
// cut after its class and first argument.
func TestClassAndFirst(t *testing.T) {
	for _, tc := range []struct{ hdr, want string }{
		{"{s : Set M} : FunLike (SmoothPartitionOfUnity ι I M s) ι C^∞⟮I, M; 𝓘(ℝ), ℝ⟯", "{s : Set M} : FunLike (SmoothPartitionOfUnity ι I M s)"},
		{": FunLike StieltjesFunction ℝ ℝ", ": FunLike StieltjesFunction"},
		{"[Group G] : Fintype G", ""}, // nothing to cut
		{"(x : (a : ℕ) × ℕ)", ""},
	} {
		got, ok := classAndFirst(tc.hdr)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("classAndFirst(%q) = %q, %v; want %q", tc.hdr, got, ok, tc.want)
		}
	}
}

// TestOpeningAtoms: the atoms a notation may open with in a token.
func TestOpeningAtoms(t *testing.T) {
	for tok, want := range map[string]string{
		"→ₛₗ[σ]":     "→ₛₗ[σ] | →ₛₗ[",
		"[⋀^ι]→L[R]": "[⋀^ι]→L[R] | [ | [⋀^ | [⋀^ι]→L[",
		"C(X,":       "C(X, | C(",
		"Polynomial": "Polynomial",
	} {
		if got := strings.Join(openingAtoms(tok), " | "); got != want {
			t.Errorf("openingAtoms(%q) = %q, want %q", tok, got, want)
		}
	}
}
