package falsify

import (
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// fset is a finite set of numbers: an integer interval [lo, hi] or a list
// of distinct elements.
type fset struct {
	interval bool
	lo, hi   int64
	list     []num
}

func (s fset) size() int64 {
	if s.interval {
		if s.hi < s.lo {
			return 0
		}
		return s.hi - s.lo + 1
	}
	return int64(len(s.list))
}

func (s fset) has(v num) bool {
	if s.interval {
		x, ok := v.int64()
		return ok && s.lo <= x && x <= s.hi
	}
	for _, y := range s.list {
		if cmpNum(v, y) == 0 {
			return true
		}
	}
	return false
}

// each calls f on the elements in increasing order (intervals) or list
// order until f returns false; it reports false when stopped.
func (s fset) each(f func(num) bool) bool {
	if s.interval {
		for x := s.lo; x <= s.hi; x++ {
			if !f(small(x)) {
				return false
			}
			if x == s.hi {
				break
			}
		}
		return true
	}
	for _, x := range s.list {
		if !f(x) {
			return false
		}
	}
	return true
}

// sexpr is a compiled finite set with elements of type elem.
type sexpr struct {
	f    func(*env) (fset, bool)
	elem kind
	deps uint64
}

// setNames are the finite-set and list constructors of the fragment.
var setNames = map[string]bool{"Finset.range": true, "Finset.Icc": true, "Finset.Ico": true, "Finset.Ioc": true,
	"Finset.Ioo": true, "Nat.divisors": true, "Nat.properDivisors": true, "Finset.filter": true, "Nat.digits": true}

// maxSet bounds the size of materialised sets (filters, divisors).
const maxSet = 1 << 16

// intervals maps the Finset interval constructors to the offsets of their
// ends: Icc a b = [a, b], Ico a b = [a, b-1], …
var intervals = map[string][2]int64{"Finset.Icc": {0, 0}, "Finset.Ico": {0, -1}, "Finset.Ioc": {1, 0}, "Finset.Ioo": {1, -1}}

// set compiles a finite set term; want is the element type the context
// expects (kNone when it does not).
func (c *compiler) set(t *leansrc.Term, want kind) (sexpr, bool) {
	defer c.enter(t)()
	if t.Kind == leansrc.TermSetLit {
		k, ok := c.jointType(want, t.Args...)
		if !ok {
			return sexpr{}, false
		}
		var elems []nexpr
		var deps uint64
		for _, a := range t.Args {
			e, ok := c.numAs(a, k)
			if !ok {
				return sexpr{}, false
			}
			elems = append(elems, e)
			deps |= e.deps
		}
		return sexpr{f: func(e *env) (fset, bool) {
			s := fset{}
			for _, x := range elems {
				v, ok := x.f(e)
				if !ok {
					return fset{}, false
				}
				if !s.has(v) {
					s.list = append(s.list, v)
				}
			}
			return s, true
		}, elem: k, deps: deps}, true
	}
	if t.Kind == leansrc.TermSetBuilder && t.Binders[0].Pred == "∈" && len(t.Binders[0].Names) == 1 {
		// {x ∈ s | p x} is Finset.filter (fun x => p x) s
		b := t.Binders[0]
		p := &leansrc.Term{Kind: leansrc.TermLambda, Start: t.Start, End: t.End, Binders: []leansrc.Binder{{Names: b.Names}}, Args: t.Args}
		c.ctxOf[p] = c.cur
		return c.filter(p, b.Bound, want)
	}
	if t.Kind != leansrc.TermApp && t.Kind != leansrc.TermIdent {
		c.failf("%s is not a finite set of the fragment", clip(t))
		return sexpr{}, false
	}
	if t.Kind == leansrc.TermIdent {
		if _, isLocal := c.local(t.Text); isLocal {
			if d := c.setDefs[t.Text]; d != nil && d.finite && (want == kNone || want == d.elem) {
				return c.definedSet(t.Text, d)
			}
			c.failf("the set variable %s is outside the fragment", t.Text)
			return sexpr{}, false
		}
	}
	name, args, ok := c.appParts(t)
	if !ok {
		c.failf("%s is not a finite set of the fragment", clip(t))
		return sexpr{}, false
	}
	full := c.resolve(name)[0]
	if !setNames[full] {
		c.failf("%s is not a finite set of the fragment", clip(t))
		return sexpr{}, false
	}
	switch full {
	case "Finset.range":
		if !c.arity(args, 1) || (want != kNone && want != kNat) {
			c.failf("Finset.range of %s", want)
			return sexpr{}, false
		}
		n, ok := c.argAs(args[0], kNat)
		if !ok {
			return sexpr{}, false
		}
		return c.interval(constant(small(0), kNat), n, 0, -1, kNat), true
	case "Finset.Icc", "Finset.Ico", "Finset.Ioc", "Finset.Ioo":
		if !c.arity(args, 2) {
			return sexpr{}, false
		}
		k, ok := c.jointType(want, args[0], args[1])
		if !ok {
			return sexpr{}, false
		}
		if !k.integral() {
			c.failf("%s over %s", full, k)
			return sexpr{}, false
		}
		a, ok1 := c.argAs(args[0], k)
		b, ok2 := c.argAs(args[1], k)
		if !ok1 || !ok2 {
			return sexpr{}, false
		}
		off := intervals[full]
		return c.interval(a, b, off[0], off[1], k), true
	case "Nat.divisors", "Nat.properDivisors":
		if !c.arity(args, 1) {
			return sexpr{}, false
		}
		n, ok := c.argAs(args[0], kNat)
		if !ok {
			return sexpr{}, false
		}
		proper := full == "Nat.properDivisors"
		fn := n.f
		return sexpr{f: func(e *env) (fset, bool) {
			v, ok := fn(e)
			if !ok {
				return fset{}, false
			}
			x, ok := v.int64()
			if !ok || x > maxSet*maxSet {
				return fset{}, false
			}
			s := fset{}
			for d := int64(1); d <= x; d++ {
				if d*d > x {
					break
				}
				if !e.tick() {
					return fset{}, false
				}
				if x%d == 0 {
					s.list = append(s.list, small(d))
					if d*d != x {
						s.list = append(s.list, small(x/d))
					}
				}
			}
			if proper {
				out := s.list[:0]
				for _, d := range s.list {
					if d.n != x {
						out = append(out, d)
					}
				}
				s.list = out
			}
			return s, true
		}, elem: kNat, deps: n.deps}, true
	case "Finset.filter":
		if !c.arity(args, 2) {
			return sexpr{}, false
		}
		if args[1].Kind == leansrc.TermLambda && args[0].Kind != leansrc.TermLambda {
			// s.filter p: dot notation puts the set first
			return c.filter(args[1], args[0], want)
		}
		return c.filter(args[0], args[1], want)
	}
	c.failf("%s is not a finite set of the fragment", clip(t))
	return sexpr{}, false
}

// interval builds [a+dl, b+dh] from compiled ends.
func (c *compiler) interval(a, b nexpr, dl, dh int64, k kind) sexpr {
	fa, fb := a.f, b.f
	return sexpr{f: func(e *env) (fset, bool) {
		x, ok1 := fa(e)
		y, ok2 := fb(e)
		if !ok1 || !ok2 {
			return fset{}, false
		}
		lo, ok1 := x.int64()
		hi, ok2 := y.int64()
		if !ok1 || !ok2 || lo < -1<<60 || hi > 1<<60 {
			return fset{}, false
		}
		return fset{interval: true, lo: lo + dl, hi: hi + dh}, true
	}, elem: k, deps: a.deps | b.deps}
}

// filter compiles Finset.filter p s for p a lambda.
func (c *compiler) filter(p, s *leansrc.Term, want kind) (sexpr, bool) {
	src, ok := c.set(s, want)
	if !ok {
		return sexpr{}, false
	}
	if p.Kind != leansrc.TermLambda || len(p.Binders) != 1 || len(p.Binders[0].Names) != 1 {
		c.failf("filter by %s", clip(p))
		return sexpr{}, false
	}
	b := p.Binders[0]
	if b.Type != nil && typeOf(b.Type) != src.elem {
		c.failf("filter binder type %s", clip(b.Type))
		return sexpr{}, false
	}
	bd, done := c.bind(p, 0, b.Names[0], src.elem)
	body, ok := c.prop(p.Args[0])
	done()
	if !ok {
		return sexpr{}, false
	}
	fs, fb, slot := src.f, body.f, bd.slot
	return sexpr{f: func(e *env) (fset, bool) {
		st, ok := fs(e)
		if !ok || st.size() > maxSet {
			return fset{}, false
		}
		return collect(e, st.each, slot, fb)
	}, elem: src.elem, deps: src.deps | body.deps}, true
}

// collect gathers the values each yields on which p holds (through the
// slot); it fails when p is unknown on one or the values do not all come.
func collect(e *env, each func(func(num) bool) bool, slot int, p propFn) (fset, bool) {
	var out fset
	complete := each(func(x num) bool {
		if !e.tick() || len(out.list) >= maxSet {
			return false
		}
		e.v[slot] = x
		switch p(e) {
		case tru:
			out.list = append(out.list, x)
		case unk:
			return false
		}
		return true
	})
	return out, complete
}

// lexpr is a compiled list of numbers.
type lexpr struct {
	f    func(*env) ([]num, bool)
	deps uint64
}

// list compiles Nat.digits b n (least significant digit first).
func (c *compiler) list(t *leansrc.Term) (lexpr, bool) {
	defer c.enter(t)()
	name, args, ok := c.appParts(t)
	if !ok || len(args) != 2 || c.resolve(name)[0] != "Nat.digits" {
		c.failf("%s is not a list of the fragment", clip(t))
		return lexpr{}, false
	}
	b, ok1 := c.argAs(args[0], kNat)
	n, ok2 := c.argAs(args[1], kNat)
	if !ok1 || !ok2 {
		return lexpr{}, false
	}
	fb, fn := b.f, n.f
	return lexpr{f: func(e *env) ([]num, bool) {
		bv, ok1 := fb(e)
		nv, ok2 := fn(e)
		if !ok1 || !ok2 {
			return nil, false
		}
		return digits(bv, nv)
	}, deps: b.deps | n.deps}, true
}

// digits is Nat.digits: base 0 gives [n], base 1 gives n ones, otherwise
// the digits least significant first ([] for 0).
func digits(b, n num) ([]num, bool) {
	base, ok1 := b.int64()
	x, ok2 := n.int64()
	if !ok1 || !ok2 {
		return nil, false
	}
	switch base {
	case 0:
		if x == 0 {
			return nil, true
		}
		return []num{n}, true
	case 1:
		if x > maxSet {
			return nil, false
		}
		out := make([]num, x)
		for i := range out {
			out[i] = small(1)
		}
		return out, true
	}
	var out []num
	for x > 0 {
		out = append(out, small(x%base))
		x /= base
	}
	return out, true
}

// bigOp compiles ∑ x ∈ s, f x and ∏ x ∈ s, f x (optionally `with p x`).
func (c *compiler) bigOp(t *leansrc.Term, want kind) (nexpr, bool) {
	if t.Text != "∑" && t.Text != "∏" {
		c.failf("%s (a series) is outside the fragment", t.Text)
		return nexpr{}, false
	}
	if len(t.Binders) != 1 || len(t.Binders[0].Names) != 1 || t.Binders[0].Pred != "∈" {
		c.failf("%s without a finite set of the fragment", t.Text)
		return nexpr{}, false
	}
	b := t.Binders[0]
	s, ok := c.set(b.Bound, kNone)
	if !ok {
		return nexpr{}, false
	}
	bd, done := c.bind(t, 0, b.Names[0], s.elem)
	defer done()
	var filter pexpr
	if len(t.Args) > 1 {
		if filter, ok = c.prop(t.Args[1]); !ok {
			return nexpr{}, false
		}
	}
	body, ok := c.num(t.Args[0], want)
	if !ok {
		return nexpr{}, false
	}
	op, unit := addNum, small(0)
	if t.Text == "∏" {
		op, unit = mulNum, small(1)
	}
	fs, fb, ff, slot := s.f, body.f, filter.f, bd.slot
	return nexpr{f: func(e *env) (num, bool) {
		st, ok := fs(e)
		if !ok {
			return num{}, false
		}
		acc := unit
		good := st.each(func(x num) bool {
			if !e.tick() {
				return false
			}
			e.v[slot] = x
			if ff != nil {
				switch ff(e) {
				case fls:
					return true
				case unk:
					return false
				}
			}
			v, ok := fb(e)
			if !ok {
				return false
			}
			acc, ok = op(acc, v)
			return ok && e.charge(acc)
		})
		return acc, good
	}, t: body.t, poly: body.poly, deps: (s.deps | body.deps | filter.deps) &^ slotBit(slot)}, true
}

// setDef is a set variable S : Finset T or Set T that a hypothesis
// ∀ n, n ∈ S ↔ P n defines: S is {n | P n} (the hypothesis then holds by
// construction). A Finset is enumerated from a finite domain that P's
// conjuncts bound; without one it is undefined (no finite S may satisfy the
// hypothesis, which would make the stub vacuously true).
type setDef struct {
	n      string
	elem   kind
	body   *leansrc.Term
	owner  *leansrc.Term
	finite bool
	ctx    *nameCtx
}

// defineSets records the set variables defined by membership hypotheses.
func (c *compiler) defineSets(hyps []*leansrc.Term, opaque map[string]*leansrc.Term, used map[*leansrc.Term]bool) {
	for _, h := range hyps {
		if used[h] || h.Kind != leansrc.TermForall || len(h.Binders) != 1 || len(h.Binders[0].Names) != 1 ||
			h.Binders[0].Pred != "" || h.Binders[0].Bracket == '[' || h.Args[0].Kind != leansrc.TermInfix || h.Args[0].Text != "↔" {
			continue
		}
		n, iff := h.Binders[0].Names[0], h.Args[0]
		for side := 0; side < 2; side++ {
			mem, p := iff.Args[side], iff.Args[1-side]
			if mem.Kind != leansrc.TermInfix || mem.Text != "∈" || mem.Args[0].Kind != leansrc.TermIdent || mem.Args[0].Text != n ||
				mem.Args[1].Kind != leansrc.TermIdent {
				continue
			}
			s := mem.Args[1].Text
			ty, isVar := opaque[s]
			if !isVar || c.setDefs[s] != nil || c.mentions(p, s) || ty.Kind != leansrc.TermApp || len(ty.Args) != 2 || ty.Args[0].Kind != leansrc.TermIdent {
				break
			}
			finite := ty.Args[0].Text == "Finset"
			elem := typeOf(ty.Args[1])
			if (!finite && ty.Args[0].Text != "Set") || !elem.numeric() || (finite && !elem.integral()) ||
				(h.Binders[0].Type != nil && typeOf(h.Binders[0].Type) != elem) {
				break
			}
			binds := append([]binding(nil), c.cur.binds...)
			c.setDefs[s] = &setDef{n: n, elem: elem, body: p, owner: h, finite: finite, ctx: &nameCtx{lib: c.cur.lib, binds: binds}}
			if !finite {
				// membership in a Set is P itself
				c.funcs[s] = &parsedDef{names: []string{n}, types: []*leansrc.Term{ty.Args[1]}, body: p, scope: c.cur.lib, binds: binds}
			}
			used[h] = true
			break
		}
	}
}

// definedSet compiles the elements of a Finset variable defined by a
// membership hypothesis.
func (c *compiler) definedSet(name string, d *setDef) (sexpr, bool) {
	saved := c.cur
	c.cur = &nameCtx{lib: d.ctx.lib, binds: append([]binding(nil), d.ctx.binds...)}
	defer func() { c.cur = saved }()
	b, done := c.bind(d.owner, 0, d.n, d.elem)
	defer done()
	dom := c.boundsFrom(domain{}, b, appendConjuncts(nil, d.body))
	var stop *stopper
	if b.t == kNat && dom.finite == nil && dom.divisorsOf == nil && dom.hi == nil {
		ex := c.synth(leansrc.TermExists, "", d.body)
		ex.Binders = []leansrc.Binder{{Names: []string{d.n}}}
		stop = c.monotone(ex, b)
	}
	if dom.finite == nil && dom.divisorsOf == nil && (dom.lo == nil || dom.hi == nil) && stop == nil {
		c.failf("no bound on the elements of %s", name)
		return sexpr{}, false
	}
	body, ok := c.prop(d.body)
	if !ok {
		return sexpr{}, false
	}
	values, deps := domainIter(b, dom, stop)
	slot, fb := b.slot, body.f
	return sexpr{f: func(e *env) (fset, bool) {
		each, exact, ok := values(e)
		if !ok || !exact {
			return fset{}, false
		}
		return collect(e, each, slot, fb)
	}, elem: d.elem, deps: (deps | body.deps) &^ slotBit(slot)}, true
}
