package falsify

import (
	"slices"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

type numBuiltin func(c *compiler, args []*leansrc.Term, want kind) (nexpr, bool)
type propBuiltin func(c *compiler, args []*leansrc.Term) (pexpr, bool)

// builtinNum are the functions of the fragment, by full name, with Lean's
// (Mathlib's) definitions.
var builtinNum map[string]numBuiltin

// builtinProp are the predicates of the fragment, by full name.
var builtinProp map[string]propBuiltin

func init() {
	nat1 := func(f func(num) (num, bool)) numBuiltin {
		return func(c *compiler, args []*leansrc.Term, _ kind) (nexpr, bool) {
			if !c.arity(args, 1) {
				return nexpr{}, false
			}
			return c.unary(args[0], kNat, kNat, f)
		}
	}
	two := func(in, out kind, f func(a, b num) (num, bool)) numBuiltin {
		return func(c *compiler, args []*leansrc.Term, _ kind) (nexpr, bool) {
			if !c.arity(args, 2) {
				return nexpr{}, false
			}
			return c.binary(args[0], args[1], in, out, f)
		}
	}
	real1 := func(f func(num) (num, bool)) numBuiltin {
		return func(c *compiler, args []*leansrc.Term, _ kind) (nexpr, bool) {
			if !c.arity(args, 1) {
				return nexpr{}, false
			}
			return c.unary(args[0], kReal, kReal, f)
		}
	}
	intToNat := func(f func(num) (num, bool)) numBuiltin {
		return func(c *compiler, args []*leansrc.Term, _ kind) (nexpr, bool) {
			if !c.arity(args, 1) {
				return nexpr{}, false
			}
			return c.unary(args[0], kInt, kNat, f)
		}
	}
	minMax := func(pickFirst func(cmp int) bool) numBuiltin {
		return func(c *compiler, args []*leansrc.Term, want kind) (nexpr, bool) {
			if !c.arity(args, 2) {
				return nexpr{}, false
			}
			k, ok := c.jointType(want, args[0], args[1])
			if !ok {
				return nexpr{}, false
			}
			return c.binary(args[0], args[1], k, k, func(a, b num) (num, bool) {
				if pickFirst(cmpNum(a, b)) {
					return a, true
				}
				return b, true
			})
		}
	}
	builtinNum = map[string]numBuiltin{
		"Nat.gcd":       two(kNat, kNat, gcdNum),
		"Nat.lcm":       two(kNat, kNat, lcmNum),
		"Int.gcd":       two(kInt, kNat, gcdNum),
		"Int.lcm":       two(kInt, kNat, lcmNum),
		"Nat.choose":    two(kNat, kNat, choose),
		"Nat.factorial": nat1(factorial),
		"Nat.sqrt":      nat1(isqrt),
		"Nat.succ":      nat1(func(x num) (num, bool) { return addNum(x, small(1)) }),
		"Nat.pred":      nat1(func(x num) (num, bool) { return natSub(x, small(1)) }),
		"Int.natAbs":    intToNat(absNum),
		"Int.toNat": intToNat(func(x num) (num, bool) {
			if x.sign() < 0 {
				return small(0), true
			}
			return x, true
		}),
		"min":     minMax(func(cmp int) bool { return cmp <= 0 }),
		"max":     minMax(func(cmp int) bool { return cmp >= 0 }),
		"Min.min": minMax(func(cmp int) bool { return cmp <= 0 }),
		"Max.max": minMax(func(cmp int) bool { return cmp >= 0 }),
		"abs": func(c *compiler, args []*leansrc.Term, want kind) (nexpr, bool) {
			if !c.arity(args, 1) {
				return nexpr{}, false
			}
			return c.absOf(args[0], want)
		},
		"Finset.card": func(c *compiler, args []*leansrc.Term, _ kind) (nexpr, bool) {
			if !c.arity(args, 1) {
				return nexpr{}, false
			}
			s, ok := c.set(args[0], kNone)
			if !ok {
				return nexpr{}, false
			}
			fs := s.f
			return nexpr{f: func(e *env) (num, bool) {
				st, ok := fs(e)
				if !ok {
					return num{}, false
				}
				return small(st.size()), true
			}, t: kNat, deps: s.deps}, true
		},
		"Real.sqrt": real1(sqrtExact),
		"NNReal.sqrt": func(c *compiler, args []*leansrc.Term, _ kind) (nexpr, bool) {
			if !c.arity(args, 1) {
				return nexpr{}, false
			}
			return c.unary(args[0], kNNReal, kNNReal, sqrtExact)
		},
		"Real.logb": two(kReal, kReal, logbExact),
		"Real.log":  real1(logExact),
		"Real.exp":  real1(expExact),
		"Int.floor": rounding(kInt, floorNum),
		"Int.ceil":  rounding(kInt, ceilNum),
		"Nat.floor": rounding(kNat, floorNum),
		"Nat.ceil":  rounding(kNat, ceilNum),
		"Int.fract": func(c *compiler, args []*leansrc.Term, want kind) (nexpr, bool) {
			if !c.arity(args, 1) {
				return nexpr{}, false
			}
			k, ok := c.jointType(want, args[0])
			if !ok || (k != kRat && k != kReal) {
				c.failf("Int.fract on %s", k)
				return nexpr{}, false
			}
			return c.unary(args[0], k, k, func(x num) (num, bool) {
				f, ok := floorNum(x)
				if !ok {
					return num{}, false
				}
				return subNum(x, f)
			})
		},
		"gcd":           integral2(gcdNum),
		"lcm":           integral2(lcmNum),
		"GCDMonoid.gcd": integral2(gcdNum),
		"GCDMonoid.lcm": integral2(lcmNum),
		"Int.emod":      two(kInt, kInt, emod),
		"Int.ediv":      two(kInt, kInt, ediv),
		"Nat.fib":       nat1(fib),
		"Nat.totient":   nat1(totient),
		"Finset.sum":    bigOpFn("∑"),
		"Finset.prod":   bigOpFn("∏"),
		"List.sum":      listFold(func(acc, x num) (num, bool) { return addNum(acc, x) }),
		"List.length":   listFold(func(acc, _ num) (num, bool) { return addNum(acc, small(1)) }),
	}
	parity := func(rem int64) propBuiltin {
		return func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
			if !c.arity(args, 1) {
				return pexpr{}, false
			}
			k, ok := c.integralArg(args[0], "parity")
			if !ok {
				return pexpr{}, false
			}
			return c.test1(args[0], k, func(x num) (bool, bool) {
				r, ok := emod(x, small(2))
				return r.n == rem, ok
			})
		}
	}
	builtinProp = map[string]propBuiltin{
		"Nat.Prime": func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
			if !c.arity(args, 1) {
				return pexpr{}, false
			}
			return c.test1(args[0], kNat, isPrime)
		},
		"Prime": func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
			if !c.arity(args, 1) {
				return pexpr{}, false
			}
			k, ok := c.integralArg(args[0], "Prime")
			if !ok {
				return pexpr{}, false
			}
			// _root_.Prime on ℤ: p is prime iff |p| is a prime number
			return c.test1(args[0], k, func(x num) (bool, bool) {
				a, ok := absNum(x)
				if !ok {
					return false, false
				}
				return isPrime(a)
			})
		},
		"Odd":  parity(1),
		"Even": parity(0),
		"Nat.Coprime": func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
			if !c.arity(args, 2) {
				return pexpr{}, false
			}
			g, ok := c.binary(args[0], args[1], kNat, kNat, gcdNum)
			if !ok {
				return pexpr{}, false
			}
			return compare("=", g, constant(small(1), kNat)), true
		},
		"IsLeast":    bound(true),
		"IsGreatest": bound(false),
		"Fact": func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
			if !c.arity(args, 1) {
				return pexpr{}, false
			}
			return c.prop(args[0])
		},
		"IsSquare": func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
			if !c.arity(args, 1) {
				return pexpr{}, false
			}
			k, ok := c.integralArg(args[0], "IsSquare")
			if !ok {
				return pexpr{}, false
			}
			// ∃ r, x = r * r: on ℕ and ℤ, x ≥ 0 and ⌊√x⌋² = x
			return c.test1(args[0], k, func(x num) (bool, bool) {
				if x.sign() < 0 {
					return false, true
				}
				r, ok := isqrt(x)
				if !ok {
					return false, false
				}
				sq, ok := mulNum(r, r)
				return ok && cmpNum(sq, x) == 0, ok
			})
		},
		"Nat.ModEq": func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
			if !c.arity(args, 3) {
				return pexpr{}, false
			}
			return c.modEqOf(kNat, args[0], args[1], args[2])
		},
		"Int.ModEq": func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
			if !c.arity(args, 3) {
				return pexpr{}, false
			}
			return c.modEqOf(kInt, args[0], args[1], args[2])
		},
	}
}

