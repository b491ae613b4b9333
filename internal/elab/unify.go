package elab

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// This file unifies the types of a constant's explicit arguments with its
// parameters' types: `Polynomial.IsRoot (p : R[X]) (a : R)` given `p :
// Polynomial ℚ` fixes R to ℚ, and an `x : ℝ` given for `a` then has no
// coercion to ℚ; `Matrix.det (M : Matrix n n R)` given a `Matrix (Fin 2)
// (Fin 3) ℝ` needs n to be both Fin 2 and Fin 3. Only what Lean's unifier
// certainly rejects is reported: two types differ for certain when both are
// built from numbers, numerals, the stub's type variables and the library's
// structures and inductive types (no definition that might unfold to the
// other), and a variable fixed by one argument's type as a whole may still be
// met by a coercion of another argument (ℕ where ℝ is fixed).

// patternVars returns the variables of signature d's parameter types that
// unification fixes: the implicit binders' names ({R : Type*}, {n : ℕ}) and
// the names the parameters use that the signature does not bind and that
// look like variables and denote no constant (the implicit section
// variables of an exact signature).
func patternVars(binders []leansrc.Binder, hdr string, params []string, d *library.Decl, env *Env) map[string]bool {
	vars := map[string]bool{}
	bound := map[string]bool{}
	for _, b := range binders {
		names, _ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			bound[n] = true
			vars[n] = b.Bracket == '{' || b.Bracket == '⦃'
		}
	}
	for _, p := range params {
		lex, err := leansrc.Lex(p)
		if err != nil {
			continue
		}
		for _, l := range lex {
			n := l.Text
			if l.Kind != leansrc.LexIdent || bound[n] || !AutoBoundShape(n) || numOf(n) != numNone {
				continue
			}
			if _, core := coreSig(n); core {
				continue
			}
			if _, ok := lookupFrom(d, n, env.Lookup); ok {
				continue
			}
			vars[n] = true
		}
	}
	for n, v := range vars {
		if !v {
			delete(vars, n)
		}
	}
	return vars
}

// form is a type in a canonical spelling: constants by their full names,
// numbers by their symbols, numerals by their value, the stub's type
// variables marked. rigid says two different forms certainly denote
// different types.
type form struct {
	text  string
	rigid bool
	num   num
}

// binding is what fixed a variable: the type, and whether the argument's
// type is the variable itself (then a coercion may have applied).
type binding struct {
	form form
	top  bool
	arg  *leansrc.Term
}

// unifier holds one application's variables.
type unifier struct {
	c     *checker
	name  string
	sg    sig
	scope map[string]local
	bound map[string]binding
	// unsure are the variables an argument of unknown type fills first:
	// what later arguments fix them to may be coerced to.
	unsure map[string]bool
	// reported stops after the first finding of an application.
	reported bool
	// arg is the argument being unified, argType its type as written.
	arg     *leansrc.Term
	argType string
}

