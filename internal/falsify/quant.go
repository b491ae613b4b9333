package falsify

import (
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// qvar is one name bound by a quantifier.
type qvar struct {
	name  string
	typ   *leansrc.Term
	pred  string
	bound *leansrc.Term
	idx   int
}

// domain is how a bound variable ranges: a finite set (exact), or the
// small values of its type (unbounded: only a witness or a counterexample
// decides).
type domain struct {
	finite *sexpr
	// divisorsOf: the variable ranges over the divisors of this number (±
	// on ℤ) when it is not 0, otherwise it is unbounded.
	divisorsOf *nexpr
	lo, hi     *nexpr // integer bounds (inclusive)
}

// quantifier compiles ∀, ∃ and ∃!.
func (c *compiler) quantifier(t *leansrc.Term) (pexpr, bool) {
	if t.Kind == leansrc.TermExists {
		if p, ok, matched := c.dvdPattern(t); matched {
			return p, ok
		}
	}
	var vars []qvar
	for _, b := range t.Binders {
		if b.Bracket == '[' || len(b.Names) == 0 {
			c.failf("an instance binder in a quantifier")
			return pexpr{}, false
		}
		for _, n := range b.Names {
			vars = append(vars, qvar{name: n, typ: b.Type, pred: b.Pred, bound: b.Bound, idx: len(vars)})
		}
	}
	return c.quantVars(t, vars)
}

func (c *compiler) quantVars(t *leansrc.Term, vars []qvar) (pexpr, bool) {
	v := vars[0]
	k := kNone
	if v.typ != nil {
		k = typeOf(v.typ)
		if !k.numeric() && k != kBool {
			c.failf("a quantifier over %s", clip(v.typ))
			return pexpr{}, false
		}
	}
	var dom domain
	var guard *pexpr
	if v.pred == "∈" {
		s, ok := c.set(v.bound, k)
		if !ok {
			return pexpr{}, false
		}
		dom.finite = &s
		k = s.elem
	} else if v.pred != "" && k == kNone {
		bk, ok := c.treeType(v.bound, kNone)
		if !ok {
			return pexpr{}, false
		}
		if bk == kNone {
			bk = kNat
		}
		k = bk
	}
	b, done := c.bind(t, v.idx, v.name, k)
	defer done()
	if v.pred != "" && v.pred != "∈" {
		// ∀ x < n, p is ∀ x, x < n → p (and ∃ x < n, p is ∃ x, x < n ∧ p)
		self := &leansrc.Term{Kind: leansrc.TermIdent, Text: v.name, Start: v.bound.Start, End: v.bound.Start}
		c.ctxOf[self] = c.cur
		g := &leansrc.Term{Kind: leansrc.TermInfix, Text: v.pred, Start: v.bound.Start, End: v.bound.End, Args: []*leansrc.Term{self, v.bound}}
		c.ctxOf[g] = c.cur
		gp, ok := c.prop(g)
		if !ok {
			return pexpr{}, false
		}
		guard = &gp
		dom = c.boundsFrom(dom, b, []*leansrc.Term{g})
	}
	var inner pexpr
	var ok bool
	if len(vars) > 1 {
		inner, ok = c.quantVars(t, vars[1:])
	} else {
		inner, ok = c.prop(t.Args[0])
	}
	if !ok {
		return pexpr{}, false
	}
	if b.t == kNone && c.pass == 2 {
		// unused, or used only where no type is decided: the domain could
		// be any type, even an empty one
		c.failf("cannot infer the type of %s", v.name)
		return pexpr{}, false
	}
	if len(vars) == 1 && dom.finite == nil {
		dom = c.boundsFrom(dom, b, c.guards(t))
	}
	if guard != nil {
		if t.Kind == leansrc.TermForall {
			inner = connective("→", *guard, inner)
		} else {
			inner = connective("∧", *guard, inner)
		}
	}
	var stop *stopper
	if t.Kind == leansrc.TermExists && len(vars) == 1 && b.t == kNat && dom.finite == nil {
		stop = c.monotone(t, b)
	}
	return quantify(t.Kind, b, dom, inner, stop), true
}

// guards are the conjuncts that restrict the last bound variable of t: the
// premises of a ∀'s implication chain, the conjuncts of an ∃'s body.
func (c *compiler) guards(t *leansrc.Term) []*leansrc.Term {
	var out []*leansrc.Term
	body := t.Args[0]
	if t.Kind == leansrc.TermForall {
		for body.Kind == leansrc.TermInfix && body.Text == "→" {
			out = appendConjuncts(out, body.Args[0])
			body = body.Args[1]
		}
		return out
	}
	return appendConjuncts(out, body)
}

func appendConjuncts(out []*leansrc.Term, t *leansrc.Term) []*leansrc.Term {
	if t.Kind == leansrc.TermInfix && t.Text == "∧" {
		return appendConjuncts(appendConjuncts(out, t.Args[0]), t.Args[1])
	}
	return append(out, t)
}

// isVar reports whether t denotes exactly the variable b (through
// ascriptions to its own type).
func (c *compiler) isVar(t *leansrc.Term, b binding) bool {
	defer c.enter(t)()
	for t.Kind == leansrc.TermAscribe && typeOf(t.Args[1]) == b.t {
		t = t.Args[0]
		restore := c.enter(t)
		defer restore()
	}
	if t.Kind != leansrc.TermIdent {
		return false
	}
	l, ok := c.local(t.Text)
	return ok && l.slot == b.slot
}

// probe compiles a bound expression for the domain analysis, forgetting
// its failures (the guard itself is still compiled and evaluated).
func (c *compiler) probe(t *leansrc.Term, k kind, b binding) (*nexpr, bool) {
	reason, fails := c.reason, c.fails
	e, ok := c.num(t, k)
	c.reason, c.fails = reason, fails
	if !ok || e.deps&slotBit(b.slot) != 0 || !coerces(e.t, k) {
		return nil, false
	}
	return &e, true
}

// boundsFrom derives the domain of b from guards of the shapes b < e,
// b ≤ e, e > b, e ≥ b (and lower bounds), b ∣ e and b ∈ s, looking
// through definitions and the ∃ c, e = b * c form of divisibility.
func (c *compiler) boundsFrom(dom domain, b binding, guards []*leansrc.Term) domain {
	if !b.t.integral() {
		return dom
	}
	for _, g := range guards {
		g = c.seeThrough(g)
		if g == nil {
			continue
		}
		func() {
			defer c.enter(g)()
			switch {
			case g.Kind == leansrc.TermInfix && g.Text == "∈" && c.isVar(g.Args[0], b) && dom.finite == nil:
				reason, fails := c.reason, c.fails
				s, ok := c.set(g.Args[1], b.t)
				c.reason, c.fails = reason, fails
				if ok && s.deps&slotBit(b.slot) == 0 {
					dom.finite = &s
				}
			case g.Kind == leansrc.TermInfix && g.Text == "∣" && c.isVar(g.Args[0], b) && dom.divisorsOf == nil:
				if e, ok := c.probe(g.Args[1], b.t, b); ok {
					dom.divisorsOf = e
				}
			case g.Kind == leansrc.TermExists:
				if a, x, ok := c.dvdParts(g); ok && c.isVar(a, b) && dom.divisorsOf == nil {
					if e, ok := c.probe(x, b.t, b); ok {
						dom.divisorsOf = e
					}
				}
			case g.Kind == leansrc.TermInfix && relations[g.Text] && g.Text != "∣" && g.Text != "=" && g.Text != "≠":
				l, r, op := g.Args[0], g.Args[1], g.Text
				if c.isVar(r, b) {
					l, r = r, l
					op = map[string]string{"<": ">", "≤": "≥", ">": "<", "≥": "≤"}[op]
				}
				if !c.isVar(l, b) {
					return
				}
				e, ok := c.probe(r, b.t, b)
				if !ok {
					return
				}
				switch op {
				case "<":
					if dom.hi == nil {
						dom.hi = shift(e, -1)
					}
				case "≤":
					if dom.hi == nil {
						dom.hi = e
					}
				case ">":
					if dom.lo == nil {
						dom.lo = shift(e, 1)
					}
				case "≥":
					if dom.lo == nil {
						dom.lo = e
					}
				}
			}
		}()
	}
	if b.t == kNat && dom.lo == nil {
		z := constant(small(0), kNat)
		dom.lo = &z
	}
	return dom
}

// shift is e + d on integers.
func shift(e *nexpr, d int64) *nexpr {
	s := lift1(*e, e.t, func(x num) (num, bool) { return addNum(x, small(d)) })
	return &s
}

// seeThrough unfolds workspace definitions and notations at the head of a
// guard (depth-limited), so that `m ∣ₘ p` shows its body.
func (c *compiler) seeThrough(g *leansrc.Term) *leansrc.Term {
	for range maxUnfold {
		restore := c.enter(g)
		var name string
		var args []*leansrc.Term
		ok := false
		switch g.Kind {
		case leansrc.TermInfix:
			if !relations[g.Text] && g.Text != "∈" {
				if full := c.notation(g.Text); full != "" {
					name, args, ok = full, g.Args, true
				}
			}
		case leansrc.TermApp:
			name, args, ok = c.appParts(g)
			if ok {
				name = c.head(name)
			}
		}
		if !ok || name == "" || builtinProp[name] != nil {
			restore()
			return g
		}
		reason, fails := c.reason, c.fails
		body := c.unfold(g, name, args)
		c.reason, c.fails = reason, fails
		restore()
		if body == nil {
			return g
		}
		g = body
	}
	return g
}

// dvdParts recognises ∃ c, x = a * c (or c * a, either side): a ∣ x.
func (c *compiler) dvdParts(t *leansrc.Term) (a, x *leansrc.Term, ok bool) {
	if len(t.Binders) != 1 || len(t.Binders[0].Names) != 1 || t.Binders[0].Pred != "" {
		return nil, nil, false
	}
	b := t.Binders[0]
	if b.Type != nil && !typeOf(b.Type).integral() {
		return nil, nil, false
	}
	name := b.Names[0]
	eq := t.Args[0]
	if eq.Kind != leansrc.TermInfix || eq.Text != "=" {
		return nil, nil, false
	}
	for side := 0; side < 2; side++ {
		m, other := eq.Args[side], eq.Args[1-side]
		if m.Kind != leansrc.TermInfix || m.Text != "*" {
			continue
		}
		for j := 0; j < 2; j++ {
			if c.isBinderRef(m.Args[j], name) && !c.mentions(m.Args[1-j], name) && !c.mentions(other, name) {
				return m.Args[1-j], other, true
			}
		}
	}
	return nil, nil, false
}

// isBinderRef reports whether t is the identifier name written in the same
// context as the binder (not a substituted argument).
func (c *compiler) isBinderRef(t *leansrc.Term, name string) bool {
	if t.Kind != leansrc.TermIdent || t.Text != name {
		return false
	}
	ctx, ok := c.ctxOf[t]
	return !ok || ctx == c.cur
}

// mentions reports whether name occurs free in t in the current context.
func (c *compiler) mentions(t *leansrc.Term, name string) bool {
	if t == nil {
		return false
	}
	if ctx, ok := c.ctxOf[t]; ok && ctx != c.cur {
		return false // a substituted argument cannot see this binder
	}
	if t.Kind == leansrc.TermIdent {
		first, _, _ := cutDot(t.Text)
		return first == name
	}
	for _, b := range t.Binders {
		if c.mentions(b.Type, name) || c.mentions(b.Bound, name) {
			return true
		}
		for _, n := range b.Names {
			if n == name {
				return false
			}
		}
	}
	for _, a := range t.Args {
		if c.mentions(a, name) {
			return true
		}
	}
	return false
}

func cutDot(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// dvdPattern compiles ∃ c, x = a * c as a ∣ x on ℕ and ℤ (that is the
// definition of divisibility there), which decides it without a search.
func (c *compiler) dvdPattern(t *leansrc.Term) (pexpr, bool, bool) {
	a, x, ok := c.dvdParts(t)
	if !ok {
		return pexpr{}, false, false
	}
	declared := typeOf(t.Binders[0].Type)
	k, ok := c.jointType(declared, a, x)
	if !ok {
		return pexpr{}, false, true
	}
	if declared != kNone && declared != k {
		// ∃ c : ℕ, (x : ℤ) = a * c is not a ∣ x: c may not be negative
		return pexpr{}, false, false
	}
	if !k.integral() {
		return pexpr{}, false, false
	}
	// the binder is typed by the equation: compile it for its constraints
	b, done := c.bind(t, 0, t.Binders[0].Names[0], k)
	_ = b
	ea, ok1 := c.numAs(a, k)
	ex, ok2 := c.numAs(x, k)
	done()
	if !ok1 || !ok2 {
		return pexpr{}, false, true
	}
	return compare("∣", ea, ex), true, true
}

// stopper ends an ∃ search over ℕ: body conjunct f(x) ∘ g with f monotone
// in x and g free of x, so once f(x) passes g no larger x is a witness.
type stopper struct {
	f, g   nexpr
	strict bool // f(x) < g: stop at f(x) ≥ g; otherwise stop at f(x) > g
}

// monotone finds a stopper among the ∃ body's conjuncts.
func (c *compiler) monotone(t *leansrc.Term, b binding) *stopper {
	for _, g := range c.guards(t) {
		if g.Kind != leansrc.TermInfix {
			continue
		}
		var fside, gside *leansrc.Term
		strict := false
		switch g.Text {
		case "=":
			if c.mentions(g.Args[0], b.name) {
				fside, gside = g.Args[0], g.Args[1]
			} else {
				fside, gside = g.Args[1], g.Args[0]
			}
		case "<", "≤":
			fside, gside, strict = g.Args[0], g.Args[1], g.Text == "<"
		case ">", "≥":
			fside, gside, strict = g.Args[1], g.Args[0], g.Text == ">"
		default:
			continue
		}
		if c.mentions(gside, b.name) || !c.monoIn(fside, b.name) {
			continue
		}
		reason, fails := c.reason, c.fails
		k, ok := c.treeType(g, kNone)
		var fe, ge nexpr
		var ok1, ok2 bool
		if ok && (k == kNat || k == kNone) {
			fe, ok1 = c.numAs(fside, kNat)
			ge, ok2 = c.numAs(gside, kNat)
		}
		c.reason, c.fails = reason, fails
		if ok && ok1 && ok2 && (k == kNat || k == kNone) {
			return &stopper{f: fe, g: ge, strict: strict}
		}
	}
	return nil
}

// monoIn reports whether t, as a natural number, is nondecreasing in the
// variable name and mentions it: built from it with +, *, ^ by a constant,
// subtraction or division of something free of it, succ and factorial.
func (c *compiler) monoIn(t *leansrc.Term, name string) bool {
	mono, has := c.mono(t, name)
	return mono && has
}

func (c *compiler) mono(t *leansrc.Term, name string) (mono, has bool) {
	if !c.mentions(t, name) {
		return true, false
	}
	switch t.Kind {
	case leansrc.TermIdent:
		return t.Text == name, true
	case leansrc.TermAscribe:
		if typeOf(t.Args[1]) == kNat {
			return c.mono(t.Args[0], name)
		}
	case leansrc.TermPostfix:
		if t.Text == "!" {
			return c.mono(t.Args[0], name)
		}
	case leansrc.TermInfix:
		m1, _ := c.mono(t.Args[0], name)
		m2, h2 := c.mono(t.Args[1], name)
		switch t.Text {
		case "+", "*":
			return m1 && m2, true
		case "-", "/":
			return m1 && !h2, true
		case "^":
			if !h2 {
				return m1, true
			}
			// a constant base ≥ 1 raised to a monotone exponent
			if t.Args[0].Kind == leansrc.TermNum && t.Args[0].Text != "0" {
				return m2, true
			}
		}
	}
	return false, true
}

// smallNat and smallInt are the values an unbounded inner quantifier tries.
const (
	smallNat = 24
	smallInt = 12
)

// maxStop bounds the length of a stopped ∃ search.
const maxStop = 1 << 20

// quantify builds the closure of a quantifier over the variable b.
func quantify(kind leansrc.TermKind, b binding, dom domain, body pexpr, stop *stopper) pexpr {
	slot, fb := b.slot, body.f
	exists := kind != leansrc.TermForall
	unique := kind == leansrc.TermExistsUnique
	values, deps := domainIter(b, dom, stop)
	f := func(e *env) tri {
		each, exact, ok := values(e)
		if !ok {
			return unk
		}
		res := fls
		if !exists {
			res = tru
		}
		count := 0
		complete := each(func(x num) bool {
			if !e.tick() {
				return false
			}
			e.v[slot] = x
			v := fb(e)
			switch {
			case v == unk:
				res = unk
			case exists && v == tru:
				count++
				if !unique || count > 1 {
					return false
				}
			case !exists && v == fls:
				res = fls
				return false
			}
			return true
		})
		switch {
		case unique && count > 1:
			return fls
		case unique:
			if !complete || !exact || res == unk {
				return unk
			}
			return triOf(count == 1)
		case exists && count > 0:
			return tru
		case !exists && res == fls:
			return fls
		case !complete || !exact:
			return unk
		}
		return res
	}
	return pexpr{f: f, deps: (body.deps | deps) &^ slotBit(slot)}
}

// iter yields the values of a bound variable on an assignment: each calls
// its argument on them until it returns false (reporting whether it went
// through all of them); exact says whether they are the whole domain; ok
// is false when the domain is undefined there.
type iter func(e *env) (each func(func(num) bool) bool, exact, ok bool)

// domainIter enumerates a domain: a finite set, divisors, an interval, Bool,
// an ∃ search that a stopper ends, or (not exact) the small values.
func domainIter(b binding, dom domain, stop *stopper) (iter, uint64) {
	switch {
	case dom.finite != nil:
		fs := dom.finite.f
		return func(e *env) (func(func(num) bool) bool, bool, bool) {
			s, ok := fs(e)
			return s.each, true, ok
		}, dom.finite.deps
	case dom.divisorsOf != nil:
		fd := dom.divisorsOf.f
		signed := b.t == kInt
		return func(e *env) (func(func(num) bool) bool, bool, bool) {
			n, ok := fd(e)
			if !ok {
				return nil, false, false
			}
			if n.sign() == 0 {
				return smallValues(b.t), false, true
			}
			x, ok := n.int64()
			if !ok || abs64(x) > maxSet*maxSet {
				return nil, false, false
			}
			return divisorsEach(abs64(x), signed), true, true
		}, dom.divisorsOf.deps
	case dom.lo != nil && dom.hi != nil:
		fl, fh := dom.lo.f, dom.hi.f
		return func(e *env) (func(func(num) bool) bool, bool, bool) {
			l, ok1 := fl(e)
			h, ok2 := fh(e)
			if !ok1 || !ok2 {
				return nil, false, false
			}
			lo, ok1 := l.int64()
			hi, ok2 := h.int64()
			if !ok1 || !ok2 || hi-lo > maxStop {
				return nil, false, false
			}
			return fset{interval: true, lo: lo, hi: hi}.each, true, true
		}, dom.lo.deps | dom.hi.deps
	case b.t == kBool:
		bools := fset{list: []num{small(0), small(1)}}
		return func(*env) (func(func(num) bool) bool, bool, bool) { return bools.each, true, true }, 0
	case stop != nil:
		ff, fg, slot, strict := stop.f.f, stop.g.f, b.slot, stop.strict
		return func(e *env) (func(func(num) bool) bool, bool, bool) {
			return func(yield func(num) bool) bool {
				for x := int64(0); x < maxStop; x++ {
					if !e.tick() {
						return false
					}
					e.v[slot] = small(x)
					fx, ok1 := ff(e)
					gx, ok2 := fg(e)
					if !ok1 || !ok2 {
						return false
					}
					if c := cmpNum(fx, gx); c > 0 || (strict && c == 0) {
						return true // no larger x satisfies the conjunct
					}
					if !yield(small(x)) {
						return false
					}
				}
				return false
			}, true, true
		}, stop.f.deps | stop.g.deps
	}
	each := smallValues(b.t)
	return func(*env) (func(func(num) bool) bool, bool, bool) { return each, false, true }, 0
}

// smallValues enumerates the values an unbounded quantifier tries.
func smallValues(k kind) func(func(num) bool) bool {
	return func(f func(num) bool) bool {
		switch k {
		case kNat:
			for x := int64(0); x <= smallNat; x++ {
				if !f(small(x)) {
					return false
				}
			}
		case kInt:
			if !f(small(0)) {
				return false
			}
			for x := int64(1); x <= smallInt; x++ {
				if !f(small(x)) || !f(small(-x)) {
					return false
				}
			}
		case kNNReal:
			for _, v := range nonnegSamples {
				if !f(v) {
					return false
				}
			}
		default:
			for _, v := range ratSamples {
				if !f(v) {
					return false
				}
			}
		}
		return true
	}
}

// divisorsEach enumerates the positive divisors of n (and their negatives
// when signed).
func divisorsEach(n int64, signed bool) func(func(num) bool) bool {
	return func(f func(num) bool) bool {
		for d := int64(1); d*d <= n; d++ {
			if n%d != 0 {
				continue
			}
			ds := []int64{d}
			if d*d != n {
				ds = append(ds, n/d)
			}
			for _, x := range ds {
				if !f(small(x)) || (signed && !f(small(-x))) {
					return false
				}
			}
		}
		return true
	}
}
