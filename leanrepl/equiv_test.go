package leanrepl

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestEquivCommand(t *testing.T) {
	a, _ := Gate("theorem a {G : Type*} [Group G] (x : G) (n : ℕ := 2) : x ^ n * x = x ^ (n + 1) := by sorry")
	b, _ := Gate("theorem b : ∀ (G : Type*) [Group G] (y : G), y * y * y = y ^ 3 := sorry")
	if got, want := EquivCommand(a, b), "example (drift_h : ∀ {G : Type _} [Group G] (x : G) (n : ℕ), x ^ n * x = x ^ (n + 1)) : ∀ (G : Type*) [Group G] (y : G), y * y * y = y ^ 3 := by exact?"; got != want {
		t.Errorf("A→B:\n got %s\nwant %s", got, want)
	}
	if got, want := EquivCommand(b, a), "example {G : Type _} [Group G] (x : G) (n : ℕ) (drift_h : ∀ (G : Type*) [Group G] (y : G), y * y * y = y ^ 3) : x ^ n * x = x ^ (n + 1) := by exact?"; got != want {
		t.Errorf("B→A:\n got %s\nwant %s", got, want)
	}
}

func TestEquivalentAndCollapse(t *testing.T) {
	checkNoLeaks(t)
	couldNot := "`exact?` could not close the goal. Try `apply?` to see partial suggestions."
	pool := stubPool(t, map[string]any{"rules": []map[string]string{
		{"match": `drift_h : ∀ \(m : ℕ\), m \+ 0 = m\) : n = n \+ 0 := by exact\?$`, "severity": "info", "data": "Try this:\n  [apply] exact (drift_h n).symm"},
		{"match": `drift_h : ∀ \(n : ℕ\), n = n \+ 0\) : m \+ 0 = m := by exact\?$`, "severity": "info", "data": "Try this: exact (drift_h m).symm"},
		{"match": `drift_h : ∀ \(m : ℕ\), m \+ 0 = m\) : m \+ 0 = m := by exact\?$`, "severity": "info", "data": "Try this: exact drift_h m"},
		{"match": `n ≤ n \+ 1.*by exact\?$`, "data": couldNot},
	}})
	c := NewChecker(CheckerConfig{Pool: pool})
	ctx := context.Background()
	A := "theorem a (m : ℕ) : m + 0 = m := by sorry"
	B := "theorem b (n : ℕ) : n = n + 0 := by sorry"
	C := "theorem c (n : ℕ) : n ≤ n + 1 := by sorry"
	eq, err := c.Equivalent(ctx, "import Mathlib", A, B)
	if err != nil {
		t.Fatal(err)
	}
	if !eq.Equivalent || eq.AtoB.Proof != "exact (drift_h n).symm" || eq.BtoA.Proof != "exact (drift_h m).symm" {
		t.Fatalf("A≡B: %+v", eq)
	}
	eq, err = c.Equivalent(ctx, "import Mathlib", A, C)
	if err != nil {
		t.Fatal(err)
	}
	if eq.Equivalent || eq.AtoB.Proved || len(eq.AtoB.Messages) != 1 || eq.BtoA.Command == "" || eq.BtoA.Messages != nil {
		t.Fatalf("A≢C: %+v", eq)
	}
	classes, err := c.Collapse(ctx, "import Mathlib", []string{A, B, C, "#eval 1", A})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 1, 4}, {2}, {3}}; !reflect.DeepEqual(classes, want) {
		t.Fatalf("classes %v, want %v", classes, want)
	}
	if _, err := NewChecker(CheckerConfig{}).Equivalent(ctx, "", A, B); !errors.Is(err, ErrNoLean) {
		t.Fatalf("without Lean: %v", err)
	}
	if _, err := c.Equivalent(ctx, "", A, "#eval 1"); err == nil {
		t.Fatal("a stub the gate rejects was compared")
	}
}