// unify checks the explicit arguments of constant name (signature sg) whose
// types are known against the signature's variables. It returns the number
// type the application's value has when the signature's result type is a
// variable the arguments fixed to one (Matrix.det A with A : Matrix (Fin 2)
// (Fin 2) ℝ is ℝ), else numNone.
func (c *checker) unify(name string, sg sig, args []*leansrc.Term, infos []info, scope map[string]local) num {
	if sg.decl == nil || len(sg.vars) == 0 || sg.added || sg.own < len(sg.params) {
		return numNone
	}
	u := &unifier{c: c, name: name, sg: sg, scope: scope, bound: map[string]binding{}, unsure: map[string]bool{}}
	for i := 0; i < len(args) && i < len(sg.params) && !u.reported; i++ {
		a, text := c.argType(args[i], infos[i], scope)
		if a == nil {
			// Btw.btw (x : α ⧸ H) y z: the first argument may fix the
			// variable to a type the later ones coerce to
			if p := strings.TrimSpace(sg.params[i]); sg.vars[p] {
				if _, fixed := u.bound[p]; !fixed {
					u.unsure[p] = true
				}
			}
			continue
		}
		u.arg, u.argType = args[i], text
		u.match(c.env.parse(sg.params[i]), sg.params[i], a, true)
	}
	if u.reported {
		return numNone
	}
	res := numNone
	if b, ok := u.bound[strings.TrimSpace(sg.resText)]; ok && b.form.rigid && !b.top && len(args) == len(sg.params) {
		// fixed inside an argument's type (Matrix n n R), not by an
		// argument of type R itself, which an expected type or another
		// reading of the name (`abs x` under `open Complex`, where an
		// older library's Complex.abs was not protected) may change
		res = b.form.num
	}
	if c.env.VariableHas == nil || c.env.Notation || sg.decl.Generated {
		return res
	}
	for i := 0; i < len(args) && i < len(sg.params); i++ {
		c.implicitInstance(name, sg, sg.params[i], args[i], u.bound, scope)
	}
	for _, v := range slices.Sorted(maps.Keys(u.bound)) { // one order, one first finding
		b := u.bound[v]
		if u.unsure[v] {
			continue
		}
		cons := sg.varCons[v]
		if !b.top && sg.decl.Kind.IsTypeLike() {
			// a structure's signature as the index writes it may show
			// instances of its file's section variables that Lean did not
			// add to it (IsAddFreimanHom's [CommMonoid α]); a definition's
			// are added with their variable
			cons = c.fieldsUse(sg.decl, cons)
		}
		if !b.top {
			c.factOnly(b, v, name, cons, scope)
		}
		if !b.form.rigid {
			continue
		}
		// orderOf g with (g : G) under [AddGroup G]: orderOf's G is the
		// stub's G, whose local instances give no Monoid; p.roots with (p :
		// Polynomial R) under [CommRing R]: no IsDomain R; Continuous f
		// with (f : X → Y) and no instance on Y
		if tv := b.form.text; c.typeVars[tv] != nil && len(cons) > 0 {
			c.missingInstance(b.arg, name, tv, cons, true)
		}
		if b.top || b.form.num == numNone {
			continue
		}
		// Monotone f with (f : ℕ → ℂ): β is ℂ inside f's type, which no
		// coercion changes, and ℂ's order is scoped
		for _, k := range cons {
			if c.numberLacks(b.form.num, k, sg) {
				c.report(b.arg, name, "failed to synthesize `%s %s`: `%s` needs an instance `[%s %s]`, and `%s` makes %s %s, to which the library gives no `%s` here",
					k.class, b.form.num, name, k.class, v, c.src[b.arg.Start:b.arg.End], v, b.form.num, k.class)
				break
			}
		}
	}
	return res
}

// factOnly reports variable v of constant name fixed by b inside an
// argument's type to a library type applied to a stub's variable
// (`Polynomial (ZMod q)` makes R `ZMod q`) when one of v's instances
// (cons) comes for that type only through instances that take a `[Fact
// P]` or a `[NeZero n]` and the stub writes neither (premiseOnly).
func (c *checker) factOnly(b binding, v, name string, cons []classPos, scope map[string]local) {
	if b.form.num != numNone {
		return
	}
	if k, ok := c.premiseOnly(c.env.parse(b.form.text), cons, scope); ok {
		c.report(b.arg, name, "failed to synthesize `%s (%s)`: `%s` needs an instance `[%s %s]`, and `%s` makes %s `%s`, to which the library gives `%s` only through instances that take a `[Fact …]` or `[NeZero …]`, and the statement has no such binder (a hypothesis is no instance)",
			k.class, b.form.text, name, k.class, v, c.src[b.arg.Start:b.arg.End], v, b.form.text, k.class)
	}
}

// premiseOnly returns the first class of cons that type t, a library type
// applied to a stub's variable
// (`ZMod q`), has only through instances taking a `[Fact P]` or a
// `[NeZero n]` (Env.NeedsFact), when the stub writes neither: a
// hypothesis is no instance, and the library's are about numerals.
func (c *checker) premiseOnly(t *leansrc.Term, cons []classPos, scope map[string]local) (classPos, bool) {
	if c.env.NeedsFact == nil || strings.Contains(c.src, "Fact") || strings.Contains(c.src, "NeZero") || c.env.Notation {
		return classPos{}, false
	}
	if t.Kind != leansrc.TermApp || t.Args[0].Kind != leansrc.TermIdent || !slices.ContainsFunc(t.Args[1:], func(a *leansrc.Term) bool {
		return a.Kind == leansrc.TermIdent && scope[a.Text].binder > 0
	}) {
		return classPos{}, false
	}
	fulls := c.env.Resolve(t.Args[0].Text)
	if len(fulls) != 1 {
		return classPos{}, false
	}
	for _, k := range cons {
		if c.env.NeedsFact(fulls[0], k.class, k.pos) {
			return k, true
		}
	}
	return classPos{}, false
}

