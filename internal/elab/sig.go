package elab

import (
	"slices"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// num is one of Lean's core numeric types or Mathlib's nonnegative reals
// (0: none of them). Coercions go up along ℕ → ℤ → ℚ → ℝ → ℂ, and
// ℕ → ℝ≥0 → ℝ, ℝ≥0 → ℝ≥0∞, ℕ → ℝ≥0∞ (see coerces).
type num uint8

const (
	numNone num = iota
	numNat
	numInt
	numRat
	numReal
	numComplex
	numNNReal
	numENNReal
)

var numNames = [...]string{numNat: "ℕ", numInt: "ℤ", numRat: "ℚ", numReal: "ℝ", numComplex: "ℂ", numNNReal: "ℝ≥0", numENNReal: "ℝ≥0∞"}

// coerces reports whether a value of type from may stand where type to is
// expected: the same type, or a coercion up (Lean core's casts from ℕ, ℤ
// and ℚ; Mathlib's ℝ → ℂ, ℝ≥0 → ℝ and ℝ≥0 → ℝ≥0∞, chained).
func coerces(from, to num) bool {
	switch {
	case from == to || from == numNat:
		return true
	case from == numNNReal:
		return to == numReal || to == numComplex || to == numENNReal
	case from == numENNReal || to == numNNReal || to == numENNReal:
		return false
	}
	return from < to // ℤ → ℚ → ℝ → ℂ
}

// join is the type Lean's binop% elaborator gives arithmetic on a and b:
// the one the other coerces to (numNone when neither does).
func join(a, b num) num {
	switch {
	case coerces(a, b):
		return b
	case coerces(b, a):
		return a
	}
	return numNone
}

// String is the type's usual symbol.
func (n num) String() string {
	if n == numNone {
		return "?"
	}
	return numNames[n]
}

// numOf reads a type written as one of the numeric types' names or symbols.
func numOf(text string) num {
	switch strings.TrimSpace(text) {
	case "ℕ", "Nat":
		return numNat
	case "ℤ", "Int":
		return numInt
	case "ℚ", "Rat":
		return numRat
	case "ℝ", "Real":
		return numReal
	case "ℂ", "Complex":
		return numComplex
	case "ℝ≥0", "NNReal":
		return numNNReal
	case "ℝ≥0∞", "ENNReal":
		return numENNReal
	}
	return numNone
}

// result says what a declaration is once given all its explicit arguments.
type result uint8

const (
	resUnknown result = iota
	resSort           // a type or a proposition (Prop, Type u, a structure)
	resArrow          // a function: its type is written as an arrow or ∀
	resNum            // a value of a core numeric type
)

// sig is what the elaborator knows of a constant's type.
type sig struct {
	// theorem marks a proof: a theorem, whatever its arguments.
	theorem bool
	// known says that params lists the explicit parameters the signature
	// shows; exact that they are all the constant's; own counts those that
	// are certainly the constant's (see Env.SectionVariables).
	known, exact bool
	own          int
	// params are the explicit parameters' types, one per bound name.
	params []string
	// names are the explicit binders' names, by position as in params
	// ("" for a section variable added before them; none for the
	// domains of an arrow after them).
	names []string
	res   result
	num   num
	// resText is the result type as written (for messages).
	resText string
	// kind is the declaration's kind ("def", "structure", …) for messages.
	kind string
	// opt counts the last explicit parameters that have a default or an
	// automatic value (`(μ : Measure Ω := by volume_tac)`): an application
	// may leave them out.
	opt int
	// max, when not negative, is the most explicit arguments the constant
	// takes (its own and every explicit section variable in force) when
	// not exact.
	max int
	// propCons are, per explicit parameter whose type is a type variable
	// of the signature bound implicitly and first determined by that
	// argument, the class arguments the variable's instance binders
	// constrain it with (Even {α} [Add α] (a : α): Add 0).
	propCons [][]classPos
	// resCons are the propCons the result type mentions, which an
	// expected type may fix first (`Finset.Icc (1 : ℝ) n : Finset ℕ`);
	// they hold where the application is elaborated with none (the set of
	// `∑ k ∈ s`, the receiver of a field).
	resCons [][]classPos
	// predCons are, per explicit parameter whose type is a function into
	// such a type variable (f : α → β), the class arguments constraining
	// it: a predicate given there makes it Prop, whatever the expected
	// type (which, fixing it otherwise, leaves Prop ≠ β).
	predCons [][]classPos
	// typeCons are, per explicit parameter that is itself a type ((α :
	// Type*) [Fintype α]), the class arguments constraining it.
	typeCons [][]classPos
	// varCons are the class arguments the signature's instance binders
	// constrain each of its type variables with (orderOf {G} [Monoid G]:
	// G → Monoid 0).
	varCons map[string][]classPos
	// facts are the propositions of the signature's `[Fact P]` binders with
	// the explicit parameters (their positions) each mentions: a stub
	// gives such an instance only through a `Fact` binder of its own.
	facts []fact
	// resParam, when not 0, is the explicit parameter (from 1) whose type
	// the value has, fixed by its argument (core's max a b: α).
	resParam int
	// of is, when the result type is an application of a library structure
	// or inductive type (`Finset ℕ`, `StieltjesFunction`), its full name.
	of string
	// set says that, given its explicit arguments, the constant is a
	// `Set α`: its result type is written so, or its body is a set-builder.
	set bool
	// large says that, given its explicit arguments, the constant is
	// certainly a type that is no proposition (ℕ, Prop, `: Type u`, a
	// structure with a data field written without `: Prop`).
	large bool
	// dataClass says that the constant is a class of data (a data field,
	// its own or a parent's: Group, Field), whose instances are no proofs;
	// a class of proof fields only is a proposition (WellQuasiOrderedLE).
	dataClass bool
	// added says that params begin with section variables the body uses
	// (Env.AddedVariables), as read from the file's `variable` lines.
	added bool
	// vars are the variables of the parameters' types that unification
	// fixes (patternVars); decl is the declaration the signature is read
	// from, which resolves the constants those types name.
	vars map[string]bool
	decl *library.Decl
}

// fact is a signature's `[Fact P]` binder (class "Fact"), or its
// `[DecidablePred p]`, `[DecidableRel r]` or `[Fintype T]`: P as written
// and the positions of the explicit parameters it mentions.
type fact struct {
	class  string
	prop   string
	params []int
	// names are the signature's names of the explicit parameters, by
	// position.
	names []string
}

// classPos is an argument position of a class.
type classPos struct {
	class string
	pos   int
}

// coreSig gives the signatures of Lean core's types that a library built
// from Mathlib's sources does not hold.
func coreSig(full string) (sig, bool) {
	if n := numOf(full); n != numNone {
		return sig{known: true, exact: true, res: resSort, kind: "type", large: true}, true
	}
	switch full {
	case "True", "False":
		return sig{known: true, exact: true, res: resSort, kind: "type"}, true
	case "Prop", "Bool", "String", "Char", "Unit":
		return sig{known: true, exact: true, res: resSort, kind: "type", large: true}, true
	case "Fin":
		return sig{known: true, exact: true, own: 1, params: []string{"ℕ"}, res: resSort, kind: "type", large: true}, true
	case "List", "Option", "Array":
		return sig{known: true, exact: true, own: 1, params: []string{"Type u"}, res: resSort, kind: "type", large: true}, true
	}
	if f, ok := coreFuncs[full]; ok {
		f.known, f.exact, f.own, f.kind = true, true, len(f.params), "def"
		return f, true
	}
	return sig{}, false
}

// coreFuncs are functions of Lean core on numbers that statements use
// often, with their explicit parameters as Lean declares them.
var coreFuncs = map[string]sig{
	"Nat.gcd":     {params: []string{"ℕ", "ℕ"}, res: resNum, num: numNat},
	"Nat.lcm":     {params: []string{"ℕ", "ℕ"}, res: resNum, num: numNat},
	"Nat.Coprime": {params: []string{"ℕ", "ℕ"}, res: resSort, resText: "Prop"},
	"Nat.succ":    {params: []string{"ℕ"}, res: resNum, num: numNat},
	"Nat.pred":    {params: []string{"ℕ"}, res: resNum, num: numNat},
	"Int.natAbs":  {params: []string{"ℤ"}, res: resNum, num: numNat},
	"Int.toNat":   {params: []string{"ℤ"}, res: resNum, num: numNat},
	"Int.gcd":     {params: []string{"ℤ", "ℤ"}, res: resNum, num: numNat},
	"Rat.num":     {params: []string{"ℚ"}, res: resNum, num: numInt},
	"Rat.den":     {params: []string{"ℚ"}, res: resNum, num: numNat},
	"Nat.sqrt":    {params: []string{"ℕ"}, res: resNum, num: numNat},
	"Nat.log2":    {params: []string{"ℕ"}, res: resNum, num: numNat},
	"Nat.add":     {params: []string{"ℕ", "ℕ"}, res: resNum, num: numNat},
	"Nat.sub":     {params: []string{"ℕ", "ℕ"}, res: resNum, num: numNat},
	"Nat.mul":     {params: []string{"ℕ", "ℕ"}, res: resNum, num: numNat},
	"Nat.div":     {params: []string{"ℕ", "ℕ"}, res: resNum, num: numNat},
	"Nat.mod":     {params: []string{"ℕ", "ℕ"}, res: resNum, num: numNat},
	"Int.sign":    {params: []string{"ℤ"}, res: resNum, num: numInt},
	"Int.emod":    {params: []string{"ℤ", "ℤ"}, res: resNum, num: numInt},
	"Int.ediv":    {params: []string{"ℤ", "ℤ"}, res: resNum, num: numInt},
	"Int.fmod":    {params: []string{"ℤ", "ℤ"}, res: resNum, num: numInt},
	"Int.fdiv":    {params: []string{"ℤ", "ℤ"}, res: resNum, num: numInt},
	"Int.tmod":    {params: []string{"ℤ", "ℤ"}, res: resNum, num: numInt},
	"Int.tdiv":    {params: []string{"ℤ", "ℤ"}, res: resNum, num: numInt},
	// List.sum {α} [Add α] [Zero α] : List α → α, and the like
	"List.sum":    {params: []string{"List α"}},
	"List.prod":   {params: []string{"List α"}},
	"List.length": {params: []string{"List α"}, res: resNum, num: numNat},
	// max {α} [Max α] (a b : α) : α; min with Min
	"max": {params: []string{"α", "α"}, propCons: [][]classPos{{{"Max", 0}}, nil}, resParam: 1},
	"min": {params: []string{"α", "α"}, propCons: [][]classPos{{{"Min", 0}}, nil}, resParam: 1},
}

// maxValueDepth bounds how far sigOf follows definitions written without a
// result type through their bodies.
const maxValueDepth = 3

// maxParentDepth bounds how far dataStructure follows parents.
const maxParentDepth = 8

// declHeader returns d's signature after its name and universe
// parameters: its binders and result type as written.
func declHeader(d *library.Decl) (string, bool) {
	head := string(d.Kind) + " " + d.Name
	if d.Kind == library.KindDef && strings.HasPrefix(d.Signature, "irreducible_def "+d.Name) {
		head = "irreducible_def " + d.Name // Mathlib's command: a constant of the type written
	}
	if !strings.HasPrefix(d.Signature, head) {
		return "", false
	}
	hdr := d.Signature[len(head):]
	if strings.HasPrefix(hdr, ".{") {
		// universe parameters
		end := strings.IndexByte(hdr, '}')
		if end < 0 {
			return "", false
		}
		hdr = hdr[end+1:]
	}
	if hdr != "" && hdr[0] != ' ' {
		return "", false
	}
	return hdr, true
}

// sigOf reads a library declaration's signature: its explicit parameters
// and what it is once applied to them. Anything it cannot read leaves known
// false or the result unknown.
func sigOf(d *library.Decl, env *Env, depth int) sig {
	s := sig{kind: string(d.Kind), max: -1}
	switch d.Kind {
	case library.KindTheorem:
		s.theorem = true
		return s
	case library.KindField:
		return classFieldSig(d, env, s)
	case library.KindAlias:
		// alias mul_pos := Left.mul_pos: the target's signature
		if t, ok := env.Lookup(d.Parent); ok && t != d && depth < maxValueDepth {
			return sigOf(t, env, depth+1)
		}
		return s
	case library.KindDef, library.KindAbbrev, library.KindOpaque,
		library.KindStructure, library.KindClass, library.KindInductive, library.KindClassInductive:
	default:
		return s
	}
	hdr, ok := declHeader(d)
	if !ok {
		return s
	}
	typeLike := d.Kind.IsTypeLike()
	if typeLike {
		// structure S (α : Type*) extends P α, Q : Prop
		if i := strings.Index(hdr, " extends "); i >= 0 {
			rest := hdr[i:]
			j, ok := resultColon(rest)
			if !ok {
				return s
			}
			hdr = hdr[:i]
			if j >= 0 {
				hdr += rest[j:]
			}
		}
	}
	binders, typ, ok := leansrc.ParseHeader(hdr, env.Ops())
	if !ok {
		return s
	}
	env.ReplaceNotation(typ)
	var vars []string
	varsKnown := false
	if env.SectionVariables != nil {
		vars, varsKnown = env.SectionVariables(d)
	}
	isVar := map[string]bool{}
	for _, v := range vars {
		isVar[v] = true
	}
	bound, explicit := map[string]bool{}, map[string]bool{}
	for _, b := range binders {
		names, _ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			bound[n] = true
			explicit[n] = explicit[n] || b.Bracket == '('
		}
	}
	typeVars, cons := classConstraints(binders, hdr)
	s.varCons = cons
	s.facts = factBinders(binders, hdr)
	for _, b := range binders {
		if b.Bracket != '(' {
			continue
		}
		names, typ := leansrc.GroupNames(b, hdr)
		untyped := b.Type == nil && !strings.Contains(hdr, ":=") // (p), its type inferred
		unread := b.Type != nil && b.Type.Kind == leansrc.TermUnsupported
		ty, _, optional := strings.Cut(typ, " := ")
		if optional {
			// (μ : Measure Ω := by volume_tac): a default or an automatic
			// argument, which the application may leave out
			ty = strings.TrimSpace(ty)
			if t := env.parse(ty); ty == "" || t.Kind == leansrc.TermUnsupported && !sortText(ty) {
				return s
			}
		} else if s.opt > 0 {
			return s // an argument without a default after one with
		}
		if len(names) == 0 || !optional && (b.Type == nil && !untyped || unread && !sortText(typ)) {
			return s // a binder the parser does not read (but (α : Type*))
		}
		for _, n := range names {
			p := "_"
			switch {
			case optional:
				p = ty
				s.opt++
			case b.Type != nil && !unread:
				p = hdr[b.Type.Start:b.Type.End]
			case unread:
				p = typ
			}
			var pc, fc []classPos
			if t := leansrc.ParseTerm(p, nil); t.Kind == leansrc.TermInfix && (t.Text == "→" || t.Text == "->") &&
				t.Args[1].Kind == leansrc.TermIdent && typeVars[t.Args[1].Text] && !mentions(s.params, t.Args[1].Text) && !mentions([]string{hdr[t.Args[0].Start:t.Args[0].End]}, t.Args[1].Text) {
				// (f : α → β) with [AddCommMonoid β]: this argument's values fix β
				fc = cons[t.Args[1].Text]
				typeVars[t.Args[1].Text] = false
			}
			if typeVars[p] && !mentions(s.params, p) {
				pc = cons[p]
				typeVars[p] = false // determined by this argument first
			}
			var tc []classPos
			if sortParam(p) || untyped {
				// (α) [Fintype α]: a type, or an error where a type is given
				tc = cons[n]
			}
			s.params = append(s.params, env.expandText(p))
			s.names = append(s.names, n)
			s.propCons = append(s.propCons, pc)
			s.predCons = append(s.predCons, fc)
			s.typeCons = append(s.typeCons, tc)
			if varsKnown && !isVar[n] {
				s.own++
			}
		}
	}
	s.known = true
	s.decl = d
	s.exact = varsKnown && len(vars) == 0
	if varsKnown && !s.exact && env.AddedVariables != nil {
		if types, ok := env.AddedVariables(d); ok {
			// Differentiable (f : E → F) under variable (𝕜) its body uses:
			// Differentiable 𝕜 f
			s.params = append(append([]string(nil), types...), s.params...)
			s.names = append(make([]string, len(types)), s.names...)
			for k := range s.facts {
				// the signature's own instances: their positions follow the added
				for j := range s.facts[k].params {
					s.facts[k].params[j] += len(types)
				}
				s.facts[k].names = append(make([]string, len(types)), s.facts[k].names...)
			}
			if env.AddedInstances != nil {
				// legendreSym's p under variable (p : ℕ) [Fact p.Prime];
				// Finset.filter's p under variable (p) [DecidablePred p]
				for _, a := range env.AddedInstances(d) {
					names := make([]string, len(types))
					copy(names, a.Names)
					names[a.Param] = a.Name
					s.facts = append(s.facts, fact{class: a.Class, prop: a.Arg, params: []int{a.Param}, names: names})
				}
			}
			s.propCons = append(make([][]classPos, len(types)), s.propCons...)
			s.predCons = append(make([][]classPos, len(types)), s.predCons...)
			s.typeCons = append(make([][]classPos, len(types)), s.typeCons...)
			s.exact, s.own, s.added = true, len(s.params), true
		}
	}
	if varsKnown && !s.exact && env.AllVariablesRead != nil && env.AllVariablesRead(d) {
		// each variable in force is added at most once; those the
		// signature shows explicit are among its parameters already
		s.max = 0
		for _, v := range vars {
			if !explicit[v] {
				s.max++ // {C} shown, made explicit by `variable (C)`: counted too
			}
		}
	}
	if typeLike && varsKnown && !s.exact && env.FieldVariables != nil {
		// the variables the fields use are parameters, before the
		// signature's own: a lower bound still
		s.own += env.FieldVariables(d)
	}
	switch {
	case typ != nil:
		// f : A → B → C takes A and B explicitly
		for typ.Kind == leansrc.TermInfix && arrow(typ.Text) && typ.Args[0].Kind != leansrc.TermUnsupported {
			p := hdr[typ.Args[0].Start:typ.Args[0].End]
			var pc []classPos
			if typeVars[p] && !mentions(s.params, p) {
				pc = cons[p] // Int.floor : α → ℤ: this argument's type is α
				typeVars[p] = false
			}
			s.params = append(s.params, p)
			s.propCons = append(s.propCons, pc)
			s.predCons = append(s.predCons, nil)
			s.typeCons = append(s.typeCons, nil)
			if varsKnown {
				s.own++
			}
			typ = typ.Args[1]
		}
		s.resText = strings.TrimSpace(hdr[typ.Start:typ.End])
		s.vars = patternVars(binders, hdr, s.params, d, env)
		s.large = s.resText == "Type" || strings.HasPrefix(s.resText, "Type ") || strings.HasPrefix(s.resText, "Type*")
		s.res, s.num = classifyType(typ)
		fixed := resultMentions(binders, hdr, s.resText)
		for i, p := range s.params {
			if i < len(s.propCons) && s.propCons[i] != nil && mentions(fixed, p) {
				// the expected type may fix the variable first (`ofRat x :
				// Cauchy abv` with {abv : β → α}: through abv, β)
				if s.resCons == nil {
					s.resCons = make([][]classPos, len(s.propCons))
				}
				s.propCons[i], s.resCons[i] = nil, s.propCons[i]
			}
		}
		if s.res == resUnknown {
			s.of = valueTypeHead(d, typ, bound, env)
			s.set = setType(d, typ, env)
		}
	case typeLike:
		s.vars = patternVars(binders, hdr, s.params, d, env)
		s.res = resSort
		s.large = d.Kind == library.KindStructure && dataStructure(d, env, depth)
		s.dataClass = d.Kind == library.KindClass && dataStructure(d, env, depth)
	case depth < maxValueDepth && d.Value != "":
		s.vars = patternVars(binders, hdr, s.params, d, env)
		if env.parse(d.Value).Kind == leansrc.TermSetBuilder {
			s.set = true // def Icc (a b : α) := { x | a ≤ x ∧ x ≤ b }
			break
		}
		var prop bool
		var body *leansrc.Term
		var inner sig
		s.res, s.num, prop, body, inner = valueResult(d, env, depth)
		if prop {
			s.resText = "Prop"
		}
		if s.res == resUnknown && body != nil {
			// deriv f x := fderiv 𝕜 f x 1: fderiv's value is its F, which
			// deriv's f fixes to deriv's F
			s.resText = bodyVariable(inner, body, binders, hdr, s.vars, env)
			// orbit a := Set.range fun m => m • a: a Set
			s.set = inner.set
		}
	}
	if s.max >= 0 {
		s.max += len(s.params) // the arrows' parameters included
	}
	return s
}

