package falsify

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// tri is a three-valued truth value (Kleene).
type tri uint8

const (
	unk tri = iota
	fls
	tru
)

func triOf(b bool) tri {
	if b {
		return tru
	}
	return fls
}

func and3(a, b tri) tri {
	if a == fls || b == fls {
		return fls
	}
	if a == tru && b == tru {
		return tru
	}
	return unk
}

// or3 is Kleene's disjunction, by De Morgan.
func or3(a, b tri) tri { return not3(and3(not3(a), not3(b))) }

func not3(a tri) tri {
	switch a {
	case tru:
		return fls
	case fls:
		return tru
	}
	return unk
}

// env is the state of one evaluation: the values of the variables' slots,
// and a step count and deadline that bound inner loops.
type env struct {
	v        []num
	steps    int
	limit    int
	deadline time.Time
	late     bool
	// gen counts the assignments: the sequences' values are cached per
	// generation.
	gen  int
	seqs []seqCache
}

// seqCache holds the computed prefix of a sequence variable's values.
type seqCache struct {
	gen  int
	vals []num
	busy bool
}

// tick counts one step of an inner loop; it reports false once the
// evaluation exceeded its step limit or the search's deadline (the result
// is then unknown).
func (e *env) tick() bool {
	e.steps++
	if e.steps&255 == 0 && !e.deadline.IsZero() && time.Now().After(e.deadline) {
		e.late = true
	}
	return e.steps <= e.limit && !e.late
}

// charge counts the work of an inner loop's value x beyond one step: a
// big rational's arithmetic costs about the square of its size (in
// 64-bit words), so that one evaluation of a harmonic sum over a huge
// range stays within the step limit's time, not minutes; it reports false
// once the limit is passed (the result is then unknown).
func (e *env) charge(x num) bool {
	if x.r != nil {
		w := (x.r.Num().BitLen() + x.r.Denom().BitLen()) / 64
		e.steps += w * w
	}
	return e.steps <= e.limit
}

type numFn func(*env) (num, bool)
type propFn func(*env) tri

// nexpr is a compiled numeric term of type t. poly marks a type that only
// the default instance decided (numerals alone): an enclosing tree may
// give it another. deps are the slots it reads (bit 63: any slot ≥ 63).
type nexpr struct {
	f    numFn
	t    kind
	poly bool
	deps uint64
}

// pexpr is a compiled proposition.
type pexpr struct {
	f    propFn
	deps uint64
}

func slotBit(s int) uint64 {
	if s >= 63 {
		return 1 << 63
	}
	return 1 << uint(s)
}

// binding is a local name: a variable's slot and type. rec collects the
// type constraints of a binder written without a type (first pass).
type binding struct {
	name string
	slot int
	t    kind
	rec  *inferRec
}

// inferRec collects what the uses of an untyped binder say its type is.
type inferRec struct {
	t        kind
	conflict bool
	deflt    bool // used where only Lean's default instance (ℕ) decides
}

func (r *inferRec) add(k kind) {
	if r.t != kNone && r.t != k {
		r.conflict = true
	}
	r.t = k
}

// nameCtx is where a term's names resolve: a library scope and the local
// bindings visible there.
type nameCtx struct {
	lib   Library
	binds []binding
}

// inferKey identifies a binder name across the two compilation passes.
type inferKey struct {
	owner *leansrc.Term
	i     int
}

// maxUnfold bounds the nesting of definition unfoldings.
const maxUnfold = 8

// compiler turns parsed terms into closures over an env.
type compiler struct {
	cur    *nameCtx
	ctxOf  map[*leansrc.Term]*nameCtx // unfolded bodies and substituted arguments
	nslots int
	reason string
	// pass 1 infers the types of untyped binders, pass 2 compiles.
	pass     int
	recs     map[inferKey]*inferRec
	fails    int
	unfolds  []string
	defs     map[string]*parsedDef
	unfolded map[*leansrc.Term]*unfolding
	funcs    map[string]*parsedDef // function variables defined by hypotheses
	seqs     map[string]*seqDef    // sequence variables defined by recursion
	setDefs  map[string]*setDef    // set variables defined by membership
	nseqs    int
	rule     *seqRule // the recursion rule being compiled
	// deadline, when set, stops looking up definitions (the search's budget
	// covers the compilation).
	deadline time.Time
	// seen, when set, keeps the compiled numeric terms of the statement,
	// to explain a refutation with their values (explain.go).
	seen map[*leansrc.Term]nexpr
}