// implicitInstance reports arg, a constant of the library given no
// explicit argument whose type is `H β` with instances on β (Filter.atTop
// {α} [Preorder α] : Filter α), given where name expects `H v` with v
// bound by another argument to a number type that lacks them (`Tendsto f
// atTop l` with `(f : ℂ → ℂ)`: α is ℂ, whose order is scoped).
func (c *checker) implicitInstance(name string, sg sig, param string, arg *leansrc.Term, bound map[string]binding, scope map[string]local) {
	if _, local := scope[arg.Text]; local || arg.Kind != leansrc.TermIdent {
		return
	}
	asg, ok := c.resolve(arg.Text)
	if !ok || !asg.known || !asg.exact || asg.theorem || len(asg.params) > 0 || asg.decl == nil {
		return
	}
	want, have := c.env.parse(param), c.env.parse(asg.resText)
	if want.Kind != leansrc.TermApp || have.Kind != leansrc.TermApp || len(want.Args) != 2 || len(have.Args) != 2 ||
		want.Args[1].Kind != leansrc.TermIdent || have.Args[1].Kind != leansrc.TermIdent {
		return
	}
	wh, ok1 := lookupFrom(sg.decl, want.Args[0].Text, c.env.Lookup)
	hh, ok2 := lookupFrom(asg.decl, have.Args[0].Text, c.env.Lookup)
	b, fixed := bound[want.Args[1].Text]
	if !ok1 || !ok2 || wh != hh || !fixed || !b.form.rigid || b.form.num == numNone {
		return
	}
	for _, k := range asg.varCons[have.Args[1].Text] {
		if c.numberLacks(b.form.num, k, asg) {
			c.report(arg, arg.Text, "failed to synthesize `%s %s`: `%s` needs an instance `[%s %s]`, and `%s` makes it %s (through `%s`), to which the library gives no `%s` here",
				k.class, b.form.num, arg.Text, k.class, have.Args[1].Text, c.src[b.arg.Start:b.arg.End], b.form.num, name, k.class)
			return
		}
	}
}

// argType returns the type of argument arg, and its text, when the stub
// or the library says it: a local bound with a written type, a value of a
// numeric type, or a constant from numbers to a number (Real.sin: ℝ → ℝ);
// nil otherwise.
func (c *checker) argType(arg *leansrc.Term, in info, scope map[string]local) (*leansrc.Term, string) {
	if arg.Kind == leansrc.TermIdent {
		if l, ok := scope[arg.Text]; ok && l.typ != nil {
			return l.typ, c.src[l.typ.Start:l.typ.End]
		}
	}
	if in.kind == kValue && !in.lit && in.num != numNone && in.of == "" {
		return &leansrc.Term{Kind: leansrc.TermIdent, Text: in.num.String()}, in.num.String()
	}
	if _, local := scope[arg.Text]; arg.Kind == leansrc.TermIdent && !local && in.kind == kFunc {
		if text := c.numberFunction(arg.Text); text != "" {
			return c.env.parse(text), text
		}
	}
	return nil, ""
}

// numberFunction returns the type of constant name, written as an arrow,
// when its exact signature takes numbers only and gives a number
// (Real.sin: "ℝ → ℝ"), else "".
func (c *checker) numberFunction(name string) string {
	sg, ok := c.resolve(name)
	if !ok || !sg.known || !sg.exact || sg.theorem || sg.res != resNum || len(sg.params) == 0 || sg.own < len(sg.params) || sg.added {
		return ""
	}
	var parts []string
	for _, p := range sg.params {
		n := numOf(p)
		if n == numNone {
			return ""
		}
		parts = append(parts, n.String())
	}
	return strings.Join(append(parts, sg.num.String()), " → ")
}

