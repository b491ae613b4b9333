package leanrepl

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// instanceFacts is what a library's instances say, read once per library
// (libraryInstances). Classes and types are keyed by the last component of
// their name, so that a name written in any namespace counts: every set is
// an over-approximation of what Lean's instance search may find, and the
// rules that use them are silent on what may be.
type instanceFacts struct {
	// setLike are the heads of the types with a SetLike instance: the
	// library's subobjects (Submodule, Subgroup), to which no element
	// coerces.
	setLike map[string]bool
	// sortToProp are the heads of the types a CoeSort instance may take to
	// a sort that may be Prop (its target is Prop or a variable); "*": a
	// generic source, every type.
	sortToProp map[string]bool
	// argHeads are, per argument of an instance, the heads it may have
	// (typeHeads).
	argHeads map[*leansrc.Term][]string
	// argInstance is, per argument of an instance, that instance.
	argInstance map[*leansrc.Term]*parsedInstance
	// factArgs caches, by an instance argument, whether its instance takes
	// a `[Fact P]` or a `[NeZero n]` (instanceTakesFact).
	factArgs sync.Map
	// receivers caches receiverNeeds.
	receivers sync.Map
	// toSort and toFun are the sources of the CoeSort and the CoeFun
	// instances: what may be coerced to a sort, to a function.
	toSort, toFun coeSources
	// toNum are the sources of the coercion instances whose target is a
	// number or a variable: what may be coerced to a number; toNumScoped
	// the namespaces of the scoped ones (algebraMap's R → A).
	toNum       coeSources
	toNumScoped []string
	// funValue are, by the last component of a type's head, what its
	// FunLike instances say its values are as functions.
	funValue map[string]funType
	// insts, parents and ix are kept for the per-type closures.
	insts   []parsedInstance
	parents map[classArg][]classArg
	ix      *closureIndex
	lib     *library.Library
	mu      sync.Mutex
	byType  map[string]map[classArg]bool
	byVar   map[string]map[classArg]bool // by a variable's class arguments, printed
	// prop are the class arguments Prop may fill: an instance on Prop,
	// one on a type variable whose constraints Prop may meet, a parent of
	// such a class (`extends`); known the classes with any instance.
	prop map[classArg]bool
	// universe are the class arguments a universe (`Type u`, `Sort u`) may
	// fill, found as prop is.
	universe map[classArg]bool
	known    map[string]bool
	// abbrevs are the last components of the names of the library's
	// abbreviations (SmallCategory C := Category.{u} C), which may stand
	// for a class, except those the root's class of that name takes
	// (Algebra.Generators.Ring is no `[Ring R]`); classAbbrevs those of
	// them every one of whose values
	// applies a class the library has instances of (FiniteDimensional K V
	// := Module.Finite K V), which the closure follows through parents.
	abbrevs, classAbbrevs map[string]bool
	// toFunction are, by number symbol (ℝ, ℂ), the coercion instances
	// that may take a value of that type to a function: the namespace of
	// each scoped one, "" for one in force everywhere.
	toFunction map[string][]string
	// scoped are, by the last component of a type's head (a number by its
	// symbol), the namespaces whose `scoped[NS] attribute [instance]`
	// commands put instances on it (Finset's pointwise Zero under `open
	// Pointwise`, ℂ's order under `open ComplexOrder`).
	scoped map[string][]string
	// scopedCoe are, by number symbol and for Set, the namespaces of the
	// scoped coercion instances from it, which only an `open` puts in force
	// (Algebra's ℝ → A); coerce follows the others.
	scopedCoe map[string][]string
	// coerce are, by number symbol (ℝ, ℂ) and for Set, the types a coercion may take
	// a value of that type to (see coercionTargets).
	coerce map[string]*targets
}

// targets are the types coercions may reach: heads are the last name
// components of their head constants ("*": any type, a variable whose
// constraints are not known, or a type not read); via are, per variable
// target, its constraints (a type with an instance of all of them).
type targets struct {
	heads map[string]bool
	via   [][]classArg
}

// classArg is an argument position of a class.
type classArg struct {
	class string
	pos   int
}

// coreProp are the classes Lean core instantiates on Prop, which an index
// of the library does not hold.
var coreProp = []string{"Inhabited", "Nonempty"}

// freshUniverses rewrites Mathlib's `Type*` and `Sort*` (a fresh universe)
// as `(Type _)`, which the term parser reads.
var freshUniverses = strings.NewReplacer("Type*", "(Type _)", "Sort*", "(Sort _)")

// coercionClasses are Lean core's coercion classes (a CoeFun instance is
// one too: core has [CoeFun α fun _ => β] : CoeOut α β).
var coercionClasses = map[string]bool{"Coe": true, "CoeTail": true, "CoeHTCT": true, "CoeHead": true, "CoeOut": true,
	"CoeTC": true, "CoeOTC": true, "CoeHTC": true, "CoeT": true, "CoeDep": true, "CoeFun": true}

var instanceCache sync.Map // *library.Library → *instanceFacts

// WarmTypes reads what the type checks need of lib's instances, once, so
// that the first check after the library loads does not pay for it (about
// a second of CPU on Mathlib). Servers call it off any request.
func WarmTypes(lib *library.Library) {
	if lib != nil {
		libraryInstances(lib)
	}
}

// libraryInstances reads lib's instances once.
func libraryInstances(lib *library.Library) *instanceFacts {
	if v, ok := instanceCache.Load(lib); ok {
		return v.(*instanceFacts)
	}
	f := readInstances(lib)
	instanceCache.Store(lib, f)
	return f
}

// parsedInstance is an instance declaration's signature: the class of its
// result and the result's arguments, and for the names its binders and the
// section variables in force bind, their types and the class arguments
// their instance binders constrain them with.
type parsedInstance struct {
	d     *library.Decl
	class string
	// read says every `variable` command in force was read: a name neither
	// the signature nor a section variable binds is then a constant or
	// notation (ℍ, 𝔻), not a variable
	read        bool
	args        []*leansrc.Term
	src         string
	vars        map[string]string // name → type as written ("" when none)
	constraints map[string][]classArg
	// binders are its instance binders' classes as written, the section's
	// in force included (`DecidableRel G.Adj`).
	binders []string
}

// varKind is what an argument of an instance's result may be.
type varKind uint8

const (
	notVar     varKind = iota // a type written out (ℝ, Finset α, A → B)
	typeVar                   // a type variable with known constraints
	unknownVar                // a variable whose constraints are not known
	coercedVar                // a term of a bound value used as a type (↥H)
)