// unfolding is a definition's body with a call's arguments substituted.
// The tree is kept across the passes (its binders key the type inference);
// its contexts are registered again at each use.
type unfolding struct {
	body  *leansrc.Term
	args  []*leansrc.Term
	ascs  []*leansrc.Term
	types []*leansrc.Term
}

// parsedDef is a definition's parsed body and explicit parameters: a
// workspace def, or a function variable of the statement that a hypothesis
// ∀ x, f x = e defines.
type parsedDef struct {
	names  []string
	types  []*leansrc.Term
	body   *leansrc.Term
	result *leansrc.Term // declared result type (nil when not written)
	scope  Library
	binds  []binding // the locals the body sees (a function variable's: the statement's)
}

// funcPrefix marks the names of function variables defined by a hypothesis.
const funcPrefix = "·fn·"

func newCompiler(lib Library) *compiler {
	return &compiler{cur: &nameCtx{lib: lib}, ctxOf: map[*leansrc.Term]*nameCtx{}, recs: map[inferKey]*inferRec{},
		defs: map[string]*parsedDef{}, unfolded: map[*leansrc.Term]*unfolding{}, funcs: map[string]*parsedDef{}, seqs: map[string]*seqDef{}, setDefs: map[string]*setDef{}, pass: 2}
}

// failf records why compilation failed (the first reason is kept).
func (c *compiler) failf(format string, args ...any) {
	c.fails++
	if c.reason == "" {
		c.reason = fmt.Sprintf(format, args...)
	}
}

// enter switches to the context a term was registered with, returning the
// function that switches back.
func (c *compiler) enter(t *leansrc.Term) func() {
	if ctx, ok := c.ctxOf[t]; ok && ctx != c.cur {
		saved := c.cur
		c.cur = ctx
		return func() { c.cur = saved }
	}
	return func() {}
}

// local finds a local binding by name (innermost first).
func (c *compiler) local(name string) (binding, bool) {
	for i := len(c.cur.binds) - 1; i >= 0; i-- {
		if c.cur.binds[i].name == name {
			return c.cur.binds[i], true
		}
	}
	return binding{}, false
}

// bind adds a local variable of type t (kNone: to be inferred) and
// returns its binding and the function that removes it again.
func (c *compiler) bind(owner *leansrc.Term, idx int, name string, t kind) (binding, func()) {
	b := binding{name: name, slot: c.nslots, t: t}
	c.nslots++
	if t == kNone {
		key := inferKey{owner, idx}
		if c.pass == 1 {
			b.rec = &inferRec{}
			c.recs[key] = b.rec
		} else if r := c.recs[key]; r != nil && !r.conflict && (r.t != kNone) {
			b.t = r.t
		} else if r != nil && !r.conflict && r.deflt {
			b.t = kNat
		}
	}
	ctx := c.cur
	n := len(ctx.binds)
	ctx.binds = append(ctx.binds, b)
	return b, func() { ctx.binds = ctx.binds[:n] }
}

// resolve returns the full names a global name may denote in the current
// context: the library's answer, or the name as written.
func (c *compiler) resolve(name string) []string {
	if c.cur.lib != nil {
		if r := c.cur.lib.Resolve(name); len(r) > 0 {
			return r
		}
	}
	return []string{name}
}

// head resolves the function a name denotes: a built-in (by full name) or a
// workspace definition. It returns the full name, "" when unknown.
func (c *compiler) head(name string) string {
	if strings.HasPrefix(name, funcPrefix) || strings.HasPrefix(name, seqPrefix) {
		return name
	}
	for i, full := range c.resolve(name) {
		if builtinNum[full] != nil || builtinProp[full] != nil || full == "True" || full == "False" {
			return full
		}
		if _, ok := c.definition(full); ok {
			return full
		}
		if i == 0 {
			// the best candidate is unknown: a later one would be a guess
			return ""
		}
	}
	return ""
}

