package falsify

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// The search's defaults.
const (
	defaultBudget      = 10 * time.Millisecond
	defaultAssignments = 20000
	// compileBudget bounds compilation (definition lookups included: the
	// first on a library builds its index): a safety net for adversarial
	// statements, not a limit ordinary ones meet, so that the verdict does
	// not depend on the machine's load.
	compileBudget = 2 * time.Second
	// minAssignments are tried whatever the time box (each evaluation is
	// bounded by stepLimit): the smallest assignments, where most
	// counterexamples lie, are always tried, however loaded the machine.
	minAssignments = 64
	// stepLimit bounds the inner-loop steps of one evaluation.
	stepLimit = 200000
)

// ratSamples are the small rationals tried for ℚ and ℝ variables.
var ratSamples = func() []num {
	out := []num{small(0), small(1), small(-1), mk(1, 2), mk(-1, 2), small(2), small(-2), small(3), small(-3),
		mk(1, 3), mk(-1, 3), mk(2, 3), mk(3, 2), mk(-3, 2), small(4), small(-4), mk(1, 4), small(5), small(-5),
		mk(5, 2), mk(-5, 2), small(10), small(-10), mk(1, 10), small(7), small(12), small(-12)}
	return out
}()

// nonnegSamples are the nonnegative ratSamples, tried for NNReal variables.
var nonnegSamples = func() []num {
	var out []num
	for _, x := range ratSamples {
		if x.sign() >= 0 {
			out = append(out, x)
		}
	}
	return out
}()

// svar is a variable of the statement that the search assigns.
type svar struct {
	name string
	slot int
	t    kind
	// extra are boundary values: from the statement's numerals and from
	// hypotheses that fix the variable.
	extra []num
}

// prepared is a statement compiled for evaluation.
type prepared struct {
	explained
	vars   []svar
	hyps   []pexpr
	eqs    []equation // the equations among the hypotheses, to solve for variables
	concl  pexpr
	nslots int
	nseqs  int
	nums   []num // the statement's numerals
	// complete is false when a hypothesis or the conclusion is outside the
	// fragment: hyps are then the hypotheses compiled, for contradiction
	// only (no assignment can be a counterexample).
	complete  bool
	varBounds []varBound // the hypotheses' bounds on single variables (vacuous.go)
}

// Falsify searches for a counterexample to st.
func Falsify(ctx context.Context, st Statement, lib Library, opt Options) Result {
	if opt.Budget <= 0 {
		opt.Budget = defaultBudget
	}
	if opt.MaxAssignments <= 0 {
		opt.MaxAssignments = defaultAssignments
	}
	p, reason := prepare(st, lib, time.Now().Add(compileBudget))
	if p == nil || !p.complete {
		res := Result{Verdict: Unknown, Reason: reason}
		if p != nil {
			res.Contradiction = p.contradiction()
		}
		return res
	}
	p.addMidpoints()
	res := p.search(ctx, opt, time.Now().Add(opt.Budget))
	if res.Verdict == Unknown {
		res.Contradiction = p.contradiction()
	}
	return res
}

// prepare compiles the statement twice: the first pass infers the types of
// binders written without one, the second compiles with them.
func prepare(st Statement, lib Library, deadline time.Time) (*prepared, string) {
	types := make([]*leansrc.Term, len(st.Binders))
	for i, b := range st.Binders {
		types[i] = parseTerm(b.Type, lib)
	}
	concl := parseTerm(st.Conclusion, lib)
	var p *prepared
	c := twoPass(lib, func(c *compiler) {
		c.deadline = deadline
		p = c.compileStatement(st, types, concl)
	})
	if p == nil || !p.complete {
		return p, c.reason
	}
	return p, ""
}

// twoPass runs compile on a first-pass compiler, which infers the types of
// untyped binders, then on the second-pass compiler it returns.
func twoPass(lib Library, compile func(c *compiler)) *compiler {
	first := newCompiler(lib)
	first.pass = 1
	compile(first)
	c := newCompiler(lib)
	c.recs, c.unfolded, c.defs = first.recs, first.unfolded, first.defs
	compile(c)
	return c
}

