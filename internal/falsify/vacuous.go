package falsify

import (
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// Hypotheses that cannot all hold make a statement vacuously true: it
// states nothing. miniF2F's
//
//	(n : ℤ) (hn : 0 < n) (hn' : 8/15 < n) (hn_1 : n < 7/13) : n = 112
//
// is one (7/13 is ℤ division: 0), and the search finds no assignment that
// meets its hypotheses. contradiction proves it, soundly as a refutation:
// the bounds the hypotheses put on single variables leave one of them no
// value, or leave finitely many values of integers, all of which the
// search tries, and every one makes some hypothesis definitely false.

// varBound is a hypothesis x ∘ c on one variable x of the statement (x, ↑x
// or (x : T)) with c closed: what it says of x's value.
type varBound struct {
	v    int    // the variable's index in p.vars
	op   string // "<", "≤", "=", "≥" or ">", x on the left
	val  num    // c's value, in the relation's type k
	k    kind
	hyp  *leansrc.Term // the relation as written
	side *leansrc.Term // c as written
}

// Limits of the exhaustive search: the assignments, and the inner-loop
// steps of all their evaluations (a count, so that the verdict does not
// depend on the machine's load).
const (
	maxExhaustive      = 1 << 12
	maxExhaustiveSteps = 1 << 21
)

// boundRels are the relations a varBound reads, and the relation seen
// from the other side.
var boundRels = map[string]string{"<": ">", "≤": "≥", "=": "=", "≥": "≤", ">": "<"}

// bounds records the varBounds of hypothesis h (through conjunctions).
func (p *prepared) bounds(c *compiler, h *leansrc.Term) {
	for _, g := range appendConjuncts(nil, h) {
		if g.Kind != leansrc.TermInfix || boundRels[g.Text] == "" {
			continue
		}
		reason, fails := c.reason, c.fails
		k, ok := c.treeType(g, kNone)
		if ok && k == kNone {
			k = kNat
		}
		var sides [2]nexpr
		var ok1, ok2 bool
		if ok && k.numeric() {
			sides[0], ok1 = c.numAs(g.Args[0], k)
			sides[1], ok2 = c.numAs(g.Args[1], k)
		}
		c.reason, c.fails = reason, fails
		if !ok1 || !ok2 {
			continue
		}
		for side := 0; side < 2; side++ {
			i := p.varOf(c, g.Args[side])
			if i < 0 || sides[side].deps != slotBit(p.vars[i].slot) || sides[1-side].deps != 0 {
				continue
			}
			en := &env{v: make([]num, c.nslots+1), limit: stepLimit, seqs: make([]seqCache, c.nseqs)}
			val, ok := sides[1-side].f(en)
			if !ok {
				continue
			}
			op := g.Text
			if side == 1 {
				op = boundRels[op]
			}
			p.varBounds = append(p.varBounds, varBound{v: i, op: op, val: val, k: k, hyp: g, side: g.Args[1-side]})
		}
	}
}

// varOf is the index in p.vars of the variable t is (x, ↑x or (x : T)),
// -1 when t is none.
func (p *prepared) varOf(c *compiler, t *leansrc.Term) int {
	for {
		switch {
		case t.Kind == leansrc.TermPrefix && t.Text == "↑":
			t = t.Args[0]
			continue
		case t.Kind == leansrc.TermAscribe:
			t = t.Args[0]
			continue
		}
		break
	}
	if t.Kind != leansrc.TermIdent {
		return -1
	}
	b, ok := c.local(t.Text)
	if !ok {
		return -1
	}
	for i, v := range p.vars {
		if v.slot == b.slot && v.t.numeric() {
			return i
		}
	}
	return -1
}

// interval is what the bounds leave a variable: lo ≤ x ≤ hi (< when
// strict), nil for no bound; an integer variable's bounds are integers and
// never strict. from are the bounds' sources (nil: the variable's type).
type interval struct {
	lo, hi             *num
	loStrict, hiStrict bool
	loFrom, hiFrom     *varBound
}

// empty reports whether no value lies in the interval.
func (iv interval) empty() bool {
	if iv.lo == nil || iv.hi == nil {
		return false
	}
	c := cmpNum(*iv.lo, *iv.hi)
	return c > 0 || c == 0 && (iv.loStrict || iv.hiStrict)
}

// tighten narrows iv by the bound b on a variable of type t.
func (iv *interval) tighten(b *varBound, t kind) {
	lower := func(x num, strict bool) {
		if t.integral() {
			x, strict = intAbove(x, strict), false
		}
		if iv.lo != nil {
			if c := cmpNum(x, *iv.lo); c > 0 || c == 0 && strict && !iv.loStrict {
				iv.lo, iv.loStrict, iv.loFrom = &x, strict, b
			}
			return
		}
		iv.lo, iv.loStrict, iv.loFrom = &x, strict, b
	}
	upper := func(x num, strict bool) {
		if t.integral() {
			x, strict = intBelow(x, strict), false
		}
		if iv.hi != nil {
			if c := cmpNum(x, *iv.hi); c < 0 || c == 0 && strict && !iv.hiStrict {
				iv.hi, iv.hiStrict, iv.hiFrom = &x, strict, b
			}
			return
		}
		iv.hi, iv.hiStrict, iv.hiFrom = &x, strict, b
	}
	switch b.op {
	case ">":
		lower(b.val, true)
	case "≥":
		lower(b.val, false)
	case "<":
		upper(b.val, true)
	case "≤":
		upper(b.val, false)
	case "=":
		lower(b.val, false)
		upper(b.val, false)
	}
}

// intAbove is the least integer above x (> x when strict, else ≥ x).
func intAbove(x num, strict bool) num {
	f, ok := floorNum(x)
	if !ok {
		return x
	}
	if strict || cmpNum(f, x) != 0 {
		if g, ok := addNum(f, small(1)); ok {
			return g
		}
	}
	return f
}

// intBelow is the greatest integer below x (< x when strict, else ≤ x).
func intBelow(x num, strict bool) num {
	f, ok := floorNum(x)
	if !ok {
		return x
	}
	if strict && cmpNum(f, x) == 0 {
		if g, ok := subNum(f, small(1)); ok {
			return g
		}
	}
	return f
}

// contradiction proves that no assignment meets every hypothesis: it
// returns why ("0 < n, and n < 7/13, where 7/13 = 0 in ℤ"), or "" when it
// cannot prove it. A conclusion False is exempt: such a statement claims
// exactly that its hypotheses contradict.
func (p *prepared) contradiction() string {
	if len(p.hyps) == 0 || p.conclTerm == nil || p.conclTerm.Kind == leansrc.TermIdent && p.conclTerm.Text == "False" {
		return ""
	}
	ivs := p.intervals()
	for i, iv := range ivs {
		if iv.empty() {
			return p.boundsWhy(i, iv)
		}
	}
	return p.exhaust(ivs)
}

// intervals are what the hypotheses' single-variable bounds and the
// variables' types leave each variable.
func (p *prepared) intervals() []interval {
	ivs := make([]interval, len(p.vars))
	for i, v := range p.vars {
		if v.t.nonneg() {
			z := small(0)
			ivs[i].lo = &z
		}
	}
	for j := range p.varBounds {
		b := &p.varBounds[j]
		ivs[b.v].tighten(b, p.vars[b.v].t)
	}
	return ivs
}

// addMidpoints adds to the values tried for each ℚ, ℝ or ℝ≥0 variable
// that the hypotheses bound on both sides the midpoint of its interval: a
// narrow one (8/15 < n < 7/13) holds none of the small rationals, so
// without it no assignment would meet the hypotheses.
func (p *prepared) addMidpoints() {
	for i, iv := range p.intervals() {
		v := &p.vars[i]
		if iv.lo == nil || iv.hi == nil || iv.empty() || v.t != kRat && v.t != kReal && v.t != kNNReal {
			continue
		}
		sum, ok := addNum(*iv.lo, *iv.hi)
		if !ok {
			continue
		}
		if mid, ok := quoNum(sum, small(2)); ok {
			v.extra = append(v.extra, mid)
		}
	}
}

// boundsWhy says which bounds leave variable i no value.
func (p *prepared) boundsWhy(i int, iv interval) string {
	v := p.vars[i]
	var parts, wheres []string
	add := func(b *varBound) {
		if b == nil {
			parts = append(parts, v.name+" : "+v.t.String())
			return
		}
		parts = append(parts, p.text(b.hyp))
		side := leansrc.Unparen(p.text(b.side))
		if strings.ReplaceAll(side, " ", "") != b.val.String() {
			wheres = append(wheres, side+" = "+b.val.String()+" in "+b.k.String()) // 7/13 = 0 in ℤ
		}
	}
	add(iv.loFrom)
	if iv.hiFrom != iv.loFrom {
		add(iv.hiFrom)
	} else if v.t.integral() {
		parts = append(parts, v.name+" : "+v.t.String()) // x = 7/2 of an integer
	}
	why := strings.Join(parts, ", and ")
	if len(wheres) > 0 {
		why += ", where " + strings.Join(wheres, ", ")
	}
	return why
}

// exhaust tries every assignment the intervals leave when they are finite
// (integers and Bool only, at most maxExhaustive): the hypotheses contradict
// when each makes one of them definitely false.
func (p *prepared) exhaust(ivs []interval) string {
	doms := make([][]num, len(p.vars))
	size := 1
	for i, v := range p.vars {
		switch {
		case v.t == kBool:
			doms[i] = []num{small(0), small(1)}
		case v.t.integral() && ivs[i].lo != nil && ivs[i].hi != nil:
			lo, ok1 := ivs[i].lo.int64()
			hi, ok2 := ivs[i].hi.int64()
			if !ok1 || !ok2 || hi-lo >= maxExhaustive {
				return ""
			}
			for x := lo; x <= hi; x++ {
				doms[i] = append(doms[i], small(x))
			}
		default:
			return ""
		}
		if size *= len(doms[i]); size > maxExhaustive {
			return ""
		}
	}
	e := &env{v: make([]num, p.nslots+1), limit: stepLimit, seqs: make([]seqCache, p.nseqs)}
	steps := 0
	firstFalse := -1 // of a statement without variables
	all := true
	var rec func(i int) bool
	rec = func(i int) bool {
		if i < len(p.vars) {
			for _, x := range doms[i] {
				e.v[p.vars[i].slot] = x
				if !rec(i + 1) {
					return false
				}
			}
			return true
		}
		e.gen++
		for j, h := range p.hyps {
			e.steps = 0
			r := h.f(e)
			if steps += e.steps; steps > maxExhaustiveSteps {
				all = false
				return false
			}
			if r == fls {
				if firstFalse < 0 {
					firstFalse = j
				}
				return true
			}
		}
		all = false // an assignment no hypothesis excludes
		return false
	}
	rec(0)
	if !all {
		return ""
	}
	if len(p.vars) == 0 {
		return "its hypothesis " + p.text(p.hypTerms[firstFalse]) + " is false"
	}
	var ranges []string
	for i, v := range p.vars {
		d := doms[i]
		switch {
		case v.t == kBool:
			ranges = append(ranges, v.name+" true or false")
		case len(d) == 1:
			ranges = append(ranges, v.name+" = "+d[0].String())
		default:
			ranges = append(ranges, v.name+" in "+d[0].String()+" … "+d[len(d)-1].String())
		}
	}
	var froms []string
	seen := map[*varBound]bool{}
	for _, iv := range ivs {
		for _, b := range []*varBound{iv.loFrom, iv.hiFrom} {
			if b != nil && !seen[b] {
				seen[b] = true
				froms = append(froms, p.text(b.hyp))
			}
		}
	}
	why := strings.Join(ranges, ", ")
	if len(froms) > 0 {
		why = strings.Join(froms, ", ") + " leave " + why
	}
	return why + ", and none of these values meets every hypothesis"
}