// classFieldSig reads the signature of a class's field written as a
// chain of arrows (`field Dist.dist : α → α → ℝ` of `class Dist (α :
// Type*)`): the class's parameters are implicit variables of the field
// (`Dist.dist {α} [Dist α] (x y : α) : ℝ`), the arrows' domains its
// explicit parameters. A class whose file has section variables in force,
// a parameter the field's type does not mention (explicit then, as
// RankOne.hom's `v`), or a field of any other type (a bundled map's arrow
// among them) leaves it unknown.
func classFieldSig(d *library.Decl, env *Env, s sig) sig {
	class, ok := env.Lookup(d.Parent)
	typ, found := strings.CutPrefix(d.Signature, "field "+d.Name+" : ")
	if !ok || !found || class.Kind != library.KindClass || env.SectionVariables == nil {
		return s
	}
	if vars, known := env.SectionVariables(class); !known || len(vars) > 0 {
		return s
	}
	hdr, _, _ := strings.Cut(strings.TrimPrefix(class.Signature, "class "+class.Name), " extends ")
	hdr, _, _ = strings.Cut(hdr, " where")
	binders, _, ok := leansrc.ParseHeader(hdr, env.Ops())
	if !ok {
		return s
	}
	vars := map[string]bool{}
	for _, b := range binders {
		names, _ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			vars[n] = b.Bracket != '['
		}
	}
	typ, _, _ = strings.Cut(typ, " := ")
	for n, v := range vars {
		if v && !mentions([]string{typ}, n) {
			return s // a parameter the field's type does not fix is explicit in the projection
		}
	}
	t := env.parse(typ)
	for t.Kind == leansrc.TermInfix && (t.Text == "→" || t.Text == "->") && t.Args[0].Kind != leansrc.TermUnsupported {
		s.params = append(s.params, typ[t.Args[0].Start:t.Args[0].End])
		t = t.Args[1]
	}
	if t.Kind == leansrc.TermUnsupported || t.Kind == leansrc.TermForall {
		return s
	}
	if len(s.params) == 0 {
		// MeasureSpace.volume : Measure α, a value of a structure
		bound := map[string]bool{}
		for n := range vars {
			bound[n] = true
		}
		if s.of = valueTypeHead(d, t, bound, env); s.of == "" {
			return s
		}
	}
	s.propCons = make([][]classPos, len(s.params))
	s.predCons = make([][]classPos, len(s.params))
	s.typeCons = make([][]classPos, len(s.params))
	// the class's parameters need the class (volume {α} [MeasureSpace α])
	// and what its instance binders ask of them
	_, s.varCons = classConstraints(binders, hdr)
	_, last := leansrc.SplitLast(class.Name)
	i := 0
	for _, b := range binders {
		names, _ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			if b.Bracket != '[' {
				s.varCons[n] = append(s.varCons[n], classPos{last, i})
				i++
			}
		}
	}
	s.known, s.exact, s.own, s.kind, s.decl, s.vars = true, true, len(s.params), "def", d, vars
	s.resText = strings.TrimSpace(typ[t.Start:t.End])
	s.res, s.num = classifyType(t)
	return s
}