// parseInstance reads `instance (priority := n) name binders : C args`,
// and the `variable` groups in force at it in its file.
func parseInstance(lib *library.Library, d *library.Decl) (parsedInstance, bool) {
	rest := d.Signature
	for _, kw := range []string{"instance", "def", "abbrev", "theorem"} {
		if r, ok := strings.CutPrefix(rest, kw); ok && (r == "" || strings.ContainsRune(" \t(:", []rune(r)[0])) {
			rest = r // a def made an instance by an attribute: its name follows
			break
		}
	}
	// Mathlib's Type* (a fresh universe) read as (Type _): CoeSort X Type*
	rest = freshUniverses.Replace(strings.TrimSpace(rest))
	if strings.HasPrefix(rest, "(priority") {
		i := strings.IndexByte(rest, ')')
		if i < 0 {
			return parsedInstance{}, false
		}
		rest = strings.TrimSpace(rest[i+1:])
	}
	if rest != "" && !strings.ContainsRune("({[⦃:", []rune(rest)[0]) {
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			return parsedInstance{}, false
		}
		rest = rest[i:]
	}
	env := elab.Env{Token: lib.NotationToken, OneAtom: lib.OneAtom, Postfix: lib.PostfixNotation}
	binders, typ, ok := leansrc.ParseHeader(rest, env.Ops())
	if before, _, cut := strings.Cut(rest, " fun "); cut && (!ok || typ == nil || typ.Kind == leansrc.TermUnsupported) {
		// CoeFun (Filtration ι m) fun _ => ι → …: its leading arguments
		rest = before
		binders, typ, ok = leansrc.ParseHeader(rest, env.Ops())
	}
	if !ok || typ == nil || typ.Kind == leansrc.TermUnsupported {
		// FunLike (LeftInvariantDerivation I G) C^∞⟮I, G; 𝕜⟯ …: the class
		// and its first argument, what a coercion's source is
		if short, cut := classAndFirst(rest); cut {
			rest = short
			binders, typ, ok = leansrc.ParseHeader(rest, env.Ops())
		}
	}
	if !ok || typ == nil {
		return parsedInstance{}, false
	}
	env.ReplaceNotation(typ) // Semiring ℝ≥0, Semiring R[X]
	p := parsedInstance{d: d, src: rest, vars: map[string]string{}, constraints: map[string][]classArg{}}
	switch {
	case typ.Kind == leansrc.TermIdent:
		p.class = lastComponent(typ.Text)
	case typ.Kind == leansrc.TermApp && typ.Args[0].Kind == leansrc.TermIdent:
		p.class, p.args = lastComponent(typ.Args[0].Text), typ.Args[1:]
	default:
		return parsedInstance{}, false
	}
	// the section variables first: the signature's binders shadow them (a
	// generated twin's are the original's translated: [Group G] → [AddGroup G])
	if fv, ok := scanFile(lib, d); ok {
		line := d.Range.Start.Line
		at, bad := fv.implicit[unreadableGroup]
		p.read = !bad || at > line
		for _, g := range fv.groups {
			if g.From <= line && line < g.To {
				if g.Inst != "" {
					p.binders = append(p.binders, g.Inst)
				}
				for n, cs := range g.Cons {
					for _, c := range cs {
						if d.Generated {
							c.class = twinClass(lib, c.class)
						}
						p.constraints[n] = append(p.constraints[n], c)
					}
				}
				for _, n := range g.Names {
					p.vars[n] = g.Type
				}
			}
		}
	}
	for _, b := range binders {
		if b.Bracket == '[' {
			p.constrain(b.Type)
			if b.Type != nil {
				p.binders = append(p.binders, rest[b.Type.Start:b.Type.End])
			}
			continue
		}
		names, typ := leansrc.GroupNames(b, rest)
		for _, n := range names {
			p.vars[n] = typ
		}
	}
	return p, true
}

// constrain records an instance binder's class, C a b, as a constraint
// on each of its arguments that is a name.
func (p parsedInstance) constrain(t *leansrc.Term) {
	if t == nil {
		return
	}
	head, args := t, []*leansrc.Term(nil)
	if t.Kind == leansrc.TermApp {
		head, args = t.Args[0], t.Args[1:]
	}
	if head.Kind != leansrc.TermIdent {
		return
	}
	for i, a := range args {
		if a.Kind == leansrc.TermIdent {
			p.constraints[a.Text] = append(p.constraints[a.Text], classArg{lastComponent(head.Text), i})
		}
	}
}

// kind says what argument a of the instance's result may be.
func (p parsedInstance) kind(a *leansrc.Term, lib *library.Library) varKind {
	if a.Kind != leansrc.TermIdent || strings.HasPrefix(p.src[a.End:], "[") || strings.HasPrefix(p.src[a.End:], "(") {
		return notVar // ℍ[R,c₁,c₂,c₃] is notation
	}
	if typ, ok := p.vars[a.Text]; ok {
		if typ == "" || strings.Contains(typ, "Type") || strings.Contains(typ, "Sort") {
			return typeVar
		}
		return coercedVar // (H : Subgroup G) in `Mul H` is the type ↥H
	}
	if !p.read && elab.AutoBoundShape(a.Text) && numSymbol(a.Text) == "" && a.Text != "Prop" {
		if _, ok := lib.Lookup(a.Text); !ok {
			return unknownVar
		}
	}
	return notVar
}

// numSymbol returns the symbol of the core number type a name denotes ("").
func numSymbol(s string) string {
	switch s {
	case "ℕ", "Nat":
		return "ℕ"
	case "ℤ", "Int":
		return "ℤ"
	case "ℚ", "Rat":
		return "ℚ"
	case "ℝ", "Real":
		return "ℝ"
	case "ℂ", "Complex":
		return "ℂ"
	}
	return ""
}

// closureIndex is what closure reads of the instances, once: each
// instance argument with its class argument, kind and distinct
// constraints, and by class argument the type-variable arguments it
// constrains.
type closureIndex struct {
	args       []indexedArg
	constrains map[classArg][]int
}

// indexedArg is one argument of an instance's result.
type indexedArg struct {
	c    classArg
	p    *parsedInstance
	term *leansrc.Term
	kind varKind
	need int // distinct constraints, for a type variable
}

// newClosureIndex reads insts for closure.
func newClosureIndex(insts []parsedInstance, lib *library.Library) *closureIndex {
	ix := &closureIndex{constrains: map[classArg][]int{}}
	for pi := range insts {
		p := &insts[pi]
		for i, a := range p.args {
			e := indexedArg{c: classArg{p.class, i}, p: p, term: a, kind: p.kind(a, lib)}
			if e.kind == typeVar {
				var ks []classArg
				for _, k := range p.constraints[a.Text] {
					if !slices.Contains(ks, k) {
						ks = append(ks, k)
					}
				}
				e.need = len(ks)
				for _, k := range ks {
					ix.constrains[k] = append(ix.constrains[k], len(ix.args))
				}
			}
			ix.args = append(ix.args, e)
		}
	}
	return ix
}