// integral2 compiles GCDMonoid's gcd and lcm on ℕ and ℤ (normalized:
// nonnegative, as Nat.gcd and Int.gcd).
func integral2(f func(a, b num) (num, bool)) numBuiltin {
	return func(c *compiler, args []*leansrc.Term, want kind) (nexpr, bool) {
		if !c.arity(args, 2) {
			return nexpr{}, false
		}
		k, ok := c.jointType(want, args[0], args[1])
		if ok && !k.integral() {
			c.failf("gcd or lcm on %s", k)
			return nexpr{}, false
		}
		if !ok {
			return nexpr{}, false
		}
		return c.binary(args[0], args[1], k, k, f)
	}
}

// rounding compiles Int.floor, Int.ceil (to ℤ) and Nat.floor, Nat.ceil (to
// ℕ, clamped at 0) of an argument of an ordered field (or ℤ for Int, ℕ for
// Nat, where they are the identity).
func rounding(out kind, f func(num) (num, bool)) numBuiltin {
	return func(c *compiler, args []*leansrc.Term, _ kind) (nexpr, bool) {
		if !c.arity(args, 1) {
			return nexpr{}, false
		}
		k, ok := c.jointType(kNone, args[0])
		if !ok || (k != kRat && k != kReal && k != out) {
			c.failf("rounding of %s", k)
			return nexpr{}, false
		}
		e, ok := c.unary(args[0], k, out, f)
		if !ok || out != kNat {
			return e, ok
		}
		return lift1(e, kNat, func(x num) (num, bool) {
			if x.sign() < 0 {
				return small(0), true
			}
			return x, true
		}), true
	}
}