// sortText reports whether a type as written is a sort the term parser
// does not read (Type*, Sort _).
func sortText(t string) bool {
	switch strings.TrimSpace(t) {
	case "Type*", "Sort*", "Type _", "Sort _":
		return true
	}
	return false
}

// typeUniverse reports whether a binder's type, as written, is a universe
// of types (`Type*`, `Type _`, `Type`, `Type u`): what it binds is a type,
// never a proposition.
func typeUniverse(t string) bool {
	f := strings.Fields(t)
	return len(f) == 1 && (f[0] == "Type" || f[0] == "Type*") || len(f) == 2 && f[0] == "Type" && leansrc.IsIdentifier(f[1]) && !strings.Contains(f[1], ".")
}

// dataStructure reports whether structure or class d, written without a
// result sort, certainly lives in a universe of types: a field is data (a
// function into one of its parameters bound as a type, or into a core
// number), or a parent's subobject field is such a structure. Lean infers
// the universe from the fields' sorts, and a data field's is never Prop.
func dataStructure(d *library.Decl, env *Env, depth int) bool {
	if env.Fields == nil || depth >= maxParentDepth {
		return false
	}
	head := string(d.Kind) + " " + d.Name
	if !strings.HasPrefix(d.Signature, head) {
		return false
	}
	hdr := d.Signature[len(head):]
	if i := strings.Index(hdr, " extends "); i >= 0 {
		if j, ok := resultColon(hdr[i:]); !ok || j >= 0 {
			return false // a result sort written after the parents
		}
		for _, parent := range splitTopLevel(hdr[i+len(" extends "):]) {
			// M ≃ N, a parent written in the library's infix notation,
			// whose field the index names by its first word
			if target, ok := infixParent(env.parse(strings.TrimSpace(parent)), env); ok {
				if p, ok := lookupFrom(d, target, env.Lookup); ok && p != d && (p.Kind == library.KindStructure || p.Kind == library.KindClass) && dataStructure(p, env, depth+1) {
					return true
				}
			}
		}
		hdr = hdr[:i]
	}
	binders, typ, ok := leansrc.ParseHeader(hdr, nil)
	if !ok || typ != nil {
		return false
	}
	types := map[string]bool{}
	for _, b := range binders {
		names, t := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			// a function between Sort* parameters is data too: Lean puts
			// such a structure in Sort (max 1 u v), never in Prop
			types[n] = sortParam(t) || strings.HasPrefix(t, "Sort ")
		}
	}
	for _, ft := range env.Fields(d) {
		t := leansrc.ParseTerm(ft, env.Ops())
		if t.Kind == leansrc.TermInfix && (t.Text == "→" || t.Text == "->") {
			for t.Kind == leansrc.TermInfix && (t.Text == "→" || t.Text == "->") {
				t = t.Args[1]
			}
			if t.Kind == leansrc.TermIdent && (types[t.Text] || numOf(t.Text) != numNone) {
				return true
			}
			continue
		}
		// toZeroHom : ZeroHom, a parent; repr : M ≃ₗ[R] ι →₀ R, a field
		// whose type is a structure of data written in its notation
		name := ""
		switch {
		case t.Kind == leansrc.TermIdent && !types[t.Text]:
			name = t.Text
		case t.Kind == leansrc.TermApp && t.Args[0].Kind == leansrc.TermIdent && !types[t.Args[0].Text]:
			name = t.Args[0].Text
		default:
			name, _ = infixParent(t, env)
		}
		if name != "" {
			if p, ok := lookupFrom(d, name, env.Lookup); ok && p != d && (p.Kind == library.KindStructure || p.Kind == library.KindClass) && dataStructure(p, env, depth+1) {
				return true
			}
		}
	}
	return false
}