// match unifies parameter type p (written ptext in the signature) with
// type a (in the stub) of the argument; top says p is the whole parameter
// type.
func (u *unifier) match(p *leansrc.Term, ptext string, a *leansrc.Term, top bool) {
	if u.reported || p == nil || a == nil {
		return
	}
	switch {
	case p.Kind == leansrc.TermIdent && u.sg.vars[p.Text]:
		u.bind(p.Text, ptext, u.c.stubForm(a, u.scope), top)
	case p.Kind == leansrc.TermApp && a.Kind == leansrc.TermApp && len(p.Args) == len(a.Args):
		ph, ah := p.Args[0], a.Args[0]
		if ph.Kind != leansrc.TermIdent || ah.Kind != leansrc.TermIdent || u.sg.vars[ph.Text] {
			return
		}
		pf, ok := u.c.sigHead(u.sg.decl, ph.Text)
		if !ok || !pf.rigid && !u.c.usesParams(pf.text) {
			return
		}
		if af := u.c.stubForm(ah, u.scope); af.text != pf.text {
			return // another head: a definition may unfold to it
		}
		for i := 1; i < len(p.Args); i++ {
			u.match(p.Args[i], ptext, a.Args[i], false)
		}
	case p.Kind == leansrc.TermInfix && arrow(p.Text) && a.Kind == leansrc.TermInfix && arrow(a.Text) && p.Text == a.Text:
		u.match(p.Args[0], ptext, a.Args[0], false)
		u.match(p.Args[1], ptext, a.Args[1], false)
	case p.Kind == leansrc.TermIdent && !top:
		// a constant inside the parameter's type: Matrix n n ℝ
		if pf, ok := u.c.sigHead(u.sg.decl, p.Text); ok {
			if af := u.c.stubForm(a, u.scope); pf.rigid && af.rigid && pf.text != af.text {
				u.report(fmt.Sprintf("`%s` expects `%s`, and `%s` is not `%s`", u.name, ptext, af.text, pf.text))
			}
		}
	}
}

// bind fixes variable v to type f, or checks f against what fixed it.
func (u *unifier) bind(v, ptext string, f form, top bool) {
	if f.text == "" {
		return
	}
	b, ok := u.bound[v]
	if !ok {
		u.bound[v] = binding{form: f, top: top, arg: u.arg}
		return
	}
	clash := false
	switch {
	case b.top && top:
		// both arguments are v itself: Lean elaborates them in order, the
		// first fixes v and the second must coerce to it (dist n x with
		// (n : ℕ) (x : ℝ); dist x n is ↑n); no function coerces to a number
		clash = b.form.num != numNone && (f.num != numNone && !coerces(f.num, b.form.num) || arrowForm(f))
	case top:
		// fixed inside an argument's type, met by an argument of type v
		// (HasDerivAt f f' x with (f f' : ℝ → ℝ): F is ℝ, and f' a function)
		clash = b.form.num != numNone && (f.num != numNone && !coerces(f.num, b.form.num) || arrowForm(f))
	case b.top:
		// a coercion of the first argument might have been found after the
		// second fixed v
		clash = b.form.num != numNone && f.num != numNone && !coerces(b.form.num, f.num) && b.form.text != f.text
	default:
		clash = b.form.rigid && f.rigid && b.form.text != f.text
	}
	if !clash || u.unsure[v] {
		return
	}
	first := u.c.src[b.arg.Start:b.arg.End]
	if top {
		u.report(fmt.Sprintf("`%s` expects `%s` here, which `%s` fixed to `%s` (no coercion %s → %s)", u.name, v, first, b.form.text, f.text, b.form.text))
		return
	}
	from := " (from `" + first + "`)"
	if b.arg == u.arg {
		from = ""
	}
	u.report(fmt.Sprintf("`%s` expects `%s`, and `%s` would be both `%s`%s and `%s`", u.name, ptext, v, b.form.text, from, f.text))
}

// arrowForm reports whether f is a function type between types it
// certainly knows (`(ℝ → ℝ)`).
func arrowForm(f form) bool {
	return f.rigid && strings.HasPrefix(f.text, "(") && strings.Contains(f.text, " → ")
}

// report reports the argument being unified, saying why.
func (u *unifier) report(why string) {
	u.reported = true
	u.c.report(u.arg, u.name, "application type mismatch: `%s` has type `%s`, but %s", u.c.src[u.arg.Start:u.arg.End], u.argType, why)
}

