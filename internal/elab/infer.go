package elab

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// infer checks every application inside t and says what t is.
func (c *checker) infer(t *leansrc.Term, scope map[string]local) info {
	if t == nil {
		return info{}
	}
	switch t.Kind {
	case leansrc.TermNum:
		if strings.ContainsAny(t.Text, ".eE") && !strings.HasPrefix(t.Text, "0x") {
			return info{kind: kValue, lit: true, sci: true}
		}
		return info{kind: kValue, lit: true}
	case leansrc.TermIdent:
		return c.apply(t, t, nil, scope)
	case leansrc.TermApp:
		if h := t.Args[0]; h.Kind == leansrc.TermIdent {
			return c.apply(t, h, t.Args[1:], scope)
		}
		if h := t.Args[0]; h.Kind == leansrc.TermProj && leansrc.IsIdentifier(h.Text) && !strings.Contains(h.Text, ".") {
			c.unexpected = h.Args[0] // (Finset.Icc x x).filter p: no expected type
			a := c.infer(h.Args[0], scope)
			infos := make([]info, len(t.Args)-1)
			for i, x := range t.Args[1:] {
				infos[i] = c.infer(x, scope)
			}
			if a.kind == kValue && a.of != "" && !a.ofLocal {
				// (Finset.range 100).filter p: Finset.filter p (Finset.range 100)
				return c.fieldOf(t, h, h.Args[0], h.Text, a.of, a, t.Args[1:], infos, scope)
			}
			if c.numberField(h.Text, a) {
				return c.fieldOf(t, h, h.Args[0], h.Text, numSpace[a.num], a, t.Args[1:], infos, scope)
			}
			c.numberProj(h, a)
			c.setProj(h, a)
			c.typeProj(h, a)
			return info{}
		}
		if f, ok := c.pointwiseInverse(t.Args[0], scope); ok {
			// f⁻¹ x with (f : ℝ → ℝ): Pi's Inv is pointwise, so f⁻¹ takes
			// what f takes (the preimage of a set is f ⁻¹' s)
			return c.apply(t, f, t.Args[1:], scope)
		}
		for _, a := range t.Args {
			c.infer(a, scope)
		}
		return info{}
	case leansrc.TermInfix:
		return c.infix(t, scope)
	case leansrc.TermPrefix:
		switch t.Text {
		case "¬":
			c.typePos(t.Args[0], scope)
			return info{kind: kSort, prop: true}
		case "-":
			// -n with (n : ℕ) is no error by itself: Lean's unop% casts n to
			// the widest type of the arithmetic around it ((-n : ℤ))
			if a := c.infer(t.Args[0], scope); a.kind == kValue && a.of == "" {
				a.neg = true
				return a
			}
			return info{}
		}
		c.infer(t.Args[0], scope)
		return info{}
	case leansrc.TermPostfix:
		a := c.infer(t.Args[0], scope)
		if t.Text == "⁻¹" && a.kind == kValue && a.tv != "" && c.env.VariableHas != nil && !c.env.Notation && !c.env.VariableHas(c.typeVars[a.tv], "Inv") {
			// a⁻¹ with (a : R) under [CommRing R]: no inverse
			have := "no local instance"
			if texts := c.typeVarTexts[a.tv]; len(texts) > 0 {
				have = "the local instances [" + strings.Join(texts, "] [") + "]"
			}
			c.report(t, "", "failed to synthesize `Inv %s`: `%s` has %s, and none provides ⁻¹ (through its parents or the library's instances)", a.tv, a.tv, have)
			return info{}
		}
		if t.Text == "⁻¹" && a.kind == kValue && a.of == "" {
			a.inv = !a.lit && (a.num == numNat || a.num == numInt)
			return a
		}
		if t.Text == "⁻¹" {
			c.functionInv(t, scope)
		}
		return info{}
	case leansrc.TermAscribe:
		a := c.infer(t.Args[0], scope)
		ty := c.typePos(t.Args[1], scope)
		if ty.kind == kSort && ty.prop && a.kind == kValue && a.of == "" && a.num != numNone {
			// (n : 4 ∣ n): a number is no proof of a proposition
			c.report(t, "", "type mismatch: `%s` is a number of type %s, but the ascription asks for a proof of the proposition `%s`",
				c.src[t.Args[0].Start:t.Args[0].End], a.num, c.src[t.Args[1].Start:t.Args[1].End])
		}
		want := numNone
		if t.Args[1].Kind == leansrc.TermIdent {
			want = numOf(t.Args[1].Text)
		}
		if want == numNone {
			return info{}
		}
		c.numArg(t.Args[0], a, want, "", scope)
		return info{kind: kValue, num: want}
	case leansrc.TermAbs:
		a := c.infer(t.Args[0], scope)
		if c.lacks(a, "Lattice") {
			// |z| is abs z := z ⊔ -z
			c.report(t, "", "failed to synthesize `Lattice %s`: |x| is x ⊔ -x, and %s has no lattice order (its modulus is ‖%s‖)",
				a.num, a.num, c.src[t.Args[0].Start:t.Args[0].End])
			return info{}
		}
		if a.kind == kValue && a.tv != "" && c.env.VariableHas != nil && !c.env.Notation && !c.env.VariableHas(c.typeVars[a.tv], "Lattice") {
			// |x| with (x : K) under [Field K]: no order, so no lattice
			have := "no local instance"
			if texts := c.typeVarTexts[a.tv]; len(texts) > 0 {
				have = "only `[" + strings.Join(texts, "] [") + "]`"
			}
			c.report(t, "", "failed to synthesize `Lattice %s`: |x| is x ⊔ -x, and `%s` has %s, from which the library derives no lattice order (an ordered field is `[LinearOrderedField %s]`; a norm is ‖x‖)",
				a.tv, a.tv, have, a.tv)
			return info{}
		}
		if a.kind == kValue && a.of == "" {
			a.abs = !a.lit && noInstance(a.num, "AddGroup") != ""
			return a
		}
		return info{}
	case leansrc.TermForall:
		c.typePos(t.Args[0], c.with(scope, t.Binders, ""))
		return info{kind: kSort} // ∀ n : ℕ, Fin n is a type
	case leansrc.TermExists, leansrc.TermExistsUnique:
		c.typePos(t.Args[0], c.with(scope, t.Binders, ""))
		return info{kind: kSort, prop: true}
	case leansrc.TermSetBuilder:
		c.typePos(t.Args[0], c.with(scope, t.Binders, ""))
		if len(t.Binders) == 1 && t.Binders[0].Pred == "" {
			// {x | p x}, {x : T | p x} is setOf: a Set, unless a Finset
			// is expected ({x ∈ s | p x} is a Finset's filter when s is one)
			of := numNone
			if ty := t.Binders[0].Type; ty != nil && ty.Kind == leansrc.TermIdent {
				of = numOf(ty.Text)
			}
			return info{kind: kValue, set: true, builder: true, builderOf: of}
		}
		return info{}
	case leansrc.TermIf:
		c.typePos(t.Args[0], scope)
		for _, a := range t.Args[1:] {
			c.infer(a, scope)
		}
		return info{}
	case leansrc.TermProj:
		c.unexpected = t.Args[0] // (Finset.Icc x x).card: no expected type
		a := c.infer(t.Args[0], scope)
		if c.numberField(t.Text, a) {
			// (μ s).toReal: ENNReal.toReal (μ s)
			return c.fieldOf(t, t, t.Args[0], t.Text, numSpace[a.num], a, nil, nil, scope)
		}
		c.numberProj(t, a)
		c.structureProj(t, a)
		c.setProj(t, a)
		c.typeProj(t, a)
		return info{}
	case leansrc.TermModEq:
		// a ≡ b [MOD n] is Nat.ModEq n a b, [ZMOD n] Int.ModEq n a b
		want, fn := numNat, "Nat.ModEq"
		if t.Text == "ZMOD" {
			want, fn = numInt, "Int.ModEq"
		}
		for _, a := range t.Args {
			c.numArg(a, c.infer(a, scope), want, fn, scope)
		}
		return info{kind: kSort, prop: true}
	}
	in := scope
	if len(t.Binders) > 0 {
		over := ""
		if t.Kind == leansrc.TermBigOp {
			over = t.Text
		}
		in = c.with(scope, t.Binders, over)
	}
	if t.Kind == leansrc.TermBigOp {
		c.bigOpOverType(t)
	}
	var body info
	for i, a := range t.Args {
		x := c.infer(a, in)
		if class := bigOpClass[t.Text]; i == 0 && t.Kind == leansrc.TermBigOp && class != "" && x.kind == kSort && x.prop &&
			c.env.PropInstance != nil && !c.env.PropInstance(class, 0) {
			// ∑ k ∈ s, Even k: a sum of propositions
			c.report(a, "", "failed to synthesize `%s Prop`: `%s` is a proposition, and %s combines values of a type with `%s` (the library has no such instance for Prop)",
				class, c.src[a.Start:a.End], t.Text, class)
		}
		if i == 0 {
			body = x
		}
	}
	if bigOpClass[t.Text] != "" && t.Kind == leansrc.TermBigOp && body.kind == kFunc && body.notPred && body.detail != "" && len(t.Args) > 0 && t.Args[0].Kind == leansrc.TermApp {
		// ∑ i, A i: a sum of rows is Pi's, a function too
		return info{kind: kFunc, what: body.what, detail: "a sum of functions (" + body.detail + "), itself a function", notPred: true}
	}
	if bigOpClass[t.Text] != "" && t.Kind == leansrc.TermBigOp && body.kind == kValue && !body.lit && body.num != numNone && body.of == "" {
		// ∑ i ∈ Finset.range n, (i + 1) is a ℕ: a sum has its body's type
		// (an expected type would elaborate the body at it, and a number's
		// type only goes up by coercion, as every rule reads it)
		return info{kind: kValue, num: body.num}
	}
	return info{}
}

// bigOpClass is the class the values a big operator combines need (a
// series, ∑' or ∏', needs a topology too, which is not read).
var bigOpClass = map[string]string{"∑": "AddCommMonoid", "∏": "CommMonoid", "∑'": "AddCommMonoid", "∏'": "CommMonoid"}

// bigOpOverType reports a big operator over a number type, `∑ k : ℤ, f k`
// (no `∈ s`): Finset.univ needs a Fintype instance, which no infinite type
// has. A series is ∑' (tsum), a finite sum runs over a Finset.
func (c *checker) bigOpOverType(t *leansrc.Term) {
	if strings.HasSuffix(t.Text, "'") {
		return // a series runs over the whole type
	}
	for _, b := range t.Binders {
		if b.Bound != nil || b.Type == nil || b.Type.Kind != leansrc.TermIdent || numOf(b.Type.Text) == numNone {
			continue
		}
		c.report(b.Type, "", "failed to synthesize `Fintype %s`: %s over a type sums over all of it, and %s is infinite; sum over a Finset (%s k ∈ Finset.range n, …), or write a series with %s'",
			b.Type.Text, t.Text, b.Type.Text, t.Text, t.Text)
	}
}

// infix checks a binary operation: the logical connectives take
// propositions; arithmetic has the widest of its operands' numeric types
// (Lean's binop% elaborator coerces the others up to it).
func (c *checker) infix(t *leansrc.Term, scope map[string]local) info {
	switch t.Text {
	case "<|", "$", "|>":
		// f <| x binds looser than →, so the parse may cut a binder's
		// type in two ((i : ι) → C <| M i): nothing inside is judged
		return info{}
	}
	if names, typ, ok := dependent(t); ok {
		// (x : T) → P x, (i : ι) × β i: x is bound on the right
		c.typePos(t.Args[1], c.with(scope, []leansrc.Binder{{Names: names, Type: typ}}, ""))
		return info{kind: kSort}
	}
	switch t.Text {
	case "∧", "/\\", "∨", "\\/", "↔", "<->":
		for _, x := range t.Args {
			if a := c.typePos(x, scope); a.kind == kSort && a.dataClass {
				// Group G ∧ P: a class of data is a type, and ∧ joins
				// propositions
				c.report(x, "", "type mismatch: `%s` is a type (a class of data, whose instances are structures), not a proposition; assume it as an instance binder, or state `Nonempty (%s)`",
					c.src[x.Start:x.End], c.src[x.Start:x.End])
			}
		}
		return info{kind: kSort, prop: true}
	case "→", "->":
		if c.glued(t) {
			// 0 →qᵢ Q: an arrow glued to a neighbour may be notation the
			// parser splits (a scoped one it does not read)
			return info{}
		}
		c.typePos(t.Args[0], scope)
		c.typePos(t.Args[1], scope)
		return info{kind: kSort}
	case "×":
		// A × B; glued, × may be notation the parser splits (z ∈ s ×ℂ t
		// is no `z ∈ s`): nothing inside is judged
		if c.glued(t) {
			return info{}
		}
		c.typePos(t.Args[0], scope)
		c.typePos(t.Args[1], scope)
		return info{kind: kSort}
	}
	if len(t.Args) == 3 {
		// V →ₗ[ℝ] W: a type of bundled maps over a ring
		c.scalarArrow(t)
		return info{}
	}
	if target, ok := c.infixTarget(t); ok {
		// G →+ H is AddMonoidHom G H, whose signature asks for instances
		// (what it is stays unknown: ProofNet's references state "G and H
		// are isomorphic" as `G ≃* H`, which their Lean took as a theorem)
		if t.Text == quotientSymbol {
			c.quotientBySet(t, scope)
		}
		head := &leansrc.Term{Kind: leansrc.TermIdent, Text: target, Start: t.Start, End: t.End}
		a := c.apply(t, head, t.Args, scope)
		if t.Text == quotientSymbol && a.kind == kSort && a.ty {
			return info{kind: kSort, ty: true} // R ⧸ I is a type
		}
		return info{}
	}
	if _, seen := c.mixed[t]; opTree[t.Text] && !seen {
		c.markTree(t, scope)
	}
	a, b := c.infer(t.Args[0], scope), c.infer(t.Args[1], scope)
	if (t.Text == "*" || t.Text == "/") && !c.glued(t) && !c.env.Notation {
		for _, x := range t.Args {
			if g, h, ok := c.quotientNoGroup(x, scope); ok {
				// a * b with (a b : G ⧸ H): G ⧸ H is a group for a normal H
				c.report(x, "", "failed to synthesize `%s (%s ⧸ %s)`: `%s ⧸ %s` is a group only when `%s` is normal, and no binder of the statement gives `[%s.Normal]` (nor is `%s` commutative)",
					map[string]string{"*": "Mul", "/": "Div"}[t.Text], g, h, g, h, h, h, g)
				break
			}
		}
	}
	if t.Text == "∘" && !c.glued(t) && !c.env.Notation {
		for i, x := range []info{a, b} {
			if x.kind == kSort && x.prop {
				// Function.Injective f ∘ g: application binds tighter, and
				// a proposition is no function to compose
				c.report(t.Args[i], "", "type mismatch: `∘` composes functions, but `%s` is a proposition (application binds tighter than ∘: parenthesise the composition, `P (f ∘ g)`)",
					c.src[t.Args[i].Start:t.Args[i].End])
				return info{}
			}
		}
	}
	if opTree[t.Text] {
		// binop%, binrel%: a leaf is elaborated with no expected type, and
		// Inv.inv (no binop%) at its operand's own type
		for i, x := range []info{a, b} {
			if x.inv && (i == 0 || t.Text != "^") {
				c.noInv(t.Args[i], "", x.num)
			}
			if x.abs && (i == 0 || t.Text != "^") {
				c.report(t.Args[i], "", "failed to synthesize `AddGroup %s`: |x| is x ⊔ -x, and %s %s (an operand of arithmetic or a comparison is elaborated at its own type; cast inside the bars, |(a : ℤ) - b|)",
					x.num, x.num, noInstance(x.num, "AddGroup"))
			}
		}
	}
	if tv := c.variableOp(t, a, b); tv != "" {
		return info{kind: kValue, tv: tv}
	}
	c.besideNumber(t, a, b)
	c.besideVariable(t, a, b)
	c.topBeside(t, a, b)
	if opTree[t.Text] && t.Text != "^" && a.kind == kValue && b.kind == kValue && a.num == numNone && b.num == numNone && c.distinctVariables(a.tv, b.tv) && !c.glued(t) {
		// g = h with (g : G) (h : H): binop% and binrel% elaborate both
		// at one type, and nothing takes a G to an H
		c.report(t, "", "type mismatch: `%s` is a value of type %s and `%s` a value of type %s, two type variables of the statement; no coercion takes either to the other",
			c.src[t.Args[0].Start:t.Args[0].End], a.tv, c.src[t.Args[1].Start:t.Args[1].End], b.tv)
	}
	c.matrixProduct(t, scope)
	if opTree[t.Text] && t.Text != "^" && number(a) && number(b) && !a.lit && !b.lit && join(a.num, b.num) == numNone && !c.glued(t) {
		// x < y with (x : ℝ≥0∞) (y : ℝ): binop% and binrel% elaborate
		// both at one type, and neither coerces to the other
		c.report(t, "", "type mismatch: `%s` is %s and `%s` is %s; no coercion takes either to the other's type",
			c.src[t.Args[0].Start:t.Args[0].End], a.num, c.src[t.Args[1].Start:t.Args[1].End], b.num)
	}
	switch t.Text {
	case "+", "-", "*", "/", "%", "^":
		// a proposition, a type or a proof beside a number, or a proof
		// beside anything: no instance adds them, and none of them has a
		// coercion to a number. A function is silent: Real.exp + 1 is
		// Pi's, and the library's tree may declare a polynomial's `X` with
		// parameters (Mathlib here: `def X (i : ι) : C` in
		// Polynomial/Basic.lean), which ProofNet's `X ^ p` then meets.
		if number(b) || a.kind == kProof {
			c.notNumber(t.Args[0], a, t.Text, t.Text != "^" && c.noFunctionCoercion(b))
		}
		if number(a) || b.kind == kProof {
			c.notNumber(t.Args[1], b, t.Text, t.Text != "^" && c.noFunctionCoercion(a))
		}
		c.typeOperand(t, a, b)
	case "=", "≠", "<", "≤", "<=", ">", "≥", ">=":
		// a number compared with a proof, a proposition or a type: the two
		// sides have no common type; with a function, see
		// noFunctionCoercion
		if t.Text != "=" && t.Text != "≠" && (number(a) || number(b)) && (c.lacks(a, "LE") || c.lacks(b, "LE")) {
			n := a.num
			if !c.lacks(a, "LE") {
				n = b.num
			}
			c.report(t, "", "failed to synthesize `%s %s`: %s has no order here (Mathlib's is scoped: open ComplexOrder), and a comparison of moduli is written ‖z‖ < ‖w‖",
				map[bool]string{true: "LT", false: "LE"}[t.Text == "<" || t.Text == ">"], n, n)
		}
		if number(a) && number(b) && !(a.lit && b.lit) {
			// n = -1, n = 2.5 with (n : ℕ): binrel% elaborates both sides
			// at the widest type of their numbers, ℕ here, which has no
			// negation and no decimals
			n := join(a.num, b.num)
			if a.lit {
				n = b.num
			} else if b.lit {
				n = a.num
			}
			c.noNeg(t, info{kind: kValue, num: n, neg: a.neg || b.neg}, n)
			c.noSci(t, info{kind: kValue, num: n, sci: a.sci || b.sci}, n)
		}
		if number(b) && !b.lit || b.lit && a.kind == kProof {
			c.notNumber(t.Args[0], a, t.Text, c.noFunctionCoercion(b) || a.proofNext)
		}
		if number(a) && !a.lit || a.lit && b.kind == kProof {
			c.notNumber(t.Args[1], b, t.Text, c.noFunctionCoercion(a) || b.proofNext)
		}
		c.numeralBesideSort(t, a, b)
		for i, x := range []info{a, b} {
			if y := []info{b, a}[i]; x.kind == kFunc && x.typeFirst && (y.kind == kValue && !y.lit || y.kind == kFunc && y.detail == localFunction) && (t.Text == "=" || t.Text == "≠") {
				// f = RingHom.id with (f : ℤ →+* ℤ): RingHom.id takes the
				// type first, and no value or local function has a type
				// that is a Π over a universe, nor coerces to one
				c.report(t.Args[i], x.what, "type mismatch: `%s` takes a type as its next explicit argument (%s), so it is no value of the type of `%s`; give it the type",
					c.src[t.Args[i].Start:t.Args[i].End], x.detail, c.src[t.Args[1-i].Start:t.Args[1-i].End])
				break
			}
		}
	case "∣":
		// Dvd.dvd a b: a number first fixes the type, and no function
		// (`Fintype.card` unapplied) coerces to a number
		if number(a) && !a.lit && b.kind == kFunc {
			c.notNumber(t.Args[1], b, t.Text, true)
		}
		if number(a) && number(b) && !a.lit && !b.lit && !a.neg && a.of == "" && b.of == "" && !coerces(b.num, a.num) && !c.glued(t) {
			// a.natAbs ∣ b with (b : ℤ): no binop%, so the first fixes
			// the type and the second must coerce to it
			c.report(t.Args[1], "", "type mismatch: `%s` is %s, but `%s` (%s) fixed the type of `∣` (no coercion %s → %s)",
				c.src[t.Args[1].Start:t.Args[1].End], b.num, c.src[t.Args[0].Start:t.Args[0].End], a.num, b.num, a.num)
		}
	case "∈", "∉":
		// nothing is a member of a type, a proposition, a proof or a number,
		// nor of a function that is no predicate (`closure` unapplied), nor
		// of a pair
		switch {
		case c.pairDomain(t.Args[1]):
		case b.kind == kFunc && b.notPred:
			c.report(t.Args[1], b.what, "failed to synthesize `Membership`: `%s` is a function (`%s`: %s), not a set", c.src[t.Args[1].Start:t.Args[1].End], b.what, b.detail)
		case c.nonValue(t.Args[1], b, false) != "":
			c.report(t.Args[1], b.what, "failed to synthesize `Membership`: `%s` is %s, not a set", c.src[t.Args[1].Start:t.Args[1].End], c.nonValue(t.Args[1], b, false))
		case b.kind == kValue && !b.lit && b.num != numNone:
			c.report(t.Args[1], "", "failed to synthesize `Membership`: `%s` is a number of type %s, not a set", c.src[t.Args[1].Start:t.Args[1].End], b.num)
		default:
			if kind, elem := c.elements(t.Args[1], scope); elem != numNone && number(a) && !a.lit && !coerces(a.num, elem) {
				// the element type of a Set or Finset is Membership's outParam:
				// x ∈ s elaborates x as an element, up to coercion
				c.report(t.Args[0], "", "type mismatch: `%s` is %s, but the elements of `%s` (a %s %s) are %s (no coercion %s → %s)",
					c.src[t.Args[0].Start:t.Args[0].End], a.num, c.src[t.Args[1].Start:t.Args[1].End], kind, elem, elem, a.num, elem)
			}
		}
	case "⊆", "⊂", "∪", "∩", "\\":
		c.finsetDecidable(t, scope)
		// numbers have no subsets
		for i, x := range []info{a, b} {
			if x.kind == kValue && !x.lit && x.num != numNone {
				arg := t.Args[i]
				c.report(arg, "", "failed to synthesize `%s`: `%s` is a number of type %s, not a set", t.Text, c.src[arg.Start:arg.End], x.num)
			}
		}
		// beside a set, an element of a type variable (x ⊆ U with (x : X)
		// (U : Set X)): the operation relates two values of one type, and
		// no coercion takes a point to a set ({x} is its singleton)
		for i, x := range []info{a, b} {
			if other := []info{b, a}[i]; other.set && x.kind == kValue && x.tv != "" && c.noCoercionFrom(x.tv) && !c.likeInstance(x.tv) {
				arg := t.Args[i]
				c.report(arg, "", "type mismatch: `%s` is a value of type %s, a point, but `%s` is a Set (membership is `∈`; the singleton is `{%s}`)",
					c.src[arg.Start:arg.End], x.tv, c.src[t.Args[1-i].Start:t.Args[1-i].End], c.src[arg.Start:arg.End])
				break
			}
		}
		// beside a set, a function that is no predicate (Metric.closedBall
		// x, its radius missing) has another type
		for i, x := range []info{a, b} {
			if other := []info{b, a}[i]; other.set && x.kind == kFunc && x.notPred {
				arg := t.Args[i]
				c.report(arg, x.what, "type mismatch: `%s` is a function (`%s`: %s), not a set like `%s`", c.src[arg.Start:arg.End], x.what, x.detail, c.src[t.Args[1-i].Start:t.Args[1-i].End])
			}
		}
	}
	r := c.arith(t, a, b)
	if r.kind == kValue && (a.neg || b.neg && t.Text != "^") {
		// an exponent is elaborated apart
		r.neg = true
	}
	if r.kind == kValue && (a.sci || b.sci && t.Text != "^") {
		r.sci = true
	}
	r.inv, r.abs = false, false
	return r
}

