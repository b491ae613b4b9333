package falsify

import (
	"math/big"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// arithOps are the `binop%` operators: their operands form one tree whose
// leaves Lean coerces to the tree's largest type.
var arithOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, "^": true}

func isArith(t *leansrc.Term) bool {
	return (t.Kind == leansrc.TermInfix && arithOps[t.Text]) || (t.Kind == leansrc.TermPrefix && t.Text == "-")
}

// treeType computes the type Lean's binop% elaborator gives the tree at t
// (a relation's two sides, or an arithmetic tree): the largest of the
// expected type and the leaves' own types. kNone means no leaf decides it
// (Lean's default instance then makes it ℕ); untyped binders used as
// leaves learn the tree's type.
func (c *compiler) treeType(t *leansrc.Term, want kind) (kind, bool) {
	max := kNone
	if want.numeric() || want == kBool {
		max = want
	}
	ok := true
	var recs []*inferRec
	decimal := false
	var walk func(x *leansrc.Term, root bool)
	walk = func(x *leansrc.Term, root bool) {
		defer c.enter(x)()
		switch {
		case root && x.Kind == leansrc.TermInfix && relations[x.Text]:
			walk(x.Args[0], false)
			walk(x.Args[1], false)
			return
		case x.Kind == leansrc.TermInfix && arithOps[x.Text]:
			walk(x.Args[0], false)
			if x.Text != "^" { // the exponent is elaborated on its own (rightact%)
				walk(x.Args[1], false)
			}
			return
		case x.Kind == leansrc.TermPrefix && x.Text == "-":
			walk(x.Args[0], false)
			return
		}
		k, rec, dec, good := c.leafKind(x)
		if !good {
			ok = false
			return
		}
		decimal = decimal || dec
		if rec != nil {
			recs = append(recs, rec)
		}
		if k == kNone {
			return
		}
		if (k == kBool) != (max == kBool) && max != kNone {
			c.failf("Bool mixed with numbers in %s", clip(t))
			ok = false
			return
		}
		m, good := maxKind(max, k)
		if !good {
			c.failf("no coercion between %s and %s in %s", max, k, clip(t))
			ok = false
			return
		}
		max = m
	}
	walk(t, true)
	if !ok {
		return kNone, false
	}
	for _, r := range recs {
		if max != kNone {
			r.add(max)
		} else {
			r.deflt = true
		}
	}
	if max == kNone && decimal {
		c.failf("a decimal literal without a type (Lean makes it a Float)")
		return kNone, false
	}
	return max, true
}

// leafKind is a tree leaf's own type (kNone for numerals, ↑x and untyped
// binders, which take the tree's type); rec is the untyped binder's record.
func (c *compiler) leafKind(x *leansrc.Term) (k kind, rec *inferRec, decimal, ok bool) {
	defer c.enter(x)()
	switch x.Kind {
	case leansrc.TermNum:
		return kNone, nil, strings.ContainsAny(x.Text, ".eE"), true
	case leansrc.TermPrefix:
		if x.Text == "↑" {
			return kNone, nil, false, true
		}
	case leansrc.TermIdent:
		if b, isLocal := c.local(x.Text); isLocal {
			if b.t == kNone && b.rec != nil {
				return kNone, b.rec, false, true
			}
			if b.t == kNone {
				c.failf("cannot infer the type of %s", x.Text)
				return kNone, nil, false, false
			}
			return b.t, nil, false, true
		}
	case leansrc.TermAscribe:
		k := typeOf(x.Args[1])
		if !k.numeric() && k != kBool {
			c.failf("%s is outside the fragment", clip(x.Args[1]))
			return kNone, nil, false, false
		}
		return k, nil, false, true
	}
	e, good := c.num(x, kNone)
	if !good {
		return kNone, nil, false, false
	}
	if e.poly {
		return kNone, nil, false, true
	}
	return e.t, nil, false, true
}

// num compiles a numeric term with expected type want (kNone: none). The
// result's type is at most want (the caller's coercion is the identity on
// values).
func (c *compiler) num(t *leansrc.Term, want kind) (nexpr, bool) {
	e, ok := c.numOf(t, want)
	c.see(t, e, ok)
	return e, ok
}