// stubForm returns the canonical form of type t as the stub writes it.
func (c *checker) stubForm(t *leansrc.Term, scope map[string]local) form {
	return c.formOf(t, func(name string) (form, bool) {
		if l, ok := scope[name]; ok {
			if l.isType && l.binder > 0 || l.binder > 0 && !l.proof && l.num != numNone {
				// a type variable, or a number the stub binds inside a type
				// (Fin m): a free variable, equal by definition to no other
				return form{text: name, rigid: true}, true
			}
			return form{}, false
		}
		if fulls := c.env.Resolve(name); len(fulls) == 1 {
			return c.constForm(fulls[0])
		}
		return c.constForm(name)
	})
}

// sigHead returns the canonical form of constant name as declaration d's
// signature writes it.
func (c *checker) sigHead(d *library.Decl, name string) (form, bool) {
	if n := numOf(name); n != numNone {
		return form{text: n.String(), rigid: true, num: n}, true
	}
	if found, ok := lookupFrom(d, name, c.env.Lookup); ok {
		return c.constForm(found.Name)
	}
	return c.constForm(name)
}

// constForm returns the form of constant full: rigid for a structure, an
// inductive type or a type of Lean core.
func (c *checker) constForm(full string) (form, bool) {
	if n := numOf(full); n != numNone {
		return form{text: n.String(), rigid: true, num: n}, true
	}
	if d, ok := c.env.Lookup(full); ok {
		switch d.Kind {
		case library.KindStructure, library.KindInductive:
			return form{text: d.Name, rigid: true}, true
		}
		return form{text: d.Name}, true
	}
	if cs, ok := coreSig(full); ok && cs.kind == "type" {
		return form{text: full, rigid: true}, true
	}
	return form{}, false
}

// formOf spells type t canonically, constants and variables read by leaf.
func (c *checker) formOf(t *leansrc.Term, leaf func(string) (form, bool)) form {
	switch t.Kind {
	case leansrc.TermIdent:
		if f, ok := leaf(t.Text); ok {
			return f
		}
	case leansrc.TermNum:
		if v, err := strconv.ParseUint(t.Text, 10, 64); err == nil {
			return form{text: strconv.FormatUint(v, 10), rigid: true}
		}
	case leansrc.TermApp:
		parts := make([]string, len(t.Args))
		rigid := true
		for i, a := range t.Args {
			f := c.formOf(a, leaf)
			if f.text == "" {
				return form{}
			}
			parts[i], rigid = f.text, rigid && f.rigid
			if i > 0 && strings.Contains(f.text, " ") {
				parts[i] = "(" + f.text + ")"
			}
		}
		return form{text: strings.Join(parts, " "), rigid: rigid}
	case leansrc.TermInfix:
		if arrow(t.Text) && t.Text == "→" {
			l, r := c.formOf(t.Args[0], leaf), c.formOf(t.Args[1], leaf)
			if l.text == "" || r.text == "" {
				return form{}
			}
			return form{text: "(" + l.text + " → " + r.text + ")", rigid: l.rigid && r.rigid}
		}
	}
	return form{}
}

// usesParams reports whether definition full's body uses each of its
// explicit parameters, so that two applications of it to different types
// differ after it unfolds (Matrix m n α := m → n → α).
func (c *checker) usesParams(full string) bool {
	d, ok := c.env.Lookup(full)
	if !ok || d.Kind != library.KindDef || d.Value == "" {
		return false
	}
	hdr, ok := strings.CutPrefix(d.Signature, "def "+d.Name)
	if !ok {
		return false
	}
	binders, _, ok := leansrc.ParseHeader(hdr, nil)
	if !ok {
		return false
	}
	for _, b := range binders {
		names, _ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			if b.Bracket == '(' && !mentions([]string{d.Value}, n) {
				return false
			}
		}
	}
	return true
}

