package lsp

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/progress"
)

// scripted is a Backend whose answers a test scripts. It stands in for the
// pipeline in the tests of the server's own logic (documents, jobs, edits,
// progress, cancellation); the end-to-end tests use the real pipeline with a
// fake model endpoint instead.
type scripted struct {
	mu         sync.Mutex
	ready      bool
	decls      int
	stub       string // formalize answer; NAME is replaced by the requested name
	err        error  // formalize error
	gate       chan struct{}
	started    chan string // receives the statement when Formalize starts
	requests   []FormalizeRequest
	buffers    map[string]string
	settings   []Settings
	closed     bool
	premises   *Premises
	leanNote   string
	statusErr  error
	sent       []string           // progress messages Formalize reported
	checks     []string           // the texts Check was called with
	blueprints []BlueprintRequest // the Blueprint requests
}

// reported returns the progress messages Formalize reported so far.
func (b *scripted) reported() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.sent...)
}

func newScripted() *scripted {
	return &scripted{
		ready:   true,
		decls:   42,
		stub:    "theorem NAME (p : ℕ) (hp : Nat.Prime p) (h : p % 4 = 3) : ¬ ∃ a b : ℕ, a ^ 2 + b ^ 2 = p := by sorry",
		started: make(chan string, 16),
		buffers: map[string]string{},
		premises: &Premises{
			Premises: []Symbol{
				{Name: "Nat.Prime", Kind: "def", Signature: "def Nat.Prime (p : ℕ) : Prop", Path: "/work/ws/.lake/packages/mathlib/Mathlib/Data/Nat/Prime/Defs.lean", Range: Span{Start: Pos{Line: 40, Character: 0}}},
				{Name: "Nat.ModEq", Kind: "def", Signature: "def Nat.ModEq (n a b : ℕ) :=\n  a % n = b % n", Path: "/work/ws/Mathlib/Data/Nat/ModEq.lean", Range: Span{Start: Pos{Line: 9, Character: 0}}},
			},
			Examples: []Symbol{
				{Name: "Nat.Prime.eq_one_or_self_of_dvd", Kind: "theorem", Signature: "theorem Nat.Prime.eq_one_or_self_of_dvd {p : ℕ} (pp : p.Prime) (a : ℕ) (h : a ∣ p) : a = 1 ∨ a = p", Path: "/work/ws/Mathlib/Data/Nat/Prime/Defs.lean", Range: Span{Start: Pos{Line: 99, Character: 0}}},
			},
			Coverage: 0.5,
		},
	}
}

func (b *scripted) open(ctx context.Context, root string, s Settings, logf func(string, ...any)) (Backend, error) {
	b.mu.Lock()
	b.settings = append(b.settings, s)
	b.mu.Unlock()
	return b, nil
}

func (b *scripted) Status() IndexStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.statusErr != nil {
		return IndexStatus{Err: b.statusErr}
	}
	if !b.ready {
		return IndexStatus{Phase: "indexing", Done: 3, Total: 10, Decls: 0}
	}
	return IndexStatus{Phase: "ready", Done: 10, Total: 10, Ready: true, Decls: b.decls}
}

func (b *scripted) setReady(r bool) {
	b.mu.Lock()
	b.ready = r
	b.mu.Unlock()
}

func (b *scripted) Search(ctx context.Context, q string, k int) ([]Symbol, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Symbol
	for _, s := range append(b.premises.Premises, b.premises.Examples...) {
		if (strings.Contains(strings.ToLower(s.Name), strings.ToLower(q)) || strings.Contains(strings.ToLower(s.Summary), strings.ToLower(q))) && len(out) < k {
			out = append(out, s)
		}
	}
	return out, nil
}