// compileStatement compiles binders, hypotheses and conclusion; nil when a
// hypothesis or the conclusion is outside the fragment (no assignment could
// then be a counterexample).
func (c *compiler) compileStatement(st Statement, types []*leansrc.Term, concl *leansrc.Term) *prepared {
	p := &prepared{}
	c.startExplain(p, st, types, concl)
	var hypTerms []*leansrc.Term
	opaque := map[string]*leansrc.Term{}
	for i, b := range st.Binders {
		ty := types[i]
		collectNums(ty, &p.nums)
		if len(b.Names) == 0 {
			// an instance binder: a hypothesis Lean discharges by instances
			hypTerms = append(hypTerms, ty)
			continue
		}
		if k := typeOf(ty); k.numeric() || k == kBool {
			for _, n := range b.Names {
				p.addVar(c, ty, n, k)
			}
			continue
		}
		if isTypeTerm(ty) {
			for _, n := range b.Names {
				c.opaque(n)
				opaque[n] = ty
			}
			continue
		}
		hypTerms = append(hypTerms, ty)
	}
	collectNums(concl, &p.nums)
	// leading ∀ binders and premises of the conclusion are variables and
	// hypotheses too
	for {
		if concl.Kind == leansrc.TermForall && peelable(concl) {
			concl = freshen(concl, p.vars)
			for _, b := range concl.Binders {
				k := typeOf(b.Type)
				for _, n := range b.Names {
					bk := k
					if b.Pred != "" && bk == kNone {
						bt, ok := c.treeType(b.Bound, kNone)
						if !ok {
							return nil
						}
						// x takes the bound's type; a bound of numerals
						// alone leaves it to x's uses, as Lean's unifier
						// does (ℕ when nothing decides): `∀ x > 0, 2 - x
						// ≥ Real.sqrt 2` is over ℝ
						bk = bt
					}
					v := p.addVar(c, concl, n, bk)
					if v.t == kNone {
						if c.pass == 2 {
							c.failf("cannot infer the type of %s", n)
							return nil
						}
					}
					if b.Pred != "" {
						self := &leansrc.Term{Kind: leansrc.TermIdent, Text: n, Start: b.Bound.Start, End: b.Bound.Start}
						hypTerms = append(hypTerms, &leansrc.Term{Kind: leansrc.TermInfix, Text: b.Pred, Start: b.Bound.Start,
							End: b.Bound.End, Args: []*leansrc.Term{self, b.Bound}})
					}
				}
			}
			concl = concl.Args[0]
			continue
		}
		if concl.Kind == leansrc.TermInfix && concl.Text == "→" && !isTypeTerm(concl.Args[0]) {
			hypTerms = append(hypTerms, concl.Args[0])
			concl = concl.Args[1]
			continue
		}
		break
	}
	complete := true
	defining := c.defineSeqs(hypTerms, opaque)
	c.defineSets(hypTerms, opaque, defining)
	for _, h := range hypTerms {
		if !defining[h] {
			defining[h] = c.defineFunc(h, opaque)
		}
	}
	for _, h := range hypTerms {
		if defining[h] {
			continue // satisfied by the function it defines
		}
		hp, good := c.prop(h)
		if !good {
			complete = false // the others may still contradict each other
			continue
		}
		p.hyps = append(p.hyps, hp)
		p.hypTerms = append(p.hypTerms, h)
		p.fixes(c, h)
		p.equations(c, h)
		if c.pass == 2 {
			p.bounds(c, h)
		}
	}
	p.conclTerm = concl
	cp, good := c.prop(concl)
	p.nslots = c.nslots
	p.nseqs = c.nseqs
	if good && complete {
		p.concl, p.complete = cp, true
	}
	return p
}

