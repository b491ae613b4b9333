// Package coverage checks that a stub accounts for every quantity and
// condition of the informal statement it formalizes: the numerals and
// comparisons ("greater than 2"), the concepts behind the premises retrieved
// for the statement's sub-queries (prime, odd) and the quantifier words
// ("every", "there exists", "exactly", "unique", "distinct"). It needs no
// model and no Lean: the statement is read with a small phrase grammar over
// its prose and its LaTeX, the stub with the project's Lean scanner
// (leansrc.Scan).
//
// It favours precision: a condition is covered by any of the usual ways
// Lean states it, so that a correct stub is rarely flagged.
//   - A comparison with a numeral is covered by the same bound on either
//     side of the relation and by its integer shift: "greater than 2" by
//     2 < n, n > 2, 3 ≤ n or n ≥ 3; by an interval (n ∈ Set.Ioi 2); and,
//     for x ≥ c known from a type or a hypothesis, by x ≠ c (a prime other
//     than 2). "positive", "non-negative" and "nonzero" are bounds by 0,
//     also stated by ℕ+, NNReal or ℕ, or by any stronger assumed bound;
//     said of k variables ("positive reals a, b and c"), k comparisons.
//   - A numeral is covered by the same numeral anywhere in the stub (3.5 by
//     7 / 2, 8/15 by 16 / 30) or by a name piece that says it (sq, sqrt, Even say 2; ⁻¹ says
//     1); one the statement's math writes k times (0 and 1 excepted) must be
//     written k times. A value at numerals, f(-1) = 0, wants an equation to
//     0 whose other side has -1.
//   - Quantifier words want a binder or ∀ (every), ∃ or a Nonempty-like name
//     (there exists, where asserted rather than assumed), an equation to k
//     (exactly k), ∃! or an equation (unique), ≠ or an injectivity-like name
//     (distinct).
//   - A concept is a condition only when the statement names it: a word of
//     the statement (its phrase, as written) is a piece of the last
//     component of one of its premises' names ("prime" for Nat.Prime) or a
//     content word of a short sub-query; a premise the statement never names
//     (retrieval's noise) or a model's whole-sentence sub-query asks
//     nothing. It is covered by one of its
//     premises' names, by a name with the same last component (Mm.Prime for
//     Nat.Prime, p.Prime), by the notation of one (∣ for Dvd.dvd) or by a
//     name with a word of the sub-query or the phrase as a piece.
//   - A concept said of the statement's subject ("the product of two odd
//     integers", "every prime number") is covered only by a hypothesis: a
//     binder, a ∀ binder's type or a premise of the conclusion's →
//     (subject.go); `Odd (x * y)` alone drops it.
//
// What the statement says outside its claim is no condition: answer
// choices of a multiple-choice problem, sentences that define a term, give
// an example or say how to write the answer, subscripts that index (x_1),
// the terms of an ellipsis (1 + 2 + ⋯ + n), the dimension of a space (ℝ^2)
// and angles in degrees.
package coverage

import (
	"fmt"
	"strings"
)

// Kind names what sort of condition of the statement a Condition is.
type Kind string

// The kinds of condition.
const (
	KindQuantity   Kind = "quantity"   // a numeral or number word that must appear ("898", "twice")
	KindComparison Kind = "comparison" // a numeral with an order relation ("greater than 2", "at most 3", "$n \geq 1$", "positive")
	KindConcept    Kind = "concept"    // a sub-query's concept, stated by one of its premises ("prime number")
	KindQuantifier Kind = "quantifier" // a quantifier word ("every", "there exists", "exactly 2", "unique", "distinct")
	KindClaim      Kind = "claim"      // the claim itself, not stated when the stub's conclusion is assumed (ClaimAssumed)
	// KindContradiction is the claim too, not stated when the stub's
	// hypotheses cannot all hold (ClaimContradicted).
	KindContradiction Kind = "contradiction"
	// KindReflexive is the claim too, not stated when the stub's
	// conclusion relates a term to itself (ClaimReflexive).
	KindReflexive Kind = "reflexive"
	// KindOrder is a divisibility by a numeral whose side of ∣ the
	// statement fixes ("divisible by 6": 6 ∣ n): reversed in the stub, or
	// assumed by the statement ("if n is divisible by 4") and not stated.
	KindOrder Kind = "order"
)

// Concept is one sub-query of a statement's decomposition with the full
// names of the premises retrieved for it.
type Concept struct {
	Phrase string
	Names  []string
}