func (c *compiler) numOf(t *leansrc.Term, want kind) (nexpr, bool) {
	defer c.enter(t)()
	if !isArith(t) {
		return c.leaf(t, want)
	}
	k, ok := c.treeType(t, want)
	if !ok {
		return nexpr{}, false
	}
	poly := k == kNone
	if poly {
		k = kNat
	}
	if want != kNone && k != want {
		c.failf("%s has type %s, not %s", clip(t), k, want)
		return nexpr{}, false
	}
	e, ok := c.arith(t, k)
	e.poly = poly
	return e, ok
}

// numAs compiles t as a part of a tree of type k.
func (c *compiler) numAs(t *leansrc.Term, k kind) (nexpr, bool) {
	e, ok := c.numAsOf(t, k)
	c.see(t, e, ok)
	return e, ok
}

func (c *compiler) numAsOf(t *leansrc.Term, k kind) (nexpr, bool) {
	defer c.enter(t)()
	if isArith(t) {
		return c.arith(t, k)
	}
	e, ok := c.leaf(t, k)
	if !ok {
		return nexpr{}, false
	}
	if !coerces(e.t, k) {
		c.failf("%s has type %s, not %s", clip(t), e.t, k)
		return nexpr{}, false
	}
	e.t = k
	return e, true
}

// arith compiles an arithmetic node in type k with Lean's semantics.
func (c *compiler) arith(t *leansrc.Term, k kind) (nexpr, bool) {
	defer c.enter(t)()
	if t.Kind == leansrc.TermPrefix {
		if k.nonneg() || k == kBool {
			c.failf("negation on %s", k)
			return nexpr{}, false
		}
		a, ok := c.numAs(t.Args[0], k)
		if !ok {
			return nexpr{}, false
		}
		return lift1(a, k, negNum), true
	}
	if k == kBool {
		c.failf("arithmetic on Bool")
		return nexpr{}, false
	}
	a, ok := c.numAs(t.Args[0], k)
	if !ok {
		return nexpr{}, false
	}
	var b nexpr
	var op func(x, y num) (num, bool)
	switch t.Text {
	case "^":
		ex, ok := c.num(t.Args[1], kNone)
		if !ok {
			return nexpr{}, false
		}
		switch {
		case ex.t == kNat:
			op = powNum
		case ex.t == kInt && (k == kRat || k == kReal || k == kNNReal):
			op = zpow
		case ex.t == kReal && (k == kReal || k == kNNReal): // NNReal.rpow is Real.rpow on x ≥ 0
			op = rpowExact
		default:
			c.failf("%s ^ %s", k, ex.t)
			return nexpr{}, false
		}
		b = ex
	default:
		if b, ok = c.numAs(t.Args[1], k); !ok {
			return nexpr{}, false
		}
		switch t.Text {
		case "+":
			op = addNum
		case "-":
			op = subNum
			if k.nonneg() {
				op = natSub
			}
		case "*":
			op = mulNum
		case "/":
			op = quoNum
			if k.integral() {
				op = ediv
			}
		case "%":
			if !k.integral() {
				c.failf("%% on %s", k)
				return nexpr{}, false
			}
			op = emod
		}
	}
	return lift2(a, b, k, op), true
}

// lift2 applies a binary operation to two compiled numbers, giving type k;
// an undefined operand makes the result undefined.
func lift2(a, b nexpr, k kind, op func(x, y num) (num, bool)) nexpr {
	fa, fb := a.f, b.f
	return nexpr{f: func(e *env) (num, bool) {
		x, ok := fa(e)
		if !ok {
			return num{}, false
		}
		y, ok := fb(e)
		if !ok {
			return num{}, false
		}
		return op(x, y)
	}, t: k, deps: a.deps | b.deps}
}

// constant compiles a value known at compile time.
func constant(v num, k kind) nexpr {
	return nexpr{f: func(*env) (num, bool) { return v, true }, t: k}
}

// literal parses a numeral: decimal, 0x/0b/0o integers, and decimals or
// scientific literals (in ℚ and ℝ only).
func literal(s string) (num, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if i, ok := new(big.Int).SetString(s, 0); ok {
		return fromBig(i)
	}
	if strings.ContainsAny(s, "xXbBoO") || len(s) > 400 {
		return num{}, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return num{}, false
	}
	return fromRat(r)
}