// arith is what binary operation t on a and b gives, for infix: the type
// of arithmetic, a proposition for a relation.
func (c *checker) arith(t *leansrc.Term, a, b info) info {
	switch t.Text {
	case "+", "-", "*", "/", "%":
		if a.kind == kFunc && b.lit || b.kind == kFunc && a.lit {
			// Real.exp - 1 is Pi's: a function still
			if a.kind == kFunc {
				return a
			}
			return b
		}
		if a.kind != kValue || b.kind != kValue || a.of != "" || b.of != "" {
			return info{}
		}
		switch {
		case a.lit && b.lit:
			return a
		case a.lit:
			return b
		case b.lit:
			return a
		case a.num == numNone || b.num == numNone:
			return info{}
		}
		if j := join(a.num, b.num); j != numNone {
			return info{kind: kValue, num: j}
		}
		return info{}
	case "^":
		if a.kind == kValue && !a.lit && a.num != numNone || a.kind == kFunc && a.notPred && !strings.HasPrefix(c.src[t.Args[1].Start:], "[") {
			return a // Real.sin ^ 2 is Pi's power, a function still (f^[n] is notation)
		}
		return info{}
	case "<", "≤", "<=", ">", "≥", ">=", "=", "≠", "∣", "∈", "∉", "⊆", "⊂":
		// a type beside a relation, or an operator glued to both sides,
		// may be notation the parser splits (ℝ≥0, Set ℝ≥0∞)
		return info{kind: kSort, prop: a.kind != kSort && b.kind != kSort && !c.glued(t)}
	}
	return info{}
}

// elements returns, when t is certainly a Set or a Finset of numbers (a
// local so typed, or a library function whose result type is written so:
// Finset.range n), which it is and its element type.
func (c *checker) elements(t *leansrc.Term, scope map[string]local) (string, num) {
	var typ *leansrc.Term
	switch {
	case t.Kind == leansrc.TermIdent:
		if l, ok := scope[t.Text]; ok {
			typ = l.typ
			break
		}
		fallthrough
	case t.Kind == leansrc.TermApp && t.Args[0].Kind == leansrc.TermIdent:
		head, args := t, 0
		if t.Kind == leansrc.TermApp {
			head, args = t.Args[0], len(t.Args)-1
		}
		if _, local := scope[strings.Split(head.Text, ".")[0]]; local {
			return "", numNone
		}
		sg, ok := c.resolve(head.Text)
		if !ok || !sg.known || !sg.exact || len(sg.params) != args || sg.resText == "" || sg.decl == nil {
			return "", numNone
		}
		typ = c.env.parse(sg.resText)
		if typ.Kind != leansrc.TermApp || len(typ.Args) != 2 || typ.Args[0].Kind != leansrc.TermIdent {
			return "", numNone
		}
		found, ok := lookupFrom(sg.decl, typ.Args[0].Text, c.env.Lookup)
		if !ok {
			return "", numNone
		}
		typ = &leansrc.Term{Kind: leansrc.TermApp, Args: []*leansrc.Term{{Kind: leansrc.TermIdent, Text: found.Name}, typ.Args[1]}}
	}
	if typ == nil || typ.Kind != leansrc.TermApp || len(typ.Args) != 2 || typ.Args[0].Kind != leansrc.TermIdent || typ.Args[1].Kind != leansrc.TermIdent {
		return "", numNone
	}
	head := typ.Args[0].Text
	if fulls := c.env.Resolve(head); len(fulls) == 1 {
		head = fulls[0]
	}
	if head != "Set" && head != "Finset" {
		return "", numNone
	}
	if d, ok := c.env.Lookup(head); !ok || d.Name != head {
		return "", numNone
	}
	return head, numOf(typ.Args[1].Text)
}

// lacks reports whether a, a value of a number type (not a numeral),
// certainly has no instance of class in the stub's scope: by what every
// library shares (noInstance), or for ℂ, whose order Mathlib gives only
// under an open, by the library's instances (NumberHas; those on ℕ … ℝ
// come partly from Lean core, which the index lacks).
func (c *checker) lacks(a info, class string) bool {
	if a.kind != kValue || a.lit || a.of != "" || a.num == numNone {
		return false
	}
	if noInstance(a.num, class) != "" {
		return true
	}
	return a.num == numComplex && c.env.NumberHas != nil && !c.env.NumberHas(a.num.String(), class)
}

// opClass is the class whose instance a binary operation on values of
// one type needs (a + b: HAdd through Add).
// opTree are the operators whose operands Lean's expression tree
// elaborator (binop%, binrel%, rightact% for ^) reads as leaves.
var opTree = setOf("+", "-", "*", "/", "%", "^", "=", "≠", "<", "≤", "<=", ">", "≥", ">=")

var opClass = map[string]string{"+": "Add", "*": "Mul", "-": "Sub", "/": "Div", "≤": "LE", "≥": "LE", "<": "LT", ">": "LT"}

// variableOp checks binary operation t on values a and b of one of the
// stub's type variables (or a numeral beside one): the variable's local
// instances must provide the operation's class (`a + b` under [Group G]
// does not). It returns the variable when the result is a value of it.
func (c *checker) variableOp(t *leansrc.Term, a, b info) string {
	tv := a.tv
	if tv == "" {
		tv = b.tv
	}
	if t.Text == "^" {
		// a ^ 2 (Monoid.npow): a value of a's type, the exponent a ℕ
		natural := b.lit && !b.neg && !b.sci || !b.lit && b.kind == kValue && b.num == numNat && b.of == ""
		if a.tv == "" || a.kind != kValue || !natural || c.env.VariableHas == nil || c.env.Notation || c.glued(t) {
			return ""
		}
		classes := c.typeVars[a.tv]
		switch {
		case c.env.VariableHas(classes, "Monoid"):
			return a.tv
		case !c.env.VariableHas(classes, "Pow"):
			have := "no local instance"
			if texts := c.typeVarTexts[a.tv]; len(texts) > 0 {
				have = "the local instances [" + strings.Join(texts, "] [") + "]"
			}
			c.report(t, "", "failed to synthesize `HPow %s ℕ`: `%s` has %s, and none provides `^` with a natural exponent (a monoid's power; through its parents or the library's instances)",
				a.tv, a.tv, have)
		}
		return ""
	}
	class, ok := opClass[t.Text]
	if tv == "" || !ok || !(a.tv == tv || a.lit) || !(b.tv == tv || b.lit) || c.env.VariableHas == nil || c.env.Notation || c.glued(t) || c.mixed[t] {
		// notation the header declares may give the symbol a meaning
		return ""
	}
	classes := c.typeVars[tv]
	if !c.env.VariableHas(classes, class) {
		have := "no local instance"
		if texts := c.typeVarTexts[tv]; len(texts) > 0 {
			have = "the local instances [" + strings.Join(texts, "] [") + "]"
		}
		c.report(t, "", "failed to synthesize `%s %s`: `%s` has %s, and none provides `%s` (through its parents or the library's instances)",
			class, tv, tv, have, t.Text)
		return ""
	}
	switch t.Text {
	case "≤", "≥", "<", ">":
		return ""
	}
	return tv
}

// finsetDecidable reports s ∪ t, s ∩ t or s \ t on Finsets of a stub's
// type variable with no local instance at all, under a header that does
// not open Classical: Finset's union needs `DecidableEq α`, and nothing
// gives a bare type one.
func (c *checker) finsetDecidable(t *leansrc.Term, scope map[string]local) {
	if t.Text == "⊆" || t.Text == "⊂" || c.env.Classical || c.env.Notation {
		return
	}
	// both sides Finsets of one variable the stub binds (`(s : Set α) ∪ t`
	// is a union of Sets)
	elem := func(a *leansrc.Term) string {
		l, ok := scope[a.Text]
		if a.Kind != leansrc.TermIdent || !ok || l.head != "Finset" || l.typ == nil || l.typ.Kind != leansrc.TermApp || len(l.typ.Args) != 2 || l.typ.Args[1].Kind != leansrc.TermIdent {
			return ""
		}
		return l.typ.Args[1].Text
	}
	v := elem(t.Args[0])
	if v == "" || elem(t.Args[1]) != v || c.typeVars[v] == nil || c.anyClass(c.typeVars[v]) {
		return
	}
	c.report(t, "", "failed to synthesize `DecidableEq %s`: `%s` of Finsets needs it, and `%s` has no local instance (add [DecidableEq %s], or open Classical)",
		v, t.Text, v, v)
}

// anyClass reports whether the types of a type variable's locals (see
// typeVariables) may include a class: a name the library does not declare
// as anything else (`Finset` of `(s : Finset α)` is a structure).
func (c *checker) anyClass(types []string) bool {
	for _, t := range types {
		name, _, _ := strings.Cut(t, "@")
		full := name
		if fulls := c.env.Resolve(name); len(fulls) == 1 {
			full = fulls[0]
		}
		d, ok := c.env.Lookup(full)
		if !ok || d.Kind == library.KindClass || d.Kind == library.KindClassInductive || d.Kind == library.KindAbbrev {
			return true
		}
	}
	return false
}

// markTree marks the nodes of the tree of arithmetic and relations rooted
// at t (through `^`'s base, not its exponent, which is elaborated apart)
// as mixed unless every leaf is a local of one of the stub's type
// variables, or a numeral: binop% elaborates a tree at the type its leaves
// join, so `H * H = (H : Set M)` with `(H : S)` and `[SetLike S M]`
// multiplies Sets, not values of S.
func (c *checker) markTree(t *leansrc.Term, scope map[string]local) {
	var nodes []*leansrc.Term
	tv, mixed := "", false
	var walk func(x *leansrc.Term)
	walk = func(x *leansrc.Term) {
		switch {
		case x.Kind == leansrc.TermInfix && opTree[x.Text]:
			nodes = append(nodes, x)
			walk(x.Args[0])
			if x.Text != "^" {
				walk(x.Args[1])
			}
		case x.Kind == leansrc.TermNum:
		case (x.Kind == leansrc.TermPrefix || x.Kind == leansrc.TermPostfix) && len(x.Args) == 1:
			walk(x.Args[0])
		case x.Kind == leansrc.TermIdent && scope[x.Text].tv != "" && (tv == "" || tv == scope[x.Text].tv):
			tv = scope[x.Text].tv
		default:
			mixed = true
		}
	}
	walk(t)
	for _, n := range nodes {
		c.mixed[n] = mixed
	}
}

// besideNumber reports a value of a library structure beside a number in
// arithmetic or a comparison (`Nat.divisors n ≤ n`, `s = 3` for a Finset
// s): binop% and binrel% elaborate both sides at one type, and the scope
// has no cast, coercion or numeral instance between them
// (Env.NumberBeside). `^` is silent: its exponent is elaborated apart.
func (c *checker) besideNumber(t *leansrc.Term, a, b info) {
	if !opTree[t.Text] || t.Text == "^" || c.env.NumberBeside == nil || c.env.Notation || c.glued(t) {
		return
	}
	for i, x := range []info{a, b} {
		y, arg := []info{b, a}[i], t.Args[1-i]
		if x.kind != kValue || x.of == "" || !number(y) || y.neg {
			continue
		}
		n := ""
		switch {
		case !y.lit:
			n = y.num.String()
		case arg.Kind == leansrc.TermNum:
			n = arg.Text // 0 needs Zero, 1 One, others NatCast
		}
		if c.env.NumberBeside(x.of, n) {
			continue
		}
		val, num := c.src[t.Args[i].Start:t.Args[i].End], c.src[arg.Start:arg.End]
		if y.lit {
			c.report(arg, x.of, "failed to synthesize `OfNat (%s …) %s`: the numeral stands beside `%s`, a value of type `%s …`, which has no numerals (no NatCast, no OfNat instance)",
				x.of, num, val, x.of)
		} else {
			c.report(arg, x.of, "type mismatch: `%s` is a number of type %s, beside `%s`, a value of type `%s …`; no cast or coercion joins them",
				num, y.num, val, x.of)
		}
		return
	}
}

// glued reports whether binary operation t is written with no space on
// either side of its operator (ℝ≥0, s ×ℂ t: the operator and a neighbour).
func (c *checker) glued(t *leansrc.Term) bool { return glued(c.src, t) }

// glued is checker.glued on the text src that t was parsed from.
func glued(src string, t *leansrc.Term) bool {
	l, r := t.Args[0].End, t.Args[1].Start
	if l > r || r > len(src) {
		return true
	}
	between := src[l:r]
	op := strings.Index(between, t.Text)
	if op < 0 {
		return true // the operator is not where the parse says
	}
	return op == 0 || op+len(t.Text) == len(between)
}

// bareSet reports whether t is a Set the stub binds as a variable (`(S :
// Set ℕ)`) that no instance binder mentions: nothing then gives ↥S a
// Fintype instance.
func (c *checker) bareSet(t *leansrc.Term, scope map[string]local) bool {
	l, ok := scope[t.Text]
	return t.Kind == leansrc.TermIdent && ok && l.binder > 0 && l.head == "Set" && !c.instanceMentions(nil, t.Text) && !c.env.Notation
}

// builderUniv reports a set-builder over a number type where a Finset is
// expected ({x : ℕ | x < n} for Finset.card): Mathlib reads it as the
// filter of Finset.univ, and no number type has a Fintype instance.
func (c *checker) builderUniv(t *leansrc.Term, a info) {
	if a.builderOf > numComplex || c.env.Notation {
		return
	}
	c.report(t, "", "failed to synthesize `Fintype %s`: where a Finset is expected, `%s` is the filter of Finset.univ over %s, which is infinite (bound it: `(Finset.range n).filter …`, or count the Set with `Set.ncard`)",
		a.builderOf, c.src[t.Start:t.End], a.builderOf)
}

// typeOperand reports arithmetic t (+ - * /) with an operand
// that is certainly a type (`G / H` for a quotient group, `Fin n + 1`):
// no type is a number, and no instance gives a universe arithmetic.
func (c *checker) typeOperand(t *leansrc.Term, a, b info) {
	class, ok := opClass[t.Text]
	if !ok || c.glued(t) || c.env.Notation {
		return // ^ and % too: Pi and other instances, or nothing certain
	}
	for i, x := range []info{a, b} {
		if other := []info{b, a}[i]; x.kind != kSort || !x.ty && !x.large || number(other) || other.kind == kProof {
			continue // beside a number or a proof: notNumber's
		}
		hint := ""
		if t.Text == "/" {
			hint = " (a quotient is written with ⧸, `G ⧸ H`)"
		}
		arg := t.Args[i]
		c.report(arg, "", "failed to synthesize `H%s`: `%s` is a type, and types have no arithmetic%s", class, c.src[arg.Start:arg.End], hint)
		return
	}
}

// numeralBesideSort reports a relation t between a numeral and a term
// that is certainly a proposition or a type (`Nat.Coprime a b = 1`):
// the numeral is elaborated at the other side's type, and no proposition
// or universe has a numeral.
func (c *checker) numeralBesideSort(t *leansrc.Term, a, b info) {
	for i, x := range []info{a, b} {
		lit := []info{b, a}[i]
		if !lit.lit || x.kind != kSort || !x.prop && !x.ty {
			continue
		}
		noun, sort := "proposition", "Prop"
		if !x.prop {
			noun, sort = "type", "Type"
		}
		num := t.Args[1-i]
		c.report(num, "", "failed to synthesize `OfNat %s %s`: `%s` is a %s, so `%s` is elaborated as one, and no %s is a numeral",
			sort, c.src[num.Start:num.End], c.src[t.Args[i].Start:t.Args[i].End], noun, c.src[num.Start:num.End], noun)
		return
	}
}

// notNumber reports arg, of inferred kind a, where an operation op on
// numbers needs a number: a proof, a proposition or a type; a function
// when fn is set.
func (c *checker) notNumber(arg *leansrc.Term, a info, op string, fn bool) {
	if what := c.nonValue(arg, a, fn); what != "" {
		c.report(arg, a.what, "failed to synthesize `%s`: `%s` is %s, not a number", op, c.src[arg.Start:arg.End], what)
	}
}

// noFunctionCoercion reports whether a is a value of type ℝ or ℂ, not a
// numeral, that the scope has no coercion to a function for, so that a
// function beside it in arithmetic or a comparison has no common type with
// it. A numeral is a function through Pi's OfNat, and ℕ, ℤ and ℚ cast to
// any type with a NatCast, IntCast or RatCast (Lean core's casts), as
// functions into one are: `Nat.choose (2 * n) = n` is `… = ↑n`. `^` is
// silent: Pi's Pow makes `f ^ x` a function.
func (c *checker) noFunctionCoercion(a info) bool {
	return a.kind == kValue && !a.lit && a.of == "" && (a.num == numReal || a.num == numComplex) &&
		c.env.CoercesToFunction != nil && !c.env.CoercesToFunction(a.num.String())
}

// number reports whether a is certainly a number: a numeral or a value
// of a core numeric type.
func number(a info) bool { return a.kind == kValue && (a.lit || a.num != numNone) }

// nonValue says what a term of inferred kind a is when it certainly is no
// value (a proof, a proposition, a type; a function when fn is set), else "".
func (c *checker) nonValue(arg *leansrc.Term, a info, fn bool) string {
	switch {
	case a.kind == kFunc && fn:
		return "a function (`" + a.what + "`: " + a.detail + ")"
	case a.kind == kProof && a.hyp:
		return "a hypothesis (a proof)"
	case a.kind == kProof:
		return "a proof (`" + a.what + "` is a theorem)"
	case a.kind == kSort && a.prop:
		return "a proposition"
	case a.kind == kSort && a.ty:
		return "a type"
	case a.kind == kSort:
		return "a type or a proposition"
	}
	return ""
}

