package leanrepl

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
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
	if rep.GatePassed || !strings.Contains(rep.GateReason, "#eval") || rep.Passed() || !strings.Contains(rep.Summary(), "safety gate") {
		t.Fatalf("report %+v", rep)
	}
	rep, _ = c.Check(context.Background(), CheckRequest{Header: "import Mathlib", Stub: "theorem t (n : ℕ) : Nat.totient n ≤ n := by sorry"})
	if !rep.Passed() || !strings.Contains(rep.Summary(), "Lean was not run: no Lean REPL configured") {
		t.Fatalf("report %+v: %s", rep, rep.Summary())
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
	if len(rep.Hallucinations()) != 1 || !strings.Contains(rep.Summary(), "Lean reported 1 error") {
		t.Fatalf("summary %q", rep.Summary())
	}
	rep, _ = c.Check(ctx, CheckRequest{Header: "import Mathlib", Stub: "theorem t (n : ℕ) : n = n + 1 := by sorry"})
	if rep.LeanOK || rep.Messages[0].Category != "type-mismatch" || rep.Messages[0].Class != OtherError {
		t.Fatalf("report %+v", rep)
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

// scriptedModel answers repair requests from a script and records them.
type scriptedModel struct {
	answers  []string
	requests []RepairRequest
}

func (m *scriptedModel) Repair(_ context.Context, req RepairRequest) (string, error) {
	m.requests = append(m.requests, req)
	if len(m.answers) == 0 {
		return "theorem t : True := by sorry", nil
	}
	a := m.answers[0]
	m.answers = m.answers[1:]
	return a, nil
}

// TestRepairFixesUnknownIdentifier is the acceptance case: an invented name
// is reported by the fake Lean, the model gets the error with its position,
// the suggestions and fresh retrieval results, and its fix passes.
func TestRepairFixesUnknownIdentifier(t *testing.T) {
	checkNoLeaks(t)
	pool := stubPool(t, map[string]any{"known": known})
	for _, names := range []Names{nil, testLibrary} {
		c := NewChecker(CheckerConfig{Names: names, Pool: pool})
		model := &scriptedModel{answers: []string{
			"Here is the fix:\n```lean\ntheorem euler_bound (n : ℕ) : Nat.totient n ≤ n := by sorry\n```",
		}}
		var seen []int
		var retrieved []string
		res, err := c.Repair(context.Background(), CheckRequest{Header: "import Mathlib", Stub: "theorem euler_bound (n : ℕ) : Nat.eulerPhi n ≤ n := by sorry"}, RepairConfig{
			Model: model,
			Retrieve: func(_ context.Context, concept string) ([]string, error) {
				retrieved = append(retrieved, concept)
				return []string{"Nat.totient : ℕ → ℕ -- Euler's totient function"}, nil
			},
			OnAttempt: func(a Attempt) { seen = append(seen, a.N) },
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Fixed || res.Stop != "passed" || len(res.Attempts) != 2 || !reflect.DeepEqual(seen, []int{0, 1}) {
			t.Fatalf("result %+v", res)
		}
		if res.Attempts[1].Stub != "theorem euler_bound (n : ℕ) : Nat.totient n ≤ n := by sorry" || !res.Final.LeanRan {
			t.Fatalf("final %+v", res.Final)
		}
		req := model.requests[0]
		if req.Attempt != 1 || len(req.Errors) == 0 || !reflect.DeepEqual(req.Retrieved, []string{"Nat.totient : ℕ → ℕ -- Euler's totient function"}) || !reflect.DeepEqual(retrieved, []string{"Nat euler Phi"}) {
			t.Fatalf("request %+v (retrieved for %q)", req, retrieved)
		}
		var lean *RepairError
		for i, e := range req.Errors {
			if e.Kind == "unknown-identifier" {
				lean = &req.Errors[i]
			}
		}
		if lean == nil || lean.Name != "Nat.eulerPhi" || lean.Line != 1 || lean.Column != 30 || !strings.Contains(lean.Message, "Unknown identifier `Nat.eulerPhi`") {
			t.Fatalf("Lean's error not passed on: %+v", req.Errors)
		}
		if names != nil && req.Errors[0].Kind != "unknown-name" {
			t.Fatalf("name-check error missing: %+v", req.Errors)
		}
	}
}

func TestRepairStops(t *testing.T) {
	c := NewChecker(CheckerConfig{Names: testLibrary})
	bad := CheckRequest{Header: "import Mathlib", Stub: "theorem t : Nat.bogus 1 = 1 := by sorry"}
	// No model: errors and suggestions only.
	res, err := c.Repair(context.Background(), bad, RepairConfig{})
	if err != nil || res.Fixed || res.Stop != "no model" || len(res.Errors) != 1 || res.Errors[0].Name != "Nat.bogus" {
		t.Fatalf("no model: %+v, %v", res, err)
	}
	// A model that never fixes it: the budget stops the loop.
	model := &scriptedModel{answers: []string{bad.Stub, bad.Stub, bad.Stub, bad.Stub, bad.Stub, bad.Stub}}
	res, _ = c.Repair(context.Background(), bad, RepairConfig{Model: model, Budget: 3})
	if res.Fixed || res.Stop != "budget" || len(res.Attempts) != 4 || len(model.requests) != 3 || len(model.requests[2].Previous) != 2 {
		t.Fatalf("budget: %+v", res)
	}
	// The hard cap.
	model = &scriptedModel{answers: make([]string, 40)}
	for i := range model.answers {
		model.answers[i] = bad.Stub
	}
	_, _ = c.Repair(context.Background(), bad, RepairConfig{Model: model, Budget: 100})
	if len(model.requests) != MaxRepairBudget {
		t.Fatalf("cap: %d model calls", len(model.requests))
	}
	// Cancelled from the progress callback.
	ctx, cancel := context.WithCancel(context.Background())
	res, _ = c.Repair(ctx, bad, RepairConfig{Model: &scriptedModel{}, OnAttempt: func(Attempt) { cancel() }})
	if res.Stop != "cancelled" || len(res.Attempts) != 1 {
		t.Fatalf("cancel: %+v", res)
	}
	// A gate rejection is an error the model sees.
	model = &scriptedModel{answers: []string{"theorem t : 1 = 1 := by sorry"}}
	res, _ = c.Repair(context.Background(), CheckRequest{Stub: "theorem t : 1 = 1 := by norm_num"}, RepairConfig{Model: model})
	if !res.Fixed || model.requests[0].Errors[0].Kind != "gate" {
		t.Fatalf("gate: %+v", res)
	}
}

func TestConceptOf(t *testing.T) {
	for in, want := range map[string]string{"Nat.isPrimeFactor": "Nat is Prime Factor", "exists_prime_and_dvd": "exists prime and dvd", "ZMod": "ZMod"} {
		if got := conceptOf(in); got != want {
			t.Errorf("conceptOf(%q) = %q, want %q", in, got, want)
		}
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