// bigOpFn compiles Finset.sum s f and Finset.prod s f for a lambda f, as
// ∑ x ∈ s, f x.
func bigOpFn(op string) numBuiltin {
	return func(c *compiler, args []*leansrc.Term, want kind) (nexpr, bool) {
		if !c.arity(args, 2) {
			return nexpr{}, false
		}
		f := args[1]
		if f.Kind != leansrc.TermLambda || len(f.Binders) != 1 || len(f.Binders[0].Names) != 1 || f.Binders[0].Pred != "" {
			c.failf("%s of %s", op, clip(f))
			return nexpr{}, false
		}
		b := leansrc.Binder{Names: f.Binders[0].Names, Pred: "∈", Bound: args[0]}
		t := &leansrc.Term{Kind: leansrc.TermBigOp, Text: op, Start: f.Start, End: f.End, Binders: []leansrc.Binder{b}, Args: f.Args}
		c.ctxOf[t] = c.cur
		return c.bigOp(t, want)
	}
}

// listFold compiles a fold over Nat.digits b n.
func listFold(f func(acc, x num) (num, bool)) numBuiltin {
	return func(c *compiler, args []*leansrc.Term, _ kind) (nexpr, bool) {
		if !c.arity(args, 1) {
			return nexpr{}, false
		}
		l, ok := c.list(args[0])
		if !ok {
			return nexpr{}, false
		}
		fl := l.f
		return nexpr{f: func(e *env) (num, bool) {
			xs, ok := fl(e)
			if !ok {
				return num{}, false
			}
			acc := small(0)
			for _, x := range xs {
				if acc, ok = f(acc, x); !ok {
					return num{}, false
				}
			}
			return acc, true
		}, t: kNat, deps: l.deps}, true
	}
}

