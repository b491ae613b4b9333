package falsify

import (
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// What a refutation shows beside the assignment: the values that make the
// statement false, in the statement's own words. A closed statement
//
//	Real.sqrt 1000000 - 1000000^(1/3) = 900
//
// is explained as
//
//	1000000^(1/3) = 1 (1/3 is ℕ division: 0) · left side 999 ≠ 900
//
// and a counterexample with its hypotheses' values first
// ("hypotheses Nat.Prime n: true · Odd n: false").

// explained is what the compiled statement keeps to explain a refutation.
type explained struct {
	hypTerms  []*leansrc.Term // the terms of p.hyps, in order
	conclTerm *leansrc.Term
	seen      map[*leansrc.Term]nexpr
	parent    map[*leansrc.Term]*leansrc.Term
	src       map[*leansrc.Term]string // each term's source text
}

// maxExplained bounds an explanation's parts, in characters.
const maxExplained = 80

// startExplain makes the second pass keep the compiled numeric terms of
// the statement whose binder types are types and conclusion concl.
func (c *compiler) startExplain(p *prepared, st Statement, types []*leansrc.Term, concl *leansrc.Term) {
	if c.pass != 2 {
		return
	}
	c.seen = map[*leansrc.Term]nexpr{}
	p.seen = c.seen
	p.parent = map[*leansrc.Term]*leansrc.Term{}
	p.src = map[*leansrc.Term]string{}
	for i, t := range types {
		p.index(t, nil, st.Binders[i].Type)
	}
	p.index(concl, nil, st.Conclusion)
}

// index records the parent and the source of every subterm of t.
func (p *prepared) index(t, parent *leansrc.Term, src string) {
	if t == nil {
		return
	}
	p.parent[t] = parent
	p.src[t] = src
	for _, a := range t.Args {
		p.index(a, t, src)
	}
}

// see keeps a compiled numeric term (explain.go).
func (c *compiler) see(t *leansrc.Term, e nexpr, ok bool) {
	if ok && c.seen != nil {
		c.seen[t] = e
	}
}

// text is the source of term t, else its rendering; a binder predicate's
// hypothesis (∀ x < n, …: x < n, whose x has no source) reads x < n.
func (p *prepared) text(t *leansrc.Term) string {
	if t.Kind == leansrc.TermInfix && len(t.Args) == 2 && t.Args[0].Kind == leansrc.TermIdent && t.Args[0].Start == t.Args[0].End {
		return t.Args[0].Text + " " + t.Text + " " + p.text(t.Args[1])
	}
	if src, ok := p.src[t]; ok && t.Start < t.End && t.End <= len(src) {
		return textcut.Line(src[t.Start:t.End], maxExplained)
	}
	return textcut.Line(t.String(), maxExplained)
}

// explain says how the assignment in e refutes the statement: the
// hypotheses' values, where a ℕ or ℤ division truncated, and the
// conclusion's values.
func (p *prepared) explain(e *env) string {
	if p.seen == nil {
		return ""
	}
	var allowed uint64
	wide := false
	for _, v := range p.vars {
		allowed |= slotBit(v.slot)
		wide = wide || v.slot >= 63
	}
	if wide {
		allowed &^= slotBit(63)
	}
	value := func(t *leansrc.Term) (string, bool) {
		x, ok := p.seen[t]
		if !ok || x.deps&^allowed != 0 {
			return "", false
		}
		e.steps = 0
		v, ok := x.f(e)
		if !ok {
			return "", false
		}
		if x.t == kBool {
			return map[bool]string{true: "true", false: "false"}[v.n != 0], true
		}
		return v.String(), true
	}
	var parts, hyps []string
	for i, h := range p.hypTerms {
		hyps = append(hyps, p.text(h)+": "+p.relValues(h, p.hyps[i], e, value, false))
	}
	if len(hyps) > 0 {
		parts = append(parts, "hypotheses "+strings.Join(hyps, ", "))
	}
	for _, root := range append(append([]*leansrc.Term(nil), p.hypTerms...), p.conclTerm) {
		parts = p.divisions(root, e, value, parts)
	}
	parts = append(parts, p.relValues(p.conclTerm, p.concl, e, value, true))
	return strings.Join(parts, " · ")
}

// negated are the relations that hold when the written one fails.
var negated = map[string]string{"=": "≠", "≠": "=", "<": "≥", "≤": ">", ">": "≤", "≥": "<", "∣": "∤"}

// relValues renders proposition t, compiled as pe, at the assignment: a
// relation by its sides' values and the relation that holds between them
// ("left side 999 ≠ 900"; side names only for the conclusion, and not for
// a numeral), else its truth value.
func (p *prepared) relValues(t *leansrc.Term, pe pexpr, e *env, value func(*leansrc.Term) (string, bool), sides bool) string {
	e.steps = 0
	truth := pe.f(e)
	if t.Kind == leansrc.TermInfix && negated[t.Text] != "" {
		l, ok1 := value(t.Args[0])
		r, ok2 := value(t.Args[1])
		if ok1 && ok2 {
			op := t.Text
			if truth == fls {
				op = negated[op]
			}
			if sides {
				if !numeral(t.Args[0]) {
					l = "left side " + l
				}
				if !numeral(t.Args[1]) {
					r = "right side " + r
				}
			}
			return l + " " + op + " " + r
		}
	}
	word := map[tri]string{tru: "true", fls: "false", unk: "undefined"}[truth]
	if sides {
		return p.text(t) + ": " + word
	}
	return word
}

// divisions appends a part for each ℕ or ℤ division under t that
// truncated at the assignment: "1000000^(1/3) = 1 (1/3 is ℕ division: 0)",
// the division shown inside the term it feeds.
func (p *prepared) divisions(t *leansrc.Term, e *env, value func(*leansrc.Term) (string, bool), parts []string) []string {
	if t == nil {
		return parts
	}
	for _, a := range t.Args {
		parts = p.divisions(a, e, value, parts)
	}
	if t.Kind != leansrc.TermInfix || t.Text != "/" || len(t.Args) != 2 {
		return parts
	}
	x, ok := p.seen[t]
	a, okA := p.seen[t.Args[0]]
	b, okB := p.seen[t.Args[1]]
	q, okQ := value(t)
	if !ok || !okA || !okB || !okQ || !x.t.integral() {
		return parts
	}
	e.steps = 0
	av, okA := a.f(e)
	bv, okB := b.f(e)
	if !okA || !okB || bv.sign() == 0 {
		return parts
	}
	if r, ok := emod(av, bv); !ok || r.sign() == 0 {
		return parts // exact: nothing was cut
	}
	note := leansrc.Unparen(p.text(t)) + " is " + x.t.String() + " division: " + q
	if up := p.parent[t]; up != nil && up.Kind == leansrc.TermInfix && arithOps[up.Text] {
		if v, ok := value(up); ok {
			return append(parts, p.text(up)+" = "+v+" ("+note+")")
		}
	}
	return append(parts, note)
}

// numeral reports whether t is a numeral, negated or not: its value needs
// no name.
func numeral(t *leansrc.Term) bool {
	if t.Kind == leansrc.TermPrefix && t.Text == "-" && len(t.Args) == 1 {
		t = t.Args[0]
	}
	return t.Kind == leansrc.TermNum
}