// dependent reads a dependent arrow or pair, (x y : T) → B or
// (x : T) × B: the bound names and their type.
func dependent(t *leansrc.Term) ([]string, *leansrc.Term, bool) {
	if t.Kind != leansrc.TermInfix || (t.Text != "→" && t.Text != "->" && t.Text != "×") {
		return nil, nil, false
	}
	a := t.Args[0]
	if a.Kind != leansrc.TermAscribe {
		return nil, nil, false
	}
	names := []*leansrc.Term{a.Args[0]}
	if a.Args[0].Kind == leansrc.TermApp {
		names = a.Args[0].Args
	}
	var out []string
	for _, n := range names {
		if n.Kind != leansrc.TermIdent || strings.Contains(n.Text, ".") {
			return nil, nil, false
		}
		out = append(out, n.Text)
	}
	return out, a.Args[1], true
}

// apply checks head applied to args (none for a bare name) and says what
// the application is.
func (c *checker) apply(whole, head *leansrc.Term, args []*leansrc.Term, scope map[string]local) info {
	infos := make([]info, len(args))
	named := false
	for i, a := range args {
		infos[i] = c.infer(a, scope)
		if a.Kind == leansrc.TermUnsupported && (strings.Contains(a.Text, ":=") || strings.TrimSpace(a.Text) == "..") {
			named = true
		}
	}
	name := head.Text
	if _, local := scope[strings.Split(head.Text, ".")[0]]; !local {
		c.pairForSet(head, args)
	}
	if l, ok := scope[name]; ok && len(args) > 0 && args[0].Start > head.End && c.pairDomainless(l, args[0]) {
		// A (0, 0) with (A : Matrix (Fin 2) (Fin 2) ℝ): an entry is A i j
		// (a stub's own name, no notation; a pair is read whole)
		d := c.domainOf(l)
		hint := ""
		if l.head == "Matrix" {
			hint = fmt.Sprintf(" (an entry is `%s %s %s`)", name, c.src[args[0].Args[0].Start:args[0].Args[0].End], c.src[args[0].Args[1].Start:args[0].Args[1].End])
		}
		c.report(args[0], name, "application type mismatch: `%s` is a pair (a `Prod`), but `%s` expects a value of type `%s`%s",
			c.src[args[0].Start:args[0].End], name, strings.TrimSuffix(strings.TrimPrefix(c.src[d.Start:d.End], "("), ")"), hint)
		return info{}
	}
	switch {
	case name == "Type" || name == "Sort" || name == "Prop":
		return info{kind: kSort}
	case named || strings.HasPrefix(name, "@") || strings.HasPrefix(name, "_root_.") || name == "_" || c.notation(head, args, scope):
		return info{}
	}
	root, _, dotted := strings.Cut(name, ".")
	if l, ok := scope[root]; ok {
		if l.binder > 0 {
			c.uses[root]++
			if dotted || len(args) > 0 {
				c.unsafe[root] = true // x.natAbs, x y: the type matters
			}
		}
		if l.cod == numNone && !dotted {
			// u : ℕ → X applied: its arguments are of its number domains
			for i := 0; i < len(args) && i < len(l.dom); i++ {
				c.numArg(args[i], infos[i], l.dom[i], root, scope)
			}
		}
		switch {
		case l.cod != numNone && !dotted && len(args) > 0:
			// f : ℕ → ℝ applied
			for i := 0; i < len(args) && i < len(l.dom); i++ {
				c.numArg(args[i], infos[i], l.dom[i], root, scope)
				if what := c.nonValue(args[i], infos[i], true); what != "" {
					// f (x ∈ Set.Icc 0 1): a proposition is no number
					c.report(args[i], root, "type mismatch: `%s` expects a value of type `%s`, but `%s` is %s", root, l.dom[i], c.src[args[i].Start:args[i].End], what)
				}
			}
			if len(args) > len(l.dom) {
				c.report(whole, root, "function expected: `%s` takes %s, given %d, and its value is a number of type %s", root, count(len(l.dom)), len(args), l.cod)
				return info{}
			}
			if len(args) == len(l.dom) {
				return info{kind: kValue, num: l.cod}
			}
			return info{}
		case l.setDom != "" && !dotted && len(args) > 0 && infos[0].kind == kValue && !infos[0].lit && infos[0].num != numNone:
			// f : S → ℝ applied to a number: its domain is the subtype ↥S
			c.report(args[0], root, "application type mismatch: `%s` is a number of type %s, but `%s` expects an element of `%s` (a value of the subtype `↥%s`; no coercion %s → ↥%s)",
				c.src[args[0].Start:args[0].End], infos[0].num, root, l.setDom, l.setDom, infos[0].num, l.setDom)
			return info{}
		case !dotted && len(args) > 0 && infos[0].set && c.typeVarDomain(l) != "":
			// f s with (f : X → Y) (s : Set X): f's domain is X, and no
			// coercion takes a Set to a type variable (the image is f '' s)
			c.report(args[0], root, "application type mismatch: `%s` is a Set, but `%s` expects a value of type `%s` (the image of a set is `%s '' %s`)",
				c.src[args[0].Start:args[0].End], root, c.typeVarDomain(l), root, c.src[args[0].Start:args[0].End])
			return info{}
		case l.cod != numNone && !dotted:
			// f : ℕ → ℝ not applied
			return info{kind: kFunc, what: root, detail: localFunction, notPred: true}
		case l.num != numNone && !dotted && len(args) > 0:
			// ℕ, ℤ, ℚ, ℝ, ℂ have no coercion to functions
			c.report(whole, root, "function expected: `%s` is a number of type %s, it cannot be applied to an argument", root, l.num)
			return info{}
		case l.num != numNone && dotted && !strings.Contains(name[len(root)+1:], "."):
			return c.field(whole, head, name[len(root)+1:], numSpace[l.num], info{kind: kValue, num: l.num}, args, infos, scope)
		case l.head != "" && dotted && !strings.Contains(name[len(root)+1:], "."):
			// s.card with (s : Finset ℕ): Finset.card s
			return c.field(whole, head, name[len(root)+1:], l.head, info{}, args, infos, scope)
		case l.ofType != "" && dotted:
			// g.order with (g : G) under (G : Type*): Lean looks the field up
			// in the namespace of the constant heading g's type, and G is none
			c.report(head, name, "invalid field notation: the type of `%s` is `%s`, a variable of the statement, not of the form (C …) where C is a constant", root, l.ofType)
			return info{}
		case l.head != "" && !dotted && len(args) == 1 && c.functionValue(l.head) != numNone:
			// μ s with (μ : Measure Ω): an ℝ≥0∞
			c.setDomain(root, l.head, args[0], infos[0])
			return info{kind: kValue, num: c.functionValue(l.head)}
		case l.head != "" && !dotted && len(args) > 0 && c.noFunctionFrom(l.head):
			// p x with (p : Polynomial ℝ): no coercion to a function
			c.report(whole, root, "function expected: `%s` is a value of type `%s`, which has no coercion to a function", root, c.src[l.typ.Start:l.typ.End])
			return info{}
		case dotted && l.binder > 0 && c.pairField(name[len(root)+1:], l):
			// A.x with (A : ℝ × ℝ): a pair's components are A.1 and A.2
			f := name[len(root)+1:]
			c.report(head, name, "invalid field `%s`: the environment does not contain `Prod.%s` (`%s` is a pair, of type `%s`; its components are `%s.1` and `%s.2`)",
				f, f, root, c.src[l.typ.Start:l.typ.End], root, root)
			return info{}
		case l.isType && l.binder > 0 && dotted:
			// G.card with (G : Type*): a type's type is a universe, no (C …)
			c.report(head, name, "invalid field notation: `%s` is a type (its type is a universe), not a value of a type of the form (C …) where C is a constant", root)
			return info{}
		case dotted && c.plainArrow(l.typ) && !strings.Contains(name[len(root)+1:], ".") && c.noFunctionField(name[len(root)+1:]):
			// f.deriv with (f : ℝ → ℝ): Lean looks in Function
			c.report(head, name, "invalid field `%s`: the environment does not contain `Function.%s` (`%s` is a function)", name[len(root)+1:], name[len(root)+1:], root)
			return info{}
		case l.isType && !dotted && len(args) > 0:
			c.report(whole, root, "function expected: `%s` is a type, it cannot be applied to an argument", root)
			return info{}
		case dotted && strings.Count(name[len(root)+1:], ".") == 1 && (l.num != numNone || l.head != ""):
			return c.fieldChain(whole, head, root, l, args, infos, scope)
		case !dotted && len(args) == 1 && l.head == "Matrix" && c.domainOf(l) != nil:
			// A i with (A : Matrix m n α): a row, a function of the column
			if v, ok := scope[args[0].Text]; ok && args[0].Kind == leansrc.TermIdent && v.binder > 0 && c.plainArrow(v.typ) && c.rigidIndex(c.domainOf(l)) {
				// A v with (v : Fin 2 → ℝ): a vector is no row index
				c.report(args[0], root, "application type mismatch: `%s` is a function (of type `%s`), but `%s` is a matrix whose rows are indexed by `%s` (a matrix times a vector is `%s *ᵥ %s`)",
					args[0].Text, c.src[v.typ.Start:v.typ.End], root, leansrc.Unparen(c.src[c.domainOf(l).Start:c.domainOf(l).End]), root, args[0].Text)
				return info{}
			}
			return info{kind: kFunc, what: root, detail: "a row of the matrix, a function of its column", notPred: true}
		case !dotted && len(args) > 0 && c.variableArrow(l) != nil:
			// f x with (f : G →* H): x must be a G, and f x is an H
			arrow := c.variableArrow(l)
			dom, cod := arrow.Args[0].Text, arrow.Args[1].Text
			if x := infos[0]; x.kind == kValue && x.num == numNone && c.distinctVariables(x.tv, dom) {
				c.report(args[0], root, "application type mismatch: `%s` is a value of type %s, but `%s` expects a value of type %s (no coercion between two type variables of the statement)",
					c.src[args[0].Start:args[0].End], x.tv, root, dom)
				return info{}
			}
			if len(args) == 1 {
				return info{kind: kValue, tv: cod}
			}
			return info{}
		case dotted || len(args) > 0:
			return info{}
		}
		if l.proof {
			return info{kind: kProof, hyp: true, what: name}
		}
		if l.head == "Set" {
			return info{kind: kValue, set: true}
		}
		if l.isType {
			return info{kind: kSort, ty: true, local: true}
		}
		if l.tv != "" {
			return info{kind: kValue, tv: l.tv}
		}
		if l.num == numNone {
			if d, ok := c.env.Lookup(l.head); ok && l.head != "" && (d.Kind == library.KindStructure || d.Kind == library.KindInductive) {
				return info{kind: kValue, of: l.head, ofLocal: true} // (s : Finset ℕ)
			}
			return info{}
		}
		return info{kind: kValue, num: l.num}
	}
	sg, ok := c.resolve(name)
	if !ok {
		if !dotted && c.onlyNamespace(name) {
			c.report(head, name, "unknown identifier `%s`: the library has a namespace `%s` but no declaration of that name", name, name)
		}
		return info{}
	}
	return c.applySig(whole, name, sg, args, infos, scope)
}

// pairForSet reports a pair `(a, b)` given where a constant's signature
// expects a Set or a Finset (`ContinuousOn f (0, 1)` for an interval):
// `(a, b)` is always Prod.mk, and neither has a coercion from a product.
// The pair must stand apart from what precedes it (`Γ(X, U)` is notation).
func (c *checker) pairForSet(head *leansrc.Term, args []*leansrc.Term) {
	if head.Kind != leansrc.TermIdent || strings.HasPrefix(head.Text, "@") || strings.Contains(head.Text, ".") && len(c.env.Resolve(head.Text)) == 0 {
		return
	}
	end := head.End
	var sg sig
	for i, a := range args {
		glued := a.Start == end
		end = a.End
		pair := a.Kind == leansrc.TermTuple && len(a.Args) == 2
		if !pair && !c.plainList(a) || glued {
			continue
		}
		if sg.kind == "" {
			var ok bool
			if sg, ok = c.resolve(head.Text); !ok || !sg.known || !sg.exact {
				return
			}
		}
		if i >= len(sg.params) {
			continue
		}
		switch {
		case pair && valueType(sg.params[i]):
			c.report(a, head.Text, "type mismatch: `%s` is a pair (a `Prod`), but `%s` expects a value of type `%s` (an interval is `Set.Ioo a b`, `Set.Icc a b`, …)",
				c.src[a.Start:a.End], head.Text, sg.params[i])
		case pair && numOf(sg.params[i]) != numNone:
			// Nat.gcd (a, b): the arguments are given apart
			c.report(a, head.Text, "type mismatch: `%s` is a pair (a `Prod`), but `%s` expects a value of type %s (its arguments are written apart: `%s %s %s`)",
				c.src[a.Start:a.End], head.Text, sg.params[i], head.Text, c.src[a.Args[0].Start:a.Args[0].End], c.src[a.Args[1].Start:a.Args[1].End])
		case !pair && (collectionType(sg.params[i], "Set") || collectionType(sg.params[i], "Finset")):
			// ContinuousOn f [a, b]: a List, which no coercion makes a Set
			c.report(a, head.Text, "type mismatch: `%s` is a List, but `%s` expects a value of type `%s` (a closed interval is `Set.Icc a b`; a set of points `{a, b}`)",
				c.src[a.Start:a.End], head.Text, sg.params[i])
		}
	}
}

// plainList reports whether t is a list literal of two names or numerals,
// `[a, b]`, which no notation of the library spells (Mathlib's `[[a, b]]`
// is Set.uIcc, `[x -[𝕜] y]` a segment).
func (c *checker) plainList(t *leansrc.Term) bool {
	if t.Kind != leansrc.TermList || len(t.Args) != 2 || c.env.Notation {
		return false
	}
	for _, a := range t.Args {
		if a.Kind != leansrc.TermIdent && a.Kind != leansrc.TermNum {
			return false
		}
	}
	inner := strings.TrimSpace(c.src[t.Start+1 : t.End-1])
	return strings.HasPrefix(c.src[t.Start:], "[") && inner == c.src[t.Args[0].Start:t.Args[0].End]+", "+c.src[t.Args[1].Start:t.Args[1].End]
}

// pairDomain reports t, a pair written where a set is expected after ∈
// (`x ∈ (a, b)`): no Membership instance takes a Prod; it reports whether
// it did.
func (c *checker) pairDomain(t *leansrc.Term) bool {
	if t.Kind != leansrc.TermTuple || len(t.Args) != 2 || c.env.Notation {
		return false
	}
	c.report(t, "", "failed to synthesize `Membership`: `%s` is a pair (a `Prod`), not a set (an open interval is `Set.Ioo a b`, a closed one `Set.Icc a b`)", c.src[t.Start:t.End])
	return true
}

// noFunctionFrom reports whether a value of a type headed by full, a
// structure or an inductive type of the library (which no unfolding makes
// a function type), certainly has no coercion to a function.
func (c *checker) noFunctionFrom(full string) bool {
	if c.env.FunctionFrom == nil {
		return false
	}
	d, ok := c.env.Lookup(full)
	return ok && (d.Kind == library.KindStructure || d.Kind == library.KindInductive) && !c.env.FunctionFrom(full)
}

// localFunction describes a local function between numbers.
const localFunction = "a local function between numbers"

// sortParam reports whether a parameter's type, as written, is a
// universe of types (Type*, Type u): its argument must be a type.
func sortParam(p string) bool {
	p = strings.TrimSpace(p)
	return sortText(p) || p == "Type" || strings.HasPrefix(p, "Type ") || strings.HasPrefix(p, "Type*")
}

// numSpace is the namespace of each numeric type, where Lean looks up a
// field of a number (n.Prime is Nat.Prime n).
var numSpace = [...]string{numNat: "Nat", numInt: "Int", numRat: "Rat", numReal: "Real", numComplex: "Complex",
	numNNReal: "NNReal", numENNReal: "ENNReal"}

// field checks x.f args, x a local of numeric type n or of a type headed
// by the constant space (see fieldOf).
func (c *checker) field(whole, head *leansrc.Term, f, space string, recvInfo info, args []*leansrc.Term, infos []info, scope map[string]local) info {
	root := head.Text[:len(head.Text)-len(f)-1]
	recv := &leansrc.Term{Kind: leansrc.TermIdent, Text: root, Start: head.Start, End: head.Start + len(root)}
	return c.fieldOf(whole, head, recv, f, space, recvInfo, args, infos, scope)
}

// fieldOf checks recv.f args, recv of a type headed by the constant space
// (or a number of that namespace's type): Lean reads space.f with recv
// as its first explicit argument whose type space heads, the others
// filled by args in order (`s.filter p` is Finset.filter p s, whose
// predicate comes first). Anything else is silent.
func (c *checker) fieldOf(whole, head, recv *leansrc.Term, f, space string, recvInfo info, args []*leansrc.Term, infos []info, scope map[string]local) info {
	full := space + "." + f
	var sg sig
	if d, ok := c.env.Lookup(full); ok {
		if d.Kind == library.KindField && d.Parent == space {
			// field Complex.re : ℝ
			_, typ, ok := strings.Cut(d.Signature, " : ")
			if m := numOf(typ); ok && m != numNone && len(args) == 0 {
				return info{kind: kValue, num: m}
			}
			if n := propArity(leansrc.ParseTerm(typ, nil)); ok && len(args) < n {
				// G.Adj u with field SimpleGraph.Adj : V → V → Prop: a
				// predicate still, no proposition
				return info{kind: kFunc, what: full, detail: fmt.Sprintf("it takes %s, given %d", count(n), len(args)), pred: n-len(args) == 1}
			}
			return info{}
		}
		sg = sigOf(d, &c.env, 0)
	} else if cs, ok := coreSig(full); ok {
		sg = cs
	} else {
		if c.noField(space, f) || c.noNumberField(space, f) {
			c.report(head, full, "invalid field `%s`: the environment does not contain `%s` (`%s` is a `%s`)", f, full, c.src[recv.Start:recv.End], space)
		}
		return info{}
	}
	k := slices.IndexFunc(sg.params, func(p string) bool { return typeHead(p, space) })
	if !sg.theorem && sg.known && k < 0 {
		if n, ok := noReceiver(sg.decl, space, len(args), &c.env); ok {
			// f.trace with LinearMap.trace (R) {M} …: Lean puts the
			// receiver at the first parameter of type (LinearMap …),
			// explicit or named; R must be given before a coercion of
			// the result to a function may take it
			c.report(head, full, "invalid field notation, function `%s` does not have argument with type (%s ...) that can be used, it must be explicit or implicit with a unique name (it takes %s before one, given %d)",
				full, space, count(n), len(args))
			return info{}
		}
	}
	if sg.theorem {
		// hp.two_le with (hp : Nat.Prime p): Nat.Prime.two_le hp, a proof
		return info{kind: kProof, what: full}
	}
	if !sg.known || !sg.exact || k < 0 || k > len(args) || !sg.added && implicitReceiver(sg.decl, space, &c.env) {
		return info{}
	}
	all := append(append(append([]*leansrc.Term{}, args[:k]...), recv), args[k:]...)
	allInfos := append(append(append([]info{}, infos[:k]...), recvInfo), infos[k:]...)
	return c.applySig(whole, full, sg, all, allInfos, scope)
}

// implicitReceiver reports whether the first binder of d's signature
// whose type space heads is implicit: Lean's
// field notation then passes the receiver as that named argument
// (`F.lift` with `lift {F : IntermediateField K L} (E : IntermediateField
// K F)` is `lift (F := F)`, a function still), not at an explicit one.
func implicitReceiver(d *library.Decl, space string, env *Env) bool {
	if d == nil {
		return false // core's, whose receivers are explicit
	}
	hdr, read := declHeader(d)
	if !read {
		return false
	}
	binders, _, read := leansrc.ParseHeader(hdr, env.Ops())
	if !read {
		return false
	}
	for _, b := range binders {
		if _, typ := leansrc.GroupNames(b, hdr); typeHead(typ, space) {
			return b.Bracket != '('
		}
	}
	return false
}

// noReceiver reports whether Lean's field notation certainly finds no
// parameter for a receiver of namespace space in d (def or opaque) given
// nargs explicit arguments, with a lower bound on d's explicit
// parameters: no binder of d, of the arrows of its result
// type, or of the section variables Lean may add has a type headed by
// space; its result type is no definition that may unfold to a function;
// and d takes more than nargs explicit arguments before its result, which
// Lean must fill before a coercion of the result to a function may take
// the receiver. Types match up to reducible unfolding (an abbrev: not
// certain), and a variable's type (`(f : F)`) matches nothing.
func noReceiver(d *library.Decl, space string, nargs int, env *Env) (explicit int, ok bool) {
	if d == nil || d.Kind != library.KindDef && d.Kind != library.KindOpaque || env.SectionBinders == nil || space == "Function" {
		return 0, false
	}
	hdr, read := declHeader(d)
	if !read {
		return 0, false
	}
	binders, typ, read := leansrc.ParseHeader(hdr, env.Ops())
	if !read || typ == nil {
		return 0, false
	}
	section, read := env.SectionBinders(d)
	if !read {
		return 0, false
	}
	lex, err := leansrc.Lex(hdr)
	if err != nil {
		return 0, false
	}
	used := map[string]bool{}
	for _, l := range lex {
		used[l.Text] = true
	}
	isVar := map[string]bool{}
	for _, g := range section {
		for _, n := range g.Names {
			isVar[n] = true
			if g.Explicit && used[n] {
				explicit++ // Lean adds the variables the signature uses
			}
		}
		if g.Type != "" && !notHeadedBy(env.parse(g.Type), space, d, isVar, env) {
			return 0, false
		}
	}
	bound := map[string]bool{}
	for n := range isVar {
		bound[n] = true
	}
	for _, b := range binders {
		names, typ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			if b.Bracket == '(' && !isVar[n] {
				explicit++
			}
			bound[n] = true
		}
		switch {
		case b.Type != nil && b.Type.Kind == leansrc.TermUnsupported && sortParam(typ):
			// (R : Type*), which the term parser leaves unread
		case b.Type == nil || !notHeadedBy(b.Type, space, d, bound, env):
			return 0, false
		}
	}
	for typ.Kind == leansrc.TermInfix && (typ.Text == "→" || typ.Text == "->") {
		if !notHeadedBy(typ.Args[0], space, d, bound, env) {
			return 0, false
		}
		explicit++
		typ = typ.Args[1]
	}
	if explicit <= nargs || !notHeadedBy(typ, space, d, bound, env) {
		return 0, false
	}
	h := typ
	if h.Kind == leansrc.TermApp {
		h = h.Args[0]
	}
	if h.Kind == leansrc.TermIdent {
		if p, ok := lookupFrom(d, h.Text, env.Lookup); ok && !p.Kind.IsTypeLike() {
			return 0, false // Set α unfolds to α → Prop
		}
	}
	return explicit, true
}

