// Package falsify searches for counterexamples to Lean theorem statements by
// evaluating them, with Lean's own semantics, on concrete values of their
// variables. It is sound and three-valued: a statement is refuted only when
// an assignment makes every hypothesis definitely true and the conclusion
// definitely false; anything outside the evaluable fragment is unknown.
package falsify

import (
	"time"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// Library resolves names of the workspace as the name check does.
type Library interface {
	// Resolve returns the full names a name written in the stub may denote, best first (empty: unknown).
	Resolve(name string) []string
	// Definition returns a def/abbrev's parameters and body source (and the scope to resolve the body's names in), ok false when the name has no usable body.
	Definition(full string) (Definition, bool)
	// Notation returns the workspace notation a symbol (e.g. "∣ₘ", or "ℝ≥0" of fixity Nullary) denotes, ok false when none.
	Notation(symbol string) (n Notation, ok bool)
}

// Notation is a workspace operator: the constant it stands for, its fixity and precedence.
type Notation struct {
	Const string
	leansrc.Operator
}

// Definition is the source of a def or abbrev: binder text, result type and body text, and the Library to resolve names inside it.
type Definition struct {
	Params []Param
	Result string // the declared result type ("" when not written)
	Body   string
	Scope  Library
}

// Param is one parameter: its names, its type text, whether explicit.
type Param struct {
	Names    []string
	Type     string
	Explicit bool
}

// Statement is what is falsified: the stub's binders and its conclusion (the type after the colon).
type Statement struct {
	Binders    []Param
	Conclusion string
}

// Verdict is the falsifier's outcome.
type Verdict int

// The verdicts.
const (
	Unknown    Verdict = iota // no assignment could be checked
	NotRefuted                // some assignments were checked and none refuted the statement
	Refuted                   // a counterexample was found
)

// String names the verdict ("unknown", "not refuted", "refuted").
func (v Verdict) String() string {
	switch v {
	case NotRefuted:
		return "not refuted"
	case Refuted:
		return "refuted"
	}
	return "unknown"
}

// Result reports a falsification run.
type Result struct {
	Verdict        Verdict
	Counterexample string // "n = 2" (", "-joined, binder order) when Refuted; "" for a false closed statement
	Explanation    string // when Refuted: the values that make the statement false, " · "-joined: the hypotheses', truncating ℕ/ℤ divisions, the conclusion's ("left side 999 ≠ 900")
	Assignments    int    // assignments on which every hypothesis and the conclusion were defined and checked
	Reason         string // why Unknown: the first construct outside the fragment (e.g. "outside the fragment: Real.cos" for a name the library knows but the fragment does not, "unknown name Foo" for one it does not know), or that no assignment met the hypotheses
	// Contradiction, when set (Verdict Unknown), proves that the hypotheses
	// cannot all hold, as soundly as a refutation proves a statement false,
	// and says why: "0 < n, and n < 7/13, where 7/13 = 0 in ℤ". The statement
	// is then vacuously true: it states nothing. Never set for a conclusion
	// False, which claims exactly that.
	Contradiction string
}

// Options bound the search.
type Options struct {
	Budget         time.Duration // time box of the search once its first assignments were tried (0: 10 ms)
	MaxAssignments int           // cap on the assignments tried (0: 20000)
	Seed           int64         // seed of the random phase
}