// freshen renames the binders of ∀ term t that shadow a variable of vars
// (`(n : ℕ) (hn : 0 < n) : ∀ n : ℕ, …`): peeled, the inner n is a variable
// of its own, which the outer n's hypotheses do not constrain. A renamed
// binder is written n✝1, as Lean writes an inaccessible name.
func freshen(t *leansrc.Term, vars []svar) *leansrc.Term {
	taken := map[string]bool{}
	for _, v := range vars {
		taken[v.name] = true
	}
	cp := *t
	cp.Binders = make([]leansrc.Binder, len(t.Binders))
	sub := map[string]*leansrc.Term{}
	for i, b := range t.Binders {
		nb := b
		nb.Type, nb.Bound = substitute(b.Type, sub, nil), substitute(b.Bound, sub, nil)
		nb.Names = slices.Clone(b.Names)
		for j, n := range b.Names {
			delete(sub, n) // rebound here
			if !taken[n] {
				continue
			}
			fresh := n
			for k := 1; taken[fresh]; k++ {
				fresh = fmt.Sprintf("%s✝%d", n, k)
			}
			taken[fresh] = true
			nb.Names[j] = fresh
			sub[n] = &leansrc.Term{Kind: leansrc.TermIdent, Text: fresh, Start: t.Start, End: t.Start}
		}
		cp.Binders[i] = nb
	}
	if len(sub) == 0 {
		return t
	}
	cp.Args = []*leansrc.Term{substitute(t.Args[0], sub, nil)}
	return &cp
}

// peelable reports whether the binders of a leading ∀ are all variables
// the search can assign.
func peelable(t *leansrc.Term) bool {
	for _, b := range t.Binders {
		k := typeOf(b.Type)
		if b.Bracket == '[' || len(b.Names) == 0 || (b.Type != nil && !k.numeric() && k != kBool) || (b.Pred != "" && b.Pred != "<" &&
			b.Pred != "≤" && b.Pred != ">" && b.Pred != "≥" && b.Pred != "≠") {
			return false
		}
	}
	return true
}

// defineFunc records a hypothesis ∀ x y, f x y = e (e free of f) as the
// definition of the function variable f: only f = fun x y => e satisfies
// it, so the search takes that f and drops the hypothesis.
func (c *compiler) defineFunc(h *leansrc.Term, opaque map[string]*leansrc.Term) bool {
	if h.Kind != leansrc.TermForall {
		return false
	}
	var xs []string
	var given []*leansrc.Term
	for _, b := range h.Binders {
		if b.Pred != "" || b.Bracket == '[' || len(b.Names) == 0 {
			return false
		}
		for _, n := range b.Names {
			xs = append(xs, n)
			given = append(given, b.Type)
		}
	}
	eq := h.Args[0]
	if eq.Kind != leansrc.TermInfix || eq.Text != "=" {
		return false
	}
	for side := 0; side < 2; side++ {
		app, e := eq.Args[side], eq.Args[1-side]
		if app.Kind != leansrc.TermApp || app.Args[0].Kind != leansrc.TermIdent || len(app.Args)-1 != len(xs) {
			continue
		}
		f := app.Args[0].Text
		fty, isVar := opaque[f]
		if !isVar || c.funcs[f] != nil || c.mentions(e, f) {
			continue
		}
		parts := arrowParts(fty)
		if len(parts) != len(xs)+1 {
			continue
		}
		good := true
		for i, x := range xs {
			a := app.Args[i+1]
			k := typeOf(parts[i])
			if a.Kind != leansrc.TermIdent || a.Text != x || slices.Index(xs, x) != i || (!k.numeric() && k != kBool) ||
				(given[i] != nil && typeOf(given[i]) != k) {
				good = false
			}
		}
		cod := typeOf(parts[len(xs)])
		if !good || (!cod.numeric() && cod != kBool) {
			continue
		}
		// e must not need a type larger than f's codomain: then f x = e is
		// f x = (e : codomain), the body of the definition
		var dones []func()
		for i, x := range xs {
			_, done := c.bind(h, i, x, typeOf(parts[i]))
			dones = append(dones, done)
		}
		reason, fails := c.reason, c.fails
		k, ok := c.treeType(e, kNone)
		c.reason, c.fails = reason, fails
		for i := len(dones) - 1; i >= 0; i-- {
			dones[i]()
		}
		if !ok || (k == kNone && cod == kBool) || (k != kNone && !coerces(k, cod)) {
			continue
		}
		c.funcs[f] = &parsedDef{names: xs, types: parts[:len(xs)], body: e, result: parts[len(xs)], scope: c.cur.lib,
			binds: append([]binding(nil), c.cur.binds...)}
		return true
	}
	return false
}