func (b *scripted) Formalize(ctx context.Context, req FormalizeRequest, sink progress.Func) (*Formalized, error) {
	b.mu.Lock()
	b.requests = append(b.requests, req)
	gate, stub, err := b.gate, b.stub, b.err
	b.mu.Unlock()
	report := func(p progress.Event) {
		b.mu.Lock()
		b.sent = append(b.sent, p.Message)
		b.mu.Unlock()
		sink(p)
	}
	report(progress.Event{Stage: "decompose", Message: "Decomposing…"})
	b.started <- req.Statement
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	report(progress.Event{Stage: "retrieve", Message: "Retrieving 3 sub-queries…", Done: 1, Total: 4})
	report(progress.Event{Stage: "check", Message: "Checking candidate 2/4 with Lean…", Done: 3, Total: 4})
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// The name is decided as the pipeline decides it.
	name := req.Name
	if name == "" {
		name = drift.ExplicitName(req.Statement)
	}
	if name == "" {
		name = "model_name"
	}
	if req.Name == "" {
		taken := map[string]bool{}
		for _, n := range drift.DeclaredNames(req.Text) {
			taken[n] = true
		}
		for i, base := 2, name; taken[name]; i++ {
			name = fmt.Sprintf("%s_%d", base, i)
		}
	}
	stub = strings.ReplaceAll(stub, "NAME", name)
	return &Formalized{Name: name, Stub: stub, Summary: "1 of 4 candidates passed", Report: b.report(stub)}, nil
}

// Blueprint reports one node, then waits for gate (when set) or ctx.
func (b *scripted) Blueprint(ctx context.Context, req BlueprintRequest, report progress.Func) (*BlueprintResult, error) {
	b.mu.Lock()
	b.blueprints = append(b.blueprints, req)
	gate := b.gate
	b.mu.Unlock()
	report(progress.Event{Stage: "blueprint", Message: "thm:a: stubbed", Done: 1, Total: 2})
	b.started <- "blueprint"
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return &BlueprintResult{Summary: "2 nodes: 1 in Lean, 1 stubbed", Out: "/ws/DriftBlueprint.lean"}, nil
}

func (b *scripted) FindPremises(ctx context.Context, statement string, report progress.Func) (*Premises, error) {
	report(progress.Event{Stage: "retrieve", Message: "Retrieving premises…"})
	return b.premises, nil
}

// unknownRE plays the unknown-name check: names that start with "Foo".
var unknownRE = regexp.MustCompile(`\bFoo[\w.]*`)

func (b *scripted) Check(ctx context.Context, header, stub string, _ progress.Func) (*CheckReport, error) {
	b.mu.Lock()
	b.checks = append(b.checks, stub)
	b.mu.Unlock()
	return b.report(stub), nil
}

// report plays the checker on stub, with the checker's words for unknown
// names.
func (b *scripted) report(stub string) *CheckReport {
	stub = strings.TrimSpace(stub)
	rep := &CheckReport{Stub: stub, LeanSkipped: b.leanNote, Findings: []Finding{}}
	var unknown []string
	for _, m := range unknownRE.FindAllStringIndex(stub, -1) {
		name := stub[m[0]:m[1]]
		unknown = append(unknown, name)
		rep.Findings = append(rep.Findings, Finding{Severity: 1, Code: "unknown-name", Start: m[0], End: m[1],
			Message: "unknown name `" + name + "` (not in the library; likely invented)"})
	}
	rep.Passed = len(unknown) == 0
	rep.Verdict = "names known · Lean not run"
	if !rep.Passed {
		rep.Verdict = "unknown names: " + strings.Join(unknown, ", ") + " · Lean not run"
	}
	return rep
}

func (b *scripted) UpdateBuffer(path string, text []byte) {
	b.mu.Lock()
	b.buffers[path] = string(text)
	b.mu.Unlock()
}

func (b *scripted) CloseBuffer(path string) {
	b.mu.Lock()
	delete(b.buffers, path)
	b.mu.Unlock()
}

func (b *scripted) Configure(s Settings) {
	b.mu.Lock()
	b.settings = append(b.settings, s)
	b.mu.Unlock()
}

// Comments returns no checker: the comment features are tested with the
// real one, in cmd/internal/app.
func (b *scripted) Comments() CommentChecker { return nil }

// CommentsChanged never fires.
func (b *scripted) CommentsChanged() <-chan struct{} { return nil }

func (b *scripted) Close() error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	return nil
}

var errModel = errors.New("model endpoint returned 500 Internal Server Error after 3 retries")