// factBinders returns the `[Fact P]` binders of a signature whose P
// mentions one of its explicit parameters, with their positions, and its
// `[DecidablePred p]`, `[DecidableRel r]` and `[Fintype T]` binders so.
func factBinders(binders []leansrc.Binder, hdr string) []fact {
	var explicit []string
	var out []fact
	for _, b := range binders {
		if b.Bracket == '(' {
			names, _ := leansrc.GroupNames(b, hdr)
			explicit = append(explicit, names...)
			continue
		}
		if b.Bracket != '[' || b.Type == nil {
			continue
		}
		class, prop, ok := strings.Cut(strings.TrimSpace(hdr[b.Type.Start:b.Type.End]), " ")
		if !ok || class != "Fact" && class != "DecidablePred" && class != "DecidableRel" && class != "Fintype" {
			continue
		}
		f := fact{class: class, prop: strings.TrimSpace(prop), names: explicit}
		lex, err := leansrc.Lex(f.prop)
		if err != nil {
			continue
		}
		for i, n := range explicit {
			if slices.ContainsFunc(lex, func(l leansrc.Lexeme) bool { return rootedAt(l, n) }) {
				f.params = append(f.params, i) // p in p.Prime too
			}
		}
		if len(f.params) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// renameRoot returns text with the identifier from, and every dotted name
// rooted at it, renamed to to (p.Prime → q.Prime).
func renameRoot(text, from, to string) string {
	lex, err := leansrc.Lex(text)
	if err != nil {
		return text
	}
	var b strings.Builder
	at := 0
	for _, l := range lex {
		if rootedAt(l, from) {
			b.WriteString(text[at:l.Start])
			b.WriteString(to + l.Text[len(from):])
			at = l.End
		}
	}
	b.WriteString(text[at:])
	return b.String()
}

// rootedAt reports whether lexeme l is the identifier name or a dotted
// name rooted at it (p, p.Prime).
func rootedAt(l leansrc.Lexeme, name string) bool {
	root, _, _ := strings.Cut(l.Text, ".")
	return l.Kind == leansrc.LexIdent && root == name
}

// infixParent returns the constant that t, a type written in the library's
// infix notation (a parent `M ≃ N` of a structure), applies (Equiv).
func infixParent(t *leansrc.Term, env *Env) (string, bool) {
	switch {
	case t.Kind != leansrc.TermInfix || t.Text == "→" || t.Text == "->":
		return "", false
	case len(t.Args) == 3:
		// M ≃ₗ[R] N, an arrow with its ring in brackets
		if env.BracketArrow == nil {
			return "", false
		}
		return env.BracketArrow(t.Text)
	case env.Infix == nil:
		return "", false
	}
	return env.Infix(t.Text)
}

// resultColon returns the offset of the ` : ` that starts the result type
// in a structure's extends clause (-1 when none), outside brackets (the
// parents' arguments may hold `(fun x : α => x * y)`); ok is false when
// the clause has an arrow outside brackets or unbalanced brackets.
func resultColon(rest string) (int, bool) {
	at := -1
	ok := leansrc.TopLevel(rest, func(i int, r rune) bool {
		if r == ':' && i > 0 && rest[i-1] == ' ' && strings.HasPrefix(rest[i:], ": ") {
			at = i - 1
		}
		// an arrow, not the first letter of a notation (M →ₙ* N)
		return r != '→' || i+len("→") < len(rest) && rest[i+len("→")] != ' '
	})
	return at, ok
}

// valueTypeHead returns the full name of the library structure or
// inductive type at the head of d's result type t (Finset for `Finset ℕ`),
// looked up as Lean would from d's namespaces outward; "" when the head is
// a variable of the signature, no such type or not found.
func valueTypeHead(d *library.Decl, t *leansrc.Term, bound map[string]bool, env *Env) string {
	h := t
	if t.Kind == leansrc.TermApp {
		h = t.Args[0]
	}
	if h.Kind != leansrc.TermIdent || bound[h.Text] || strings.HasPrefix(h.Text, "@") {
		return ""
	}
	found, ok := lookupFrom(d, h.Text, env.Lookup)
	if !ok {
		if h.Text == "List" {
			return "List" // Lean core's inductive type (Nat.digits)
		}
		return ""
	}
	switch found.Kind {
	case library.KindStructure, library.KindInductive, library.KindClass, library.KindClassInductive:
		return found.Name
	case library.KindDef:
		if quotientType(found.Value) {
			return found.Name // Multiset α := Quotient (isSetoid α)
		}
	}
	return ""
}

// setType reports whether type t, written in d's signature, is `Set α`,
// Set being the library's definition of that name at its root.
func setType(d *library.Decl, t *leansrc.Term, env *Env) bool {
	if t.Kind != leansrc.TermApp || len(t.Args) != 2 || t.Args[0].Kind != leansrc.TermIdent || t.Args[0].Text != "Set" {
		return false
	}
	found, ok := lookupFrom(d, "Set", env.Lookup)
	return ok && found.Name == "Set" && found.Kind == library.KindDef
}

// lookupFrom looks name up as the body of d would: under d's namespaces,
// the most specific first, then at the root.
func lookupFrom(d *library.Decl, name string, lookup func(string) (*library.Decl, bool)) (*library.Decl, bool) {
	ns := d.Name
	for {
		i := strings.LastIndexByte(ns, '.')
		if i < 0 {
			break
		}
		ns = ns[:i]
		if x, ok := lookup(ns + "." + name); ok {
			return x, true
		}
	}
	return lookup(name)
}

// valueDep finds the constant name stands for in d's value among the
// names the indexer resolved there with the file's opens (ProofDeps: the
// `Tendsto` of ContinuousAt's value is Filter.Tendsto under `open
// Filter`), when exactly one of them ends so.
func valueDep(d *library.Decl, name string, lookup func(string) (*library.Decl, bool)) (*library.Decl, bool) {
	var found *library.Decl
	for _, dep := range d.ProofDeps {
		if dep != name && !strings.HasSuffix(dep, "."+name) {
			continue
		}
		x, ok := lookup(dep)
		if !ok || found != nil && found != x {
			return nil, false
		}
		found = x
	}
	return found, found != nil
}

// classConstraints reads a signature's binders: the type variables bound
// implicitly ({α : Type*}, {α}) and, per name, the class arguments its
// instance binders constrain it with ([Add α]: Add 0).
func classConstraints(binders []leansrc.Binder, hdr string) (map[string]bool, map[string][]classPos) {
	vars := map[string]bool{}
	cons := map[string][]classPos{}
	for _, b := range binders {
		if b.Bracket == '[' {
			if b.Type == nil {
				continue
			}
			head, args := b.Type, []*leansrc.Term(nil)
			if b.Type.Kind == leansrc.TermApp {
				head, args = b.Type.Args[0], b.Type.Args[1:]
			}
			if head.Kind != leansrc.TermIdent {
				continue
			}
			class := head.Text
			if i := strings.LastIndexByte(class, '.'); i >= 0 {
				class = class[i+1:]
			}
			for i, a := range args {
				if a.Kind == leansrc.TermIdent {
					cons[a.Text] = append(cons[a.Text], classPos{class, i})
				}
			}
			continue
		}
		names, typ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			// a later binder of the same name shadows an earlier one, and
			// the instances about the earlier one are not about it
			// (`variable {R} [Semiring R]` then `variable {R} [AddCommMonoid R]`)
			if _, again := vars[n]; again {
				delete(cons, n)
			}
			vars[n] = (b.Bracket == '{' || b.Bracket == '⦃') && (typ == "" || strings.HasPrefix(typ, "Type") || strings.HasPrefix(typ, "Sort"))
		}
	}
	return vars, cons
}

// resultMentions returns the result type res and the types of the
// implicit binders it mentions, and of those they mention: the texts an
// expected type fixes the variables of by unifying with res.
func resultMentions(binders []leansrc.Binder, hdr, res string) []string {
	out := []string{res}
	seen := map[int]bool{}
	for grew := true; grew; {
		grew = false
		for i, b := range binders {
			if seen[i] || b.Bracket == '(' || b.Bracket == '[' {
				continue
			}
			names, typ := leansrc.GroupNames(b, hdr)
			if typ != "" && slices.ContainsFunc(names, func(n string) bool { return mentions(out, n) }) {
				seen[i], grew = true, true
				out = append(out, typ)
			}
		}
	}
	return out
}

// mentions reports whether any of texts has name as a word.
func mentions(texts []string, name string) bool {
	for _, t := range texts {
		lex, err := leansrc.Lex(t)
		if err != nil {
			return true
		}
		for _, l := range lex {
			if l.Text == name {
				return true
			}
		}
	}
	return false
}

// classifyType says what a value of type t is: a type (t is a sort), a
// function (t is an arrow or a ∀), a number, or unknown.
func classifyType(t *leansrc.Term) (result, num) {
	switch t.Kind {
	case leansrc.TermIdent:
		switch t.Text {
		case "Prop", "Type", "Sort", "Type*", "Sort*":
			return resSort, numNone
		}
		if n := numOf(t.Text); n != numNone {
			return resNum, n
		}
	case leansrc.TermApp:
		if h := t.Args[0]; h.Kind == leansrc.TermIdent && (h.Text == "Type" || h.Text == "Sort") {
			return resSort, numNone
		}
	case leansrc.TermInfix:
		if arrow(t.Text) {
			return resArrow, numNone
		}
	case leansrc.TermForall:
		return resArrow, numNone
	case leansrc.TermUnsupported:
		if sortText(t.Text) {
			return resSort, numNone
		}
	}
	return resUnknown, numNone
}

// valueResult reads what a definition written without a result type is
// from its body: a subtype `{ x // p }` is a type; an application of a
// constant given all its explicit arguments is what that constant is;
// prop says the body is certainly a proposition (a relation, ∃, ¬, a
// constant whose result type is Prop). For such an application it returns
// the body and the constant's signature too.
func valueResult(d *library.Decl, env *Env, depth int) (res result, n num, prop bool, body *leansrc.Term, inner sig) {
	lookup := env.Lookup
	v := d.Value
	if i := strings.Index(v, "\n  deriving"); i >= 0 {
		v = v[:i]
	}
	if subtypeValue(v) {
		return resSort, numNone, false, nil, sig{}
	}
	if i := strings.Index(v, " deriving"); i >= 0 {
		v = v[:i]
	}
	v = strings.TrimSpace(v)
	t := env.parse(v)
	switch t.Kind {
	case leansrc.TermForall:
		return resSort, numNone, false, nil, sig{} // ∀ n, Fin n is a type
	case leansrc.TermExists, leansrc.TermExistsUnique:
		return resSort, numNone, true, nil, sig{}
	case leansrc.TermPrefix:
		if t.Text == "¬" {
			return resSort, numNone, true, nil, sig{}
		}
	case leansrc.TermInfix:
		switch t.Text {
		case "=", "≠", "<", "≤", ">", "≥", "∣", "∈", "∉", "⊆", "⊂", "∧", "∨", "↔":
			if glued(v, t) {
				// WithTop ℝ≥0 is no relation
				return resUnknown, numNone, false, nil, sig{}
			}
			return resSort, numNone, true, nil, sig{}
		}
	}
	head, args := t, 0
	if t.Kind == leansrc.TermApp {
		head, args = t.Args[0], len(t.Args)-1
	}
	if head.Kind != leansrc.TermIdent || strings.HasPrefix(head.Text, "@") {
		return resUnknown, numNone, false, nil, sig{}
	}
	// the body's scope is its file's, which the library does not keep:
	// the name as written and under the declaration's namespaces, the most
	// specific first, as Lean tries them
	found, ok := lookupFrom(d, head.Text, lookup)
	if !ok {
		found, ok = valueDep(d, head.Text, lookup)
	}
	if !ok {
		if cs, ok := coreSig(head.Text); ok && args == 0 {
			return cs.res, numNone, cs.resText == "Prop", nil, sig{}
		}
		return resUnknown, numNone, false, nil, sig{}
	}
	if found == d {
		return resUnknown, numNone, false, nil, sig{}
	}
	s := sigOf(found, env, depth+1)
	if !s.known || !s.exact || s.theorem || len(s.params) != args {
		return resUnknown, numNone, false, nil, sig{}
	}
	return s.res, s.num, s.resText == "Prop", t, s
}

// bodyVariable returns the variable of a definition's own signature (its
// binders, read from hdr; vars) that its value has when its body applies
// a constant (signature inner, body) whose result type is a variable of
// inner fixed by an argument: the argument is one of the definition's
// explicit binders, and its type, matched against the parameter's, holds
// the definition's variable where the parameter's holds inner's (deriv f
// x := fderiv 𝕜 f x 1, fderiv's `(f : E → F)` given deriv's `(f : 𝕜 →
// F)`: F). "" otherwise.
func bodyVariable(inner sig, body *leansrc.Term, binders []leansrc.Binder, hdr string, vars map[string]bool, env *Env) string {
	v := strings.TrimSpace(inner.resText)
	if !inner.vars[v] || body.Kind != leansrc.TermApp {
		return ""
	}
	types := map[string]*leansrc.Term{}
	for _, b := range binders {
		if b.Bracket != '(' || b.Type == nil {
			continue
		}
		names, _ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			types[n] = b.Type
		}
	}
	found := ""
	for i, a := range body.Args[1:] {
		t, ok := types[a.Text]
		if i >= len(inner.params) || a.Kind != leansrc.TermIdent || !ok {
			continue
		}
		if m := matchVariable(env.parse(inner.params[i]), t, v); m != "" {
			if found != "" && found != m {
				return ""
			}
			found = m
		}
	}
	if !vars[found] {
		return ""
	}
	return found
}