// notHeadedBy reports whether type t, written in d's signature where
// bound holds its variables, is certainly no application of the constant
// space up to reducible unfolding: a universe, an arrow (unless space is
// Function), a variable's type, a number type of another namespace, or a
// structure, class, inductive type or (not reducible) definition other
// than space, written by name or in the library's infix notation.
func notHeadedBy(t *leansrc.Term, space string, d *library.Decl, bound map[string]bool, env *Env) bool {
	if t == nil {
		return false
	}
	text := strings.TrimSpace(t.Text)
	switch {
	case (t.Kind == leansrc.TermIdent || t.Kind == leansrc.TermUnsupported) && (sortParam(text) || text == "Prop"):
		return true
	case t.Kind == leansrc.TermApp && t.Args[0].Kind == leansrc.TermIdent && (t.Args[0].Text == "Type" || t.Args[0].Text == "Sort"):
		return true
	case t.Kind == leansrc.TermInfix && arrow(t.Text):
		return space != "Function"
	}
	name := ""
	switch t.Kind {
	case leansrc.TermIdent:
		name = t.Text
	case leansrc.TermApp:
		if t.Args[0].Kind != leansrc.TermIdent {
			return false
		}
		name = t.Args[0].Text
	case leansrc.TermInfix:
		name, _ = infixParent(t, env)
	}
	if name == "" {
		return false
	}
	if bound[name] {
		return true // a variable: Lean's metavariable heads no constant
	}
	if n := numOf(name); n != numNone {
		return numSpace[n] != space
	}
	p, ok := lookupFrom(d, name, env.Lookup)
	if !ok {
		// Lean core's, which a library read from Mathlib's sources lacks
		return coreTypeFormers[name] && name != space
	}
	if p.Name == space {
		return false
	}
	switch p.Kind {
	case library.KindStructure, library.KindClass, library.KindInductive, library.KindClassInductive:
		return true
	case library.KindDef:
		// whnfR unfolds no plain definition, only one marked reducible;
		// one whose body names space stays unknown too
		_, last := leansrc.SplitLast(space)
		return !strings.Contains(p.Value, last) && !slices.ContainsFunc(p.Attrs, func(a string) bool { return strings.HasPrefix(a, "reducible") })
	}
	return false
}

// coreTypeFormers are types and classes of Lean core that signatures
// take instances or values of; the abbrevs among them (DecidableEq)
// unfold to functions.
var coreTypeFormers = setOf("Decidable", "DecidableEq", "DecidablePred", "DecidableRel", "Inhabited", "Nonempty",
	"Subsingleton", "Setoid", "BEq", "Hashable", "LawfulBEq", "Add", "Mul", "Sub", "Neg", "Div", "Mod", "Pow",
	"HAdd", "HMul", "HSub", "HDiv", "HMod", "HPow", "LE", "LT", "Max", "Min", "Zero", "One", "OfNat", "NatCast",
	"IntCast", "Membership", "Insert", "Singleton", "EmptyCollection", "Union", "Inter", "SDiff", "HasSubset",
	"HasSSubset", "List", "Array", "Option", "Fin", "Bool", "String", "Char", "Unit", "Prod", "Sum", "Sigma",
	"PSigma", "Subtype", "Eq", "Ne", "Iff", "And", "Or", "Not", "True", "False", "Nat", "Int")

// structureProj reports (e).f, a projection of a term that is certainly a
// value of a library structure (`(Nat.divisors n).length`: a Finset), when
// neither the structure's namespace nor those of the structures it extends
// have f, by the rules of field.
func (c *checker) structureProj(t *leansrc.Term, a info) {
	f := t.Text
	if a.kind != kValue || a.of == "" || a.ofLocal || !leansrc.IsIdentifier(f) || strings.Contains(f, ".") {
		return
	}
	full := a.of + "." + f
	if _, ok := c.env.Lookup(full); ok {
		return
	}
	if c.noField(a.of, f) {
		_, last := leansrc.SplitLast(a.of)
		c.report(t, full, "invalid field `%s`: the environment does not contain `%s` (`%s` is a `%s`)", f, full, c.src[t.Args[0].Start:t.Args[0].End], last)
	}
}

// typeProj reports (e).f, a projection of a term that is certainly a
// type (`(R ⧸ I).IsField`): its type is a universe, of no form (C …).
func (c *checker) typeProj(t *leansrc.Term, a info) {
	if a.kind != kSort || !a.ty && !a.large || a.local || !leansrc.IsIdentifier(t.Text) || c.env.Notation {
		return
	}
	c.report(t, "", "invalid field notation: `%s` is a type (its type is a universe), not a value of a type of the form (C …) where C is a constant", c.src[t.Args[0].Start:t.Args[0].End])
}

// setProj reports (e).f, a projection of a term that is certainly a Set
// (a set-builder), when neither Set's namespace nor Function's (Lean
// unfolds Set α to α → Prop) has f, by the rules of field:
// `{p : ℕ | p.Prime}.infinite`.
func (c *checker) setProj(t *leansrc.Term, a info) {
	f := t.Text
	if a.kind != kValue || !a.set || !leansrc.IsIdentifier(f) || strings.Contains(f, ".") {
		return
	}
	if _, ok := c.env.Lookup("Set." + f); ok {
		return
	}
	if c.noField("Set", f) {
		c.report(t, "Set."+f, "invalid field `%s`: the environment does not contain `Set.%s` (`%s` is a `Set`)", f, f, c.src[t.Args[0].Start:t.Args[0].End])
	}
}

// fieldChain checks x.f.g args, x a local of numeric type or of a type
// headed by a library constant: x.f as field reads it, then g as a field
// of what x.f certainly is (a number, a library structure's value), as
// Lean reads `(x.f).g args` (`a.val.Prime p` is Nat.Prime a.val p).
func (c *checker) fieldChain(whole, head *leansrc.Term, root string, l local, args []*leansrc.Term, infos []info, scope map[string]local) info {
	f, g, _ := strings.Cut(head.Text[len(root)+1:], ".")
	first := &leansrc.Term{Kind: leansrc.TermIdent, Text: root + "." + f, Start: head.Start, End: head.Start + len(root) + 1 + len(f)}
	var inner info
	if l.num != numNone {
		inner = c.field(first, first, f, numSpace[l.num], info{kind: kValue, num: l.num}, nil, nil, scope)
	} else {
		inner = c.field(first, first, f, l.head, info{}, nil, nil, scope)
	}
	switch {
	case inner.kind != kValue || inner.lit:
	case inner.num != numNone:
		return c.field(whole, head, g, numSpace[inner.num], inner, args, infos, scope)
	case inner.of != "":
		return c.field(whole, head, g, inner.of, inner, args, infos, scope)
	}
	return info{}
}

// quotientBySet reports G ⧸ N with N a local Set when no instance of the
// library quotients by a Set (Mathlib's are by subobjects: Subgroup,
// Submodule, Ideal).
func (c *checker) quotientBySet(t *leansrc.Term, scope map[string]local) {
	n := t.Args[1]
	l, ok := scope[n.Text]
	if n.Kind != leansrc.TermIdent || !ok || l.head != "Set" || c.env.TypeHas == nil || c.env.TypeHas("Set", "HasQuotient", 1) {
		return
	}
	c.report(n, "", "failed to synthesize `HasQuotient %s (Set …)`: `%s` is a Set, and the library quotients only by subobjects (a subgroup `(%s : Subgroup G)`, a submodule, an ideal; the subgroup a set generates is `Subgroup.closure %s`)",
		c.src[t.Args[0].Start:t.Args[0].End], n.Text, n.Text, n.Text)
}

// proofParam reports whether explicit parameter k of sg is certainly a
// proof: its type is a relation (`0 < n`) or a field of another explicit
// parameter that is a proposition (`H : s.Nonempty` with `(s : Finset
// α)`: Finset.Nonempty's result is Prop).
func (c *checker) proofParam(sg sig, k int) bool {
	if k >= len(sg.params) || sg.decl == nil {
		return false
	}
	t := c.env.parse(sg.params[k])
	if t.Kind == leansrc.TermInfix && relations[t.Text] && t.Text != "∧" && t.Text != "∨" && t.Text != "↔" {
		return true
	}
	if t.Kind != leansrc.TermIdent {
		return false
	}
	root, f, ok := strings.Cut(t.Text, ".")
	if !ok || strings.Contains(f, ".") {
		return false
	}
	i := slices.Index(sg.names[:k], root)
	if i < 0 {
		return false
	}
	head, _, _ := strings.Cut(strings.TrimSpace(sg.params[i]), " ")
	space, ok := lookupFrom(sg.decl, head, c.env.Lookup)
	if !ok || !space.Kind.IsTypeLike() {
		return false
	}
	d, ok := c.env.Lookup(space.Name + "." + f)
	if !ok || d.Kind != library.KindDef {
		return false
	}
	fs := sigOf(d, &c.env, 1)
	return fs.known && fs.res == resSort && fs.resText == "Prop"
}

// funLikeParam reports whether p, the type of a parameter of sg, is a
// type variable of bundled maps: an instance binder of the signature, or
// of a `variable` command in force at the definition (whose body then
// uses it), puts FunLike, DFunLike or EquivLike on it (Mathlib's hom
// classes take such an instance first).
func (c *checker) funLikeParam(sg sig, p string) bool {
	if slices.ContainsFunc(sg.varCons[p], func(k classPos) bool { return k.pos == 0 && funLikeClasses[k.class] }) {
		return true
	}
	d := sg.decl
	if d == nil || d.Kind != library.KindDef || c.env.SectionBinders == nil || !leansrc.IsIdentifier(p) {
		return false
	}
	groups, ok := c.env.SectionBinders(d)
	if !ok {
		return false
	}
	for _, g := range groups {
		t := c.env.parse(g.Type)
		if t.Kind == leansrc.TermApp && funLikeClasses[t.Args[0].Text] && t.Args[1].Kind == leansrc.TermIdent && t.Args[1].Text == p {
			return true
		}
	}
	return false
}

// funLikeClasses are the classes of types of bundled maps, with the type
// first.
var funLikeClasses = setOf("FunLike", "DFunLike", "EquivLike")

// quotientNoGroup reports x, a local of type `G ⧸ H` with H a local
// subgroup, when nothing makes H normal: no other binder mentions H (a
// local of a class type is an instance, whatever its brackets), and G's
// instances give no CommGroup (whose subgroups are all normal).
func (c *checker) quotientNoGroup(x *leansrc.Term, scope map[string]local) (g, h string, ok bool) {
	l, local := scope[x.Text]
	if x.Kind != leansrc.TermIdent || !local || l.typ == nil {
		return "", "", false
	}
	return c.nonNormalQuotient(l.typ, scope)
}

// nonNormalQuotient reports type t, `G ⧸ H` with H a local subgroup, when
// nothing makes H normal (see quotientNoGroup).
func (c *checker) nonNormalQuotient(t *leansrc.Term, scope map[string]local) (g, h string, ok bool) {
	if t.Kind != leansrc.TermInfix || t.Text != quotientSymbol || len(t.Args) != 2 || c.env.Notation || c.glued(t) {
		return "", "", false
	}
	gt, ht := t.Args[0], t.Args[1]
	lh, sub := scope[ht.Text]
	if gt.Kind != leansrc.TermIdent || ht.Kind != leansrc.TermIdent || c.typeVars[gt.Text] == nil || !sub || lh.head != "Subgroup" ||
		c.env.VariableHas == nil || c.env.VariableHas(c.typeVars[gt.Text], "CommGroup") {
		return "", "", false
	}
	for i, b := range c.s.Binders {
		if i+1 == lh.binder || strings.Contains(b.Type, quotientSymbol) {
			continue
		}
		lex, err := leansrc.Lex(b.Type)
		if err != nil || slices.ContainsFunc(lex, func(l leansrc.Lexeme) bool { return l.Text == ht.Text || strings.HasPrefix(l.Text, ht.Text+".") }) && !relationProp(b.Type) {
			return "", "", false // [H.Normal], (hH : H.Normal)
		}
	}
	return gt.Text, ht.Text, true
}

// relationProp reports whether typ is certainly a proposition no class
// is: a relation (`x ∈ H`), under ∀ binders and premises (`∀ x y : G, x * y
// * x⁻¹ * y⁻¹ ∈ H`). A local of that type is no instance.
func relationProp(typ string) bool {
	t := leansrc.ParseTerm(typ, nil)
	for {
		switch {
		case t.Kind == leansrc.TermForall && len(t.Args) == 1:
			t = t.Args[0]
		case t.Kind == leansrc.TermInfix && arrow(t.Text) && len(t.Args) == 2:
			t = t.Args[1]
		default:
			return t.Kind == leansrc.TermInfix && relations[t.Text] && len(t.Args) == 2
		}
	}
}

// numberField reports whether (e).f, e of info a, is a field of a number
// type's namespace that the library declares (`(μ s).toReal`).
func (c *checker) numberField(f string, a info) bool {
	if a.kind != kValue || a.lit || a.of != "" || a.num == numNone || !leansrc.IsIdentifier(f) || strings.Contains(f, ".") {
		return false
	}
	_, ok := c.env.Lookup(numSpace[a.num] + "." + f)
	return ok
}

// numberProj reports (e : T).f, a projection of a term that is certainly
// a number of type T, when T's namespace certainly has no f (`(p :
// ℤ).Prime`): as field for a local, by the same rules.
func (c *checker) numberProj(t *leansrc.Term, a info) {
	f := t.Text
	if a.kind != kValue || a.lit || a.of != "" || a.num == numNone || !leansrc.IsIdentifier(f) || strings.Contains(f, ".") {
		return
	}
	space := numSpace[a.num]
	full := space + "." + f
	if _, ok := c.env.Lookup(full); ok {
		return
	}
	if _, core := coreSig(full); core {
		return
	}
	if c.noField(space, f) || c.noNumberField(space, f) {
		recv := c.src[t.Args[0].Start:t.Args[0].End]
		c.report(t, full, "invalid field `%s`: the environment does not contain `%s` (`%s` is a `%s`)", f, full, recv, space)
	}
}

// noFunctionField reports whether the namespace Function, where Lean looks
// up x.f for a function x, certainly has no f: no name in scope is
// Function.f, and the library declares none.
func (c *checker) noFunctionField(f string) bool {
	if c.env.Lookup == nil || generatedField[f] || len(c.env.Resolve("Function."+f)) > 0 {
		return false
	}
	_, ok := c.env.Lookup("Function." + f)
	return !ok
}

// noField reports whether space, which a local's type names, certainly
// has no declaration space.f that Lean's dot notation would find: space is
// a structure of the library that extends nothing (Lean looks in the
// parents' namespaces too), or a definition of a function type (`Set α :=
// α → Prop`, which Lean unfolds, then looking in Function); no name in scope
// is space.f (or Function.f), and f is none of the declarations Lean
// generates for a structure.
func (c *checker) noField(space, f string) bool {
	d, ok := c.env.Lookup(space)
	if !ok || generatedField[f] || len(c.env.Resolve(space+"."+f)) > 0 {
		return false
	}
	spaces := []string{space}
	switch {
	case d.Kind == library.KindStructure:
		// Lean looks in the namespaces of the structure and of every
		// structure it extends (Subgroup: Submonoid, Subsemigroup, …)
		anc, ok := c.ancestors(d, 0)
		if !ok {
			return false
		}
		spaces = append(spaces, anc...)
	case d.Kind == library.KindDef && funcType(d.Value):
		// Set α := α → Prop: Lean unfolds it, and looks in Function then
		if len(c.env.Resolve("Function."+f)) > 0 {
			return false
		}
		spaces = append(spaces, "Function")
	case d.Kind == library.KindDef && quotientType(d.Value):
		// Multiset α := Quotient (isSetoid α): Lean unfolds it to Quotient
		// and Quot, namespaces of Lean core whose own members it knows
		if coreQuotient[f] || len(c.env.Resolve("Quotient."+f)) > 0 || len(c.env.Resolve("Quot."+f)) > 0 {
			return false
		}
		spaces = append(spaces, "Quotient", "Quot")
	default:
		return false
	}
	for _, ns := range spaces {
		for _, g := range append([]string{f, "«" + f + "»"}, additiveTwins(f)...) {
			// G.end is SimpleGraph.«end»; s.sum is Multiset.prod's
			// to_additive twin, which an index may lack
			if _, ok := c.env.Lookup(ns + "." + g); ok {
				return false
			}
		}
	}
	return true
}

// additiveWords pairs the words `to_additive` translates, each way.
var additiveWords = [][2]string{{"sum", "prod"}, {"add", "mul"}, {"Add", "Mul"}, {"zero", "one"}, {"Zero", "One"},
	{"neg", "inv"}, {"Neg", "Inv"}, {"sub", "div"}, {"Sub", "Div"}, {"nsmul", "pow"}, {"zsmul", "zpow"}, {"vadd", "smul"}}

// additiveTwins returns the names `to_additive` would pair f with: each
// translatable word of f swapped for its twin (sum for prod and back).
func additiveTwins(f string) []string {
	var out []string
	for _, w := range additiveWords {
		for _, pair := range [][2]string{w, {w[1], w[0]}} {
			if strings.Contains(f, pair[0]) {
				out = append(out, strings.ReplaceAll(f, pair[0], pair[1]))
			}
		}
	}
	return out
}

// quotientType reports whether a definition's value, as written, is a
// quotient type: `Quotient s` or `Quot r` applied.
func quotientType(value string) bool {
	head, _, _ := strings.Cut(strings.TrimSpace(value), " ")
	return head == "Quotient" || head == "Quot" || head == "_root_.Quotient"
}

// domainOf returns the domain of local l as its type is written: the
// left operand of a function arrow, or the row type of a `Matrix m n α`;
// nil otherwise.
func (c *checker) domainOf(l local) *leansrc.Term {
	switch t := l.typ; {
	case t == nil:
	case l.function():
		return t.Args[0]
	case l.head == "Matrix" && t.Kind == leansrc.TermApp && len(t.Args) == 4:
		return t.Args[1]
	}
	return nil
}

// rigidIndex reports whether index type d as written is certainly no
// function type: `Fin n`, a number type, or a type variable of the
// statement.
func (c *checker) rigidIndex(d *leansrc.Term) bool {
	switch {
	case d == nil:
		return false
	case d.Kind == leansrc.TermIdent:
		return numOf(d.Text) != numNone || c.typeVars[d.Text] != nil
	case d.Kind == leansrc.TermApp && len(d.Args) == 2 && d.Args[0].Kind == leansrc.TermIdent && d.Args[0].Text == "Fin":
		return true
	}
	return false
}

// pairDomainless reports whether arg, given first to local l, is a pair
// `(a, b)` while l's domain is certainly no product (rigidIndex: a number
// type, a type variable of the statement, or `Fin n`, a matrix's rows).
func (c *checker) pairDomainless(l local, arg *leansrc.Term) bool {
	d := c.domainOf(l)
	if d == nil || arg.Kind != leansrc.TermTuple || len(arg.Args) != 2 || l.binder == 0 || c.env.Notation {
		return false
	}
	return c.rigidIndex(d)
}

// plainValue reports whether arg is a local of the statement whose type
// is a type variable with no instance that may coerce its values to a
// sort, or a product (`ℝ × ℝ`): a value that is no type.
func (c *checker) plainValue(arg *leansrc.Term, scope map[string]local) bool {
	l, ok := scope[arg.Text]
	if arg.Kind != leansrc.TermIdent || !ok || l.binder == 0 || l.isType || l.typ == nil || c.env.Notation {
		return false
	}
	if l.tv != "" {
		return c.noCoercionFrom(l.tv) && !c.likeInstance(l.tv)
	}
	return c.pair(l)
}

// pair reports whether local l's type is written as a product (`ℝ × ℝ`,
// not glued to notation).
func (c *checker) pair(l local) bool {
	return l.typ != nil && l.typ.Kind == leansrc.TermInfix && l.typ.Text == "×" && !c.glued(l.typ)
}