// closure returns the least set of class arguments closed under: an
// instance whose argument is one seed accepts; an instance whose argument
// is a type variable whose constraints are all in the set (or not known);
// for a coerced variable, coerced accepting its type; a class's parents.
// seed and coerced may be nil (none). It goes through the instances once
// and then follows what each class argument added unblocks (a worklist).
func (ix *closureIndex) closure(parents map[classArg][]classArg, seed func(*leansrc.Term) bool, coerced func(typ string) bool, start []classArg) map[classArg]bool {
	set := map[classArg]bool{}
	var queue []classArg
	add := func(c classArg) {
		if !set[c] {
			set[c] = true
			queue = append(queue, c)
		}
	}
	for _, c := range start {
		add(c)
	}
	missing := make([]int, len(ix.args))
	for i := range ix.args {
		a := &ix.args[i]
		missing[i] = a.need
		switch {
		case seed != nil && seed(a.term):
			add(a.c)
		case a.kind == unknownVar, a.kind == typeVar && a.need == 0:
			add(a.c)
		case a.kind == coercedVar && coerced != nil && coerced(a.p.vars[a.term.Text]):
			add(a.c)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, i := range ix.constrains[c] {
			if missing[i]--; missing[i] == 0 && ix.args[i].kind == typeVar {
				add(ix.args[i].c)
			}
		}
		for _, par := range parents[c] {
			add(par)
		}
	}
	return set
}

// mayBe reports whether argument a of p may be a type of the set's kind:
// seed accepts it, or it is a variable whose constraints are all in set
// (or not known).
func (p parsedInstance) mayBe(a *leansrc.Term, lib *library.Library, set map[classArg]bool, seed func(*leansrc.Term) bool) bool {
	if seed(a) {
		return true
	}
	switch p.kind(a, lib) {
	case unknownVar:
		return true
	case typeVar:
		for _, k := range p.constraints[a.Text] {
			if !set[k] {
				return false
			}
		}
		return true
	}
	return false
}

func readInstances(lib *library.Library) *instanceFacts {
	f := &instanceFacts{setLike: map[string]bool{}, sortToProp: map[string]bool{}, toSort: coeSources{direct: map[string]bool{}}, toFun: coeSources{direct: map[string]bool{}}, toNum: coeSources{direct: map[string]bool{}}, funValue: map[string]funType{}, lib: lib, byType: map[string]map[classArg]bool{}, known: map[string]bool{}, abbrevs: map[string]bool{}, toFunction: map[string][]string{}, scoped: map[string][]string{}, scopedCoe: map[string][]string{}}
	var insts []parsedInstance
	parents := map[classArg][]classArg{}
	abbrevHeads := map[string][]string{} // the class each abbreviation's value applies, "" for none read
	for _, d := range lib.Decls() {
		switch d.Kind {
		case library.KindInstance:
			if p, ok := parseInstance(lib, d); ok {
				insts = append(insts, p)
				f.known[p.class] = true
				if p.class == "SetLike" && len(p.args) == 2 && p.kind(p.args[0], lib) == notVar {
					f.setLike[lastComponent(headName(p.args[0]))] = true
				}
			}
		case library.KindDef, library.KindTheorem:
			f.attributeInstance(d, &insts)
		case library.KindAbbrev:
			f.attributeInstance(d, &insts)
			if !instanceValued(d) {
				f.abbrevs[lastComponent(d.Name)] = true
			}
			if d.Value != "" {
				// abbrev FunLike F α β := DFunLike F α fun _ => β: an
				// instance of FunLike is one of DFunLike
				v := leansrc.ParseTerm(dropUniverses(d.Value), nil)
				if before, _, ok := strings.Cut(d.Value, " fun "); ok && v.Kind == leansrc.TermUnsupported {
					v = leansrc.ParseTerm(dropUniverses(before), nil) // its leading arguments
				}
				addParent(lastComponent(d.Name), classParams(d, d.Signature), v, parents)
				abbrevHeads[lastComponent(d.Name)] = append(abbrevHeads[lastComponent(d.Name)], lastComponent(headName(v)))
			} else {
				abbrevHeads[lastComponent(d.Name)] = append(abbrevHeads[lastComponent(d.Name)], "")
			}
		case library.KindClass, library.KindClassInductive:
			classParents(d, parents)
		case library.KindField:
			fieldParents(lib, d, parents)
		}
	}
	for a := range f.abbrevs {
		if d, ok := lib.Lookup(a); ok && d.MayBeClass() && d.Kind != library.KindAbbrev {
			// `[Ring R]` names the root's class Ring, not the abbreviation
			// Algebra.Generators.Ring
			delete(f.abbrevs, a)
		}
	}
	f.classAbbrevs = map[string]bool{}
	for a, heads := range abbrevHeads {
		f.classAbbrevs[a] = !slices.ContainsFunc(heads, func(h string) bool { return h == "" || !f.known[h] })
	}
	f.argHeads, f.argInstance = map[*leansrc.Term][]string{}, map[*leansrc.Term]*parsedInstance{}
	for i := range insts {
		p := &insts[i]
		for _, a := range p.args {
			f.argHeads[a] = typeHeads(lib, a, argText(*p, a))
			f.argInstance[a] = p
		}
	}
	scopedNS := map[*library.Decl]string{} // scopedNamespace reads the file: once per instance
	scopedOf := func(d *library.Decl) string {
		ns, ok := scopedNS[d]
		if !ok {
			ns = scopedNamespace(lib, d)
			scopedNS[d] = ns
		}
		return ns
	}
	for _, p := range insts {
		if p.class == "CoeFun" && len(p.args) >= 1 {
			f.toFun.add(p, p.args[0], lib)
		}
		if (p.class == "FunLike" || p.class == "CoeFun") && len(p.args) >= 2 && p.kind(p.args[0], lib) == notVar {
			f.addFunctionValue(p, lib)
		}
		if coercionClasses[p.class] && p.class != "CoeFun" && len(p.args) >= 2 && p.kind(p.args[0], lib) != coercedVar {
			// Fin n → ℕ, a variable target ([NatCast R] : CoeTail ℕ R);
			// not from ↥s (CoeOut m α), no structure's value
			if dst := p.args[len(p.args)-1]; numSymbol(headName(dst)) != "" || p.kind(dst, lib) != notVar {
				if ns := scopedOf(p.d); ns != "" {
					f.toNumScoped = append(f.toNumScoped, ns)
				} else {
					f.toNum.add(p, p.args[0], lib)
				}
			}
		}
		if p.class != "CoeSort" || len(p.args) != 2 {
			continue
		}
		src, dst := p.args[0], p.args[1]
		h, direct := f.toSort.add(p, src, lib)
		if dst.Kind == leansrc.TermIdent && dst.Text == "Prop" || p.kind(dst, lib) != notVar {
			if direct {
				f.sortToProp[lastComponent(h)] = true
			} else {
				f.sortToProp["*"] = true
			}
		}
	}
	f.insts, f.parents, f.ix = insts, parents, newClosureIndex(insts, lib)
	var start []classArg
	for _, c := range coreProp {
		start = append(start, classArg{c, 0})
	}
	f.prop = f.ix.closure(parents, func(a *leansrc.Term) bool {
		return a.Kind == leansrc.TermIdent && a.Text == "Prop"
	}, func(typ string) bool {
		h := headName(leansrc.ParseTerm(typ, nil))
		return f.sortToProp["*"] || h == "" || f.sortToProp[lastComponent(h)]
	}, start)
	f.universe = f.ix.closure(parents, func(a *leansrc.Term) bool {
		h := headName(a)
		return h == "Type" || h == "Sort" || a.Kind == leansrc.TermUnsupported && (strings.HasPrefix(a.Text, "Type") || strings.HasPrefix(a.Text, "Sort"))
	}, nil, start)
	isFunc := func(a *leansrc.Term) bool {
		// a notation the parser does not read may be an arrow (α →ₗ β);
		// one with no arrow, such as R ⧸ I, is an application
		return a.Kind == leansrc.TermForall || a.Kind == leansrc.TermInfix && (a.Text == "→" || a.Text == "->") ||
			a.Kind == leansrc.TermUnsupported && strings.ContainsAny(a.Text, "→∀Π⟶")
	}
	funcs := f.ix.closure(parents, isFunc, nil, nil)
	direct := map[string]*targets{}
	for _, n := range []string{"ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Set"} {
		isNum := func(a *leansrc.Term) bool { return a.Kind == leansrc.TermIdent && numSymbol(a.Text) == n }
		if n == "Set" {
			isNum = func(a *leansrc.Term) bool { return lastComponent(headName(a)) == "Set" }
		}
		nums := f.ix.closure(parents, isNum, nil, nil)
		direct[n] = &targets{heads: map[string]bool{}}
		for _, p := range insts {
			if !coercionClasses[p.class] || len(p.args) < 2 || !p.mayBe(p.args[0], lib, nums, isNum) {
				continue
			}
			dst := p.args[len(p.args)-1]
			ns := scopedOf(p.d)
			if ns == "" {
				direct[n].add(p, lib)
			} else if !slices.Contains(f.scopedCoe[n], ns) {
				f.scopedCoe[n] = append(f.scopedCoe[n], ns) // Algebra's coercion ℝ → A
			}
			if p.class != "CoeFun" && !p.mayBe(dst, lib, funcs, isFunc) {
				continue
			}
			f.toFunction[n] = append(f.toFunction[n], ns)
		}
	}
	f.coerce = map[string]*targets{}
	for n := range direct {
		f.coerce[n] = coercionTargets(n, direct, insts, lib)
		f.coerce[n].addHeads(coreCoercionTargets)
	}
	return f
}

// coreCoercionTargets are the types Lean core coerces any value to (`a` to
// `some a`, to a thunk), which an index of the library does not hold.
var coreCoercionTargets = []string{"Option", "Thunk"}

// add records the target of coercion instance p.
func (t *targets) add(p parsedInstance, lib *library.Library) {
	dst := p.args[len(p.args)-1]
	if p.class != "CoeDep" && len(p.args) > 2 {
		// CoeTC R ℍ[R]: the parser split the target's notation
		t.addHeads(notationHeads(p.src[p.args[1].Start:dst.End], lib))
		return
	}
	switch p.kind(dst, lib) {
	case typeVar:
		t.via = append(t.via, p.constraints[dst.Text])
		return
	case unknownVar, coercedVar:
		t.heads["*"] = true
		return
	}
	if h := headName(dst); h != "" {
		t.addHeads([]string{h})
	} else if dst.Kind == leansrc.TermUnsupported {
		t.addHeads(notationHeads(dst.Text, lib))
	} else {
		t.heads["*"] = true
	}
}

// addHeads records target types by their head constants; none: any type.
func (t *targets) addHeads(hs []string) {
	if len(hs) == 0 {
		t.heads["*"] = true
	}
	for _, h := range hs {
		if sym := numSymbol(h); sym != "" {
			h = sym
		}
		t.heads[lastComponent(h)] = true
	}
}

// notationHeads returns the constants that type text, written with
// notation the term parser does not read (`ℍ[R]`, `R ⧸ I`), may stand for:
// the targets of the library's notations whose first atom it contains (a
// run of up to three adjacent scanner tokens); nil when none.
func notationHeads(text string, lib *library.Library) []string {
	toks, _ := leansrc.Scan([]byte(text))
	var found []string
	for i := range toks {
		for j := i; j < len(toks) && j < i+3; j++ {
			if j > i && toks[j-1].End != toks[j].Start {
				break
			}
			found = append(found, lib.NotationTargets(text[toks[i].Start:toks[j].End])...)
		}
	}
	return found
}

// coercionTargets follows coercions from number type n: its direct
// targets, then the targets of the coercions whose source is a type
// reached (the direct ones of a number reached, ℝ → ℂ; for another type,
// the instances on its head), as Lean chains coercions.
func coercionTargets(n string, direct map[string]*targets, insts []parsedInstance, lib *library.Library) *targets {
	out := &targets{heads: map[string]bool{}}
	seen := map[string]bool{n: true}
	queue := []string{n}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		next := &targets{heads: map[string]bool{}}
		if d, ok := direct[h]; ok {
			next = d
		} else {
			for _, p := range insts {
				if coercionClasses[p.class] && len(p.args) >= 2 && lastComponent(headName(p.args[0])) == h && p.kind(p.args[0], lib) == notVar {
					next.add(p, lib)
				}
			}
		}
		out.via = append(out.via, next.via...)
		for t := range next.heads {
			out.heads[t] = true
			if !seen[t] && t != "*" {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	return out
}

// coercesTo reports whether a value of number type n (ℝ or ℂ), or a Set, may be
// coerced to a value of a type whose head is the constant full: n is not
// one whose coercions were read, a scoped coercion from it is in force
// (opens reports the namespaces the scope opens), or one reaches that
// head, any type, or a variable whose constraints that type may all meet.
func (f *instanceFacts) coercesTo(n, full string, opens func(ns string) bool) bool {
	t, ok := f.coerce[n]
	head := lastComponent(full)
	if !ok || t.heads["*"] || t.heads[head] || numSymbol(full) == n || slices.ContainsFunc(f.scopedCoe[n], opens) {
		return true
	}
	if len(t.via) == 0 {
		return false
	}
	return meetsAny(f.classesOf(head), t.via)
}

// addFunctionValue records the domain's head and the codomain of FunLike
// (or CoeFun) instance p on a type written out: FunLike (Measure α) (Set
// α) ℝ≥0∞. A head whose instances disagree, or with one not read
// (CoeFun's `fun _ => …`), gets none.
func (f *instanceFacts) addFunctionValue(p parsedInstance, lib *library.Library) {
	v := funType{conflict: true}
	if p.class == "FunLike" && len(p.args) == 3 {
		if h := headName(p.args[2]); p.args[2].Kind == leansrc.TermIdent && h != "" {
			v = funType{dom: headName(p.args[1]), cod: h}
		}
	}
	for _, h := range typeHeads(lib, p.args[0], argText(p, p.args[0])) {
		if old, ok := f.funValue[h]; ok && old != v {
			f.funValue[h] = funType{conflict: true}
		} else {
			f.funValue[h] = v
		}
	}
}

// funType is what the FunLike instances on a type say its values are as
// functions: the head of their domain and their codomain, as written.
type funType struct {
	dom, cod string
	conflict bool
}

// functionType returns the head of the domain and the codomain (as the
// library writes them) of the functions a value of a type whose head is
// the constant full stands for, by its FunLike instances; "" when not
// known.
func (f *instanceFacts) functionType(full string) (dom, cod string) {
	if v := f.funValue[lastComponent(full)]; !v.conflict {
		return v.dom, v.cod
	}
	return "", ""
}

// numberBeside reports whether a value of a type whose head is the
// constant full and a number of type n ("" for a numeral) may stand side
// by side in arithmetic or a comparison (see elab.Env.NumberBeside): an
// instance an open puts in force on that type (opens reports the scope's
// opens), a cast class on it (a numeral's OfNat, Zero, One and the casts;
// ℕ's NatCast, ℤ's IntCast, ℚ's RatCast), a coercion from the number to it,
// or one from it to a number.
func (f *instanceFacts) numberBeside(full, n string, opens func(ns string) bool) bool {
	return slices.ContainsFunc(f.toNumScoped, opens) || f.toNum.from(f, full) || f.numberTo(full, n, opens)
}

// numberTo reports whether a number of type n (ℕ, ℤ, ℚ, ℝ, ℂ; a
// numeral's digits, or "" for a numeral written otherwise) may be
// elaborated at, cast or coerced to a type headed by constant full: a
// numeral or cast instance on it, a coercion, or a scoped instance the
// opens bring. A coercion of full's values to numbers does not count (an
// argument of type ℕ+ given a ℕ: ℕ+ coerces to ℕ, not back).
func (f *instanceFacts) numberTo(full, n string, opens func(ns string) bool) bool {
	head := lastComponent(full)
	if slices.ContainsFunc(f.scoped[head], opens) {
		return true
	}
	has := f.classesOf(head)
	classes, numeral := numberClasses[n], n == "" || strings.Trim(n, "0123456789") == ""
	switch {
	case n == "0":
		classes = []string{"OfNat", "NatCast", "Zero"}
	case n == "1":
		classes = []string{"OfNat", "NatCast", "One"}
	case numeral && n != "":
		classes = []string{"OfNat", "NatCast"}
	}
	for _, c := range classes {
		if has[classArg{c, 0}] || !f.known[c] && !f.declared(c) {
			return true
		}
	}
	if numeral {
		n = "ℕ" // silent, too, for numerals where a natural number coerces
	}
	return f.coercesTo(n, full, opens)
}

// numberClasses are, by number type ("" for a numeral not written in
// digits), the classes whose instance on a type lets a number of it be
// elaborated at that type; numberBeside narrows a numeral's by its value.
var numberClasses = map[string][]string{"": {"OfNat", "NatCast", "IntCast", "RatCast", "Zero", "One"},
	"ℕ": {"NatCast"}, "ℤ": {"IntCast"}, "ℚ": {"RatCast"}}

// meetsAny reports whether the class arguments has include every one of
// some constraint list of vias.
func meetsAny(has map[classArg]bool, vias [][]classArg) bool {
	for _, cs := range vias {
		all := true
		for _, c := range cs {
			all = all && has[c]
		}
		if all {
			return true
		}
	}
	return false
}

// coercesToSort reports whether a value of a type whose head is the
// constant full may be coerced to a sort: a CoeSort instance on that head,
// or a generic one whose constraints that type may all meet (read from the
// instances on it, on variables it may fill, and the classes' parents).
func (f *instanceFacts) coercesToSort(full string) bool {
	return f.toSort.from(f, full)
}

// coercesToFunction reports whether a value of a type whose head is the
// constant full may be coerced to a function: a CoeFun instance on it,
// or a generic one whose constraints it may meet (DFunLike's).
func (f *instanceFacts) coercesToFunction(full string) bool {
	return f.toFun.from(f, full)
}

// coeSources are the source types of a coercion class's instances: the
// heads of those on a type ("*": one on a variable whose constraints are
// not known), and the constraints of the variable of each other one (a
// type with an instance of all of them may be coerced).
type coeSources struct {
	direct map[string]bool
	via    [][]classArg
}

// add records the source src of instance p, and returns its head and
// whether it is a type rather than a variable.
func (s *coeSources) add(p parsedInstance, src *leansrc.Term, lib *library.Library) (string, bool) {
	h, k := headName(src), p.kind(src, lib)
	if h == "" {
		h = universeHead(p.src[src.Start:src.End]) // (ModuleCat.{v} R)
	}
	switch heads := typeHeads(lib, src, argText(p, src)); {
	case h != "" && k == notVar || len(heads) > 0 && k == notVar:
		for _, x := range heads {
			s.direct[x] = true
		}
		if h == "" {
			h = heads[0]
		}
		s.direct[lastComponent(h)] = true
		return h, true
	case k == typeVar && len(p.constraints[src.Text]) > 0:
		// [SetLike A B] : CoeSort A (Type _)
		s.via = append(s.via, p.constraints[src.Text])
	case k == notVar && src.Kind != leansrc.TermIdent:
		// notation or a projection (X ⟶ Y, F.obj U): instance search
		// indexes it by its own head, no variable, so it stands for no
		// type headed by another constant
	default:
		s.direct["*"] = true
	}
	return h, false
}

// from reports whether a value of a type whose head is the constant full
// may be coerced.
func (s *coeSources) from(f *instanceFacts, full string) bool {
	head := lastComponent(full)
	return s.direct["*"] || s.direct[head] || meetsAny(f.classesOf(head), s.via)
}

// variableHas reports whether a type variable with local instances of
// classes (`C`: the variable their only argument; `C@i`: at position i)
// may have an instance of class: the classes' parents, the library's
// instances on a variable whose constraints those meet, and, when the
// library declares no class of that name at all, always (it may be Lean
// core's, whose instances the index lacks); so too when a local class is
// one the library does not declare (its parents are not known).
func (f *instanceFacts) variableHas(classes []string, class string) bool {
	want := classArg{lastComponent(class), 0}
	if name, at, ok := strings.Cut(class, "@"); ok {
		// Inner@1: the variable as the class's second argument (Inner 𝕜 E)
		n, err := strconv.Atoi(at)
		if err != nil {
			return true
		}
		class, want = name, classArg{lastComponent(name), n}
	}
	if !f.known[want.class] && !f.declared(class) || f.abbrevs[want.class] {
		// an abbreviation (SmallCategory C := Category.{u} C) unfolds
		// to what the closure does not follow
		return true
	}
	for _, c := range classes {
		name, _, _ := strings.Cut(c, "@")
		if l := lastComponent(name); !f.known[l] && !f.declared(name) || f.abbrevs[l] && !f.classAbbrevs[l] {
			if d, ok := f.lib.Lookup(name); ok && !d.MayBeClass() {
				continue // (s : Set G), (H : Subgroup G): no instance
			}
			// a class the library does not declare (the header's imports
			// may): its parents are not known
			return true
		}
	}
	return f.closureOf(classes)[want]
}

// closureOf returns the class arguments a type variable with local
// instances of classes may fill (their parents, the library's instances);
// classes the library does not declare give nothing.
func (f *instanceFacts) closureOf(classes []string) map[classArg]bool {
	var start []classArg
	for _, c := range classes {
		pos := 0
		if name, at, ok := strings.Cut(c, "@"); ok {
			n, err := strconv.Atoi(at)
			if err != nil {
				continue
			}
			c, pos = name, n
		}
		start = append(start, classArg{lastComponent(c), pos})
	}
	key := fmt.Sprint(start)
	f.mu.Lock()
	has, ok := f.byVar[key]
	f.mu.Unlock()
	if !ok {
		has = f.ix.closure(f.parents, nil, nil, start)
		f.mu.Lock()
		if f.byVar == nil {
			f.byVar = map[string]map[classArg]bool{}
		}
		f.byVar[key] = has
		f.mu.Unlock()
	}
	return has
}

// declared reports whether the library declares class (a class of
// that name in any namespace, or a parent some class extends).
func (f *instanceFacts) declared(class string) bool {
	for c, ps := range f.parents {
		if c.class == class {
			return true
		}
		for _, p := range ps {
			if p.class == class {
				return true
			}
		}
	}
	return false
}

// numberHas reports whether the number type n (ℕ … ℂ) may have an
// instance of class: the library's instances on it or on a variable it may
// fill, and the classes' parents; a class the library does not declare
// (Lean core's) always.
func (f *instanceFacts) numberHas(n, class string) bool {
	c := lastComponent(class)
	if !f.known[c] && !f.declared(c) {
		return true
	}
	f.mu.Lock()
	has, ok := f.byType[" "+n]
	f.mu.Unlock()
	if !ok {
		has = f.ix.closure(f.parents, func(a *leansrc.Term) bool {
			return a.Kind == leansrc.TermIdent && numSymbol(a.Text) == n
		}, nil, nil)
		f.mu.Lock()
		f.byType[" "+n] = has
		f.mu.Unlock()
	}
	return has[classArg{c, 0}]
}

// classesOf returns the class arguments a type whose head's last
// component is head may fill: the instances on it, on variables it may
// fill, and the classes' parents.
func (f *instanceFacts) classesOf(head string) map[classArg]bool {
	f.mu.Lock()
	has, ok := f.byType[head]
	f.mu.Unlock()
	if !ok {
		has = f.ix.closure(f.parents, func(a *leansrc.Term) bool {
			return slices.Contains(f.argHeads[a], head)
		}, nil, nil)
		f.mu.Lock()
		f.byType[head] = has
		f.mu.Unlock()
	}
	return has
}

// takesFact reports whether an instance binder's text is a `Fact P` or a
// `NeZero n`, instances a statement gives only by a binder of its own
// (`[Fact p.Prime]`, `[hp : Fact (1 < n)]`, `[NeZero n]`).
func takesFact(text string) bool {
	for _, c := range []string{"Fact", "NeZero"} {
		if strings.Contains(text, "["+c+" ") || strings.Contains(text, ": "+c+" ") || strings.HasPrefix(strings.TrimSpace(text), c+" ") {
			return true
		}
	}
	return false
}

// instanceTakesFact reports whether the instance of argument a takes a
// `[Fact P]` or a `[NeZero n]` (takesFact): in its signature, or as a
// section variable in
// force at it that mentions only names its signature mentions (ZMod's
// `instance : Field (ZMod p)` under `variable (p : ℕ) [hp : Fact
// p.Prime]`). A file it cannot read counts as none.
func (f *instanceFacts) instanceTakesFact(a *leansrc.Term, p *parsedInstance) bool {
	if v, ok := f.factArgs.Load(a); ok {
		return v.(bool)
	}
	fact := takesFact(p.d.Signature)
	if groups, ok := sectionBinders(f.lib, p.d); ok && !fact {
		vars := map[string]bool{}
		for _, g := range groups {
			if !takesFact(g.Type) {
				for _, n := range g.Names {
					vars[n] = true
				}
			}
		}
		for _, g := range groups {
			if !takesFact(g.Type) {
				continue
			}
			// Lean adds an instance variable whose variables the
			// declaration all mentions
			lex, err := leansrc.Lex(g.Type)
			some, all := false, err == nil
			for _, l := range lex {
				if root, _, _ := strings.Cut(l.Text, "."); l.Kind == leansrc.LexIdent && vars[root] {
					some = true
					all = all && wordIn(p.d.Signature, root)
				}
			}
			if fact = some && all; fact {
				break
			}
		}
	}
	f.factArgs.Store(a, fact)
	return fact
}

// classesOfFactFree is classesOf through the instances on such a type
// applied to a variable that take no `[Fact P]` or `[NeZero n]` instance
// (ZMod's Field needs `[Fact p.Prime]`, its Fintype `[NeZero n]`).
func (f *instanceFacts) classesOfFactFree(head string) map[classArg]bool {
	key := "!" + head
	f.mu.Lock()
	has, ok := f.byType[key]
	f.mu.Unlock()
	if !ok {
		has = f.ix.closure(f.parents, func(a *leansrc.Term) bool {
			// an instance on a numeral's type (`Unique (ZMod 1)`) is none
			// on a variable's
			numeral := a.Kind == leansrc.TermApp && slices.ContainsFunc(a.Args[1:], func(x *leansrc.Term) bool { return x.Kind == leansrc.TermNum })
			return slices.Contains(f.argHeads[a], head) && !numeral && !f.instanceTakesFact(a, f.argInstance[a])
		}, nil, nil)
		f.mu.Lock()
		f.byType[key] = has
		f.mu.Unlock()
	}
	return has
}

// needsFact reports whether the library gives a type whose head's last
// component is head an instance of class at pos only through instances
// that take a `[Fact P]` or `[NeZero n]` instance.
func (f *instanceFacts) needsFact(head, class string, pos int) bool {
	ca := classArg{lastComponent(class), pos}
	return f.classesOf(head)[ca] && !f.classesOfFactFree(head)[ca]
}

// classParents adds to parents how class d's arguments are its parents'
// (`class Module (R M) extends DistribMulAction R M`: Module's second is
// DistribMulAction's second); a parent's argument that is none of the
// class's parameters may be any of them.
func classParents(d *library.Decl, parents map[classArg][]classArg) {
	head, ext, ok := strings.Cut(d.Signature, " extends ")
	if !ok {
		return
	}
	params := classParams(d, head)
	if j := strings.LastIndex(ext, " : "); j >= 0 && !strings.ContainsAny(ext[j:], ",") {
		ext = ext[:j] // extends P α : Prop
	}
	all := leansrc.ParseTerm("("+dropUniverses(ext)+")", nil)
	parts := []*leansrc.Term{all}
	if all.Kind == leansrc.TermTuple {
		parts = all.Args // extends P α, Q α
	}
	for _, t := range parts {
		addParent(lastComponent(d.Name), params, t, parents)
	}
}

// fieldParents adds to parents the instance a field of a class gives when
// an attribute in force everywhere makes it one (IsGalois's `[to_normal :
// Normal F E]`, PseudoMetricSpace's `toUniformSpace : UniformSpace α`;
// not RCLike's `toPartialOrder`, an instance only in `ComplexOrder`): for
// the closure, such a field is a parent as `extends` ones are.
func fieldParents(lib *library.Library, f *library.Decl, parents map[classArg][]classArg) {
	sig, ok := strings.CutPrefix(f.Signature, "field "+f.Name)
	if !ok {
		return
	}
	sig = strings.TrimSpace(sig)
	if scope, ok := instanceScope(f); !ok || scope != "" {
		return
	}
	var typ string
	if strings.HasPrefix(sig, "[") && strings.HasSuffix(sig, "]") {
		_, typ, ok = strings.Cut(sig[1:len(sig)-1], " : ")
	} else {
		typ, ok = strings.CutPrefix(sig, ": ")
		typ, _, _ = strings.Cut(typ, " := ")
	}
	class, found := lib.Lookup(f.Parent)
	if !ok || !found || class.Kind != library.KindClass {
		return
	}
	head, _, _ := strings.Cut(class.Signature, " extends ")
	addParent(lastComponent(class.Name), classParams(class, head), leansrc.ParseTerm(dropUniverses(typ), nil), parents)
}

// twinClass returns the @[to_additive] counterpart of class (the last
// component of a root class's name: Group → AddGroup), or class itself.
func twinClass(lib *library.Library, class string) string {
	if d, ok := lib.Lookup(class); ok && d.Twin != "" && d.Kind.IsTypeLike() {
		return lastComponent(d.Twin)
	}
	return class
}

// instanceValued reports whether abbreviation d is a value of a class
// rather than a class or a type (Mathlib's `protected abbrev Equiv.Inv [Inv
// β] : Inv α`, an instance transferred along an equivalence): its result
// type is written and is no sort, so its name names no class.
func instanceValued(d *library.Decl) bool {
	hdr := strings.TrimPrefix(d.Signature, "protected ")
	hdr, ok := strings.CutPrefix(hdr, "abbrev "+d.Name)
	if !ok {
		return false
	}
	_, typ, ok := leansrc.ParseHeader(hdr, nil)
	if !ok || typ == nil || typ.Kind == leansrc.TermUnsupported {
		return false
	}
	h := headName(typ)
	return h != "" && h != "Type" && h != "Sort" && h != "Prop" && !strings.HasPrefix(h, "Type") && !strings.HasPrefix(h, "Sort")
}

// dropUniverses removes the universe arguments of constants from a type
// as written (`Quiver.{v + 1} obj` → `Quiver obj`).
func dropUniverses(t string) string {
	for {
		i := strings.Index(t, ".{")
		if i < 0 {
			return t
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			return t
		}
		t = t[:i] + t[i+j+1:]
	}
}

// attributeInstance reads d when an `attribute [instance]` command makes
// it an instance: one in force everywhere joins insts; a scoped one is
// recorded, by the heads of the types it is on, with its namespace
// (scoped); a local one is left out.
func (f *instanceFacts) attributeInstance(d *library.Decl, insts *[]parsedInstance) {
	ns, ok := instanceScope(d)
	if !ok {
		return
	}
	p, ok := parseInstance(f.lib, d)
	if !ok {
		return
	}
	switch ns {
	case "":
		*insts = append(*insts, p)
		f.known[p.class] = true
	case "-":
	default:
		for _, a := range p.args {
			for _, h := range typeHeads(f.lib, a, argText(p, a)) {
				if sym := numSymbol(h); sym != "" {
					h = sym // ℂ and Complex alike
				}
				if !slices.Contains(f.scoped[h], ns) {
					f.scoped[h] = append(f.scoped[h], ns)
				}
			}
		}
	}
}

// instanceScope says where an instance attribute of d puts it in force:
// "" everywhere, the namespace NS of a `scoped[NS] attribute [instance]`
// command ("*" for another scoped one, whose namespace is not recorded),
// "-" for a local one (its file only); ok is false when d has none.
func instanceScope(d *library.Decl) (string, bool) {
	scope, ok := "-", false
	for _, a := range d.Attrs {
		ns := ""
		if rest, cut := strings.CutPrefix(a, "scoped["); cut {
			ns, a, _ = strings.Cut(rest, "] ")
		}
		switch {
		case a != "instance" && !strings.HasPrefix(a, "instance "):
			if strings.HasPrefix(a, "scoped instance") {
				scope, ok = "*", true
			} else if strings.HasPrefix(a, "local instance") {
				ok = true
			}
		case ns != "":
			scope, ok = ns, true
		default:
			return "", true
		}
	}
	return scope, ok
}

// classParams returns the names of class d's parameters that are not
// instances, as its signature head writes them.
func classParams(d *library.Decl, head string) []string {
	var params []string
	if i := strings.Index(head, d.Name); i >= 0 {
		if binders, _, ok := leansrc.ParseHeader(freshUniverses.Replace(head[i+len(d.Name):]), nil); ok {
			for _, b := range binders {
				if b.Bracket != '[' {
					params = append(params, b.Names...)
				}
			}
		}
		if params == nil {
			// abbrev FunLike F α β: bare names
			for _, f := range strings.Fields(head[i+len(d.Name):]) {
				if !leansrc.IsIdentifier(f) {
					break
				}
				params = append(params, f)
			}
		}
	}
	return params
}

// addParent adds to parents the parent t (an application of a class) of
// class name, whose parameters are params.
func addParent(name string, params []string, t *leansrc.Term, parents map[classArg][]classArg) {
	h, args := t, []*leansrc.Term(nil)
	if t.Kind == leansrc.TermApp {
		h, args = t.Args[0], t.Args[1:]
	}
	if h.Kind != leansrc.TermIdent {
		return
	}
	pc := lastComponent(h.Text)
	for j, a := range args {
		found := false
		for i, n := range params {
			if a.Kind == leansrc.TermIdent && a.Text == n {
				parents[classArg{name, i}] = append(parents[classArg{name, i}], classArg{pc, j})
				found = true
			}
		}
		if !found {
			for i := 0; i < len(params) || i == 0; i++ {
				parents[classArg{name, i}] = append(parents[classArg{name, i}], classArg{pc, j})
			}
		}
	}
}

// scopedNamespace returns the namespace of instance d when its source
// declares it `scoped` (only `open` of that namespace brings it into
// force), else "".
func scopedNamespace(lib *library.Library, d *library.Decl) string {
	path, ok := lib.DeclPath(d)
	if !ok {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	if d.Range.Start.Line >= len(lines) {
		return ""
	}
	text := strings.TrimSpace(lines[d.Range.Start.Line])
	if strings.HasPrefix(text, "@[") {
		if i := strings.Index(text, "] "); i >= 0 {
			text = strings.TrimSpace(text[i+2:])
		}
	}
	i := strings.LastIndexByte(d.Name, '.')
	if !strings.HasPrefix(text, "scoped ") || i < 0 {
		return ""
	}
	return d.Name[:i]
}

// universeHead returns the name at the head of a type written with
// universe levels, `(ModuleCat.{v} R)` (ModuleCat), else "".
func universeHead(text string) string {
	text = strings.TrimLeft(strings.TrimSpace(text), "(")
	name, _, ok := strings.Cut(text, ".{")
	if !ok || strings.ContainsAny(name, " ()") || name == "" {
		return ""
	}
	return name
}

// headName returns the identifier at the head of t ("" when none).
func headName(t *leansrc.Term) string {
	if t.Kind == leansrc.TermApp {
		t = t.Args[0]
	}
	if t.Kind == leansrc.TermIdent {
		return t.Text
	}
	return ""
}

// classAndFirst cuts an instance's header after its type's class and
// first argument (a name, or a bracketed term); ok is false when it cannot.
func classAndFirst(hdr string) (string, bool) {
	colon := -1
	leansrc.TopLevel(hdr, func(i int, r rune) bool {
		if r == ':' && strings.HasPrefix(hdr[i:], ": ") && (i == 0 || hdr[i-1] == ' ') {
			colon = i
		}
		return true
	})
	if colon < 0 {
		return "", false
	}
	typ := strings.TrimSpace(hdr[colon+1:])
	class, rest, ok := strings.Cut(typ, " ")
	if !ok || !leansrc.IsIdentifier(class) {
		return "", false
	}
	end := strings.IndexByte(rest, ' ')
	if strings.HasPrefix(rest, "(") {
		depth := 0
		end = -1
		for i, r := range rest {
			if r == '(' {
				depth++
			} else if r == ')' {
				if depth--; depth == 0 {
					end = i + 1
					break
				}
			}
		}
	}
	if end <= 0 {
		return "", false
	}
	return hdr[:colon+1] + " " + class + " " + rest[:end], true
}

// openingAtoms returns the atoms a notation may open with in token tok:
// tok itself, each prefix ending at an opening bracket (`→ₛₗ[` of
// `→ₛₗ[σ]`), and a leading bracket with the symbols after it (`[⋀^` of
// `[⋀^ι]→L[R]`).
func openingAtoms(tok string) []string {
	out := []string{tok}
	for i, r := range tok {
		if strings.ContainsRune("[(⁅⟮", r) {
			out = append(out, tok[:i+utf8.RuneLen(r)])
			if i == 0 {
				j := utf8.RuneLen(r)
				for j < len(tok) {
					r2, w := utf8.DecodeRuneInString(tok[j:])
					if unicode.IsLetter(r2) || unicode.IsDigit(r2) || unicode.IsSpace(r2) {
						break
					}
					j += w
				}
				out = append(out, tok[:j])
			}
		}
	}
	return out
}

// argText returns argument a of instance p as written, with the bracket
// glued after a name (`C(` of `C(X, Y)`, which the parser splits).
func argText(p parsedInstance, a *leansrc.Term) string {
	text := p.src[a.Start:a.End]
	if a.Kind == leansrc.TermIdent && a.End < len(p.src) && (p.src[a.End] == '(' || p.src[a.End] == '[') {
		text += p.src[a.End : a.End+1]
	}
	return text
}

// typeHeads returns the last components of the constants type a, as an
// instance writes it (text), may be headed by: its head name, the targets
// of the library's notation it is written in (`M →* N`, `C(X, Y)`, `R[X]`),
// and, for notation the term parser does not read (`A ≃ₐ[R] B`), the
// targets of every token's opening atom (`≃ₐ[`). More heads than the true
// one only make a coercion or an instance more likely.
func typeHeads(lib *library.Library, a *leansrc.Term, text string) []string {
	var out []string
	add := func(full string) {
		if full != "" && !slices.Contains(out, lastComponent(full)) {
			out = append(out, lastComponent(full))
		}
	}
	switch {
	case a.Kind == leansrc.TermInfix:
		for _, t := range lib.NotationTargets(a.Text) {
			add(t)
		}
	case a.Kind == leansrc.TermApp && len(a.Args) > 1 && a.Args[0].Kind == leansrc.TermIdent && a.Args[1].Start == a.Args[0].End:
		// glued: C(X, Y), R[X]
		for _, open := range []string{"(", "["} {
			for _, t := range lib.NotationTargets(a.Args[0].Text + open) {
				add(t)
			}
		}
		if l := a.Args[1]; l.Kind == leansrc.TermList && len(l.Args) == 1 && l.Args[0].Kind == leansrc.TermIdent {
			if t, ok := lib.PostfixNotation("[" + l.Args[0].Text + "]"); ok {
				add(t)
			}
		}
	case a.Kind == leansrc.TermIdent && (strings.HasSuffix(text, "(") || strings.HasSuffix(text, "[")):
		// C(X, Y) X Y parsed as C applied to a pair: the notation's atom
		for _, t := range lib.NotationTargets(text) {
			add(t)
		}
	default:
		add(headName(a))
	}
	if a.Kind != leansrc.TermIdent {
		for _, tok := range strings.Fields(strings.Trim(text, "()")) {
			for _, atom := range openingAtoms(tok) {
				for _, t := range lib.NotationTargets(atom) {
					add(t)
				}
			}
		}
	}
	return out
}

func lastComponent(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// receiverNeed is what receiverNeeds finds: an instance binder every
// provider takes, as written about its receiver recv.
type receiverNeed struct {
	binder, recv string
	ok           bool
}

// receiverNeeds reports whether the library gives class (Fintype) on a
// value that the definition named field builds from a variable whose type's
// head is typeHead (`G.neighborSet v` with G : SimpleGraph V; field "" for
// the variable itself as a type, `↥K` with K : Subgroup G) only through
// instances that take an instance about that variable: at least one
// instance of class is on such a value, and each, like each instance
// deciding membership in it (what the generic Subtype.fintype takes; the
// library's setFintype is a def, no instance), has a binder that mentions
// the variable
// (SimpleGraph.neighborSetFintype's `[DecidableRel G.Adj]`). A variable of
// the statement that no instance binder mentions has no such instance
// unless Classical is open. One such binder is returned, a Decidable one
// first. Where no instance of class is on such a value, only a Set's or a
// SetLike's variable counts: its coercion to a type is the subtype of its
// members, on which Subtype.fintype is the only provider (`(s : Set α)`
// in `s.toFinset`; `(N : Submodule K V)` in `Fintype.card N`).
func (f *instanceFacts) receiverNeeds(class, typeHead, field string) receiverNeed {
	key := class + "\x00" + typeHead + "\x00" + field
	if v, ok := f.receivers.Load(key); ok {
		return v.(receiverNeed)
	}
	var need receiverNeed
	found, all := false, true
	for i := range f.insts {
		p := &f.insts[i]
		if len(p.args) != 1 {
			continue
		}
		var target *leansrc.Term
		switch {
		case p.class == class:
			target = p.args[0]
		case p.class == "DecidablePred" || p.class == "Decidable":
			target = memberSet(p.args[0])
		}
		if target == nil {
			continue
		}
		r, ok := p.receiver(target, typeHead, field)
		if !ok {
			continue
		}
		found = found || p.class == class
		b := slices.IndexFunc(p.binders, func(b string) bool { return wordIn(b, r) })
		if b < 0 {
			all = false
			break
		}
		if need.binder == "" || strings.HasPrefix(p.binders[b], "Decidable") && !strings.HasPrefix(need.binder, "Decidable") {
			need.binder, need.recv = strings.TrimSpace(p.binders[b]), r
		}
	}
	// a Set coerces to the subtype of its members, as a SetLike's does:
	// Lean's generic Subtype.fintype is the provider there
	need.ok = all && (found || field == "" && (typeHead == "Set" || f.setLike[typeHead]))
	f.receivers.Store(key, need)
	return need
}

// memberSet returns s of a membership proposition `a ∈ s` or predicate
// `(· ∈ s)`, else nil.
func memberSet(t *leansrc.Term) *leansrc.Term {
	if t.Kind == leansrc.TermLambda && len(t.Args) == 1 {
		t = t.Args[0]
	}
	if t.Kind == leansrc.TermInfix && t.Text == "∈" && len(t.Args) == 2 {
		return t.Args[1]
	}
	return nil
}

// receiver returns the variable of the instance that t builds with the
// definition named field from (`G` of `G.neighborSet v`, of `neighborSet G
// v`; t itself when field is ""), when that variable's type has head
// typeHead.
func (p *parsedInstance) receiver(t *leansrc.Term, typeHead, field string) (string, bool) {
	for t.Kind == leansrc.TermPrefix && (t.Text == "↥" || t.Text == "↑") && len(t.Args) == 1 {
		t = t.Args[0]
	}
	typed := func(v string) bool {
		typ, ok := p.vars[v]
		head, _, _ := strings.Cut(strings.TrimSpace(typ), " ")
		return ok && lastComponent(head) == typeHead
	}
	if field == "" {
		return t.Text, t.Kind == leansrc.TermIdent && !strings.Contains(t.Text, ".") && typed(t.Text)
	}
	head, args := t, []*leansrc.Term(nil)
	if t.Kind == leansrc.TermApp {
		head, args = t.Args[0], t.Args[1:]
	}
	switch {
	case head.Kind == leansrc.TermIdent && strings.Count(head.Text, ".") == 1:
		if r, fd, _ := strings.Cut(head.Text, "."); fd == field && typed(r) {
			return r, true // G.neighborSet v
		}
	case head.Kind == leansrc.TermProj && head.Text == field && head.Args[0].Kind == leansrc.TermIdent && typed(head.Args[0].Text):
		return head.Args[0].Text, true
	}
	if head.Kind == leansrc.TermIdent && lastComponent(head.Text) == field && len(args) > 0 && args[0].Kind == leansrc.TermIdent && typed(args[0].Text) {
		return args[0].Text, true // SimpleGraph.neighborSet G v
	}
	return "", false
}