// expandText rewrites the library's postfix notations in type p as written
// (`R[X]` → `Polynomial R`); p unchanged when there is none.
func (env *Env) expandText(p string) string {
	if env.Postfix == nil || !strings.Contains(p, "[") {
		return p
	}
	t := leansrc.ParseTerm(p, nil)
	var out strings.Builder
	at := 0
	var walk func(x *leansrc.Term, top bool)
	walk = func(x *leansrc.Term, top bool) {
		if x == nil {
			return
		}
		for i := 0; i < len(x.Args); i++ {
			target, ok := env.postfixAt(x, i, false)
			if !ok {
				walk(x.Args[i], false)
				continue
			}
			operand, l := x.Args[i], x.Args[i+1]
			out.WriteString(p[at:operand.Start])
			e := target + " " + p[operand.Start:operand.End]
			if !top || len(x.Args) > 2 {
				e = "(" + e + ")"
			}
			out.WriteString(e)
			at = l.End
			i++
		}
	}
	walk(t, true)
	out.WriteString(p[at:])
	return out.String()
}

// postfixAt reports whether argument i of application x is an operand
// glued to the next, a one-name list that a postfix notation of the
// library spells (`R[X]`, also inside `Semiring R[X]`), with its constant.
// In the stub's own text (stub set) only a notation the header puts in
// force counts (Env.PostfixInForce): without `open Polynomial`, or with
// another notation in force that reads the text (`μ[X]`), Lean reads no
// Polynomial.
func (env *Env) postfixAt(x *leansrc.Term, i int, stub bool) (string, bool) {
	if env.Postfix == nil || x.Kind != leansrc.TermApp || i+1 >= len(x.Args) {
		return "", false
	}
	op, l := x.Args[i], x.Args[i+1]
	if l.Kind != leansrc.TermList || l.Start != op.End || len(l.Args) != 1 || l.Args[0].Kind != leansrc.TermIdent {
		return "", false
	}
	atom := "[" + l.Args[0].Text + "]"
	if stub && env.PostfixInForce != nil && !env.PostfixInForce(atom) {
		return "", false
	}
	return env.Postfix(atom)
}

// expandPostfix rewrites the library's postfix notations in t (`ℚ[X]` →
// `Polynomial ℚ`, the constant spanning the atom); stub says t is the
// stub's own text (see postfixAt).
func (env *Env) expandPostfix(t *leansrc.Term, stub bool) {
	if t == nil {
		return
	}
	for i := 0; i < len(t.Args); i++ {
		target, ok := env.postfixAt(t, i, stub)
		if !ok {
			continue
		}
		op, l := t.Args[i], t.Args[i+1]
		c := &leansrc.Term{Kind: leansrc.TermIdent, Text: target, Start: l.Start, End: l.End}
		if len(t.Args) == 2 {
			t.Args = []*leansrc.Term{c, op} // the whole term: R[X]
			break
		}
		app := &leansrc.Term{Kind: leansrc.TermApp, Args: []*leansrc.Term{c, op}, Start: op.Start, End: l.End}
		t.Args = append(append(t.Args[:i:i], app), t.Args[i+2:]...)
	}
	for _, a := range t.Args {
		env.expandPostfix(a, stub)
	}
	for _, b := range t.Binders {
		env.expandPostfix(b.Type, stub)
		env.expandPostfix(b.Bound, stub)
	}
}

// fieldsUse returns the constraints of cons that structure d's fields
// certainly use: a field mentions a constant whose signature takes an
// instance of the class. Lean adds to a structure only the section's
// instance binders its fields use (Continuous's IsOpen uses [TopologicalSpace
// X] and [TopologicalSpace Y]); which variable's instance a field uses is
// not read, so a class counts for every variable it constrains.
func (c *checker) fieldsUse(d *library.Decl, cons []classPos) []classPos {
	if c.env.Fields == nil || len(cons) == 0 {
		return nil
	}
	var used []classPos
	for _, k := range cons {
		if c.fieldsMention(d, k.class) {
			used = append(used, k)
		}
	}
	return used
}

// fieldsMention reports whether a field of structure d mentions a
// constant whose signature has an instance binder of class.
func (c *checker) fieldsMention(d *library.Decl, class string) bool {
	for _, ft := range c.env.Fields(d) {
		lex, err := leansrc.Lex(ft)
		if err != nil {
			continue
		}
		for _, l := range lex {
			if l.Kind != leansrc.LexIdent {
				continue
			}
			if x, ok := lookupFrom(d, l.Text, c.env.Lookup); ok && x != d && strings.Contains(x.Signature, "["+class+" ") {
				return true
			}
		}
	}
	return false
}