// pairField reports whether f, a field of a local l of a product type
// (`ℝ × ℝ`), is certainly missing: no member Lean core declares in the
// namespace Prod, and none the library does.
func (c *checker) pairField(f string, l local) bool {
	if !c.pair(l) || c.env.Notation || strings.Contains(f, ".") || !leansrc.IsIdentifier(f) {
		return false
	}
	return !coreProd[f] && len(c.env.Resolve("Prod."+f)) == 0 && len(additiveTwins(f)) == 0
}

// coreProd are the members Lean core declares in the namespace Prod, which
// a library built from Mathlib's sources does not hold.
var coreProd = setOf("fst", "snd", "mk", "map", "swap", "eta", "ext", "ext_iff", "Lex", "lexLt", "lexLtDec", "RProd", "rprod",
	"lex", "lexAccessible", "allI", "anyI", "foldI", "fst_swap", "snd_swap", "swap_swap", "map_fst", "map_snd", "map_map",
	"map_id", "map_id'", "mk.injEq", "lex_def", "lexOrd", "instBEq", "instDecidableEq", "instHashable", "instInhabited",
	"instRepr", "instToString", "sizeOf_spec", "rec", "recOn", "casesOn", "noConfusion", "noConfusionType", "mk.inj",
	"toString", "repr")

// coreQuotient are the members Lean core declares in the namespaces Quot
// and Quotient (the library's own are found by name); a field of a
// quotient type with none of these names is none of core's.
var coreQuotient = setOf("mk", "mk'", "mk''", "mkSurjective", "lift", "lift₂", "liftOn", "liftOn₂", "liftOn'", "liftOn₂'",
	"ind", "ind₂", "inductionOn", "inductionOn₂", "inductionOn₃", "induction_on", "sound", "exact", "rec", "recOn",
	"recOnSubsingleton", "recOnSubsingleton₂", "hrecOn", "hrecOn₂", "exists_rep", "indep", "indepCoherent", "liftIndepPr1",
	"liftBeta", "indBeta", "mk_out", "out", "eq", "map", "map₂", "congr", "congrRight", "rel", "Setoid")

// ancestors returns the full names of the structures structure d extends,
// directly or not; ok is false when one is not certainly a structure of
// the library whose parents are read.
func (c *checker) ancestors(d *library.Decl, depth int) ([]string, bool) {
	_, rest, found := strings.Cut(d.Signature, " extends ")
	if !found {
		return nil, true
	}
	if j, ok := resultColon(" " + rest); !ok {
		return nil, false
	} else if j >= 0 {
		rest = rest[:j]
	}
	if depth > 8 {
		return nil, false
	}
	var out []string
	for _, p := range splitTopLevel(rest) {
		t := c.env.parse(strings.TrimSpace(p))
		head := ""
		switch {
		case t.Kind == leansrc.TermInfix:
			head, _ = infixParent(t, &c.env) // M →* N
		case t.Kind == leansrc.TermApp && t.Args[0].Kind == leansrc.TermIdent:
			head = t.Args[0].Text
		case t.Kind == leansrc.TermIdent:
			head = t.Text
		}
		if head == "" {
			return nil, false
		}
		pd, ok := lookupFrom(d, head, c.env.Lookup)
		if !ok || pd.Kind != library.KindStructure && pd.Kind != library.KindClass {
			return nil, false
		}
		more, ok := c.ancestors(pd, depth+1)
		if !ok {
			return nil, false
		}
		out = append(append(out, pd.Name), more...)
	}
	return out, true
}

// splitTopLevel splits text at its commas outside brackets.
func splitTopLevel(text string) []string {
	var out []string
	from := 0
	leansrc.TopLevel(text, func(i int, r rune) bool {
		if r == ',' {
			out = append(out, text[from:i])
			from = i + 1
		}
		return true
	})
	return append(out, text[from:])
}

// arrowTypeParam reports whether parameter type p as written in
// declaration d's signature is headed by a definition of the library whose
// value is a function type (`Matrix m n α := m → n → α`): its values are
// functions, and no coercion makes a type one.
func (c *checker) arrowTypeParam(d *library.Decl, p string) bool {
	t := c.env.parse(p)
	for t.Kind == leansrc.TermApp && len(t.Args) > 0 {
		t = t.Args[0]
	}
	if t.Kind != leansrc.TermIdent || d == nil || numOf(t.Text) != numNone {
		return false
	}
	found, ok := lookupFrom(d, t.Text, c.env.Lookup)
	if !ok || found.Kind != library.KindDef && found.Kind != library.KindAbbrev || found.Value == "" {
		return false
	}
	v := c.env.parse(found.Value)
	return v.Kind == leansrc.TermInfix && arrow(v.Text)
}

// structureParam returns the full name of the library structure or
// inductive type at the head of parameter type p as written (Filter for
// `Filter β`) in declaration d's signature (resolved from d's namespaces,
// else as the stub resolves it), when it names exactly one and is no
// number; else "".
func (c *checker) structureParam(d *library.Decl, p string) string {
	t := c.env.parse(p) // ℕ+ is PNat
	for t.Kind == leansrc.TermApp && len(t.Args) > 0 {
		t = t.Args[0] // an application's head (an arrow has none)
	}
	head := t.Text
	if t.Kind != leansrc.TermIdent || numOf(head) != numNone || !leansrc.IsIdentifier(head) {
		return ""
	}
	found, ok := (*library.Decl)(nil), false
	if d != nil {
		found, ok = lookupFrom(d, head, c.env.Lookup)
	}
	if !ok {
		fulls := c.env.Resolve(head)
		if len(fulls) != 1 {
			return ""
		}
		found, ok = c.env.Lookup(fulls[0])
	}
	if !ok {
		return ""
	}
	if v, abbrev := c.abbrevStructure(found, true); abbrev {
		found = v // Ideal R is Submodule R R
	}
	if !ok || found.Kind != library.KindStructure && found.Kind != library.KindInductive && !(found.Kind == library.KindDef && subtypeValue(found.Value)) {
		return ""
	}
	return found.Name
}

// subtypeValue reports whether a definition's value, as written, is a
// subtype `{ n : ℕ // 0 < n }` (ℕ+, Nat.Primes): a structure's type, which
// no unfolding makes a number.
func subtypeValue(v string) bool {
	if i := strings.Index(v, " deriving"); i >= 0 {
		v = v[:i] // `{ p : ℕ // p.Prime }` then `deriving DecidableEq`
	}
	v = strings.TrimSpace(v)
	return strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") && strings.Contains(v, "//") && strings.Count(v, "{") == 1
}

// noNumberField reports whether x.f, x of type ℕ or ℤ (inductive types of
// Lean core, with no parents and no definition to unfold), certainly finds
// nothing: no name in scope is space.f, and f is capitalized as Lean names
// propositions and types, and declared at the library's root (`n.Even`
// written for `Even n`), which Lean core's lowercase functions the index
// lacks are not.
func (c *checker) noNumberField(space, f string) bool {
	if space != "Nat" && space != "Int" {
		return false
	}
	r, size := utf8.DecodeRuneInString(f)
	if len(c.env.Resolve(space+"."+f)) > 0 {
		return false
	}
	if unicode.IsLower(r) {
		// p.prime with (p : ℕ), x.nat_abs with (x : ℤ): Lean 3's spellings
		// of Nat.Prime and Int.natAbs, which Lean core has no twins of
		// (its names resolve above)
		_, upper := c.env.Lookup(space + "." + string(unicode.ToUpper(r)) + f[size:])
		camel := lowerCamel(f)
		return upper || camel != f && len(c.env.Resolve(space+"."+camel)) > 0
	}
	_, root := c.env.Lookup(f)
	return unicode.IsUpper(r) && root
}

// lowerCamel returns Lean 4's spelling of a Lean 3 snake_case name
// (nat_abs: natAbs).
func lowerCamel(name string) string {
	parts := strings.Split(name, "_")
	for i := 1; i < len(parts); i++ {
		if r, size := utf8.DecodeRuneInString(parts[i]); size > 0 {
			parts[i] = string(unicode.ToUpper(r)) + parts[i][size:]
		}
	}
	return strings.Join(parts, "")
}

// generatedField are the names Lean (and deriving handlers, @[ext]) give
// a structure's auxiliary declarations, which an index of the source may
// lack.
var generatedField = map[string]bool{"mk": true, "rec": true, "recOn": true, "casesOn": true, "noConfusion": true,
	"noConfusionType": true, "ext": true, "ext_iff": true, "injEq": true, "inj": true, "sizeOf_spec": true, "below": true,
	"brecOn": true, "binductionOn": true, "ibelow": true, "ndrec": true, "ndrecOn": true, "eta": true, "ctorIdx": true,
	"toCtorIdx": true, "ofNat": true, "mk.injEq": true, "repr": true, "hash": true, "decEq": true, "beq": true}

// typeHead reports whether the parameter type p, as written, is the type
// space or an application of it (ℕ for Nat, `Finset α` for Finset).
func typeHead(p, space string) bool {
	p = strings.TrimSpace(p)
	if n := numOf(p); n != numNone {
		return numSpace[n] == space
	}
	first, _, _ := strings.Cut(p, " ")
	return first == space
}

// applySig checks constant name, of signature sg, applied to args (whose
// kinds are infos).
func (c *checker) applySig(whole *leansrc.Term, name string, sg sig, args []*leansrc.Term, infos []info, scope map[string]local) info {
	if sg.theorem {
		return info{kind: kProof, what: name}
	}
	if !sg.known {
		return info{}
	}
	n, k := len(sg.params), len(args)
	if !sg.exact {
		// section variables may be hidden (used in the body) or shown
		// explicit where a later `variable {x}` made them implicit: only
		// the declaration's own explicit parameters count, as a lower bound
		if k < sg.own-sg.opt {
			return info{kind: kFunc, what: name, detail: fmt.Sprintf("it takes at least %s, given %d", count(sg.own-sg.opt), k)}
		}
		if sg.max >= 0 && k > sg.max && (sg.res == resSort || sg.res == resNum) {
			c.report(whole, name, "too many arguments: `%s` takes at most %s (with the explicit section variables of its file), given %d", name, count(sg.max), k)
		}
		if sg.max >= 0 && k <= sg.max && k >= sg.max-sg.opt && sg.res == resSort && sg.resText == "Prop" {
			// DifferentiableAt ℝ f x: every parameter there may be is
			// given, so it is a proposition (fewer, and Lean rejects the
			// application itself)
			return info{kind: kSort, prop: true}
		}
		return info{}
	}
	sorts := c.numberSorts(sg, args)
	for i := 0; i < k && i < n; i++ {
		if infos[i].local && (sg.own < n || sg.added) {
			// explicit section variables stand before the signature's own
			// parameters, and the file's `variable` lines may make more
			// of them explicit than were read (`variable (R L M)` after
			// `variable {R L M}`): where a stub passes a type, the
			// positions are unsure
			infos[i] = info{}
		}
		want := numOf(sg.params[i])
		if want == numNone {
			want = sorts[strings.TrimSpace(sg.params[i])] // algebraMap ℚ ℝ q: R is ℚ
		}
		if want != numNone {
			c.numArg(args[i], infos[i], want, name, scope)
		}
		if l, ok := scope[args[i].Text]; ok && args[i].Kind == leansrc.TermIdent && l.binder > 0 && l.function() && c.funLikeParam(sg, strings.TrimSpace(sg.params[i])) {
			// LinearMap.ker f with (f : V → W): F := V → W, and no
			// instance makes a function type FunLike
			c.report(args[i], name, "failed to synthesize `FunLike (%s) …`: `%s` expects a bundled map (`%s`, a type with a FunLike instance, such as `V →ₗ[R] W` or `G →* H`), but `%s` is a plain function, and no instance makes a function type FunLike",
				c.src[l.typ.Start:l.typ.End], name, sg.params[i], args[i].Text)
		}
		if number(infos[i]) && !infos[i].lit && funcType(sg.params[i]) {
			// no number has a coercion to a function
			c.report(args[i], name, "type mismatch: `%s` expects a function of type `%s`, but `%s` is a number of type %s", name, sg.params[i], c.src[args[i].Start:args[i].End], infos[i].num)
		}
		if x := infos[i]; x.kind == kValue && x.of != "" && funcType(sg.params[i]) && c.noFunctionFrom(x.of) {
			// Finset.filter (Finset.range n) Nat.Prime: the arguments swapped
			c.report(args[i], name, "type mismatch: `%s` expects a function of type `%s`, but `%s` is a value of type `%s …`, which has no coercion to a function",
				name, sg.params[i], c.src[args[i].Start:args[i].End], x.of)
		}
		if x := infos[i]; x.kind == kFunc && (collectionType(sg.params[i], "Finset") || collectionType(sg.params[i], "List") || collectionType(sg.params[i], "Multiset")) {
			// no function is a Finset, a List or a Multiset (a Set is a
			// predicate): List.sum (Nat.digits n), its base first
			c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a function (`%s`: %s)", name, sg.params[i], c.src[args[i].Start:args[i].End], x.what, x.detail)
		}
		if infos[i].kind == kSort && infos[i].prop && i < len(sg.propCons) && c.env.PropInstance != nil {
			// Even {α} [Add α] (a : α) given a proposition: α is Prop
			for _, k := range sg.propCons[i] {
				if !c.env.PropInstance(k.class, k.pos) {
					c.report(args[i], name, "failed to synthesize `%s Prop`: `%s` expects a value of a type with `%s`, but `%s` is a proposition (the library has no such instance for Prop)", k.class, name, k.class, c.src[args[i].Start:args[i].End])
					break
				}
			}
		}
		if n := infos[i].num; number(infos[i]) && !infos[i].lit && (n == numReal || n == numComplex) && c.env.CoercesTo != nil {
			if s := c.structureParam(sg.decl, sg.params[i]); s != "" && !c.env.CoercesTo(n.String(), s) {
				// Tendsto f atTop L with (L : ℝ): a Filter is expected
				c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a number of type %s (no coercion %s → %s)",
					name, sg.params[i], c.src[args[i].Start:args[i].End], n, n, s)
			}
		}
		if infos[i].lit && !infos[i].neg && args[i].Kind == leansrc.TermNum && c.env.NumberTo != nil {
			if s := c.structureParam(sg.decl, sg.params[i]); s != "" && !c.env.NumberTo(s, args[i].Text) {
				// Tendsto f atTop 0: a Filter is expected, and no instance
				// makes a numeral one (the neighbourhoods are nhds 0)
				_, last := leansrc.SplitLast(s)
				c.report(args[i], name, "failed to synthesize `OfNat (%s …) %s`: `%s` expects a value of type `%s`, and no instance makes the numeral `%s` a %s",
					last, args[i].Text, name, sg.params[i], args[i].Text, last)
			}
		}
		if n := infos[i].num; number(infos[i]) && !infos[i].lit && n <= numRat && c.env.NumberTo != nil {
			if s := c.structureParam(sg.decl, sg.params[i]); s != "" && !c.env.NumberTo(s, n.String()) {
				// Tendsto f atTop L with (L : ℕ): no cast to a Filter
				c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a number of type %s (no cast or coercion %s → %s)",
					name, sg.params[i], c.src[args[i].Start:args[i].End], n, n, s)
			}
		}
		if infos[i].kind == kSort && infos[i].ty {
			if s := c.structureParam(sg.decl, sg.params[i]); s != "" || !valueType(sg.params[i]) && c.arrowTypeParam(sg.decl, sg.params[i]) {
				// IsProbabilityMeasure Ω: a measure is expected, Ω is a type;
				// Matrix.trace (Fin 3): a matrix, a function, is expected (a
				// Set is one too, which the checks of values report)
				c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a type",
					name, sg.params[i], c.src[args[i].Start:args[i].End])
			}
		}
		if infos[i].kind == kSort && infos[i].ty && c.env.UniverseHas != nil && !c.env.Notation && (sg.decl == nil || !sg.decl.Generated) {
			// orderOf G with (G : Type*): orderOf's type variable is then
			// a universe, which has no Monoid
			tv := strings.TrimSpace(sg.params[i])
			for _, k := range sg.varCons[tv] {
				if k.pos == 0 && !strings.HasPrefix(k.class, "Decidable") && !c.env.UniverseHas(k.class) {
					c.report(args[i], name, "failed to synthesize `%s (Type …)`: `%s` expects a value of a type with `[%s %s]`, but `%s` is a type, whose type is a universe, and no universe has a `%s` instance",
						k.class, name, k.class, tv, c.src[args[i].Start:args[i].End], k.class)
					break
				}
			}
		}
		if infos[i].set && c.env.CoercesTo != nil {
			if s := c.structureParam(sg.decl, sg.params[i]); s != "" && s != "Finset" && !c.env.CoercesTo("Set", s) {
				// Tendsto f atTop (Set.Ioi 0): a Filter is expected
				_, last := leansrc.SplitLast(s)
				c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a Set (no coercion Set → %s)",
					name, sg.params[i], c.src[args[i].Start:args[i].End], last)
			}
		}
		if fn := c.writtenFunction(args[i], scope); fn != "" && sg.own == n && !sg.added && c.env.CoercesTo != nil {
			if s := c.structureParam(sg.decl, sg.params[i]); s != "" && !c.env.CoercesTo("Set", s) {
				// integral X μ with (X : Ω → ℝ), integral (fun _ => c) P: a
				// function is no Measure (a Set, itself a function, reaches
				// none of the generic coercions' targets either)
				_, last := leansrc.SplitLast(s)
				c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is %s, not a %s",
					name, sg.params[i], c.src[args[i].Start:args[i].End], fn, last)
			}
		}
		if infos[i].builder && infos[i].builderOf != numNone && collectionType(sg.params[i], "Finset") {
			c.builderUniv(args[i], infos[i])
		}
		if infos[i].set && !infos[i].builder && collectionType(sg.params[i], "Finset") {
			c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a Set (there is no coercion from Set to Finset)",
				name, sg.params[i], c.src[args[i].Start:args[i].End])
			c.out[len(c.out)-1].Replace = c.finsetOf(args[i])
		}
		if tv := infos[i].tv; tv != "" && infos[i].kind == kValue && sg.decl == nil && i < len(sg.propCons) && c.env.VariableHas != nil && !c.env.Notation {
			// core's max a b with (a : α) under [PartialOrder α]: no Max α
			c.missingInstance(args[i], name, tv, sg.propCons[i], false)
		}
		if number(infos[i]) && !infos[i].lit && i < len(sg.propCons) {
			// Int.floor {α} [LinearOrderedRing α] (a : α) given a ℕ: α is ℕ
			cons := sg.propCons[i]
			if cons == nil && whole == c.unexpected && i < len(sg.resCons) {
				cons = sg.resCons[i] // ∑ k ∈ Finset.Icc (1 : ℝ) n: α is ℝ
			}
			for _, k := range cons {
				if why := noInstance(infos[i].num, k.class); why != "" && k.pos == 0 {
					c.report(args[i], name, "failed to synthesize `%s %s`: `%s` expects a value of a type with `%s`, but `%s` is %s, which %s",
						k.class, infos[i].num, name, k.class, c.src[args[i].Start:args[i].End], infos[i].num, why)
					break
				}
				if c.numberLacks(infos[i].num, k, sg) {
					// IsLeast s z with (z : ℂ): ℂ's order is scoped
					c.report(args[i], name, "failed to synthesize `%s %s`: `%s` expects a value of a type with `%s`, but `%s` is %s, and the library gives %s no `%s` here",
						k.class, infos[i].num, name, k.class, c.src[args[i].Start:args[i].End], infos[i].num, infos[i].num, k.class)
					break
				}
			}
		}
		if i < len(sg.typeCons) && args[i].Kind == leansrc.TermIdent {
			c.setAsType(args[i], name, sg.typeCons[i], scope)
		}
		if i < len(sg.typeCons) && args[i].Kind == leansrc.TermIdent && c.typeVars[args[i].Text] != nil &&
			c.env.VariableHas != nil && !c.env.Notation && (sg.decl == nil || !sg.decl.Generated) {
			// Fintype.card G with (G : Type*) [Group G]: no local instance,
			// no class of one, nor the library, gives G a Fintype (a
			// generated declaration, such as a to_additive twin, may show
			// the original's signature)
			c.missingInstance(args[i], name, args[i].Text, sg.typeCons[i], false)
			c.missingScalars(whole, args, i, name, sg)
		}
		if n := numOf(args[i].Text); i < len(sg.typeCons) && args[i].Kind == leansrc.TermIdent && n != numNone && n <= numComplex &&
			c.env.NumberHas != nil && !c.env.Notation && (sg.decl == nil || !sg.decl.Generated) {
			// Fintype.card ℝ: the library has no Fintype instance on ℝ
			for _, k := range sg.typeCons[i] {
				if k.pos == 0 && !strings.HasPrefix(k.class, "Decidable") && !c.env.NumberHas(n.String(), k.class) {
					c.report(args[i], name, "failed to synthesize `%s %s`: `%s` needs an instance `[%s %s]`, and the library has none for %s",
						k.class, n, name, k.class, n, n)
					break
				}
			}
		}
		if g, h, ok := c.nonNormalQuotient(args[i], scope); ok && i < len(sg.typeCons) && (sg.decl == nil || !sg.decl.Generated) {
			// IsCyclic (G ⧸ N) {α} [Group α]: a group only for a normal N
			// (its multiplication, its powers)
			for _, k := range sg.typeCons[i] {
				if k.pos == 0 && (c.env.VariableHas([]string{k.class}, "Mul") || k.class == "Pow") {
					c.report(args[i], name, "failed to synthesize `%s (%s ⧸ %s)`: `%s` needs an instance `[%s …]`, and `%s ⧸ %s` is a group only when `%s` is normal, and no binder of the statement gives `[%s.Normal]` (nor is `%s` commutative)",
						k.class, g, h, name, k.class, g, h, h, h, g)
					break
				}
			}
		}
		if i < len(sg.typeCons) && (sg.decl == nil || !sg.decl.Generated) {
			// Fintype.card (ZMod n): ZMod's Fintype takes [NeZero n]
			first := slices.DeleteFunc(slices.Clone(sg.typeCons[i]), func(k classPos) bool { return k.pos != 0 })
			if k, ok := c.premiseOnly(args[i], first, scope); ok {
				text := c.src[args[i].Start:args[i].End]
				c.report(args[i], name, "failed to synthesize `%s %s`: `%s` needs an instance `[%s …]`, and the library gives `%s` one only through instances that take a `[Fact …]` or `[NeZero …]`, and the statement has no such binder (a hypothesis is no instance)",
					k.class, text, name, k.class, text)
			}
		}
		if infos[i].pred && i < len(sg.predCons) && c.env.PropInstance != nil {
			// Finset.sum s Nat.Prime: β is Prop
			for _, k := range sg.predCons[i] {
				if !c.env.PropInstance(k.class, k.pos) {
					c.report(args[i], name, "failed to synthesize `%s Prop`: `%s` expects a function into a type with `%s`, but `%s` is a predicate (its values are propositions, and the library has no such instance for Prop)", k.class, name, k.class, c.src[args[i].Start:args[i].End])
					break
				}
			}
		}
		if sortParam(sg.params[i]) && (number(infos[i]) || infos[i].kind == kFunc && infos[i].what == c.src[args[i].Start:args[i].End] && infos[i].detail == localFunction && !c.sortable("")) {
			// Differentiable f: f stands for the field 𝕜, a type;
			// EuclideanSpace ℝ 3: no numeral is a type
			what := fmt.Sprintf("a number of type %s", infos[i].num)
			switch {
			case infos[i].kind == kFunc:
				what = "a function (" + localFunction + ")"
			case infos[i].lit:
				what = "a numeral, and no type is a number (`Fin n` is the type of n elements)"
			}
			c.report(args[i], name, "type mismatch: `%s` expects a type (`%s`) here, but `%s` is %s", name, sg.params[i], c.src[args[i].Start:args[i].End], what)
		}
		if sortParam(sg.params[i]) && !infos[i].local && c.plainValue(args[i], scope) {
			// midpoint A B with (A : ℝ × ℝ): midpoint's first argument is
			// the ring R, a type
			l := scope[args[i].Text]
			c.report(args[i], name, "type mismatch: `%s` expects a type (`%s`) here, but `%s` is a value of type `%s`",
				name, sg.params[i], args[i].Text, c.src[l.typ.Start:l.typ.End])
		}
		if sortParam(sg.params[i]) && infos[i].kind == kFunc && (infos[i].pred || infos[i].notPred) && infos[i].detail != localFunction {
			// Finset Nat.Prime: a constant applied to too few arguments is
			// a function, and no coercion makes a function a type
			c.report(args[i], name, "type mismatch: `%s` expects a type (`%s`) here, but `%s` is a function (`%s`: %s)", name, sg.params[i], c.src[args[i].Start:args[i].End], infos[i].what, infos[i].detail)
		}
		if infos[i].kind == kFunc && infos[i].notPred && collectionType(sg.params[i], "Set") {
			// IsOpen (Metric.ball x): a function into sets is no set
			c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a function (`%s`: %s) that is no predicate, so no set",
				name, sg.params[i], c.src[args[i].Start:args[i].End], infos[i].what, infos[i].detail)
		}
		if n := infos[i].num; number(infos[i]) && !infos[i].lit && (n == numReal || n == numComplex) && c.env.CoercesToFunction != nil &&
			collectionType(sg.params[i], "Set") && !c.env.CoercesToFunction(n.String()) {
			// IsOpen x with (x : ℝ): a point is no set
			c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a number of type %s, not a set (a singleton is `{%s}`)",
				name, sg.params[i], c.src[args[i].Start:args[i].End], n, c.src[args[i].Start:args[i].End])
		}
		if tv := infos[i].tv; tv != "" && infos[i].kind == kValue && c.env.SetLike != nil && c.noCoercionFrom(tv) && !c.likeInstance(tv) {
			if s := c.structureParam(sg.decl, sg.params[i]); s != "" && c.env.SetLike(s) {
				// Ideal.IsMaximal x with (x : R): an element is no ideal
				c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a value of type %s, a type variable of the statement; no element coerces to a subobject (the one it generates is `span` or `closure` of `{%s}`)",
					name, sg.params[i], c.src[args[i].Start:args[i].End], tv, c.src[args[i].Start:args[i].End])
			}
		}
		if tv := infos[i].tv; tv != "" && infos[i].kind == kValue && collectionType(sg.params[i], "Set") && c.noCoercionFrom(tv) && !c.likeInstance(tv) {
			// Submodule.span K v with (v : V): a vector is no set
			c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is a value of type %s, a type variable of the statement, not a set (a singleton is `{%s}`)",
				name, sg.params[i], c.src[args[i].Start:args[i].End], tv, c.src[args[i].Start:args[i].End])
		}
		if strings.TrimSpace(sg.params[i]) == "Prop" && infos[i].kind == kProof {
			// Fact hp with (hp : p.Prime): a proposition is expected
			c.report(args[i], name, "type mismatch: `%s` expects a proposition, but `%s` is %s", name, c.src[args[i].Start:args[i].End], c.nonValue(args[i], infos[i], false))
		}
		if funcType(sg.params[i]) && infos[i].kind == kSort {
			// Finset.filter (n ∣ 12) s: a predicate is expected, not a
			// proposition (fun n => n ∣ 12); StrictMono (∀ n, f n < f (n +
			// 1)): a ∀ is a proposition or a type, and no sort coerces to
			// a function
			what := "a proposition (a predicate is written `fun x => …`)"
			switch {
			case infos[i].ty:
				what = "a type, and no type coerces to a function"
			case !infos[i].prop:
				what = "a proposition or a type (a predicate is written `fun x => …`)"
			}
			c.report(args[i], name, "type mismatch: `%s` expects a function of type `%s`, but `%s` is %s",
				name, sg.params[i], c.src[args[i].Start:args[i].End], what)
		}
		if want != numNone || valueType(sg.params[i]) {
			// a function is not a number (a Set is one: Set α := α → Prop)
			if what := c.nonValue(args[i], infos[i], want != numNone); what != "" {
				c.report(args[i], name, "type mismatch: `%s` expects a value of type `%s`, but `%s` is %s", name, sg.params[i], c.src[args[i].Start:args[i].End], what)
			}
		}
	}
	c.missingFact(whole, name, sg, args, scope)
	fixed := c.unify(name, sg, args[:min(k, n)], infos, scope)
	if a := sg.resParam - 1; a >= 0 && a < k && number(infos[a]) && !infos[a].lit && infos[a].of == "" {
		// max a b with (a : ℝ): α is ℝ, and so is the value
		fixed = infos[a].num
	}
	if fixed == numNone && sg.res == resUnknown {
		// algebraMap ℚ ℝ q: A is ℝ
		fixed = sorts[sg.resText]
	}
	if fixed == numNone && sg.res == resUnknown && !c.env.Opens && k == n {
		// star z with (z : ℂ): R is ℂ. An expected type may fix R first,
		// and then z must coerce to it, as the value must here (given more
		// arguments, the value is not judged); under an open, another
		// version of the library may read the name as another constant
		// (`abs` as Complex.abs under `open Complex`)
		fixed = c.topVariable(sg, args, infos)
	}
	if sg.opt > 0 && k < n && k >= n-sg.opt {
		// variance X μ's μ left out: its default fills it
		n = k
	}
	switch {
	case k < n:
		detail, proof := fmt.Sprintf("it takes %s, given %d", count(n), k), c.proofParam(sg, k)
		if sg.opt > 0 {
			detail = fmt.Sprintf("it takes %s (and %d with a default), given %d", count(n-sg.opt), sg.opt, k)
		}
		if proof {
			detail += fmt.Sprintf("; the next is a proof of `%s`", strings.TrimSpace(sg.params[k]))
		}
		return info{kind: kFunc, what: name, detail: detail,
			pred:      n-k == 1 && sg.res == resSort && sg.resText == "Prop",
			notPred:   n-k > 1 && sg.res != resUnknown || sg.res == resNum || sg.res == resSort && sg.resText != "Prop" || sg.set || sg.of != "",
			typeFirst: sortParam(sg.params[k]), proofNext: proof}
	case k == n:
		switch sg.res {
		case resSort:
			ty := sg.kind == "type" || strings.HasPrefix(sg.resText, "Type") ||
				sg.resText == "" && (sg.kind == "structure" || sg.kind == "class" || sg.kind == "inductive" || sg.kind == "class inductive")
			return info{kind: kSort, prop: sg.resText == "Prop", ty: ty, large: sg.large, dataClass: sg.dataClass}
		case resNum:
			return info{kind: kValue, num: sg.num}
		case resArrow:
			return info{kind: kFunc, what: name, detail: "of type `" + sg.resText + "`"}
		}
		if sg.of != "" {
			return info{kind: kValue, of: sg.of}
		}
		if sg.set {
			return info{kind: kValue, set: true}
		}
		if fixed != numNone {
			return info{kind: kValue, num: fixed}
		}
		return info{}
	}
	switch {
	case sg.res == resSort && n == 0:
		what := "a type"
		if sg.resText == "Prop" {
			what = "a proposition"
		}
		c.report(whole, name, "function expected: `%s` is %s, it cannot be applied to an argument", name, what)
	case sg.res == resSort || sg.res == resNum:
		c.report(whole, name, "too many arguments: `%s` takes %s, given %d", name, count(n), k)
	case fixed != numNone && sg.res == resUnknown && c.env.CoercesToFunction != nil && !c.env.CoercesToFunction(fixed.String()):
		// Matrix.det A A: det's value is R, which A fixed to ℝ
		c.report(whole, name, "too many arguments: `%s` takes %s, given %d (its value here is a number of type %s, no function)", name, count(n), k, fixed)
	case k == n+1 && sg.of != "" && c.functionValue(sg.of) != numNone:
		// MeasureTheory.volume s: a measure applied to a set, an ℝ≥0∞
		c.setDomain(name, sg.of, args[n], infos[n])
		c.setDomainInstance(name, sg, args[n], scope)
		return info{kind: kValue, num: c.functionValue(sg.of)}
	case sg.of != "" && c.noFunctionFrom(sg.of):
		// Finset.range 1 101: a Finset has no coercion to a function
		c.report(whole, name, "too many arguments: `%s` takes %s, given %d (its value is a `%s`, which has no coercion to a function)", name, count(n), k, sg.of)
	}
	return info{}
}