// Knower is a Library that can say whether a full name is declared (the
// workspace library's adapter is one): it tells an unknown name from one
// outside the fragment.
type Knower interface {
	Known(full string) bool
}

// failHead says why head found nothing for name: "unknown name" only when
// the library knows no such name; a name it knows (a class, a structure, a
// definition without a usable body), a type of the fragment's own tables
// (core's ℕ … ℝ, which no library declares), or one it cannot tell, is
// "outside the fragment".
func (c *compiler) failHead(name string) {
	lib := c.cur.lib
	if lib == nil || typeNames[name] != kNone || typeConstructors[name] {
		// no library, or a type the fragment names (ℝ of `ℝ≥0` read as ℝ ≥ 0)
		c.failf("outside the fragment: %s", name)
		return
	}
	full := lib.Resolve(name)
	k, canTell := lib.(Knower)
	known := !canTell && len(full) > 0
	for _, f := range full {
		known = known || canTell && k.Known(f)
	}
	if known {
		c.failf("outside the fragment: %s", name)
		return
	}
	c.failf("unknown name %s", name)
}

// definition returns the parsed definition of a full name, when the
// library has a usable body.
func (c *compiler) definition(full string) (*parsedDef, bool) {
	if name, ok := strings.CutPrefix(full, funcPrefix); ok {
		d := c.funcs[name]
		return d, d != nil
	}
	if d, ok := c.defs[full]; ok {
		return d, d != nil
	}
	if c.cur.lib == nil {
		return nil, false
	}
	if !c.deadline.IsZero() && time.Now().After(c.deadline) {
		c.failf("the time budget ended before %s was looked up", full)
		return nil, false
	}
	c.defs[full] = nil
	def, ok := c.cur.lib.Definition(full)
	if !ok || def.Body == "" {
		return nil, false
	}
	scope := def.Scope
	body := parseTerm(def.Body, scope)
	if body.Kind == leansrc.TermUnsupported {
		return nil, false
	}
	pd := &parsedDef{body: body, scope: scope}
	for _, p := range def.Params {
		if !p.Explicit {
			c.failf("%s has implicit parameters", full)
			return nil, false
		}
		ty := parseTerm(p.Type, scope)
		for _, n := range p.Names {
			pd.names = append(pd.names, n)
			pd.types = append(pd.types, ty)
		}
	}
	if def.Result != "" {
		pd.result = parseTerm(def.Result, scope)
	}
	c.defs[full] = pd
	return pd, true
}

// parseTerm parses src with lib's notations; an identifier that is a
// notation of one token becomes the constant it stands for (Mathlib's ℝ≥0
// becomes NNReal).
func parseTerm(src string, lib Library) *leansrc.Term {
	t := leansrc.ParseTerm(src, notationOps(lib))
	if lib != nil {
		leansrc.ReplaceTokens(t, func(tok string) (string, bool) {
			n, ok := lib.Notation(tok)
			return n.Const, ok && n.Fixity == leansrc.Nullary
		})
	}
	return t
}

// notationOps adapts a Library's notations to the term parser.
func notationOps(lib Library) func(string) (leansrc.Operator, bool) {
	if lib == nil {
		return nil
	}
	return func(sym string) (leansrc.Operator, bool) {
		n, ok := lib.Notation(sym)
		if !ok {
			return leansrc.Operator{}, false
		}
		return n.Operator, true
	}
}

// unfold substitutes the arguments of an application of definition full
// into its body. The body resolves in the definition's scope, each argument
// in the caller's context, ascribed to its parameter's type as Lean
// elaborates it. It returns nil when the application does not fit.
func (c *compiler) unfold(call *leansrc.Term, full string, args []*leansrc.Term) *leansrc.Term {
	d, ok := c.definition(full)
	if !ok {
		return nil
	}
	u, ok := c.unfolded[call]
	if !ok {
		u = c.substituteDef(full, d, args)
		c.unfolded[call] = u
	}
	if u == nil {
		return nil
	}
	caller := &nameCtx{lib: c.cur.lib, binds: append([]binding(nil), c.cur.binds...)}
	defCtx := &nameCtx{lib: d.scope, binds: d.binds}
	for i := range u.args {
		c.ctxOf[u.args[i]] = caller
		c.ctxOf[u.ascs[i]] = defCtx
		c.ctxOf[u.types[i]] = defCtx
	}
	c.markCtx(u.body, defCtx, u.args)
	return u.body
}