// arrowParts splits A → B → C into [A, B, C].
func arrowParts(t *leansrc.Term) []*leansrc.Term {
	var out []*leansrc.Term
	for t.Kind == leansrc.TermInfix && t.Text == "→" {
		out = append(out, t.Args[0])
		t = t.Args[1]
	}
	return append(out, t)
}

// addVar binds a variable of the statement.
func (p *prepared) addVar(c *compiler, owner *leansrc.Term, name string, k kind) binding {
	b, _ := c.bind(owner, len(p.vars), name, k)
	p.vars = append(p.vars, svar{name: name, slot: b.slot, t: b.t})
	return b
}

// opaque binds a variable whose type is outside the fragment: terms that
// mention it are unknown.
func (c *compiler) opaque(name string) {
	b, _ := c.bind(nil, -1, name, kProp)
	_ = b
}

// fixes records the value a hypothesis x = e (e constant) gives x, as a
// boundary value to try first.
func (p *prepared) fixes(c *compiler, h *leansrc.Term) {
	if h.Kind != leansrc.TermInfix || h.Text != "=" {
		return
	}
	for side := 0; side < 2; side++ {
		x, e := h.Args[side], h.Args[1-side]
		if x.Kind != leansrc.TermIdent {
			continue
		}
		for i := range p.vars {
			v := &p.vars[i]
			if v.name != x.Text || !v.t.numeric() {
				continue
			}
			reason, fails := c.reason, c.fails
			ce, ok := c.num(e, v.t)
			c.reason, c.fails = reason, fails
			if !ok || ce.deps != 0 {
				continue
			}
			en := &env{v: make([]num, c.nslots+1), limit: stepLimit}
			if val, ok := ce.f(en); ok {
				v.extra = append(v.extra, val)
			}
		}
	}
}

// equation is a hypothesis l = r, compiled side by side.
type equation struct{ l, r nexpr }

// equations records the equations of a hypothesis (through conjunctions).
func (p *prepared) equations(c *compiler, h *leansrc.Term) {
	for _, g := range appendConjuncts(nil, h) {
		if g.Kind != leansrc.TermInfix || g.Text != "=" {
			continue
		}
		reason, fails := c.reason, c.fails
		k, ok := c.treeType(g, kNone)
		if ok && k == kNone {
			k = kNat
		}
		var l, r nexpr
		var ok1, ok2 bool
		if ok && k.numeric() {
			l, ok1 = c.numAs(g.Args[0], k)
			r, ok2 = c.numAs(g.Args[1], k)
		}
		c.reason, c.fails = reason, fails
		if ok1 && ok2 {
			p.eqs = append(p.eqs, equation{l, r})
		}
	}
}

// solve proposes an assignment that satisfies the hypotheses' equations
// when they are affine in the variables: it measures each equation's
// coefficients around the current assignment (unit steps), solves the
// linear system exactly over ℚ (free variables keep their values) and
// keeps the solution only if every equation holds on it exactly and the
// values fit the variables' types. eval still checks every hypothesis.
func (p *prepared) solve(e *env) bool {
	if p.solveEqs(e, p.eqs) {
		return true
	}
	// equations one at a time: a triangular or partly nonlinear system is
	// met where its linear equations fix one variable each
	moved := false
	for i := range p.eqs {
		moved = p.solveEqs(e, p.eqs[i:i+1]) || moved
	}
	return moved
}

