package falsify

import (
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// kind is a type of the fragment.
type kind uint8

const (
	kNone kind = iota // not determined (a numeral's type before the tree is typed)
	kNat
	kInt
	kRat
	kReal // evaluated at rational points: only exact field operations are compiled
	// kNNReal is Mathlib's NNReal (ℝ≥0), the nonnegative reals, evaluated at
	// nonnegative rational points: truncated subtraction (a - b = max (a - b)
	// 0), no negation, no %.
	kNNReal
	kBool
	kProp
)

var kindNames = [...]string{kNone: "?", kNat: "ℕ", kInt: "ℤ", kRat: "ℚ", kReal: "ℝ", kNNReal: "NNReal", kBool: "Bool", kProp: "Prop"}

func (k kind) String() string { return kindNames[k] }

func (k kind) numeric() bool { return k >= kNat && k <= kNNReal }

func (k kind) integral() bool { return k == kNat || k == kInt }

// nonneg reports whether the values of k are never negative.
func (k kind) nonneg() bool { return k == kNat || k == kNNReal }

// coerces reports whether Lean coerces a value of type a to type b: the
// identity, or up along ℕ → ℤ → ℚ → ℝ and ℕ → NNReal → ℝ (NNReal has no
// coercion from or to ℤ and ℚ).
func coerces(a, b kind) bool {
	switch {
	case a == b:
		return true
	case !a.numeric() || !b.numeric():
		return false
	case a == kNNReal:
		return b == kReal
	case b == kNNReal:
		return a == kNat
	}
	return a < b
}

// maxKind is the larger of two types along the coercions (kNone is the
// unit), as Lean's binop% elaborator takes it; ok is false when neither
// coerces to the other (ℤ and NNReal), where Lean inserts no coercion.
func maxKind(a, b kind) (kind, bool) {
	switch {
	case a == kNone:
		return b, true
	case b == kNone || coerces(b, a):
		return a, true
	case coerces(a, b):
		return b, true
	}
	return kNone, false
}

// typeNames maps the written names of the fragment's types to kinds; the
// names are resolved first, so `Nat` means the core type wherever it is.
var typeNames = map[string]kind{
	"ℕ": kNat, "Nat": kNat, "ℤ": kInt, "Int": kInt, "ℚ": kRat, "Rat": kRat, "ℝ": kReal, "Real": kReal,
	"NNReal": kNNReal, "Bool": kBool, "Prop": kProp,
}

// typeOf reads a type term: a kind of the fragment, or kNone.
func typeOf(t *leansrc.Term) kind {
	if t != nil && t.Kind == leansrc.TermIdent {
		return typeNames[t.Text]
	}
	return kNone
}

// typeConstructors are type formers whose binders are variables outside the
// fragment (not hypotheses).
var typeConstructors = map[string]bool{
	"Finset": true, "Set": true, "List": true, "Multiset": true, "Fin": true, "Type": true, "Sort": true, "Type*": true,
	"Polynomial": true, "Matrix": true, "ZMod": true, "ℂ": true, "Complex": true, "Array": true, "Option": true,
	"Fintype": true, "ENNReal": true, "EReal": true, "PNat": true,
}

// isTypeTerm reports whether a binder's type denotes a type (so the binder
// is a variable) rather than a proposition (a hypothesis).
func isTypeTerm(t *leansrc.Term) bool {
	switch t.Kind {
	case leansrc.TermIdent:
		return typeOf(t) != kNone || typeConstructors[t.Text]
	case leansrc.TermApp:
		return isTypeTerm(t.Args[0])
	case leansrc.TermInfix:
		if t.Text == "→" || t.Text == "×" {
			return isTypeTerm(t.Args[0]) && isTypeTerm(t.Args[1])
		}
	case leansrc.TermPostfix, leansrc.TermPrefix:
		return isTypeTerm(t.Args[0])
	}
	return false
}