// leaf compiles a term that is not an arithmetic node.
func (c *compiler) leaf(t *leansrc.Term, want kind) (nexpr, bool) {
	defer c.enter(t)()
	switch t.Kind {
	case leansrc.TermNum:
		v, ok := literal(t.Text)
		if !ok {
			c.failf("numeral %s", t.Text)
			return nexpr{}, false
		}
		k, poly := want, false
		if k == kNone {
			k, poly = kNat, true
		}
		if k == kBool || k == kProp || (!v.isInt() && (k.integral() || k == kNNReal)) || (k.nonneg() && v.sign() < 0) {
			c.failf("numeral %s in %s", t.Text, k)
			return nexpr{}, false
		}
		e := constant(v, k)
		e.poly = poly
		return e, true
	case leansrc.TermIdent:
		if b, ok := c.local(t.Text); ok {
			return c.variable(b, want)
		}
		switch t.Text {
		case "true", "false", "Bool.true", "Bool.false":
			v := small(0)
			if strings.HasSuffix(t.Text, "true") {
				v = small(1)
			}
			return constant(v, kBool), true
		}
	case leansrc.TermPrefix:
		if t.Text == "↑" {
			inner, ok := c.num(t.Args[0], kNone)
			if !ok {
				return nexpr{}, false
			}
			if want == kNone {
				inner.poly = true
				return inner, true
			}
			if !coerces(inner.t, want) {
				c.failf("↑ from %s to %s", inner.t, want)
				return nexpr{}, false
			}
			inner.t, inner.poly = want, false
			return inner, true
		}
	case leansrc.TermAscribe:
		k := typeOf(t.Args[1])
		if !k.numeric() && k != kBool {
			c.failf("%s is outside the fragment", clip(t.Args[1]))
			return nexpr{}, false
		}
		e, ok := c.num(t.Args[0], k)
		if !ok {
			return nexpr{}, false
		}
		if !e.poly && !coerces(e.t, k) {
			// (n : ℕ) for an integer n is a type error in Lean, not a
			// conversion: only upward coercions exist.
			c.failf("%s has type %s, not %s", clip(t.Args[0]), e.t, k)
			return nexpr{}, false
		}
		e.t, e.poly = k, false
		return e, true
	case leansrc.TermAbs:
		return c.absOf(t.Args[0], want)
	case leansrc.TermPostfix:
		switch t.Text {
		case "!":
			return c.unary(t.Args[0], kNat, kNat, factorial)
		case "⁻¹":
			a, ok := c.num(t.Args[0], want)
			if !ok {
				return nexpr{}, false
			}
			if a.poly && want == kNone {
				// 3⁻¹ has no type of its own: the tree it is in decides (ℕ
				// has no inverse, so a tree of numerals alone fails then)
				e := lift1(a, kRat, func(x num) (num, bool) { return quoNum(small(1), x) })
				e.poly = true
				return e, true
			}
			if a.poly || (a.t != kRat && a.t != kReal && a.t != kNNReal) {
				c.failf("⁻¹ on %s", a.t)
				return nexpr{}, false
			}
			return lift1(a, a.t, func(x num) (num, bool) { return quoNum(small(1), x) }), true
		}
	case leansrc.TermBigOp:
		return c.bigOp(t, want)
	case leansrc.TermIf:
		return c.ifNum(t, want)
	}
	switch t.Kind {
	case leansrc.TermIdent, leansrc.TermApp, leansrc.TermProj:
		name, args, ok := c.appParts(t)
		if ok {
			full := c.head(name)
			if full == "" {
				c.failHead(name)
				return nexpr{}, false
			}
			return c.applyNum(t, full, args, want)
		}
	}
	c.failf("%s is outside the fragment", clip(t))
	return nexpr{}, false
}