// substituteDef builds the unfolding of full applied to args.
func (c *compiler) substituteDef(full string, d *parsedDef, args []*leansrc.Term) *unfolding {
	if len(d.names) != len(args) {
		c.failf("%s is applied to %d arguments, not %d", strings.TrimPrefix(full, funcPrefix), len(args), len(d.names))
		return nil
	}
	u := &unfolding{args: args, types: d.types}
	sub := map[string]*leansrc.Term{}
	for i, n := range d.names {
		asc := &leansrc.Term{Kind: leansrc.TermAscribe, Start: args[i].Start, End: args[i].End, Args: []*leansrc.Term{args[i], u.types[i]}}
		u.ascs = append(u.ascs, asc)
		sub[n] = asc
	}
	u.body = substitute(d.body, sub, nil)
	if d.result != nil && typeOf(d.result).numeric() {
		u.body = &leansrc.Term{Kind: leansrc.TermAscribe, Start: u.body.Start, End: u.body.End, Args: []*leansrc.Term{u.body, d.result}}
	}
	return u
}

// markCtx registers ctx for every node of a substituted body but the
// arguments, which keep the caller's context.
func (c *compiler) markCtx(t *leansrc.Term, ctx *nameCtx, args []*leansrc.Term) {
	if t == nil {
		return
	}
	if slices.Contains(args, t) {
		return
	}
	c.ctxOf[t] = ctx
	for _, a := range t.Args {
		c.markCtx(a, ctx, args)
	}
	for _, b := range t.Binders {
		c.markCtx(b.Type, ctx, args)
		c.markCtx(b.Bound, ctx, args)
	}
}

// substitute copies t replacing free identifiers named in sub; bound names
// shadow.
func substitute(t *leansrc.Term, sub map[string]*leansrc.Term, shadow map[string]bool) *leansrc.Term {
	if t == nil {
		return nil
	}
	if t.Kind == leansrc.TermIdent {
		name, rest, _ := strings.Cut(t.Text, ".")
		if r, ok := sub[name]; ok && !shadow[name] {
			if rest == "" {
				return r
			}
			return &leansrc.Term{Kind: leansrc.TermProj, Text: rest, Start: t.Start, End: t.End, Args: []*leansrc.Term{r}}
		}
		return t
	}
	cp := *t
	inner := shadow
	if len(t.Binders) > 0 {
		inner = map[string]bool{}
		for k := range shadow {
			inner[k] = true
		}
		cp.Binders = make([]leansrc.Binder, len(t.Binders))
		for i, b := range t.Binders {
			nb := b
			nb.Type = substitute(b.Type, sub, inner)
			nb.Bound = substitute(b.Bound, sub, inner)
			for _, n := range b.Names {
				inner[n] = true
			}
			cp.Binders[i] = nb
		}
	}
	if t.Kind == leansrc.TermIf && t.Text != "" {
		if inner == nil {
			inner = map[string]bool{}
		}
		inner[t.Text] = true
	}
	cp.Args = make([]*leansrc.Term, len(t.Args))
	for i, a := range t.Args {
		cp.Args[i] = substitute(a, sub, inner)
	}
	return &cp
}