// solveEqs solves the equations eqs as a linear system around the
// assignment in e (see solve).
func (p *prepared) solveEqs(e *env, eqs []equation) bool {
	n, m := len(p.vars), len(eqs)
	diff := func(q equation) (num, bool) {
		e.steps = 0
		e.gen++
		l, ok1 := q.l.f(e)
		r, ok2 := q.r.f(e)
		if !ok1 || !ok2 {
			return num{}, false
		}
		return subNum(l, r)
	}
	base := make([]num, n)
	for i, v := range p.vars {
		base[i] = e.v[v.slot]
	}
	// rows of [coefficients | -g(base)]
	rows := make([][]num, m)
	for j, q := range eqs {
		g0, ok := diff(q)
		if !ok {
			return false
		}
		row := make([]num, n+1)
		for i, v := range p.vars {
			row[i] = small(0)
			if !v.t.numeric() || (q.l.deps|q.r.deps)&slotBit(v.slot) == 0 {
				continue
			}
			x, ok := addNum(base[i], small(1))
			if !ok {
				return false
			}
			e.v[v.slot] = x
			g1, ok1 := diff(q)
			e.v[v.slot] = base[i]
			if !ok1 {
				return false
			}
			if row[i], ok = subNum(g1, g0); !ok {
				return false
			}
		}
		ng, ok := negNum(g0)
		if !ok {
			return false
		}
		row[n] = ng
		rows[j] = row
	}
	d, ok := eliminate(rows, n)
	if !ok {
		return false
	}
	moved := false
	for i, v := range p.vars {
		x, ok := addNum(base[i], d[i])
		if !ok || (v.t.integral() && !x.isInt()) || (v.t.nonneg() && x.sign() < 0) {
			for k, w := range p.vars {
				e.v[w.slot] = base[k]
			}
			return false
		}
		e.v[v.slot] = x
		moved = moved || d[i].sign() != 0
	}
	for _, q := range eqs {
		if g, ok := diff(q); !ok || g.sign() != 0 {
			for k, w := range p.vars {
				e.v[w.slot] = base[k]
			}
			return false
		}
	}
	return moved
}

// eliminate solves the augmented system rows (n unknowns) by Gauss-Jordan
// elimination over ℚ; free unknowns are 0. ok is false when the system is
// inconsistent or the numbers overflow the cap.
func eliminate(rows [][]num, n int) ([]num, bool) {
	pivots := make([]int, 0, n)
	r := 0
	for col := 0; col < n && r < len(rows); col++ {
		sel := -1
		for i := r; i < len(rows); i++ {
			if rows[i][col].sign() != 0 {
				sel = i
				break
			}
		}
		if sel < 0 {
			continue
		}
		rows[r], rows[sel] = rows[sel], rows[r]
		pv := rows[r][col]
		for k := col; k <= n; k++ {
			var ok bool
			if rows[r][k], ok = quoNum(rows[r][k], pv); !ok {
				return nil, false
			}
		}
		for i := range rows {
			if i == r || rows[i][col].sign() == 0 {
				continue
			}
			f := rows[i][col]
			for k := col; k <= n; k++ {
				t, ok := mulNum(f, rows[r][k])
				if !ok {
					return nil, false
				}
				if rows[i][k], ok = subNum(rows[i][k], t); !ok {
					return nil, false
				}
			}
		}
		pivots = append(pivots, col)
		r++
	}
	for i := r; i < len(rows); i++ {
		if rows[i][n].sign() != 0 {
			return nil, false // inconsistent
		}
	}
	d := make([]num, n)
	for i := range d {
		d[i] = small(0)
	}
	for i, col := range pivots {
		d[col] = rows[i][n]
	}
	return d, true
}

