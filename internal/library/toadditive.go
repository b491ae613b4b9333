package library

import (
	"slices"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// This file ports the name translation of Mathlib's `to_additive`
// (Mathlib/Tactic/ToAdditive/Frontend.lean: String.splitCase, nameDict,
// applyNameDict, fixAbbreviation, guessName, targetName).

// endCapitalNames are capitalised words that splitCase keeps together with a
// following capital suffix ("LE", "LT", "WF", "CoeTC", "CoeT", "CoeHTCT").
var endCapitalNames = map[string][]string{"LE": {""}, "LT": {""}, "WF": {""}, "Coe": {"TC", "T", "HTCT"}}

func isUpperASCII(r rune) bool { return r >= 'A' && r <= 'Z' }
func isLowerASCII(r rune) bool { return r >= 'a' && r <= 'z' }

// splitCase splits s at underscores (kept as separate parts) and before an
// upper-case letter that follows a non-upper-case one, as Mathlib does.
func splitCase(s string) []string {
	var out []string
	rs := []rune(s)
	for len(rs) > 0 {
		split := -1
		pref := ""
		for i0 := 0; i0+1 < len(rs); i0++ {
			i1 := i0 + 1
			if rs[i0] == '_' || rs[i1] == '_' {
				split = i1
				break
			}
			if isUpperASCII(rs[i1]) {
				if strs, ok := endCapitalNames[string(rs[:i1])]; ok {
					rest := string(rs[i1:])
					found := false
					for _, x := range strs {
						if strings.HasPrefix(rest, x) {
							pref = x
							split = i1
							found = true
							break
						}
					}
					if found {
						break
					}
				}
				if !isUpperASCII(rs[i0]) {
					split = i1
					break
				}
			}
		}
		if split < 0 {
			out = append(out, string(rs))
			break
		}
		head := string(rs[:split]) + pref
		out = append(out, head)
		rs = rs[split+len([]rune(pref)):]
	}
	return out
}

// nameDict is Mathlib's word dictionary for to_additive.
var nameDict = map[string][]string{
	"one": {"zero"}, "mul": {"add"}, "smul": {"vadd"}, "inv": {"neg"}, "div": {"sub"},
	"prod": {"sum"}, "hmul": {"hadd"}, "hsmul": {"hvadd"}, "hdiv": {"hsub"}, "hpow": {"hsmul"},
	"finprod": {"finsum"}, "tprod": {"tsum"}, "pow": {"nsmul"}, "npow": {"nsmul"}, "zpow": {"zsmul"},
	"mabs": {"abs"}, "monoid": {"add", "Monoid"}, "submonoid": {"add", "Submonoid"},
	"group": {"add", "Group"}, "subgroup": {"add", "Subgroup"}, "semigroup": {"add", "Semigroup"},
	"magma": {"add", "Magma"}, "haar": {"add", "Haar"}, "prehaar": {"add", "Prehaar"},
	"unit": {"add", "Unit"}, "units": {"add", "Units"}, "cyclic": {"add", "Cyclic"},
	"rootable": {"divisible"}, "semigrp": {"add", "Semigrp"}, "grp": {"add", "Grp"},
	"commute": {"add", "Commute"}, "semiconj": {"add", "Semiconj"}, "zpowers": {"zmultiples"},
	"powers": {"multiples"}, "multipliable": {"summable"}, "gpfree": {"apfree"},
	"quantale": {"add", "Quantale"}, "square": {"even"},
}

// capitalizeLike capitalises s character by character like r (ASCII only,
// as Lean's Char.isUpper/isLower); a longer s keeps its tail.
func capitalizeLike(r, s string) string {
	rr, sr := []rune(r), []rune(s)
	for i := 0; i < len(rr) && i < len(sr); i++ {
		switch {
		case isLowerASCII(rr[i]):
			if isUpperASCII(sr[i]) {
				sr[i] += 'a' - 'A'
			}
		case isUpperASCII(rr[i]):
			if isLowerASCII(sr[i]) {
				sr[i] -= 'a' - 'A'
			}
		}
	}
	return string(sr)
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func applyNameDict(parts []string) []string {
	out := make([]string, 0, len(parts)+2)
	for _, x := range parts {
		tr, ok := nameDict[asciiLower(x)]
		if !ok {
			tr = []string{x}
		}
		out = append(out, capitalizeLike(x, tr[0]))
		out = append(out, tr[1:]...)
	}
	return out
}

// abbrevRule is one rewrite of fixAbbreviation: a word sequence and its
// replacement (a single word or several).
type abbrevRule struct {
	from []string
	to   []string
}

var abbrevRules = []abbrevRule{
	{[]string{"cancel", "Add"}, []string{"addCancel"}},
	{[]string{"Cancel", "Add"}, []string{"AddCancel"}},
	{[]string{"left", "Cancel", "Add"}, []string{"addLeftCancel"}},
	{[]string{"Left", "Cancel", "Add"}, []string{"AddLeftCancel"}},
	{[]string{"right", "Cancel", "Add"}, []string{"addRightCancel"}},
	{[]string{"Right", "Cancel", "Add"}, []string{"AddRightCancel"}},
	{[]string{"cancel", "Comm", "Add"}, []string{"addCancelComm"}},
	{[]string{"Cancel", "Comm", "Add"}, []string{"AddCancelComm"}},
	{[]string{"comm", "Add"}, []string{"addComm"}},
	{[]string{"Comm", "Add"}, []string{"AddComm"}},
	{[]string{"Zero", "LE"}, []string{"Nonneg"}},
	{[]string{"zero", "_", "le"}, []string{"nonneg"}},
	{[]string{"zero", "LE"}, []string{"nonneg"}},
	{[]string{"Zero", "LT"}, []string{"Pos"}},
	{[]string{"zero", "_", "lt"}, []string{"pos"}},
	{[]string{"zero", "LT"}, []string{"pos"}},
	{[]string{"LE", "Zero"}, []string{"Nonpos"}},
	{[]string{"le", "_", "zero"}, []string{"nonpos"}},
	{[]string{"LT", "Zero"}, []string{"Neg"}},
	{[]string{"lt", "_", "zero"}, []string{"neg"}},
	{[]string{"Add", "Single"}, []string{"Single"}},
	{[]string{"add", "Single"}, []string{"single"}},
	{[]string{"add", "_", "single"}, []string{"single"}},
	{[]string{"Add", "Support"}, []string{"Support"}},
	{[]string{"add", "Support"}, []string{"support"}},
	{[]string{"add", "_", "support"}, []string{"support"}},
	{[]string{"Add", "TSupport"}, []string{"TSupport"}},
	{[]string{"add", "TSupport"}, []string{"tsupport"}},
	{[]string{"add", "_", "tsupport"}, []string{"tsupport"}},
	{[]string{"Add", "Indicator"}, []string{"Indicator"}},
	{[]string{"add", "Indicator"}, []string{"indicator"}},
	{[]string{"add", "_", "indicator"}, []string{"indicator"}},
	{[]string{"is", "Even"}, []string{"even"}},
	{[]string{"Is", "Even"}, []string{"Even"}},
	{[]string{"is", "Regular"}, []string{"isAddRegular"}},
	{[]string{"Is", "Regular"}, []string{"IsAddRegular"}},
	{[]string{"is", "Left", "Regular"}, []string{"isAddLeftRegular"}},
	{[]string{"Is", "Left", "Regular"}, []string{"IsAddLeftRegular"}},
	{[]string{"is", "Right", "Regular"}, []string{"isAddRightRegular"}},
	{[]string{"Is", "Right", "Regular"}, []string{"IsAddRightRegular"}},
	{[]string{"Has", "Fundamental", "Domain"}, []string{"HasAddFundamentalDomain"}},
	{[]string{"has", "Fundamental", "Domain"}, []string{"hasAddFundamentalDomain"}},
	{[]string{"Quotient", "Measure"}, []string{"AddQuotientMeasure"}},
	{[]string{"quotient", "Measure"}, []string{"addQuotientMeasure"}},
	{[]string{"HSmul"}, []string{"HSMul"}},
	{[]string{"NSmul"}, []string{"NSMul"}},
	{[]string{"Nsmul"}, []string{"NSMul"}},
	{[]string{"ZSmul"}, []string{"ZSMul"}},
	{[]string{"neg", "Fun"}, []string{"invFun"}},
	{[]string{"Neg", "Fun"}, []string{"InvFun"}},
	{[]string{"unique", "Prods"}, []string{"uniqueSums"}},
	{[]string{"Unique", "Prods"}, []string{"UniqueSums"}},
	{[]string{"order", "Of"}, []string{"addOrderOf"}},
	{[]string{"Order", "Of"}, []string{"AddOrderOf"}},
	{[]string{"is", "Of", "Fin", "Order"}, []string{"isOfFinAddOrder"}},
	{[]string{"Is", "Of", "Fin", "Order"}, []string{"IsOfFinAddOrder"}},
	{[]string{"is", "Central", "Scalar"}, []string{"isCentralVAdd"}},
	{[]string{"Is", "Central", "Scalar"}, []string{"IsCentralVAdd"}},
	{[]string{"function", "_", "add", "Semiconj"}, []string{"function", "_", "semiconj"}},
	{[]string{"function", "_", "add", "Commute"}, []string{"function", "_", "commute"}},
	{[]string{"Zero", "Le", "Part"}, []string{"PosPart"}},
	{[]string{"Le", "Zero", "Part"}, []string{"NegPart"}},
	{[]string{"zero", "Le", "Part"}, []string{"posPart"}},
	{[]string{"le", "Zero", "Part"}, []string{"negPart"}},
	{[]string{"Division", "Add", "Monoid"}, []string{"SubtractionMonoid"}},
	{[]string{"division", "Add", "Monoid"}, []string{"subtractionMonoid"}},
	{[]string{"Sub", "Neg", "Zero", "Add", "Monoid"}, []string{"SubNegZeroMonoid"}},
	{[]string{"sub", "Neg", "Zero", "Add", "Monoid"}, []string{"subNegZeroMonoid"}},
}

// fixAbbreviation applies the first matching rule at each position, in the
// order of Mathlib's pattern match.
func fixAbbreviation(parts []string) []string {
	out := make([]string, 0, len(parts))
	// The Lean function emits a rule's replacement as one list element and
	// recurses on the rest; the two function_ rules emit three elements of
	// which only the last is re-examined, which never matters for matching.
outer:
	for i := 0; i < len(parts); {
		for _, r := range abbrevRules {
			if len(r.from) <= len(parts)-i && slices.Equal(parts[i:i+len(r.from)], r.from) {
				out = append(out, r.to...)
				i += len(r.from)
				continue outer
			}
		}
		out = append(out, parts[i])
		i++
	}
	return out
}

// GuessAdditiveName translates the last component of a multiplicative
// declaration name into its additive counterpart exactly as Mathlib's
// `to_additive` guesses it (for example "prod_comm" → "sum_comm",
// "Monoid" → "AddMonoid", "one_le_mul" → "nonneg_add").
func GuessAdditiveName(s string) string {
	toks := strings.Split(s, "'")
	for i, t := range toks {
		toks[i] = strings.Join(fixAbbreviation(applyNameDict(splitCase(t))), "")
	}
	return strings.Join(toks, "'")
}

// additiveTarget computes the full name of the additive twin of src, given
// the explicit target name from the attribute ("" to guess) and a lookup of
// names already translated (for the namespace prefix, as targetName's
// mapPrefix does).
func additiveTarget(src, explicit string, translated func(string) (string, bool)) string {
	pre, last := leansrc.SplitLast(src)
	pre = mapPrefix(pre, translated)
	if explicit == "" {
		return leansrc.JoinName(pre, GuessAdditiveName(last))
	}
	explicit = strings.TrimPrefix(explicit, "_root_.")
	depth := strings.Count(explicit, ".") + 1
	pre1 := pre
	for k := 0; k < depth-1 && pre1 != ""; k++ {
		pre1, _ = leansrc.SplitLast(pre1)
	}
	return leansrc.JoinName(pre1, explicit)
}

// mapPrefix replaces the longest prefix of name that has a translation.
func mapPrefix(name string, translated func(string) (string, bool)) string {
	if name == "" {
		return ""
	}
	for p := name; p != ""; p, _ = leansrc.SplitLast(p) {
		if t, ok := translated(p); ok {
			return t + name[len(p):]
		}
	}
	return name
}