// variable reads a local variable; an untyped binder (first pass) takes
// the expected type.
func (c *compiler) variable(b binding, want kind) (nexpr, bool) {
	if b.t == kNone {
		if b.rec == nil {
			c.failf("cannot infer the type of %s", b.name)
			return nexpr{}, false
		}
		k := want
		if k == kNone {
			b.rec.deflt = true
			k = kNat
		} else {
			b.rec.add(k)
		}
		s := b.slot
		return nexpr{f: func(e *env) (num, bool) { return e.v[s], true }, t: k, poly: want == kNone, deps: slotBit(s)}, true
	}
	if b.t == kProp || (!b.t.numeric() && b.t != kBool) {
		c.failf("%s is not a number", b.name)
		return nexpr{}, false
	}
	s := b.slot
	return nexpr{f: func(e *env) (num, bool) { return e.v[s], true }, t: b.t, deps: slotBit(s)}, true
}

// unary compiles f applied to one argument of type in, giving type out.
func (c *compiler) unary(arg *leansrc.Term, in, out kind, f func(num) (num, bool)) (nexpr, bool) {
	a, ok := c.argAs(arg, in)
	if !ok {
		return nexpr{}, false
	}
	return lift1(a, out, f), true
}

// lift1 applies a unary operation to a compiled number, giving type k.
func lift1(a nexpr, k kind, op func(num) (num, bool)) nexpr {
	fa := a.f
	return nexpr{f: func(e *env) (num, bool) {
		x, ok := fa(e)
		if !ok {
			return num{}, false
		}
		return op(x)
	}, t: k, deps: a.deps}
}

// binary compiles f applied to two arguments of type in, giving type out.
func (c *compiler) binary(x, y *leansrc.Term, in, out kind, f func(a, b num) (num, bool)) (nexpr, bool) {
	a, ok1 := c.argAs(x, in)
	b, ok2 := c.argAs(y, in)
	if !ok1 || !ok2 {
		return nexpr{}, false
	}
	return lift2(a, b, out, f), true
}

// argAs compiles a function argument against its parameter type k (Lean
// elaborates it with that expected type and coerces upwards only).
func (c *compiler) argAs(t *leansrc.Term, k kind) (nexpr, bool) {
	e, ok := c.num(t, k)
	if !ok {
		return nexpr{}, false
	}
	if !coerces(e.t, k) {
		c.failf("%s has type %s, not %s", clip(t), e.t, k)
		return nexpr{}, false
	}
	e.t, e.poly = k, false
	return e, true
}

// absOf compiles |x|: abs in x's type (ℤ, ℚ, ℝ).
func (c *compiler) absOf(x *leansrc.Term, want kind) (nexpr, bool) {
	a, ok := c.num(x, want)
	if !ok {
		return nexpr{}, false
	}
	if a.poly && want == kNone || a.t.nonneg() || a.t == kBool {
		c.failf("|·| on %s", a.t)
		return nexpr{}, false
	}
	return lift1(a, a.t, absNum), true
}

// ifNum compiles if c then a else b with numeric branches.
func (c *compiler) ifNum(t *leansrc.Term, want kind) (nexpr, bool) {
	if t.Text != "" {
		c.failf("dependent if")
		return nexpr{}, false
	}
	cond, ok := c.prop(t.Args[0])
	if !ok {
		return nexpr{}, false
	}
	k := want
	if k == kNone {
		var good bool
		if k, good = c.jointType(kNone, t.Args[1], t.Args[2]); !good {
			return nexpr{}, false
		}
	}
	a, ok1 := c.numAs(t.Args[1], k)
	b, ok2 := c.numAs(t.Args[2], k)
	if !ok1 || !ok2 {
		return nexpr{}, false
	}
	fc, fa, fb := cond.f, a.f, b.f
	return nexpr{f: func(e *env) (num, bool) {
		switch fc(e) {
		case tru:
			return fa(e)
		case fls:
			return fb(e)
		}
		return num{}, false
	}, t: k, deps: cond.deps | a.deps | b.deps}, true
}

// jointType is the type of several terms that must share one type, as an
// application's arguments for one type parameter: their largest type (ℕ
// when only numerals decide).
func (c *compiler) jointType(want kind, ts ...*leansrc.Term) (kind, bool) {
	k := want
	for _, t := range ts {
		x, ok := c.treeType(t, kNone)
		if !ok {
			return kNone, false
		}
		m, good := maxKind(k, x)
		if !good {
			c.failf("no coercion between %s and %s in %s", k, x, clip(t))
			return kNone, false
		}
		k = m
	}
	if k == kNone {
		k = kNat
	}
	return k, true
}