// appParts splits an application (or a bare name) into its head name and
// arguments; dotted names on locals (n.Prime, x.natAbs) become the type's
// function applied to the local first.
func (c *compiler) appParts(t *leansrc.Term) (name string, args []*leansrc.Term, ok bool) {
	h := t
	if t.Kind == leansrc.TermApp {
		h, args = t.Args[0], t.Args[1:]
	}
	switch h.Kind {
	case leansrc.TermIdent:
		if _, isLocal := c.local(h.Text); isLocal && len(args) > 0 {
			if c.funcs[h.Text] != nil {
				return funcPrefix + h.Text, args, true
			}
			if c.seqs[h.Text] != nil || (c.rule != nil && c.rule.name == h.Text) {
				return seqPrefix + h.Text, args, true
			}
			c.failf("%s is a variable outside the fragment", h.Text)
			return "", nil, false
		}
		if first, rest, dotted := strings.Cut(h.Text, "."); dotted {
			if _, isLocal := c.local(first); isLocal {
				if i := strings.LastIndexByte(rest, '.'); i >= 0 {
					// x.divisors.card is (x.divisors).card
					inner := &leansrc.Term{Kind: leansrc.TermIdent, Text: first + "." + rest[:i], Start: h.Start, End: h.End}
					proj := c.synth(leansrc.TermProj, rest[i+1:], inner)
					c.ctxOf[inner] = c.cur
					if len(args) == 0 {
						return c.appParts(proj)
					}
					return c.appParts(c.synth(leansrc.TermApp, "", append([]*leansrc.Term{proj}, args...)...))
				}
			}
			if b, isLocal := c.local(first); isLocal {
				if d := c.setDefs[first]; d != nil && d.finite {
					recv := &leansrc.Term{Kind: leansrc.TermIdent, Text: first, Start: h.Start, End: h.Start + len(first)}
					c.ctxOf[recv] = c.cur
					return "Finset." + rest, append([]*leansrc.Term{recv}, args...), true
				}
				if !b.t.numeric() {
					c.failf("%s is a variable outside the fragment", first)
					return "", nil, false
				}
				recv := &leansrc.Term{Kind: leansrc.TermIdent, Text: first, Start: h.Start, End: h.Start + len(first)}
				c.ctxOf[recv] = c.cur
				return c.dotName(b.t, rest), append([]*leansrc.Term{recv}, args...), true
			}
		}
		return h.Text, args, true
	case leansrc.TermProj:
		recv := h.Args[0]
		if ns := c.collectionNS(recv); ns != "" {
			return ns + h.Text, append([]*leansrc.Term{recv}, args...), true
		}
		k := c.quickType(recv)
		if k == kNone {
			return "", nil, false
		}
		return c.dotName(k, h.Text), append([]*leansrc.Term{recv}, args...), true
	}
	return "", nil, false
}

// collectionNS is the namespace of dot notation on a finite set or list
// term of the fragment ("Finset.", "List."), "" for other terms.
func (c *compiler) collectionNS(t *leansrc.Term) string {
	defer c.enter(t)()
	switch {
	case t.Kind == leansrc.TermSetLit, t.Kind == leansrc.TermSetBuilder && t.Binders[0].Pred == "∈":
		return "Finset."
	case t.Kind == leansrc.TermApp && t.Args[0].Kind == leansrc.TermProj && t.Args[0].Text == "filter":
		return c.collectionNS(t.Args[0].Args[0])
	}
	h := t
	if t.Kind == leansrc.TermApp {
		h = t.Args[0]
	}
	if h.Kind != leansrc.TermIdent {
		return ""
	}
	if _, isLocal := c.local(h.Text); isLocal {
		if d := c.setDefs[h.Text]; d != nil && d.finite {
			return "Finset."
		}
		return ""
	}
	full := c.resolve(h.Text)[0]
	if first, rest, dotted := strings.Cut(h.Text, "."); dotted {
		if b, isLocal := c.local(first); isLocal {
			full = c.dotName(b.t, rest) // n.divisors is Nat.divisors n
		}
	}
	switch {
	case full == "Nat.digits":
		return "List."
	case setNames[full]:
		return "Finset."
	}
	return ""
}

// dotName is the full name `x.f` denotes for x of type k.
func (c *compiler) dotName(k kind, field string) string {
	switch k {
	case kNat:
		return "Nat." + field
	case kInt:
		return "Int." + field
	case kRat:
		return "Rat." + field
	}
	return "?." + field
}

// quickType is the type of a receiver of dot notation: a local variable or
// a compiled numeric term.
func (c *compiler) quickType(t *leansrc.Term) kind {
	defer c.enter(t)()
	if t.Kind == leansrc.TermIdent {
		if b, ok := c.local(t.Text); ok {
			return b.t
		}
	}
	e, ok := c.num(t, kNone)
	if !ok {
		return kNone
	}
	return e.t
}