// collectNums gathers the integer numerals of a term.
func collectNums(t *leansrc.Term, out *[]num) {
	if t == nil {
		return
	}
	if t.Kind == leansrc.TermNum {
		if v, ok := literal(t.Text); ok {
			if x, ok := v.int64(); ok && abs64(x) < 1<<40 {
				*out = append(*out, v)
			}
		}
	}
	for _, a := range t.Args {
		collectNums(a, out)
	}
	for _, b := range t.Binders {
		collectNums(b.Type, out)
		collectNums(b.Bound, out)
	}
}

// outcome of one assignment.
type outcome uint8

const (
	skipped outcome = iota // a hypothesis false or unknown, or the conclusion unknown
	holds
	refutes
)

// eval evaluates the statement on the assignment in e.v.
func (p *prepared) eval(e *env) outcome {
	e.gen++
	for _, h := range p.hyps {
		e.steps = 0
		if h.f(e) != tru {
			return skipped
		}
	}
	e.steps = 0
	switch p.concl.f(e) {
	case tru:
		return holds
	case fls:
		return refutes
	}
	return skipped
}

// search enumerates assignments: small values exhaustively (in order of
// size), then boundary values, then seeded random values, inside the
// budget.
func (p *prepared) search(ctx context.Context, opt Options, deadline time.Time) Result {
	// No deadline inside evaluations until minAssignments were tried.
	e := &env{v: make([]num, p.nslots+1), limit: stepLimit, seqs: make([]seqCache, p.nseqs)}
	res := Result{}
	tried := 0
	seen := map[string]bool{}
	stop := false
	try := func(vals []num) bool {
		if stop {
			return false
		}
		if tried >= opt.MaxAssignments || ctx.Err() != nil || tried >= minAssignments && (e.late || tried%4 == 0 && time.Now().After(deadline)) {
			stop = true
			return false
		}
		if tried++; tried == minAssignments {
			e.deadline = deadline
		}
		for i, v := range p.vars {
			e.v[v.slot] = vals[i]
		}
		out := p.eval(e)
		if out == skipped && len(p.eqs) > 0 && p.solve(e) {
			out = p.eval(e)
		}
		switch out {
		case holds:
			res.Assignments++
		case refutes:
			res.Assignments++
			res.Verdict = Refuted
			res.Counterexample = p.format(e)
			res.Explanation = p.explain(e)
			stop = true
			return false
		}
		return true
	}
	if len(p.vars) == 0 {
		try(nil)
	} else {
		small := make([][]num, len(p.vars))
		wide := make([][]num, len(p.vars))
		for i, v := range p.vars {
			small[i] = smallDomain(v.t)
			wide[i] = boundary(v, p.nums)
		}
		diagonal(small, nil, try)
		if !stop {
			diagonal(wide, func(vals []num) bool {
				key := keyOf(vals)
				if seen[key] || allIn(vals, small) {
					return false
				}
				seen[key] = true
				return true
			}, try)
		}
		rng := rand.New(rand.NewSource(opt.Seed))
		vals := make([]num, len(p.vars))
		for !stop {
			for i, v := range p.vars {
				vals[i] = randomValue(rng, v.t, wide[i])
			}
			try(vals)
		}
	}
	if res.Verdict == Refuted {
		return res
	}
	if res.Assignments > 0 {
		res.Verdict = NotRefuted
		return res
	}
	res.Verdict = Unknown
	res.Reason = "no assignment made every hypothesis true and the conclusion defined"
	return res
}

// format renders the assignment in e as "n = 2, m = 3" in binder order.
func (p *prepared) format(e *env) string {
	parts := make([]string, len(p.vars))
	for i, v := range p.vars {
		val := e.v[v.slot]
		s := val.String()
		if v.t == kBool {
			s = "false"
			if val.n != 0 {
				s = "true"
			}
		}
		parts[i] = v.name + " = " + s
	}
	return strings.Join(parts, ", ")
}

func keyOf(vals []num) string {
	var sb strings.Builder
	for _, v := range vals {
		sb.WriteString(v.String())
		sb.WriteByte(' ')
	}
	return sb.String()
}