// Condition is one quantity or condition of the statement and whether the
// stub accounts for it; Phrase is the statement's own text for it, and
// Times, for a numeral the statement's math writes more than once, how
// many times (the stub must write it as often).
type Condition struct {
	Phrase  string `json:"phrase"`
	Kind    Kind   `json:"kind"`
	Covered bool   `json:"covered"`
	Times   int    `json:"times,omitempty"`
	// Bound is what a comparison with a numeral states of its subject
	// ("greater than 2": > 2; "positive": > 0), nil for other conditions
	// and for an equation (f(-1) = 0).
	Bound *Bound `json:"-"`
	// Subject is what the comparison is said of, as far as the statement's
	// words tell: the variables it names, the noun it qualifies.
	Subject Subject `json:"-"`
	// Of is the subject noun phrase a concept is said of ("two odd
	// integers"): only a hypothesis of the stub covers it. Hypothesis marks
	// such a concept the stub names in its conclusion only.
	Of         string `json:"of,omitempty"`
	Hypothesis bool   `json:"hypothesis,omitempty"`
	// Names are a concept's premises, the names that state it.
	Names []string `json:"-"`
	// Divisor is the numeral of an order of ∣ (KindOrder) and its side.
	Divisor *Divisor `json:"-"`
}

// Divisor is a numeral the statement puts on one side of ∣: Left for "n
// is divisible by 6" (6 ∣ n), else right ("n divides 6": n ∣ 6).
// Reversed: the stub writes it on the other side only.
type Divisor struct {
	Value    string
	Left     bool
	Reversed bool
}

// Bound is a comparison of a subject with a numeral: Rel is one of
// "<", "≤", ">", "≥", "≠" (subject Rel Value).
type Bound struct {
	Rel   string
	Value string
}

// Subject is what a condition of the statement is said of: the variables
// it names in math or as single letters ("$x$ and $y$ are positive": x, y;
// "$n > 2$": n), else the noun phrase it qualifies, lower case ("every
// prime number greater than 2": "prime number"; "positive integers":
// "integers").
type Subject struct {
	Vars []string
	Noun string
	// Count is how many the noun phrase names ("two odd integers": 2), 0
	// when it does not say.
	Count int
}

// Finding is one condition the stub omits.
type Finding struct {
	Kind    Kind   `json:"kind"`
	Phrase  string `json:"phrase"`
	Message string `json:"message"`
}

// Result is the outcome of Check: the statement's conditions in the order
// they occur (concepts last).
type Result struct {
	Conditions []Condition `json:"conditions"`
}

// Covered counts the covered conditions.
func (r Result) Covered() int {
	n := 0
	for _, c := range r.Conditions {
		if c.Covered {
			n++
		}
	}
	return n
}

// Complete reports whether every condition is covered.
func (r Result) Complete() bool { return r.Covered() == len(r.Conditions) }

// Findings returns one finding per uncovered condition, naming its phrase
// as the statement writes it ("omits 'greater than 2'"); two conditions
// of one word (the quantity and the concept "square") give one finding.
func (r Result) Findings() []Finding {
	out := []Finding{}
	said := map[string]bool{}
	for _, c := range r.Conditions {
		if !c.Covered {
			msg := fmt.Sprintf("omits '%s'", c.Phrase)
			switch {
			case c.Times > 1:
				msg = fmt.Sprintf("omits '%s' (the statement writes it %d times)", c.Phrase, c.Times)
			case c.Kind == KindClaim && c.Phrase == "True":
				msg = "states nothing: its conclusion is True"
			case c.Kind == KindClaim:
				msg = fmt.Sprintf("states nothing: its conclusion is its hypothesis '%s'", c.Phrase)
			case c.Kind == KindContradiction:
				msg = fmt.Sprintf("states nothing: its hypotheses contradict (%s)", c.Phrase)
			case c.Kind == KindOrder && c.Divisor != nil && c.Divisor.Reversed:
				msg = fmt.Sprintf("reverses '%s': a ∣ b says that a divides b", c.Phrase)
			case c.Kind == KindReflexive:
				msg = fmt.Sprintf("states nothing: its conclusion '%s' holds of any term", c.Phrase)
			case c.Hypothesis:
				msg = fmt.Sprintf("omits '%s' as a hypothesis ('%s')", c.Phrase, c.Of)
			}
			if !said[msg] {
				said[msg] = true
				out = append(out, Finding{Kind: c.Kind, Phrase: c.Phrase, Message: msg})
			}
		}
	}
	return out
}

// ClaimAssumed records that the stub states nothing of its statement's
// claim: its conclusion is its hypothesis assumed ("" for a conclusion
// True). The claim becomes an uncovered condition.
func (r *Result) ClaimAssumed(assumed string) {
	if assumed == "" {
		assumed = "True"
	}
	r.Conditions = append(r.Conditions, Condition{Phrase: assumed, Kind: KindClaim})
}