// topVariable returns the number type of the first argument, not a
// numeral, given for an explicit parameter whose type is the signature's
// result type, a variable of it (`star (r : R) : R`), else numNone.
func (c *checker) topVariable(sg sig, args []*leansrc.Term, infos []info) num {
	v := strings.TrimSpace(sg.resText)
	if !sg.vars[v] || sg.own < len(sg.params) || sg.added {
		return numNone
	}
	for i := range args {
		if i < len(sg.params) && strings.TrimSpace(sg.params[i]) == v {
			if number(infos[i]) && !infos[i].lit && infos[i].of == "" {
				return infos[i].num
			}
			return numNone
		}
	}
	return numNone
}

// numberSorts returns the explicit type parameters of an exact signature
// that the arguments give a number type, written as one (`algebraMap ℚ ℝ`:
// R is ℚ, A is ℝ), by name.
func (c *checker) numberSorts(sg sig, args []*leansrc.Term) map[string]num {
	if sg.own < len(sg.params) || sg.added {
		return nil
	}
	var out map[string]num
	for i, a := range args {
		if i >= len(sg.names) || !sortParam(sg.params[i]) || a.Kind != leansrc.TermIdent {
			continue
		}
		if n := numOf(a.Text); n != numNone {
			if out == nil {
				out = map[string]num{}
			}
			out[sg.names[i]] = n
		}
	}
	return out
}

// infixTarget returns the constant the library's infix notation t
// applies to its operands when t is an arrow of bundled maps (`G →+ H`,
// AddMonoidHom) whose operands the parser read whole.
func (c *checker) infixTarget(t *leansrc.Term) (string, bool) {
	if target, ok := c.env.quotientTarget(t.Text); ok && !c.env.Notation && !c.glued(t) {
		return target, true
	}
	if c.env.Notation || len(t.Args) < 2 || c.glued(t) || slices.ContainsFunc(t.Args, func(a *leansrc.Term) bool { return a.Kind == leansrc.TermUnsupported }) {
		return "", false
	}
	if mapArrow(t.Text) || t.Text == "≃" {
		return infixParent(t, &c.env) // V →ₗ[ℝ] W is LinearMap (RingHom.id ℝ) V W
	}
	if c.env.InfixOperator != nil && len(t.Args) == 2 && !leansrc.BuiltinOperator(t.Text) {
		// f '' s is Set.image f s (the parser's own operators, core's
		// among them, are elaborated as Lean's binop% and its kin)
		target, _, ok := c.env.InfixOperator(t.Text)
		return target, ok
	}
	return "", false
}

// typeVarDomain returns the stub's type variable that is the domain of
// local function l, as its type is written (X for `(f : X → Y)` under
// `(X : Type*)`), or "".
func (c *checker) typeVarDomain(l local) string {
	if !l.function() {
		return ""
	}
	if d := l.typ.Args[0]; d.Kind == leansrc.TermIdent && c.typeVars[d.Text] != nil {
		return d.Text
	}
	return ""
}

// writtenFunction says what arg is when it is certainly a function by how
// it is written: a lambda, or a stub's local whose type is a function
// type; "" otherwise.
func (c *checker) writtenFunction(arg *leansrc.Term, scope map[string]local) string {
	if arg.Kind == leansrc.TermLambda {
		return "a function (a `fun`)"
	}
	if l, ok := scope[arg.Text]; ok && arg.Kind == leansrc.TermIdent && l.binder > 0 && l.function() {
		return "a function (of type `" + c.src[l.typ.Start:l.typ.End] + "`)"
	}
	if l, ok := scope[arg.Text]; ok && arg.Kind == leansrc.TermIdent && l.binder > 0 && l.head == "Matrix" {
		// Matrix m n α := m → n → α, with no coercion of its own
		return "a matrix (of type `" + c.src[l.typ.Start:l.typ.End] + "`, a function of its entries' indices; its linear map is `Matrix.toLin' " + arg.Text + "`)"
	}
	return ""
}

// function reports whether the local's type is written as a function
// type, a plain arrow (not a bundled map's →*).
func (l local) function() bool {
	return l.typ != nil && l.typ.Kind == leansrc.TermInfix && (l.typ.Text == "→" || l.typ.Text == "->")
}

// functionValue is the number type of the values a value of a type whose
// head is the constant full takes once applied (Env.FunctionType), or
// numNone.
func (c *checker) functionValue(full string) num {
	if c.env.FunctionType == nil {
		return numNone
	}
	_, cod := c.env.FunctionType(full)
	return numOf(cod)
}

// setDomain reports arg, given to fn, a value of a type whose head is the
// constant full applied as a function whose domain is a Set (a measure),
// when arg is certainly a proposition or a number (`P (X ≥ 0)`: a set is
// written {ω | X ω ≥ 0}).
func (c *checker) setDomain(fn, full string, arg *leansrc.Term, a info) {
	if dom, _ := c.env.FunctionType(full); dom != "Set" {
		return
	}
	what := ""
	switch {
	case a.kind == kSort && a.prop:
		what = "a proposition"
	case a.kind == kValue && !a.lit && a.num != numNone:
		what = "a number of type " + a.num.String()
	case a.kind == kValue && a.tv != "" && c.noCoercionFrom(a.tv) && !c.likeInstance(a.tv):
		// μ ω with (ω : Ω): a point, whose singleton is {ω}
		what = "a value of type " + a.tv + ", a point (a singleton is {" + c.src[arg.Start:arg.End] + "})"
	default:
		return
	}
	c.report(arg, fn, "type mismatch: `%s` applies to a Set (a `%s` is a function on sets), but `%s` is %s", fn, full, c.src[arg.Start:arg.End], what)
}

// setDomainInstance reports arg, a set given to fn, a value of a type
// `S α` that applies to sets of α (a measure, Env.FunctionType), when arg
// is a local `Set X` for the stub's type variable X: α is X, so X needs
// the instances fn's signature asks of α (`volume A` with `(A : Set Ω)`
// under only `[MeasurableSpace Ω]`: no MeasureSpace).
func (c *checker) setDomainInstance(fn string, sg sig, arg *leansrc.Term, scope map[string]local) {
	if arg.Kind != leansrc.TermIdent || c.env.VariableHas == nil || c.env.Notation || sg.decl == nil || sg.decl.Generated {
		return
	}
	if dom, _ := c.env.FunctionType(sg.of); dom != "Set" {
		return
	}
	l, ok := scope[arg.Text]
	if !ok || l.typ == nil || l.typ.Kind != leansrc.TermApp || len(l.typ.Args) != 2 || l.typ.Args[0].Text != "Set" {
		return
	}
	x := l.typ.Args[1]
	res := c.env.parse(sg.resText)
	if x.Kind != leansrc.TermIdent || c.typeVars[x.Text] == nil || res.Kind != leansrc.TermApp || len(res.Args) != 2 || res.Args[1].Kind != leansrc.TermIdent {
		return
	}
	if cons := sg.varCons[res.Args[1].Text]; len(cons) > 0 {
		c.missingInstance(arg, fn, x.Text, cons, false)
	}
}

// missingScalars reports args[i], the stub's type variable X given where
// a signature asks `[C R X]` of it with R another explicit argument:
//   - R given as ℝ or ℂ (`FiniteDimensional ℝ V` needs `[Module ℝ V]`),
//     when X's local instances are all of classes on X alone that give no
//     structure over a field (`[AddCommGroup V]` gives Module ℕ V and
//     Module ℤ V only): nothing then provides C over R;
//   - R another type variable of the stub (`FiniteDimensional K L` under
//     `[Field K] [Field L]`), when no instance binder of the stub mentions
//     both: an instance on one of them alone gives structure over itself
//     or over concrete types only.
//
// whole is the application, whose own binder is no instance while it is
// elaborated (`[FiniteDimensional ℝ V]` right after `[AddCommGroup V]`).
func (c *checker) missingScalars(whole *leansrc.Term, args []*leansrc.Term, i int, name string, sg sig) {
	v := args[i].Text
	for _, k := range sg.typeCons[i] {
		if k.pos != 1 {
			continue
		}
		j := -1
		for jj, cons := range sg.typeCons {
			if jj != i && slices.Contains(cons, classPos{k.class, 0}) {
				if j >= 0 {
					return // two parameters stand first in such a class
				}
				j = jj
			}
		}
		if j < 0 || j >= len(args) || args[j].Kind != leansrc.TermIdent {
			continue
		}
		r := args[j].Text
		if why, ok := c.noScalars(whole, v, r); ok {
			c.report(args[i], name, "failed to synthesize `%s %s %s`: `%s` needs an instance `[%s %s %s]`, and `%s` has %s, which gives it no structure over %s (add `[%s %s %s]`)",
				k.class, r, v, name, k.class, r, v, v, why, r, k.class, r, v)
			return
		}
	}
}

// noScalars reports whether the stub's type variable v certainly has no
// structure over r (missingScalars), and what it has instead.
func (c *checker) noScalars(whole *leansrc.Term, v, r string) (string, bool) {
	if len(c.typeVars[v]) != len(c.typeVarTexts[v]) {
		return "", false
	}
	var have []string
	free := true
	instances := c.typeVarTexts[v]
	for n, cl := range c.typeVars[v] {
		text := c.typeVarTexts[v][n]
		switch {
		case text == c.src[whole.Start:whole.End]:
			// the instance binder being elaborated is no instance yet
		case !slices.Contains(instances, text):
			// (W : Submodule ℝ V) is no instance
		case !scalarFree[cl]:
			free = false
			have = append(have, text)
		default:
			have = append(have, text)
		}
	}
	switch n := numOf(r); {
	case (n == numReal || n == numComplex) && free:
	case n == numNone && r != v && c.typeVars[r] != nil && !c.instanceMentions(whole, r, v):
	default:
		return "", false
	}
	if len(have) == 0 {
		return "no local instance", true
	}
	return "only `[" + strings.Join(have, "] [") + "]`", true
}

// scalarClasses are the classes Mathlib's arrows of bundled maps over a
// ring (`M →ₗ[R] M₂`) ask of their operands over that ring.
var scalarClasses = map[string]string{"→ₗ": "Module", "≃ₗ": "Module", "→L": "Module", "≃L": "Module",
	"→ₗᵢ": "Module", "≃ₗᵢ": "Module", "→ₐ": "Algebra", "≃ₐ": "Algebra"}

