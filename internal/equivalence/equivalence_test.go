package equivalence

import (
	"context"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/falsify"
)

// stmt reads "(a b : ℕ) (h : a < b) : b > a" style signatures: binders,
// then the conclusion after the last top-level colon.
func stmt(t *testing.T, sig string) Statement {
	t.Helper()
	var st Statement
	depth, i := 0, 0
	for j, r := range sig {
		switch r {
		case '(', '{', '[':
			if depth == 0 {
				i = j
			}
			depth++
		case ')', '}', ']':
			depth--
			if depth == 0 {
				inner := sig[i+1 : j]
				names, typ, ok := strings.Cut(inner, " : ")
				if r == ']' {
					names, typ, ok = "", inner, true
				}
				if !ok {
					t.Fatalf("binder %q", inner)
				}
				st.Binders = append(st.Binders, falsify.Param{Names: strings.Fields(names), Type: typ, Explicit: r == ')'})
			}
		case ':':
			if depth == 0 {
				st.Conclusion = strings.TrimSpace(sig[j+1:])
				return st
			}
		}
	}
	t.Fatalf("no conclusion in %q", sig)
	return st
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"(n : ℕ) (h : 2 < n) : n % 2 = 1", "(m : ℕ) (hm : 2 < m) : m % 2 = 1", true},                              // alpha-renaming
		{"(n : ℕ) (h : 2 < n) : n % 2 = 1", "(n : ℕ) (h : n > 2) : n % 2 = 1", true},                               // > read as <
		{"(a b : ℕ) (h₁ : a ≤ b) (h₂ : 0 < a) : a ∣ b", "(a : ℕ) (b : ℕ) (h₂ : 0 < a) (h₁ : b ≥ a) : a ∣ b", true}, // grouping, order, ≥
		{"(x y : ℤ) : ¬(x = y) → x - y ≠ 0", "(x y : ℤ) (h : x ≠ y) : x - y ≠ 0", true},                            // ¬(a = b), premise as hypothesis
		{"(a b : ℕ) : a + b = b + a", "(b a : ℕ) : b + a = a + b", true},                                           // variables matched in any order
		{"(n : ℕ) : ∀ k < n, k ≤ n", "(n : ℕ) : ∀ j < n, j ≤ n", true},                                             // bound variables
		{"(n : ℕ) (h : 2 < n) : n % 2 = 1", "(n : ℕ) : n % 2 = 1", false},                                          // dropped hypothesis
		{"(n : ℕ) (h : 2 < n) : n % 2 = 1", "(n : ℕ) (h : 2 ≤ n) : n % 2 = 1", false},                              // shifted inequality
		{"(n : ℕ) : n % 2 = 1", "(n : ℤ) : n % 2 = 1", false},                                                      // another type
		{"(a b : ℕ) (h : a ≤ b) : a - b = 0", "(a b : ℕ) (h : a ≤ b) : b - a = 0", false},                          // not symmetric
		{"(a b : ℕ) : a - b = 0", "(a b : ℕ) : b - a = 0", true},                                                   // the same up to renaming
	}
	for _, tc := range tests {
		if got := Equal(stmt(t, tc.a), stmt(t, tc.b)); got != tc.want {
			t.Errorf("Equal(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want Verdict
	}{
		{"(n : ℕ) (h : 2 < n) : n % 2 = 1", "(n : ℕ) (h : 3 ≤ n) : n % 2 = 1", Agree},
		{"(n : ℕ) (h : 2 < n) : n % 2 = 1", "(n : ℕ) : n % 2 = 1", Disagree},
		{"(a b : ℕ) : a - b + b = a", "(a b : ℕ) (h : b ≤ a) : a - b + b = a", Disagree},
		{"(a b : ℕ) : a + b = b + a", "(x y : ℕ) : y + x = x + y", Agree},
		{"(x : ℕ) : x = x", "(x y : ℕ) : x = y", Undecided},           // no correspondence of variables
		{"(f : ℕ → ℕ) : f 0 = 0", "(f : ℕ → ℕ) : f 1 = 0", Undecided}, // outside the fragment
	}
	for _, tc := range tests {
		if got := Compare(context.Background(), stmt(t, tc.a), stmt(t, tc.b), nil, falsify.Options{}); got != tc.want {
			t.Errorf("Compare(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestAssumed: a conclusion that is one of the statement's hypotheses
// (after normalisation), or True, states nothing; any other does.
func TestAssumed(t *testing.T) {
	for _, c := range []struct {
		binders    []falsify.Param
		conclusion string
		want       string
		ok         bool
	}{
		{[]falsify.Param{{Names: []string{"x"}, Type: "ℝ"}, {Names: []string{"h"}, Type: "x >= 0"}}, "x ≥ 0", "x >= 0", true},
		{[]falsify.Param{{Names: []string{"x"}, Type: "ℝ"}, {Names: []string{"h"}, Type: "0 ≤ x"}}, "x ≥ 0", "0 ≤ x", true},
		{[]falsify.Param{{Names: []string{"x"}, Type: "ℝ"}}, "x > 0 → 0 < x", "x > 0", true},
		{[]falsify.Param{{Names: []string{"n"}, Type: "ℕ"}}, "True", "", true},
		{[]falsify.Param{{Names: []string{"x"}, Type: "ℝ"}, {Names: []string{"h"}, Type: "x ≥ 0"}}, "|x| ≥ 0", "", false},
		{[]falsify.Param{{Names: []string{"a", "b"}, Type: "ℕ"}, {Names: []string{"h"}, Type: "a ∣ b"}}, "b ∣ a", "", false},
	} {
		got, ok := Assumed(Statement{Binders: c.binders, Conclusion: c.conclusion})
		if got != c.want || ok != c.ok {
			t.Errorf("%v : %s: Assumed = %q, %v; want %q, %v", c.binders, c.conclusion, got, ok, c.want, c.ok)
		}
	}
}

func TestReflexive(t *testing.T) {
	x := []falsify.Param{{Names: []string{"x", "y"}, Type: "ℝ"}}
	for _, c := range []struct {
		conclusion string
		ok         bool
	}{
		{"(-1 : ℝ) = (-1 : ℝ)", true},
		{"x ≥ x", true},
		{"∀ n : ℕ, n ∣ n", true},
		{"x > 0 → x + y = x + y", true},
		{"x < x", false},         // false, not empty: the falsifier refutes it
		{"x + y = y + x", false}, // commutativity is a claim
		{"x = y", false},
	} {
		got, ok := Reflexive(Statement{Binders: x, Conclusion: c.conclusion})
		if ok != c.ok || ok && got == "" {
			t.Errorf("Reflexive(%s) = %q, %v; want %v", c.conclusion, got, ok, c.ok)
		}
	}
}