// ClaimReflexive records that the stub states nothing: its conclusion,
// concl, relates a term to itself (x = x). The claim becomes an uncovered
// condition.
func (r *Result) ClaimReflexive(concl string) {
	r.Conditions = append(r.Conditions, Condition{Phrase: concl, Kind: KindReflexive})
}

// ClaimContradicted records that the stub states nothing: its hypotheses
// cannot all hold, which why says ("0 < n, and n < 7/13, where 7/13 = 0 in
// ℤ"; the falsifier proves it). The claim becomes an uncovered condition.
func (r *Result) ClaimContradicted(why string) {
	r.Conditions = append(r.Conditions, Condition{Phrase: why, Kind: KindContradiction})
}

// Verdict is the one-line summary of r: "covers 2/3 conditions" (or "no
// conditions found" when the statement has none).
func (r Result) Verdict() string {
	if len(r.Conditions) == 0 {
		return "no conditions found"
	}
	noun := "conditions"
	if len(r.Conditions) == 1 {
		noun = "condition"
	}
	return fmt.Sprintf("covers %d/%d %s", r.Covered(), len(r.Conditions), noun)
}

// Check extracts the conditions of the informal statement and tells which
// of them stub accounts for. stub is the stub's statement: its binders and,
// after the colon, its type (`(n : ℕ) (hp : Nat.Prime n) : Odd n`); a bare
// type is read as the type, and of a whole declaration only the statement
// is read (not its name, attributes or proof). concepts are optional.
// Check never fails: text it cannot read yields fewer conditions, never an
// error.
func Check(statement, stub string, concepts []Concept) Result {
	statement = strings.ToValidUTF8(statement, " ")
	st := readStub(stub)
	var res Result
	seen := map[string]int{}
	add := func(c Condition) {
		c.Phrase = strings.TrimSpace(c.Phrase)
		key := string(c.Kind) + "\x00" + c.Phrase
		if c.Phrase == "" {
			return
		}
		if i, ok := seen[key]; ok {
			// the same phrase again: a numeral is covered if both are (one
			// may be counted), a phrase if one is (its context may say
			// more: "positive factors" are divisors in ℕ)
			if c.Kind == KindQuantity {
				res.Conditions[i].Covered = res.Conditions[i].Covered && c.Covered
			} else {
				res.Conditions[i].Covered = res.Conditions[i].Covered || c.Covered
			}
			res.Conditions[i].Times = max(res.Conditions[i].Times, c.Times)
			return
		}
		seen[key] = len(res.Conditions)
		res.Conditions = append(res.Conditions, c)
	}
	conds := extract(statement)
	times := map[string]int{}  // how often math writes each counted numeral
	signs := map[string]bool{} // the sign words read as comparisons
	for _, c := range conds {
		if c.counted {
			times[c.values[0].s]++
		}
		if c.sign {
			signs[strings.ToLower(c.phrase)] = true
		}
	}
	for _, c := range conds {
		covered, n := st.covers(c), 0
		if c.counted && times[c.values[0].s] > 1 {
			// x^2 + y^2 = 2 writes 2 three times: a stub with fewer 2s
			// dropped or changed one
			n = times[c.values[0].s]
			covered = covered && (st.counts[c.values[0].s] >= n || st.hasPiece(c.pieces...))
		}
		add(Condition{Phrase: c.phrase, Kind: c.kind, Covered: covered, Times: n, Bound: c.bound(), Subject: c.subject, Divisor: c.divisor(st)})
	}
	said := map[string]bool{}
	var assumed *stubFacts
	for _, c := range concepts {
		phrase := statedConcept(statement, c)
		if phrase == "" || said[phrase] || signs[strings.ToLower(phrase)] {
			// a sign word ("negative") is its comparison with 0, which
			// states it by x < 0 as well as by a name
			continue
		}
		said[phrase] = true
		words := conceptWords(c.Phrase + " " + phrase)
		cond := Condition{Phrase: phrase, Kind: KindConcept, Covered: st.mentions(c.Names, words)}
		if np, noun, count, ok := subjectPhrase(statement, phrase); ok {
			cond.Of, cond.Subject, cond.Names = np, Subject{Noun: noun, Count: count}, c.Names
			if cond.Covered {
				// said of the subject: named in the conclusion only, it was dropped
				if assumed == nil {
					assumed = readStub(assumptions(stub))
				}
				cond.Covered = assumed.mentions(c.Names, conceptWords(phrase))
				cond.Hypothesis = !cond.Covered
			}
		}
		add(cond)
	}
	return res
}
