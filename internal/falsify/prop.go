package falsify

import (
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// relations are the binary relations compiled over numbers.
var relations = map[string]bool{"=": true, "≠": true, "<": true, "≤": true, ">": true, "≥": true, "∣": true}

// prop compiles a proposition.
func (c *compiler) prop(t *leansrc.Term) (pexpr, bool) {
	defer c.enter(t)()
	switch t.Kind {
	case leansrc.TermInfix:
		switch t.Text {
		case "∧", "∨", "→", "↔":
			a, ok1 := c.prop(t.Args[0])
			b, ok2 := c.prop(t.Args[1])
			if !ok1 || !ok2 {
				return pexpr{}, false
			}
			return connective(t.Text, a, b), true
		case "∈", "∉":
			return c.member(t)
		}
		if relations[t.Text] {
			return c.relation(t)
		}
		if full := c.notation(t.Text); full != "" {
			return c.applyProp(t, full, t.Args)
		}
	case leansrc.TermPrefix:
		if t.Text == "¬" {
			a, ok := c.prop(t.Args[0])
			if !ok {
				return pexpr{}, false
			}
			f := a.f
			return pexpr{f: func(e *env) tri { return not3(f(e)) }, deps: a.deps}, true
		}
	case leansrc.TermIdent, leansrc.TermApp, leansrc.TermProj:
		if t.Kind == leansrc.TermIdent {
			if b, ok := c.local(t.Text); ok {
				if b.t == kBool {
					s := b.slot
					return pexpr{f: func(e *env) tri { return triOf(e.v[s].n != 0) }, deps: slotBit(s)}, true
				}
				c.failf("%s is not a proposition of the fragment", t.Text)
				return pexpr{}, false
			}
		}
		name, args, ok := c.appParts(t)
		if !ok {
			break
		}
		full := c.head(name)
		switch full {
		case "True", "False":
			if len(args) == 0 {
				v := triOf(full == "True")
				return pexpr{f: func(*env) tri { return v }}, true
			}
		case "":
			c.failHead(name)
			return pexpr{}, false
		}
		return c.applyProp(t, full, args)
	case leansrc.TermForall, leansrc.TermExists, leansrc.TermExistsUnique:
		return c.quantifier(t)
	case leansrc.TermModEq:
		return c.modEq(t)
	case leansrc.TermAscribe:
		if typeOf(t.Args[1]) == kProp {
			return c.prop(t.Args[0])
		}
	case leansrc.TermIf:
		if t.Text == "" {
			cond, ok1 := c.prop(t.Args[0])
			a, ok2 := c.prop(t.Args[1])
			b, ok3 := c.prop(t.Args[2])
			if ok1 && ok2 && ok3 {
				return pexpr{f: func(e *env) tri {
					switch cond.f(e) {
					case tru:
						return a.f(e)
					case fls:
						return b.f(e)
					}
					return unk
				}, deps: cond.deps | a.deps | b.deps}, true
			}
			return pexpr{}, false
		}
	}
	c.failf("%s is outside the fragment", clip(t))
	return pexpr{}, false
}

// clip is a short rendering of a term for reasons.
func clip(t *leansrc.Term) string {
	s := t.String()
	if t.Kind == leansrc.TermUnsupported {
		s = t.Text
	}
	return "`" + textcut.Cut(s, 60) + "`"
}

func connective(op string, a, b pexpr) pexpr {
	fa, fb := a.f, b.f
	var f propFn
	switch op {
	case "∧":
		f = func(e *env) tri {
			x := fa(e)
			if x == fls {
				return fls
			}
			return and3(x, fb(e))
		}
	case "∨":
		f = func(e *env) tri {
			x := fa(e)
			if x == tru {
				return tru
			}
			return or3(x, fb(e))
		}
	case "→":
		f = func(e *env) tri {
			x := fa(e)
			if x == fls {
				return tru
			}
			return or3(not3(x), fb(e))
		}
	default: // ↔
		f = func(e *env) tri {
			x, y := fa(e), fb(e)
			if x == unk || y == unk {
				return unk
			}
			return triOf(x == y)
		}
	}
	return pexpr{f: f, deps: a.deps | b.deps}
}

// notation resolves a workspace operator symbol to its constant.
func (c *compiler) notation(sym string) string {
	if c.cur.lib == nil {
		return ""
	}
	n, ok := c.cur.lib.Notation(sym)
	if !ok {
		return ""
	}
	return n.Const
}

// relation compiles a ∘ b for a relation of the fragment: both sides form
// one `binrel%` tree, typed to their largest leaf type.
func (c *compiler) relation(t *leansrc.Term) (pexpr, bool) {
	k, ok := c.treeType(t, kNone)
	if !ok {
		return pexpr{}, false
	}
	if k == kNone {
		k = kNat // Lean's default instance for numerals
	}
	if k == kBool && t.Text != "=" && t.Text != "≠" {
		c.failf("%s on Bool", t.Text)
		return pexpr{}, false
	}
	a, ok1 := c.numAs(t.Args[0], k)
	b, ok2 := c.numAs(t.Args[1], k)
	if !ok1 || !ok2 {
		return pexpr{}, false
	}
	if t.Text == "∣" && !k.integral() {
		c.failf("∣ on %s", k)
		return pexpr{}, false
	}
	return compare(t.Text, a, b), true
}

// compare builds the closure of a relation between two numbers.
func compare(op string, a, b nexpr) pexpr {
	var test func(x, y num) bool
	switch op {
	case "=":
		test = func(x, y num) bool { return cmpNum(x, y) == 0 }
	case "≠":
		test = func(x, y num) bool { return cmpNum(x, y) != 0 }
	case "<":
		test = func(x, y num) bool { return cmpNum(x, y) < 0 }
	case "≤":
		test = func(x, y num) bool { return cmpNum(x, y) <= 0 }
	case ">":
		test = func(x, y num) bool { return cmpNum(x, y) > 0 }
	case "≥":
		test = func(x, y num) bool { return cmpNum(x, y) >= 0 }
	default: // ∣
		test = dvd
	}
	return truth(lift2(a, b, kBool, func(x, y num) (num, bool) { return boolNum(test(x, y)), true }))
}

// truth reads a compiled Bool (0 or 1) as a proposition.
func truth(b nexpr) pexpr {
	f := b.f
	return pexpr{f: func(e *env) tri {
		v, ok := f(e)
		if !ok {
			return unk
		}
		return triOf(v.n != 0)
	}, deps: b.deps}
}

func boolNum(b bool) num {
	if b {
		return small(1)
	}
	return small(0)
}

// modEq compiles a ≡ b [MOD n] (Nat.ModEq) and [ZMOD n] (Int.ModEq): a % n = b % n.
func (c *compiler) modEq(t *leansrc.Term) (pexpr, bool) {
	k := kNat
	if t.Text == "ZMOD" {
		k = kInt
	}
	return c.modEqOf(k, t.Args[2], t.Args[0], t.Args[1])
}

func (c *compiler) modEqOf(k kind, n, a, b *leansrc.Term) (pexpr, bool) {
	x, ok1 := c.numAs(a, k)
	y, ok2 := c.numAs(b, k)
	m, ok3 := c.numAs(n, k)
	if !ok1 || !ok2 || !ok3 {
		return pexpr{}, false
	}
	fx, fy, fm := x.f, y.f, m.f
	return pexpr{f: func(e *env) tri {
		xv, ok1 := fx(e)
		yv, ok2 := fy(e)
		mv, ok3 := fm(e)
		if !ok1 || !ok2 || !ok3 {
			return unk
		}
		r1, ok1 := emod(xv, mv)
		r2, ok2 := emod(yv, mv)
		if !ok1 || !ok2 {
			return unk
		}
		return triOf(cmpNum(r1, r2) == 0)
	}, deps: x.deps | y.deps | m.deps}, true
}

// member compiles x ∈ s and x ∉ s for the finite sets of the fragment and
// set-builder terms.
func (c *compiler) member(t *leansrc.Term) (pexpr, bool) {
	neg := t.Text == "∉"
	s := t.Args[1]
	var p pexpr
	if s.Kind == leansrc.TermInfix && setOps[s.Text] != "" {
		// x ∈ A \ B is x ∈ A ∧ x ∉ B; ∪ and ∩ likewise
		x := t.Args[0]
		rhs := c.synth(leansrc.TermInfix, "∈", x, s.Args[1])
		if s.Text == "\\" {
			rhs.Text = "∉"
		}
		both := c.synth(leansrc.TermInfix, setOps[s.Text], c.synth(leansrc.TermInfix, "∈", x, s.Args[0]), rhs)
		if neg {
			both = c.synth(leansrc.TermPrefix, "¬", both)
		}
		return c.prop(both)
	}
	if d := c.setDefs[s.Text]; s.Kind == leansrc.TermIdent && d != nil && !d.finite {
		if _, isLocal := c.local(s.Text); isLocal {
			var ok bool
			if p, ok = c.prop(c.synth(leansrc.TermApp, "", s, t.Args[0])); !ok {
				return pexpr{}, false
			}
			if neg {
				f := p.f
				p.f = func(e *env) tri { return not3(f(e)) }
			}
			return p, true
		}
	}
	if rel := c.setInterval(t.Args[0], s); rel != nil {
		var ok bool
		if p, ok = c.prop(rel); !ok {
			return pexpr{}, false
		}
	} else if s.Kind == leansrc.TermSetBuilder && s.Binders[0].Pred == "" {
		// x ∈ {y | P y} is P x
		b := s.Binders[0]
		elem := typeOf(b.Type)
		if b.Type != nil && !elem.numeric() {
			c.failf("set-builder over %s", clip(b.Type))
			return pexpr{}, false
		}
		x, ok := c.num(t.Args[0], elem)
		if !ok {
			return pexpr{}, false
		}
		if elem == kNone {
			elem = x.t
		}
		bd, done := c.bind(s, 0, b.Names[0], elem)
		body, ok := c.prop(s.Args[0])
		done()
		if !ok {
			return pexpr{}, false
		}
		slot, fx, fb := bd.slot, x.f, body.f
		p = pexpr{f: func(e *env) tri {
			v, ok := fx(e)
			if !ok {
				return unk
			}
			e.v[slot] = v
			return fb(e)
		}, deps: x.deps | body.deps}
	} else {
		k, ok := c.quickElem(t.Args[0])
		if !ok {
			return pexpr{}, false
		}
		set, ok := c.set(s, k)
		if !ok {
			return pexpr{}, false
		}
		x, ok := c.numAs(t.Args[0], set.elem)
		if !ok {
			return pexpr{}, false
		}
		fx, fs := x.f, set.f
		p = pexpr{f: func(e *env) tri {
			v, ok := fx(e)
			if !ok {
				return unk
			}
			st, ok := fs(e)
			if !ok {
				return unk
			}
			return triOf(st.has(v))
		}, deps: x.deps | set.deps}
	}
	if neg {
		f := p.f
		p.f = func(e *env) tri { return not3(f(e)) }
	}
	return p, true
}

// setOps are the set operations whose membership is a connective.
var setOps = map[string]string{"\\": "∧", "∩": "∧", "∪": "∨"}

// setIntervals are the bounds of Set intervals: x ∈ Set.Ioc a b is
// a < x ∧ x ≤ b ("" for a missing side).
var setIntervals = map[string][2]string{"Set.Icc": {"≤", "≤"}, "Set.Ico": {"≤", "<"}, "Set.Ioc": {"<", "≤"},
	"Set.Ioo": {"<", "<"}, "Set.Ici": {"≤", ""}, "Set.Ioi": {"<", ""}, "Set.Iic": {"", "≤"}, "Set.Iio": {"", "<"}}

// setInterval rewrites x ∈ Set.Icc a b and its kin as the relations they
// are by definition (nil when s is no Set interval).
func (c *compiler) setInterval(x, s *leansrc.Term) *leansrc.Term {
	restore := c.enter(s)
	defer restore()
	if s.Kind != leansrc.TermApp || s.Args[0].Kind != leansrc.TermIdent {
		return nil
	}
	if _, isLocal := c.local(s.Args[0].Text); isLocal {
		return nil
	}
	rels, ok := setIntervals[c.resolve(s.Args[0].Text)[0]]
	args := s.Args[1:]
	if !ok || len(args) != btoi(rels[0] != "")+btoi(rels[1] != "") {
		return nil
	}
	var parts []*leansrc.Term
	if rels[0] != "" {
		parts = append(parts, c.synth(leansrc.TermInfix, rels[0], args[0], x))
		args = args[1:]
	}
	if rels[1] != "" {
		parts = append(parts, c.synth(leansrc.TermInfix, rels[1], x, args[0]))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return c.synth(leansrc.TermInfix, "∧", parts[0], parts[1])
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// synth builds a term the statement does not spell, resolving in the
// current context.
func (c *compiler) synth(kind leansrc.TermKind, text string, args ...*leansrc.Term) *leansrc.Term {
	t := &leansrc.Term{Kind: kind, Text: text, Start: args[0].Start, End: args[len(args)-1].End, Args: args}
	c.ctxOf[t] = c.cur
	return t
}

// quickElem is the type of the element side of a membership (kNone when
// only the set decides it).
func (c *compiler) quickElem(t *leansrc.Term) (kind, bool) {
	k, ok := c.treeType(t, kNone)
	if !ok {
		return kNone, false
	}
	return k, true
}