// scalarArrow reports an operand of t, an arrow of bundled maps over a
// ring (`V →ₗ[ℝ] W`), that is a type variable of the stub with certainly
// no structure over that ring (`[AddCommGroup W]` alone: Module ℝ W).
func (c *checker) scalarArrow(t *leansrc.Term) {
	class, ok := scalarClasses[t.Text]
	if !ok || len(t.Args) != 3 || t.Args[2].Kind != leansrc.TermIdent || c.env.Notation || c.glued(t) {
		return
	}
	r := t.Args[2].Text
	for _, a := range t.Args[:2] {
		if a.Kind != leansrc.TermIdent || c.typeVars[a.Text] == nil {
			continue
		}
		if why, ok := c.noScalars(t, a.Text, r); ok {
			c.report(a, "", "failed to synthesize `%s %s %s`: `%s` needs an instance `[%s %s %s]`, and `%s` has %s, which gives it no structure over %s (add `[%s %s %s]`)",
				class, r, a.Text, c.src[t.Start:t.End], class, r, a.Text, a.Text, why, r, class, r, a.Text)
			return
		}
	}
}

// scalarFree are classes on one type that give it no structure over ℝ or ℂ
// (an additive group is a module over ℕ and ℤ only).
var scalarFree = setOf("AddCommGroup", "AddCommMonoid", "AddGroup", "AddMonoid", "NormedAddCommGroup",
	"SeminormedAddCommGroup", "TopologicalSpace", "MetricSpace", "PseudoMetricSpace", "UniformSpace",
	"MeasurableSpace", "Fintype", "Finite", "DecidableEq", "Nontrivial", "Nonempty", "Inhabited",
	"TopologicalAddGroup", "T2Space", "CompleteSpace", "Group", "CommGroup", "Monoid", "CommMonoid")

// setAsType reports t, a local Set given where a type with an algebraic
// structure is expected (`Subgroup H` with `(H : Set G)`): Lean coerces H to
// the subtype ↥H, and no instance gives a subtype of an arbitrary set a
// group, a monoid or a ring operation (a subgroup is `(H : Subgroup G)`);
// and a local set, subgroup or other variable coerced to a type where a
// Fintype is expected (`Fintype.card H`), when the library gives one only
// from an instance about the variable (Env.ReceiverInstance).
func (c *checker) setAsType(t *leansrc.Term, name string, cons []classPos, scope map[string]local) {
	l, ok := scope[t.Text]
	if !ok || l.head == "" || l.binder == 0 || c.env.Notation {
		return
	}
	for _, k := range cons {
		switch {
		case k.pos == 0 && algebraClasses[k.class] && l.head == "Set":
			c.report(t, name, "failed to synthesize `%s ↥%s`: `%s` is a Set, and no instance gives the elements of a set a %s (a subgroup is `(%s : Subgroup G)`)",
				k.class, t.Text, t.Text, k.class, t.Text)
			return
		case k.pos == 0 && k.class == "Fintype" && !c.env.Classical && !c.instanceOn(t.Text) && c.env.ReceiverInstance != nil:
			// Fintype.card s: ↥s is a Fintype only with decidable
			// membership, which an arbitrary set or subgroup lacks
			binder, recv, ok := c.env.ReceiverInstance("Fintype", l.head[strings.LastIndexByte(l.head, '.')+1:], "")
			if !ok {
				continue
			}
			add := "Fintype " + t.Text
			if binder != "" {
				add = renameRoot(binder, recv, t.Text)
			}
			c.report(t, name, "failed to synthesize `Fintype ↥%s`: `%s` is a %s, and its elements form a Fintype only with an instance the statement does not give (`[%s]`), or count them as `Nat.card %s`",
				t.Text, t.Text, l.head, add, t.Text)
			return
		}
	}
}

// instanceOn reports whether a binder of the stub other than v's own may
// be a local instance about v: its type applies a class, or a constant not
// known to be no class, to v (`[Fintype s]`, `(inst : DecidablePred (· ∈
// s))`). Hypotheses that are relations or fields (`hx : x ∈ s`, `hs :
// s.Finite`) are not.
func (c *checker) instanceOn(v string) bool {
	for _, b := range c.s.Binders {
		if slices.Contains(b.Names, v) {
			continue
		}
		lex, err := leansrc.Lex(b.Type)
		if err != nil {
			return true
		}
		if !slices.ContainsFunc(lex, func(l leansrc.Lexeme) bool { return l.Text == v }) {
			continue
		}
		t := c.env.parse(b.Type)
		if t.Kind != leansrc.TermApp || t.Args[0].Kind != leansrc.TermIdent {
			continue // x ∈ s, ∀ x ∈ s, …: propositions
		}
		if c.mayBeInstance(t.Args[0].Text) {
			return true
		}
	}
	return false
}

// mayBeInstance reports whether a binder whose type applies head may be a
// local instance: head names a class, or no single constant of the library
// that is certainly none (Lean core's Decidable, an unknown name).
func (c *checker) mayBeInstance(head string) bool {
	if rs := c.env.Resolve(head); len(rs) == 1 {
		if d, ok := c.env.Lookup(rs[0]); ok {
			// an abbreviation written in notation (`Module.End R M := M
			// →ₗ[R] M`) counts as a possible instance here, as before
			// bracketed arrows were read: binders that mention a variable
			// keep its instances unknown
			_, abbrev := c.abbrevStructure(d, false)
			return d.MayBeClass() && !abbrev
		}
	}
	return true
}

// abbrevStructure returns the structure or inductive type, no class, that
// d abbreviates when d is an abbreviation not declared a class (`abbrev
// Ideal R := Submodule R R`; with notation, also one written in the
// library's infix notation, `Module.End R M := M →ₗ[R] M`): a value of it
// is no instance, and a value of that structure is what it expects.
func (c *checker) abbrevStructure(d *library.Decl, notation bool) (*library.Decl, bool) {
	if d.Kind != library.KindAbbrev || slices.Contains(d.Attrs, "class") || d.Value == "" {
		return nil, false
	}
	t := c.env.parse(d.Value)
	name := ""
	switch {
	case t.Kind == leansrc.TermApp && t.Args[0].Kind == leansrc.TermIdent:
		name = t.Args[0].Text
	case t.Kind == leansrc.TermIdent:
		name = t.Text
	case t.Kind == leansrc.TermInfix && notation:
		name, _ = infixParent(t, &c.env) // Module.End R M := M →ₗ[R] M
	}
	if name == "" {
		return nil, false
	}
	v, ok := lookupFrom(d, name, c.env.Lookup)
	if !ok || v.Kind != library.KindStructure && v.Kind != library.KindInductive || slices.Contains(v.Attrs, "class") {
		return nil, false
	}
	return v, true
}

// algebraClasses are the classes of algebraic structure no subtype of an
// arbitrary set has an instance of.
var algebraClasses = setOf("Monoid", "AddMonoid", "Group", "AddGroup", "CommMonoid", "AddCommMonoid", "CommGroup",
	"AddCommGroup", "Semiring", "Ring", "CommRing", "CommSemiring", "DivisionRing", "Field")

// declaredClass reports whether name resolves to exactly one class the
// library declares under that name (Inner), not a notation for another
// (`AffineSpace` for AddTorsor, whose arguments are not the same).
func (c *checker) declaredClass(name string) bool {
	fulls := c.env.Resolve(name)
	if len(fulls) != 1 {
		return false
	}
	d, ok := c.env.Lookup(fulls[0])
	return ok && d.Kind == library.KindClass && strings.HasSuffix("."+d.Name, "."+name)
}

// missingInstance reports at t the first class of cons that the stub's
// type variable v, which constant name is applied to or at, certainly
// lacks: no local instance of v, its classes' parents or the library's
// instances give it. Constraints on argument position 0 count, and on 1
// when second is set (unification fixed v as a class's second argument,
// `Inner 𝕜 E` of `inner x y`; missingScalars checks a type argument's,
// whose scalars it knows), for a class declared under its name. Decidable classes
// only for a variable with no local instance at all, under a header that
// does not open Classical (`Finset.image f s` into a bare β): `open
// Classical` decides every proposition, and the library states many as
// instances of `Decidable (a = b)` (LinearOrder's), which the closure of
// classes does not read.
func (c *checker) missingInstance(t *leansrc.Term, name, v string, cons []classPos, second bool) {
	local := c.typeVars[v]
	for _, k := range cons {
		decidable := strings.HasPrefix(k.class, "Decidable")
		class, inst := k.class, k.class+" "+v
		if k.pos > 0 {
			// Inner 𝕜 E with E the variable: the class's other arguments
			// are not known here
			class, inst = fmt.Sprintf("%s@%d", k.class, k.pos), k.class+" … "+v
		}
		if k.pos > 1 || k.pos == 1 && (!second || !c.declaredClass(k.class)) || decidable && (len(local) > 0 || c.env.Classical || c.env.Notation) || c.env.VariableHas(local, class) {
			continue
		}
		why := "has no local instance (nor does the library give every type one)"
		if texts := c.typeVarTexts[v]; len(texts) > 0 {
			why = fmt.Sprintf("has only `[%s]`, from which the library derives no `%s` instance", strings.Join(texts, "] ["), k.class)
		}
		c.report(t, name, "failed to synthesize `%s`: `%s` needs an instance `[%s]`, and `%s` %s",
			inst, name, inst, v, why)
		return
	}
}

// notation reports whether head and args may be notation the term parser
// reads as an application: the head glued to the token before it (a /ℚ n)
// or an argument to the one before (R[X], Γ(X, U), ofNat(n)); an argument
// that is a list, a tuple or a construct the parser does not read; or a
// bare name that is neither bound nor a constant (a word of notation such
// as `on`, or an invented name, which the name check reports).
func (c *checker) notation(head *leansrc.Term, args []*leansrc.Term, scope map[string]local) bool {
	// a head the parser made (Int.floor of ⌊x⌋) or a notation token it
	// renamed is glued to nothing; a prefix - or ¬ is no notation's
	made := c.src[head.Start:head.End] != head.Text
	if head.Start > 0 && !made {
		r, _ := utf8.DecodeLastRuneInString(c.src[:head.Start])
		if !unicode.IsSpace(r) && !strings.ContainsRune("([{⟨,|‖⌊⌈-¬", r) {
			return true
		}
	}
	end := head.End
	for i, a := range args {
		if a.Start == end && !(made && i == 0) {
			return true // glued: R[X], ofNat(n)
		}
		end = a.End
		switch a.Kind {
		case leansrc.TermList, leansrc.TermTuple, leansrc.TermUnsupported:
			return true
		case leansrc.TermIdent:
			// a word the parser does not know as notation (Disjoint on f);
			// a plain word no notation of the library is spelled with
			// (`n choose 2`) is an argument, bound nowhere
			root, _, _ := strings.Cut(a.Text, ".")
			if _, ok := scope[root]; !ok && len(c.env.Resolve(a.Text)) == 0 && !c.plainWord(a.Text) {
				if _, core := coreSig(a.Text); !core {
					return true
				}
			}
		}
	}
	return false
}

