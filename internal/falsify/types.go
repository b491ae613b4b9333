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
	kBool
	kProp
)

var kindNames = [...]string{kNone: "?", kNat: "ℕ", kInt: "ℤ", kRat: "ℚ", kReal: "ℝ", kBool: "Bool", kProp: "Prop"}

func (k kind) String() string { return kindNames[k] }

func (k kind) numeric() bool { return k >= kNat && k <= kReal }

func (k kind) integral() bool { return k == kNat || k == kInt }

// maxKind is the larger of two numeric types along the coercions
// ℕ → ℤ → ℚ → ℝ (kNone is the unit).
func maxKind(a, b kind) kind {
	if a == kNone {
		return b
	}
	if b == kNone || a >= b {
		return a
	}
	return b
}

// typeNames maps the written names of the fragment's types to kinds; the
// names are resolved first, so `Nat` means the core type wherever it is.
var typeNames = map[string]kind{
	"ℕ": kNat, "Nat": kNat, "ℤ": kInt, "Int": kInt, "ℚ": kRat, "Rat": kRat, "ℝ": kReal, "Real": kReal,
	"Bool": kBool, "Prop": kProp,
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
	"Fintype": true, "ℝ≥0": true, "NNReal": true, "ENNReal": true, "ℝ≥0∞": true, "EReal": true, "PNat": true, "ℕ+": true,
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