// bound compiles IsLeast S u (u ∈ S ∧ ∀ x ∈ S, u ≤ x) and IsGreatest S u
// (u ∈ S ∧ ∀ x ∈ S, x ≤ u). Over ℕ, u is least exactly when no x < u is
// in S, a finite check; otherwise the bound needs a finite S.
func bound(least bool) propBuiltin {
	return func(c *compiler, args []*leansrc.Term) (pexpr, bool) {
		if !c.arity(args, 2) {
			return pexpr{}, false
		}
		s, u := args[0], args[1]
		k, ok := c.jointType(kNone, u)
		if !ok {
			return pexpr{}, false
		}
		x := &leansrc.Term{Kind: leansrc.TermIdent, Text: "·x", Start: u.Start, End: u.End}
		c.ctxOf[x] = c.cur
		var all *leansrc.Term
		if least && k == kNat {
			all = c.synth(leansrc.TermInfix, "→", c.synth(leansrc.TermInfix, "<", x, u), c.synth(leansrc.TermInfix, "∉", x, s))
		} else {
			le := c.synth(leansrc.TermInfix, "≤", u, x)
			if !least {
				le = c.synth(leansrc.TermInfix, "≤", x, u)
			}
			all = c.synth(leansrc.TermInfix, "→", c.synth(leansrc.TermInfix, "∈", x, s), le)
		}
		forall := c.synth(leansrc.TermForall, "", all)
		if k == kNone {
			k = kNat
		}
		typ := &leansrc.Term{Kind: leansrc.TermIdent, Text: k.String(), Start: u.Start, End: u.End}
		forall.Binders = []leansrc.Binder{{Names: []string{"·x"}, Type: typ}}
		return c.prop(c.synth(leansrc.TermInfix, "∧", c.synth(leansrc.TermInfix, "∈", u, s), forall))
	}
}

// integralArg is the type of an argument that must be ℕ or ℤ.
func (c *compiler) integralArg(arg *leansrc.Term, what string) (kind, bool) {
	k, ok := c.jointType(kNone, arg)
	if ok && !k.integral() {
		c.failf("%s on %s", what, k)
		return kNone, false
	}
	return k, ok
}

// arity checks the number of arguments of a built-in.
func (c *compiler) arity(args []*leansrc.Term, n int) bool {
	if len(args) != n {
		c.failf("a built-in applied to %d arguments, not %d", len(args), n)
		return false
	}
	return true
}

// test1 compiles a decidable test of one argument of type k.
func (c *compiler) test1(arg *leansrc.Term, k kind, f func(num) (bool, bool)) (pexpr, bool) {
	a, ok := c.argAs(arg, k)
	if !ok {
		return pexpr{}, false
	}
	return truth(lift1(a, kBool, func(x num) (num, bool) {
		b, ok := f(x)
		return boolNum(b), ok
	})), true
}

// applyProp compiles a predicate application: a built-in or a definition.
func (c *compiler) applyProp(t *leansrc.Term, full string, args []*leansrc.Term) (pexpr, bool) {
	if b := builtinProp[full]; b != nil {
		return b(c, args)
	}
	body, done, ok := c.enterDef(t, full, args)
	if !ok {
		return pexpr{}, false
	}
	defer done()
	return c.prop(body)
}

// applyNum compiles a function application: a built-in or a definition.
func (c *compiler) applyNum(t *leansrc.Term, full string, args []*leansrc.Term, want kind) (nexpr, bool) {
	if b := builtinNum[full]; b != nil {
		return b(c, args, want)
	}
	if name, ok := strings.CutPrefix(full, seqPrefix); ok {
		return c.seqApply(name, args)
	}
	body, done, ok := c.enterDef(t, full, args)
	if !ok {
		return nexpr{}, false
	}
	defer done()
	return c.num(body, want)
}

// enterDef unfolds a definition application, guarding against recursion.
func (c *compiler) enterDef(t *leansrc.Term, full string, args []*leansrc.Term) (*leansrc.Term, func(), bool) {
	if slices.Contains(c.unfolds, full) || len(c.unfolds) >= maxUnfold {
		c.failf("%s unfolds recursively", full)
		return nil, nil, false
	}
	body := c.unfold(t, full, args)
	if body == nil {
		c.failf("%s has no body in the fragment", full)
		return nil, nil, false
	}
	c.unfolds = append(c.unfolds, full)
	return body, func() { c.unfolds = c.unfolds[:len(c.unfolds)-1] }, true
}