// plainWord reports whether w is a lower-case ASCII word of three letters
// or more that no notation of the library is spelled with, nor the
// header's.
func (c *checker) plainWord(w string) bool {
	if len(w) < 3 || c.env.NotationWord == nil || c.env.Notation || c.env.NotationWord(w) {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// valueType reports whether a parameter's type, as written, is certainly
// a type of values (not a proposition, not a sort): `Set α`, `Finset α`.
// A proof, a proposition or a type is never one of those.
func valueType(p string) bool {
	return collectionType(p, "Set") || collectionType(p, "Finset")
}

// collectionType reports whether a parameter's type, as written, is head
// applied to one argument (`Set α`, not `Set α → Set β`).
func collectionType(p, head string) bool {
	t := leansrc.ParseTerm(p, nil)
	return t.Kind == leansrc.TermApp && len(t.Args) == 2 && t.Args[0].Kind == leansrc.TermIdent && t.Args[0].Text == head
}

// funcType reports whether a parameter's type, as written, is a function
// type (an arrow or a ∀ at the top).
func funcType(p string) bool {
	t := leansrc.ParseTerm(p, nil)
	return t.Kind == leansrc.TermForall || t.Kind == leansrc.TermInfix && (t.Text == "→" || t.Text == "->")
}

// onlyNamespace reports whether name, which names no constant in scope,
// is certainly only a namespace (Lean: unknown identifier); with
// autoImplicit on Lean may bind it as a variable, so never then.
func (c *checker) onlyNamespace(name string) bool {
	if c.env.OnlyNamespace == nil || c.env.AutoImplicit || len(c.env.Resolve(name)) > 0 {
		return false
	}
	if _, core := coreSig(name); core {
		return false
	}
	return c.env.OnlyNamespace(name)
}

func count(n int) string {
	if n == 1 {
		return "1 explicit argument"
	}
	return fmt.Sprintf("%d explicit arguments", n)
}

// numArg checks an argument of inferred kind a where a value of numeric
// type want is expected: a wider type has no coercion down. fn names the
// function ("" for a type ascription).
func (c *checker) numArg(arg *leansrc.Term, a info, want num, fn string, scope map[string]local) {
	if a.kind == kValue && (a.lit || a.num == numNone || coerces(a.num, want)) {
		// binop% elaborates the argument's numbers at the type expected
		c.noNeg(arg, a, want)
		c.noSci(arg, a, want)
	}
	if a.inv && (want == numNat || want == numInt) {
		c.noInv(arg, fn, want)
	}
	text := c.src[arg.Start:arg.End]
	where := "`" + fn + "` expects"
	if fn == "" {
		where = "the ascription expects"
	}
	if a.kind == kValue && a.tv != "" && a.num == numNone && c.noCoercionFrom(a.tv) {
		// Nat.Prime g with (g : G): G is a variable of the statement, and
		// nothing coerces an arbitrary type to a number
		c.report(arg, fn, "%s a %s, but `%s` has type %s, a type variable of the statement (no coercion %s → %s)", where, want, text, a.tv, a.tv, want)
		return
	}
	if a.kind == kValue && a.of != "" && a.num == numNone && c.env.NumberBeside != nil && !c.env.NumberBeside(a.of, want.String()) {
		// Nat.choose s k with (s : Finset ℕ): no coercion takes a Finset
		// to a number, nor a cast a number to it
		_, last := leansrc.SplitLast(a.of)
		c.report(arg, fn, "%s a %s, but `%s` is a value of type `%s …` (no coercion %s → %s)", where, want, text, a.of, last, want)
		return
	}
	if a.kind != kValue || a.lit || a.num == numNone || coerces(a.num, want) {
		return
	}
	c.report(arg, fn, "%s a %s, but `%s` is %s (no coercion %s → %s)", where, want, text, a.num, a.num, want)
	f := &c.out[len(c.out)-1]
	if want == numNat && arg.Kind == leansrc.TermApp && (arg.Args[0].Text == "Int.floor" || arg.Args[0].Text == "Int.ceil") &&
		(strings.HasSuffix(text, "⌋") || strings.HasSuffix(text, "⌉")) {
		f.Replace = text + "₊" // ⌊x⌋₊, Nat.floor
	}
	if arg.Kind == leansrc.TermIdent && fn != "" && want <= numComplex {
		// a core type: Mathlib's ℝ≥0 is notation only under `open NNReal`
		if l, ok := scope[arg.Text]; ok && l.binder > 0 {
			f.Name, f.Retype, f.retypeStart = arg.Text, want.String(), l.binder
		}
	}
}

// besideVariable reports arithmetic or a comparison t of a number (not a
// numeral) and a value of the statement's type variable that no cast or
// coercion joins (`dist x y ≤ x` with (x : M) under [MetricSpace M]):
// nothing coerces the variable to a number, and a number reaches it only
// through a class a ring-like type has (NatCast, which every semiring
// has; IntCast, RatCast), which its local instances do not give.
func (c *checker) besideVariable(t *leansrc.Term, a, b info) {
	if !opTree[t.Text] || t.Text == "^" || c.glued(t) || c.env.VariableHas == nil {
		return
	}
	for _, p := range [][2]info{{a, b}, {b, a}} {
		n, v := p[0], p[1]
		if !number(n) || n.lit || n.of != "" || v.kind != kValue || v.tv == "" || v.num != numNone || !c.noCoercionFrom(v.tv) {
			continue
		}
		classes := c.typeVars[v.tv]
		if c.env.VariableHas(classes, "NatCast") || c.env.VariableHas(classes, "IntCast") || c.env.VariableHas(classes, "RatCast") {
			continue
		}
		c.report(t, "", "type mismatch: `%s` is %s and `%s` is %s; no cast or coercion takes either to the other's type",
			c.src[t.Args[0].Start:t.Args[0].End], typeOf(a), c.src[t.Args[1].Start:t.Args[1].End], typeOf(b))
		return
	}
}

// matrixProduct reports A * B for two locals typed `Matrix l m α` and
// `Matrix m' n α` whose inner dimensions certainly differ (`Fin 3` and
// `Fin 2`): Matrix's HMul needs them equal, and Matrix, a definition, takes
// no Pi instance (entrywise products are `A ⊙ B`).
func (c *checker) matrixProduct(t *leansrc.Term, scope map[string]local) {
	if t.Text != "*" || c.env.Notation || c.glued(t) {
		return
	}
	var dims [2][]*leansrc.Term
	for i, x := range t.Args {
		l, ok := scope[x.Text]
		if y := t.Args[1-i]; ok && x.Kind == leansrc.TermIdent && y.Kind == leansrc.TermIdent && c.isMatrix(scope[y.Text]) && l.typ != nil &&
			l.typ.Kind == leansrc.TermInfix && arrow(l.typ.Text) && !arrow(l.typ.Args[1].Text) && l.typ.Args[1].Kind == leansrc.TermIdent && numOf(l.typ.Args[1].Text) != numNone {
			// A * v with (v : Fin n → ℝ): no instance multiplies a matrix
			// and a vector (a function of one index to numbers)
			c.report(t, "", "failed to synthesize `HMul`: `%s` is a matrix and `%s` a vector (of type `%s`); no instance multiplies them: a matrix times a vector is `A *ᵥ v` (Matrix.mulVec), a vector times a matrix `v ᵥ* A`",
				y.Text, x.Text, c.src[l.typ.Start:l.typ.End])
			return
		}
		if x.Kind != leansrc.TermIdent || !ok || !c.isMatrix(l) {
			return
		}
		dims[i] = l.typ.Args[1:3]
	}
	inner, outer := c.stubForm(dims[0][1], scope), c.stubForm(dims[1][0], scope)
	if inner.text == "" || outer.text == "" || !inner.rigid || !outer.rigid || inner.text == outer.text {
		return
	}
	c.report(t, "", "failed to synthesize `HMul`: `%s` has %s columns and `%s` has %s rows; a matrix product needs them equal (an entrywise product is `%s ⊙ %s`)",
		c.src[t.Args[0].Start:t.Args[0].End], inner.text, c.src[t.Args[1].Start:t.Args[1].End], outer.text,
		c.src[t.Args[0].Start:t.Args[0].End], c.src[t.Args[1].Start:t.Args[1].End])
}

// isMatrix reports whether local l's type is `Matrix m n α`, the library's.
func (c *checker) isMatrix(l local) bool {
	if l.typ == nil || l.typ.Kind != leansrc.TermApp || len(l.typ.Args) != 4 {
		return false
	}
	fulls := c.env.Resolve(l.typ.Args[0].Text)
	return len(fulls) == 1 && fulls[0] == "Matrix"
}

// noTopBot are the number types with no ⊤ (Top), no ⊥ (Bot): ℕ and ℝ≥0
// have ⊥ (= 0), ℝ≥0∞ both; ℤ, ℚ, ℝ, ℂ neither (an order without ends, or
// none).
var noTopBot = map[num][2]bool{numNat: {true, false}, numNNReal: {true, false}, numInt: {true, true},
	numRat: {true, true}, numReal: {true, true}, numComplex: {true, true}}

// topBeside reports ⊤ or ⊥ on one side of a comparison whose other side
// is a number of a type without it (`sSup s = ⊤` with `(s : Set ℝ)`:
// binrel% elaborates both at ℝ, which has no Top).
func (c *checker) topBeside(t *leansrc.Term, a, b info) {
	if !opTree[t.Text] || !relations[t.Text] || c.env.Notation || c.glued(t) {
		// a relation is its tree's root: inside arithmetic, a leaf of
		// another type may take the tree elsewhere ((x : EReal) + ⊤)
		return
	}
	for i, x := range t.Args {
		y := []info{b, a}[i]
		end := map[string]int{"⊤": 0, "Top.top": 0, "⊥": 1, "Bot.bot": 1} // as written, or the notation read
		k, ok := end[x.Text]
		if x.Kind != leansrc.TermIdent || !ok || !number(y) || y.lit || y.of != "" || !noTopBot[y.num][k] {
			continue
		}
		class := [2]string{"Top", "Bot"}[k]
		sym := c.src[x.Start:x.End]
		c.report(x, "", "failed to synthesize `%s %s`: `%s` is beside `%s`, a number of type %s, which has no %s (an order without that end; the extended reals are EReal, ℝ≥0∞)",
			class, y.num, sym, c.src[t.Args[1-i].Start:t.Args[1-i].End], y.num, sym)
		return
	}
}

// typeOf names the type of a number or of a value of a type variable, for
// messages.
func typeOf(a info) string {
	if a.tv != "" {
		return "of the statement's type variable " + a.tv
	}
	return a.num.String()
}

// noCoercionFrom reports whether a value of the stub's type variable v
// certainly has no coercion to a number: the library coerces no arbitrary
// type to one, so only a local instance of a coercion class could (`[CoeTC
// G ℝ]`), or notation the header declares.
func (c *checker) noCoercionFrom(v string) bool {
	if c.typeVars[v] == nil || c.env.Notation {
		return false
	}
	for _, cl := range c.typeVars[v] {
		if strings.Contains(cl, "Coe") || strings.Contains(cl, "Cast") {
			return false
		}
	}
	return true
}

// pointwiseInverse returns f of f⁻¹ when f is a local function whose
// codomain is a number type with an inverse (ℚ, ℝ, ℂ): Pi's pointwise Inv,
// a function of f's type.
func (c *checker) pointwiseInverse(t *leansrc.Term, scope map[string]local) (*leansrc.Term, bool) {
	if t.Kind != leansrc.TermPostfix || t.Text != "⁻¹" || len(t.Args) != 1 || t.Args[0].Kind != leansrc.TermIdent {
		return nil, false
	}
	f := t.Args[0]
	l, ok := scope[f.Text]
	if !ok || l.binder == 0 || !l.function() || !c.plainArrow(l.typ) {
		return nil, false
	}
	n := numOf(l.typ.Args[1].Text)
	return f, l.typ.Args[1].Kind == leansrc.TermIdent && (n == numRat || n == numReal || n == numComplex)
}

// functionInv reports f⁻¹ for a local function f (`f : X → Y`) whose
// codomain has no inverse: Pi's Inv is pointwise and needs one on the
// codomain, which ℕ and ℤ lack, and so does a type variable whose local
// instances give none. The inverse function and the preimage are written
// otherwise.
func (c *checker) functionInv(t *leansrc.Term, scope map[string]local) {
	f := t.Args[0]
	l, ok := scope[f.Text]
	if f.Kind != leansrc.TermIdent || !ok || l.binder == 0 || !l.function() || c.env.Notation {
		return
	}
	cod := l.typ.Args[1]
	if cod.Kind != leansrc.TermIdent {
		return
	}
	n, tv := numOf(cod.Text), c.typeVars[cod.Text] != nil
	switch {
	case n == numNat || n == numInt:
	case tv && c.env.VariableHas != nil && !c.env.VariableHas(c.typeVars[cod.Text], "Inv"):
	default:
		return
	}
	ty := c.src[l.typ.Start:l.typ.End]
	c.report(t, "", "failed to synthesize `Inv (%s)`: a function's ⁻¹ is pointwise, and %s has no inverse (the inverse function is `Function.invFun %s`; the preimage of a set is `%s ⁻¹' s`)",
		ty, cod.Text, f.Text, f.Text)
}

// variableArrow returns local l's type when it is written as a function
// or a bundled map between two of the statement's type variables (`G → H`,
// `G →* H`), else nil.
func (c *checker) variableArrow(l local) *leansrc.Term {
	t := l.typ
	if t == nil || t.Kind != leansrc.TermInfix || !arrow(t.Text) || t.Text == "≃" && c.env.Notation {
		return nil
	}
	for _, a := range t.Args[:2] {
		if a.Kind != leansrc.TermIdent || c.typeVars[a.Text] == nil {
			return nil
		}
	}
	return t
}

// distinctVariables reports whether x and y are two different type
// variables of the statement between which nothing may coerce: neither has
// a local instance of a coercion, a cast, a SetLike or FunLike kind, and
// no instance binder mentions both.
func (c *checker) distinctVariables(x, y string) bool {
	if x == "" || y == "" || x == y || c.env.Notation {
		return false
	}
	for _, v := range []string{x, y} {
		if !c.noCoercionFrom(v) || c.likeInstance(v) {
			return false
		}
	}
	return !c.instanceMentions(nil, x, y)
}

// likeInstance reports whether a local instance of the statement's type
// variable v may make its values sets or functions (SetLike, FunLike and
// their kin).
func (c *checker) likeInstance(v string) bool {
	for _, cl := range c.typeVars[v] {
		if strings.Contains(cl, "Like") {
			return true
		}
	}
	return false
}

// noInv reports t, an inverse x⁻¹ elaborated at n (ℕ or ℤ), which has no
// Inv instance.
func (c *checker) noInv(t *leansrc.Term, name string, n num) {
	x := t
	if t.Kind == leansrc.TermPostfix && len(t.Args) == 1 {
		x = t.Args[0]
	}
	operand := c.src[x.Start:x.End]
	c.report(t, name, "failed to synthesize `Inv %s`: `%s` inverts a number of type %s, which has no inverse (write `(%s : ℝ)⁻¹` or `1 / %s`)",
		n, c.src[t.Start:t.End], n, operand, operand)
}

// noNeg reports t, arithmetic of kind a with a negation in it, elaborated
// at the type want that has none (ℕ, ℝ≥0, ℝ≥0∞): Neg fails. Arithmetic
// whose numbers are of a wider type (a.num) is elaborated there.
func (c *checker) noNeg(t *leansrc.Term, a info, want num) {
	if !a.neg || a.kind != kValue || !a.lit && a.num != want {
		return
	}
	switch want {
	case numNat, numNNReal, numENNReal:
		c.report(t, "", "failed to synthesize `Neg %s`: `%s` negates a number of type %s, which has no negation (write the numbers at ℤ or ℝ: `(n : ℤ)`)",
			want, c.src[t.Start:t.End], want)
	}
}

// noSci reports t, a decimal or arithmetic with one, elaborated at the
// type want that has no OfScientific instance (ℕ, ℤ).
func (c *checker) noSci(t *leansrc.Term, a info, want num) {
	if !a.sci || a.kind != kValue || !a.lit && a.num != want {
		return
	}
	if want == numNat || want == numInt {
		c.report(t, "", "failed to synthesize `OfScientific %s`: `%s` has a decimal, and %s has no decimals (write the numbers at ℚ or ℝ, or use a fraction of integers)",
			want, c.src[t.Start:t.End], want)
	}
}

// resolve finds the signature of the constant name denotes, when exactly
// one does.
func (c *checker) resolve(name string) (sig, bool) {
	if cs, ok := coreSig(name); ok && (numOf(name) != numNone || name == "Prop") {
		return cs, true
	}
	if sg, ok := c.sigs[name]; ok {
		return sg, sg.kind != ""
	}
	var sg sig
	if fulls := c.env.Resolve(name); len(fulls) == 1 {
		if d, ok := c.env.Lookup(fulls[0]); ok {
			sg = sigOf(d, &c.env, 0) // the library's, when it holds Lean core
		} else if cs, ok := coreSig(fulls[0]); ok {
			sg = cs
		}
	}
	c.sigs[name] = sg
	return sg, sg.kind != ""
}

// retypes keeps the Retype of a finding only when retyping is safe: the
// variable is the only name of its binder, whose type is a numeric type;
// every finding on it demands the same type; every use of it was seen and
// is a value (not x.field, not applied); and the signature has no
// subtraction or negation, the only arithmetic whose meaning differs on
// ℕ (truncated) from ℤ, ℚ, ℝ on the values ℕ keeps: +, *, /, %, ^, ∣ and
// the comparisons agree there, and a use where a wider type is expected is
// coerced up.
func (c *checker) retypes() {
	demand := map[string]string{}
	for _, f := range c.out {
		if f.Retype == "" {
			continue
		}
		if d, ok := demand[f.Name]; ok && d != f.Retype {
			demand[f.Name] = "-"
		} else {
			demand[f.Name] = f.Retype
		}
	}
	for i := range c.out {
		f := &c.out[i]
		if f.Retype == "" {
			continue
		}
		b := f.retypeStart - 1
		ok := demand[f.Name] == f.Retype && !c.unsafe[f.Name] && !c.minus() && len(c.binderNames[b]) == 1 &&
			c.binderTypes[b][0] >= 0 && numOf(c.s.Text[c.binderTypes[b][0]:c.binderTypes[b][1]]) != numNone &&
			c.lexemes(f.Name) == c.uses[f.Name]+1
		if !ok {
			f.Retype, f.retypeStart = "", 0
			continue
		}
		f.retypeStart, f.retypeEnd = c.binderTypes[b][0], c.binderTypes[b][1]
	}
}

// minus reports whether the signature subtracts or negates.
func (c *checker) minus() bool {
	for _, t := range c.s.Lexemes {
		if t.Start >= c.off && t.End <= c.s.ProofStart && (t.Text == "-" || t.Text == "−") {
			return true
		}
	}
	return false
}

// lexemes counts the identifiers spelled name (or name.field) in the
// stub's signature, to be sure every use was seen.
func (c *checker) lexemes(name string) int {
	n := 0
	for _, t := range c.s.Lexemes {
		if t.Start < c.off || t.End > c.s.ProofStart {
			continue
		}
		if t.Text == name || strings.HasPrefix(t.Text, name+".") {
			n++
		}
	}
	return n
}

// Retype returns text with the binder types the findings' Retype repairs
// replace (text is the stub the findings were computed from); ok is false
// when no finding carries one.
func Retype(text string, fs []Finding) (string, bool) {
	var es []edit
	for _, f := range fs {
		if f.Retype != "" {
			es = append(es, edit{f.retypeStart, f.retypeEnd, f.Retype})
		}
	}
	return apply(text, es)
}

// Replace returns text with the findings' Replace texts in place of their
// ranges (text is the stub the findings were computed from); ok is false
// when no finding carries one.
func Replace(text string, fs []Finding) (string, bool) {
	var es []edit
	for _, f := range fs {
		if f.Replace != "" {
			es = append(es, edit{f.Start, f.End, f.Replace})
		}
	}
	return apply(text, es)
}

// edit replaces text[start:end] by to.
type edit struct {
	start, end int
	to         string
}

// apply makes the edits that fit text, from the last one; of two that
// start at the same place or overlap, the first kept wins.
func apply(text string, es []edit) (string, bool) {
	var keep []edit
	for _, e := range es {
		if e.start < 0 || e.end > len(text) || e.start >= e.end {
			continue
		}
		overlaps := false
		for _, k := range keep {
			if e.start < k.end && k.start < e.end {
				overlaps = true
			}
		}
		if !overlaps {
			keep = append(keep, e)
		}
	}
	if len(keep) == 0 {
		return text, false
	}
	sort.Slice(keep, func(i, j int) bool { return keep[i].start > keep[j].start })
	for _, e := range keep {
		text = text[:e.start] + e.to + text[e.end:]
	}
	return text, true
}

// missingFact reports a `[Fact P]` instance of signature sg that the
// stub cannot give: P mentions an explicit parameter the stub fills with
// one of its own variables (`legendreSym p a` with `(hp : p.Prime)`), and
// the stub writes no `Fact` at all. A hypothesis is no instance, and the
// library's Fact instances are about numerals (`Fact (Nat.Prime 2)`) or
// other Facts.
func (c *checker) missingFact(whole *leansrc.Term, name string, sg sig, args []*leansrc.Term, scope map[string]local) {
	c.missingDecidable(name, sg, args, scope)
	c.missingReceiverInstance(name, sg, args, scope)
	if len(sg.facts) == 0 || c.env.Notation || strings.Contains(c.src, "Fact") || sg.decl == nil || sg.decl.Kind.IsTypeLike() {
		return // a structure's signature may show its file's instance variables (see unify)
	}
	for _, f := range sg.facts {
		if f.class != "Fact" {
			continue
		}
		for _, i := range f.params {
			if i >= len(args) || args[i].Kind != leansrc.TermIdent || scope[args[i].Text].binder == 0 {
				continue
			}
			prop := f.prop
			if n := f.names[i]; n != args[i].Text {
				prop = renameRoot(prop, n, args[i].Text)
			}
			c.report(whole, name, "failed to synthesize `Fact (%s)`: `%s` needs an instance `[Fact (%s)]`, and the statement has no `Fact` binder (a hypothesis is no instance: write `[Fact (%s)]`)",
				prop, name, prop, prop)
			return
		}
	}
}

// missingDecidable reports a predicate or relation the stub binds
// (`(P : ℕ → Prop)`) given where signature sg needs it decidable
// (`Finset.filter P s`), when no instance binder of the stub mentions it
// and the header does not open Classical: nothing else decides a
// variable's propositions.
func (c *checker) missingDecidable(name string, sg sig, args []*leansrc.Term, scope map[string]local) {
	if c.env.Classical || c.env.Notation || sg.decl == nil || sg.decl.Kind.IsTypeLike() {
		return
	}
	for _, f := range sg.facts {
		if f.class != "DecidablePred" && f.class != "DecidableRel" || len(f.params) != 1 {
			continue
		}
		i := f.params[0]
		if i >= len(args) || args[i].Kind != leansrc.TermIdent {
			continue
		}
		l, ok := scope[args[i].Text]
		if !ok || l.binder == 0 || !l.function() || propArity(l.typ) == 0 || c.instanceMentions(nil, args[i].Text) {
			continue
		}
		p := args[i].Text
		c.report(args[i], name, "failed to synthesize `%s %s`: `%s` needs an instance `[%s %s]`, and nothing decides the propositions of the statement's variable `%s` (add [%s %s], or open Classical)",
			f.class, p, name, f.class, p, p, f.class, p)
		return
	}
}

// missingReceiverInstance reports a `[Fintype T]` instance of signature
// sg whose T is built from a variable of the statement that no instance
// binder of it mentions (SimpleGraph.degree's `G.neighborSet v` with the
// statement's graph G; Set.toFinset's `↥s` with its set s), when the
// library gives that instance only through one about the variable
// (Env.ReceiverInstance: `[DecidableRel G.Adj]`) and the header does not
// open Classical: nothing decides a variable's relation or membership.
func (c *checker) missingReceiverInstance(name string, sg sig, args []*leansrc.Term, scope map[string]local) {
	if c.env.Classical || c.env.Notation || c.env.ReceiverInstance == nil || sg.decl == nil || sg.decl.Kind.IsTypeLike() {
		return
	}
	for _, f := range sg.facts {
		if f.class != "Fintype" {
			continue
		}
		root, field, ok := Receiver(f.prop)
		i := slices.Index(f.names, root)
		if !ok || i < 0 || i >= len(args) || i >= len(sg.params) || args[i].Kind != leansrc.TermIdent {
			continue
		}
		x := args[i].Text
		l, ok := scope[x]
		if !ok || l.binder == 0 || l.isType || l.typ == nil || c.instanceMentions(nil, x) {
			continue // a type's own instances are missingInstance's
		}
		head := typeHeadName(c.src[l.typ.Start:l.typ.End])
		if head == "" || head != typeHeadName(sg.params[i]) {
			continue
		}
		binder, recv, ok := c.env.ReceiverInstance(f.class, head[strings.LastIndexByte(head, '.')+1:], field)
		if !ok {
			continue
		}
		inst := bareType(f.prop)
		switch {
		case field == "":
			inst = "↑" + inst // Lean shows the coercion to a type
		case strings.ContainsAny(inst, " \t"):
			inst = "(" + inst + ")"
		}
		for j, n := range f.names {
			if n != "" && j < len(args) && args[j].Kind == leansrc.TermIdent && n != args[j].Text {
				inst = renameRoot(inst, n, args[j].Text)
			}
		}
		add := "Fintype " + inst
		if binder != "" {
			add = renameRoot(binder, recv, x)
		}
		c.report(args[i], name, "failed to synthesize `Fintype %s`: `%s` needs an instance `[Fintype %s]`, which the library gives only from an instance about `%s`, and no instance binder of the statement mentions `%s` (add [%s], or open Classical)",
			inst, name, inst, x, x, add)
		return
	}
}

// plainArrow reports whether type t is written as a function arrow alone
// between its operands (`Fin n → ℝ`), not an arrow glued to a notation's
// letters that the scanner split (`α →CO β`, `r →r s`).
func (c *checker) plainArrow(t *leansrc.Term) bool {
	if t == nil || t.Kind != leansrc.TermInfix || t.Text != "→" && t.Text != "->" || len(t.Args) != 2 || t.Args[0].End > t.Args[1].Start {
		return false
	}
	between := c.src[t.Args[0].End:t.Args[1].Start]
	i := strings.Index(between, t.Text)
	return strings.TrimSpace(between) == t.Text && strings.TrimSpace(between[i+len(t.Text):]) == "" && i+len(t.Text) < len(between)
}

// bareType is a type as written without its coercion arrow and outer
// parentheses (`G.neighborSet v` of `(G.neighborSet v)`, s of `↑s`).
func bareType(text string) string {
	text = strings.TrimSpace(text)
	t := leansrc.ParseTerm(text, nil)
	for t.Kind == leansrc.TermPrefix && (t.Text == "↥" || t.Text == "↑") && len(t.Args) == 1 {
		t = t.Args[0]
	}
	if t.Kind == leansrc.TermUnsupported || t.End > len(text) {
		return text
	}
	text = text[t.Start:t.End]
	for u := leansrc.Unparen(text); u != text; u = leansrc.Unparen(text) {
		text = u
	}
	return text
}

// typeHeadName is the head constant of a type as written (`SimpleGraph`
// of `SimpleGraph V`), "" when it is not a name.
func typeHeadName(typ string) string {
	t := leansrc.ParseTerm(strings.TrimSpace(typ), nil)
	if t.Kind == leansrc.TermApp {
		t = t.Args[0]
	}
	if t.Kind != leansrc.TermIdent {
		return ""
	}
	return t.Text
}

// propArity is the number of arrows of type t written as a chain of plain
// arrows into Prop (`V → V → Prop`: 2), 0 for any other.
func propArity(t *leansrc.Term) int {
	n := 0
	for t != nil && t.Kind == leansrc.TermInfix && (t.Text == "→" || t.Text == "->") && len(t.Args) == 2 {
		if _, _, dep := dependent(t); dep {
			return 0
		}
		t, n = t.Args[1], n+1
	}
	if t == nil || t.Kind != leansrc.TermIdent || t.Text != "Prop" {
		return 0
	}
	return n
}

// instanceMentions reports whether an instance binder of the stub other
// than except (the one being elaborated, when set) mentions every one of
// names, or a field of it (`[DecidablePred P]`; `[Algebra K L]` for K and
// L; `[DecidableRel G.Adj]` for G).
func (c *checker) instanceMentions(except *leansrc.Term, names ...string) bool {
	for _, b := range c.s.Binders {
		if b.Bracket != "[" || except != nil && strings.TrimSpace(b.Type) == strings.TrimSpace(c.src[except.Start:except.End]) {
			continue
		}
		lex, err := leansrc.Lex(b.Type)
		all := true
		for _, n := range names {
			all = all && (err != nil || slices.ContainsFunc(lex, func(l leansrc.Lexeme) bool { return rootedAt(l, n) }))
		}
		if all {
			return true
		}
	}
	return false
}

// numberLacks reports whether the number type n certainly has no instance
// of constraint k on its first argument in the stub's scope, by the
// library's instances (Env.NumberHas); a Decidable class is left alone
// (`open Classical`), and so is a generated declaration, which may show
// the original's signature.
func (c *checker) numberLacks(n num, k classPos, sg sig) bool {
	return k.pos == 0 && n != numNone && n <= numComplex && c.env.NumberHas != nil && !c.env.Notation &&
		(sg.decl == nil || !sg.decl.Generated) && !strings.HasPrefix(k.class, "Decidable") && !c.env.NumberHas(n.String(), k.class)
}

// noInstance says why numeric type n certainly has no instance of class
// (its last name component), whatever the library: ℕ, ℝ≥0 and ℝ≥0∞ have
// no negation, so no ring or additive group; ℤ has no inverse, so no field;
// ℂ has no linear order; ℚ is no RCLike field (only ℝ and ℂ are). "" when
// it may have one.
func noInstance(n num, class string) string {
	switch {
	case (n == numNat || n == numNNReal || n == numENNReal) && negClasses[class]:
		return "has no negation (it is no ring and no additive group)"
	case n == numInt && fieldClasses[class]:
		return "has no inverse (it is no field)"
	case n == numRat && class == "RCLike":
		return "is neither ℝ nor ℂ"
	case n == numComplex && orderClasses[class]:
		return "has no linear order"
	}
	return ""
}

// negClasses are the classes whose instances have a negation.
var negClasses = setOf("Neg", "AddGroup", "AddCommGroup", "Ring", "CommRing", "DivisionRing", "Field", "OrderedRing",
	"OrderedCommRing", "StrictOrderedRing", "StrictOrderedCommRing", "LinearOrderedRing", "LinearOrderedCommRing",
	"LinearOrderedField", "OrderedAddCommGroup", "LinearOrderedAddCommGroup", "FloorRing", "NormedAddCommGroup",
	"SeminormedAddCommGroup", "NormedRing", "NormedCommRing", "NormedField", "NontriviallyNormedField", "RCLike")

// fieldClasses are the classes whose instances have an inverse of every
// nonzero element.
var fieldClasses = setOf("DivisionRing", "Field", "Semifield", "DivisionSemiring", "LinearOrderedField",
	"LinearOrderedSemifield", "NormedField", "NontriviallyNormedField", "RCLike")

// orderClasses are the classes whose instances are linearly ordered.
var orderClasses = setOf("Max", "Min", "LinearOrder", "LinearOrderedRing", "LinearOrderedCommRing", "LinearOrderedField",
	"LinearOrderedSemiring", "LinearOrderedAddCommGroup", "FloorRing", "FloorSemiring", "ConditionallyCompleteLinearOrder")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