// matchVariable walks type p (a parameter's) and type a (an argument's)
// side by side and returns the identifier a has where p has variable v,
// "" when their shapes differ there or v is not met.
func matchVariable(p, a *leansrc.Term, v string) string {
	if p == nil || a == nil {
		return ""
	}
	if p.Kind == leansrc.TermIdent && p.Text == v {
		if a.Kind == leansrc.TermIdent {
			return a.Text
		}
		return ""
	}
	if p.Kind != a.Kind || p.Text != a.Text && p.Kind != leansrc.TermApp || len(p.Args) != len(a.Args) {
		return ""
	}
	for i := range p.Args {
		if m := matchVariable(p.Args[i], a.Args[i], v); m != "" {
			return m
		}
	}
	return ""
}

// Receiver returns the variable a type written as text is built from and
// the definition that builds it: G and "neighborSet" for `G.neighborSet v`,
// s and "" for `↥s` (a variable coerced to a type).
func Receiver(text string) (root, field string, ok bool) {
	t := leansrc.ParseTerm(strings.TrimSpace(text), nil)
	for t.Kind == leansrc.TermPrefix && (t.Text == "↥" || t.Text == "↑") && len(t.Args) == 1 {
		t = t.Args[0]
	}
	if t.Kind == leansrc.TermApp {
		t = t.Args[0]
		if strings.Count(t.Text, ".") != 1 {
			return "", "", false
		}
	}
	if t.Kind != leansrc.TermIdent || strings.Count(t.Text, ".") > 1 {
		return "", "", false
	}
	root, field, _ = strings.Cut(t.Text, ".")
	return root, field, true
}