func allIn(vals []num, doms [][]num) bool {
	for i, v := range vals {
		found := false
		for _, d := range doms[i] {
			if cmpNum(v, d) == 0 {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// smallDomain lists the small values of a type, smallest first.
func smallDomain(k kind) []num {
	var out []num
	switch k {
	case kNat:
		for x := int64(0); x <= 12; x++ {
			out = append(out, small(x))
		}
	case kInt:
		out = append(out, small(0))
		for x := int64(1); x <= 12; x++ {
			out = append(out, small(x), small(-x))
		}
	case kBool:
		out = []num{small(0), small(1)}
	case kNNReal:
		out = nonnegSamples
	default:
		out = ratSamples
	}
	return out
}

// boundary lists the values near the statement's numerals (c-1, c, c+1,
// 2c, c/2, and their negatives on ℤ, ℚ, ℝ), after those fixed by
// hypotheses, then the small values.
func boundary(v svar, nums []num) []num {
	out := append([]num(nil), v.extra...)
	add := func(x num, ok bool) {
		if !ok || (v.t.nonneg() && x.sign() < 0) || (v.t == kBool) {
			return
		}
		for _, y := range out {
			if cmpNum(x, y) == 0 {
				return
			}
		}
		out = append(out, x)
	}
	if v.t == kRat || v.t == kReal || v.t == kNNReal {
		// quotients of the numerals solve the linear equations of statements
		for i, a := range nums[:min(len(nums), 8)] {
			for j, b := range nums[:min(len(nums), 8)] {
				if i != j {
					add(quoNum(a, b))
					add(quoNum(small(-a.n), b))
				}
			}
		}
	}
	for _, c := range nums {
		add(c, true)
		add(subNum(c, small(1)))
		add(addNum(c, small(1)))
		add(mulNum(c, small(2)))
		add(ediv(c, small(2)))
		if v.t != kNat {
			add(negNum(c))
			add(subNum(small(0), c))
			if v.t == kRat || v.t == kReal || v.t == kNNReal {
				add(quoNum(small(1), c))
			}
		}
	}
	for _, x := range smallDomain(v.t) {
		add(x, true)
	}
	return out
}

// randomValue draws a value: mostly from the boundary list, otherwise
// wide-ranging.
func randomValue(rng *rand.Rand, k kind, wide []num) num {
	if rng.Intn(3) == 0 && len(wide) > 0 {
		return wide[rng.Intn(len(wide))]
	}
	mag := []int64{20, 100, 1000, 100000}[rng.Intn(4)]
	x := rng.Int63n(mag + 1)
	switch k {
	case kNat:
		return small(x)
	case kInt:
		if rng.Intn(2) == 0 {
			return small(-x)
		}
		return small(x)
	case kBool:
		return small(x % 2)
	}
	d := rng.Int63n(12) + 1
	if k != kNNReal && rng.Intn(2) == 0 {
		x = -x
	}
	return mk(x, d)
}

// diagonal enumerates the tuples over the domains in order of their
// largest index (all tuples within the first r+1 values of each domain
// before any using value r+2), calling try until it returns false.
// keep, when set, filters tuples.
func diagonal(doms [][]num, keep func([]num) bool, try func([]num) bool) {
	maxLen := 0
	for _, d := range doms {
		maxLen = max(maxLen, len(d))
	}
	vals := make([]num, len(doms))
	idx := make([]int, len(doms))
	for r := 0; r < maxLen; r++ {
		// tuples with every index ≤ r and some index = r
		var rec func(i int, hit bool) bool
		rec = func(i int, hit bool) bool {
			if i == len(doms) {
				if !hit {
					return true
				}
				for j := range vals {
					vals[j] = doms[j][idx[j]]
				}
				if keep != nil && !keep(vals) {
					return true
				}
				return try(vals)
			}
			for x := 0; x <= r && x < len(doms[i]); x++ {
				idx[i] = x
				if !rec(i+1, hit || x == r) {
					return false
				}
			}
			return true
		}
		if !rec(0, false) {
			return
		}
	}
}
