package leansrc

import (
	"math"
	"reflect"
	"testing"
)

// TestHeaderScope: what a file header brings into scope, as the name check
// reads it (moved from leanrepl's ParseHeader test; the namespaces
// ["Foo", "Foo.Bar"] are now the one Namespace "Foo.Bar", the opens whose
// names are open those Candidates tries, the scoped ones Opens).
func TestHeaderScope(t *testing.T) {
	src := "import Mathlib\n\nopen Complex Filter Function -- c\nopen scoped BigOperators Topology\nopen Nat (totient succ)\nopen Real hiding exp\nopen List renaming length → len\nnamespace Foo\nnamespace Bar\ndef baz := 1\nnoncomputable section\nvariable (x y : ℕ) {G : Type*}"
	f := Parse([]byte(src))
	sc, vars := f.At(math.MaxInt)
	if sc == nil {
		t.Fatal("no scope at the end of the header")
	}
	var opens []string
	for _, c := range sc.Candidates("x", "") {
		if ns, _ := SplitLast(c); ns != "" && ns != "Foo" && ns != "Foo.Bar" {
			opens = append(opens, ns)
		}
	}
	if !reflect.DeepEqual(opens, []string{"Complex", "Filter", "Function", "Real", "List"}) {
		t.Errorf("opens = %q", opens)
	}
	if !reflect.DeepEqual(sc.Opens, []string{"Complex", "Filter", "Function", "BigOperators", "Topology", "Nat", "Real", "List"}) {
		t.Errorf("scoped = %q", sc.Opens)
	}
	if sc.Aliases["totient"] != "Nat.totient" || sc.Aliases["succ"] != "Nat.succ" || sc.Aliases["len"] != "List.length" {
		t.Errorf("aliases = %v", sc.Aliases)
	}
	defined := map[string]bool{}
	for _, d := range f.Decls {
		defined[d.Name] = true
	}
	if sc.Namespace != "Foo.Bar" || !defined["Foo.Bar.baz"] {
		t.Errorf("namespace %q defined %v", sc.Namespace, defined)
	}
	set := map[string]bool{}
	for _, v := range vars {
		set[v] = true
	}
	if !set["x"] || !set["y"] || !set["G"] {
		t.Errorf("variables = %v", vars)
	}
}

// TestCandidates pins the order in which a name is looked up.
func TestCandidates(t *testing.T) {
	sc := &Scope{Namespace: "A.B", Opens: []string{"X", "Y", "S"}, Restricted: []string{"S"}, Aliases: map[string]string{"f": "Z.f"}}
	cases := []struct {
		id, self string
		want     []string
	}{
		{"x", "", []string{"A.B.x", "A.x", "X.x", "Y.x", "x"}},
		{"x", "N.M.t", []string{"N.M.x", "N.x", "A.B.x", "A.x", "X.x", "Y.x", "x"}},
		{"x", "A.B.C.t", []string{"A.B.C.x", "A.B.x", "A.x", "X.x", "Y.x", "x"}},
		{"f.g", "", []string{"A.B.f.g", "A.f.g", "X.f.g", "Y.f.g", "Z.f.g", "f.g"}},
	}
	for _, c := range cases {
		if got := sc.Candidates(c.id, c.self); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Candidates(%q, %q) = %q, want %q", c.id, c.self, got, c.want)
		}
	}
	// A namespace opened wholly once and restricted once is open.
	twice := Parse([]byte("open Nat\nopen Nat (succ)\nopen scoped Real\n"))
	if sc, _ := twice.At(math.MaxInt); !reflect.DeepEqual(sc.Candidates("x", ""), []string{"Nat.x", "Nat.x", "x"}) {
		t.Errorf("open twice: %q (restricted %q)", sc.Candidates("x", ""), sc.Restricted)
	}
	var nilScope *Scope
	if got := nilScope.Candidates("x", "N.t"); !reflect.DeepEqual(got, []string{"N.x", "x"}) {
		t.Errorf("nil scope: %q", got)
	}
	// The library's first-match order: the root before the opens, the last
	// opened first, Restricted ones too.
	var visited []string
	sc.EachNamespace("N.t", false, func(ns string) bool { visited = append(visited, ns); return false })
	if want := []string{"N", "A.B", "A", "", "S", "Y", "X"}; !reflect.DeepEqual(visited, want) {
		t.Errorf("EachNamespace visited %q, want %q", visited, want)
	}
}
