// Package elab is a light elaborator: without Lean, it checks the
// applications of a theorem stub against the signatures the library holds
// (arity; a type, a function or a proof standing where another kind is
// expected; Lean's numeric coercions, which go ℕ → ℤ → ℚ → ℝ → ℂ and never
// down; names a binder type uses before they are bound). It is sound in one
// direction: it reports only what Lean certainly rejects, and is silent on
// everything it cannot decide (type classes, coercions, universes, implicit
// arguments it cannot count, notation it cannot parse, dot notation).
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

// Env is what the elaborator knows of a stub's scope.
type Env struct {
	// Resolve returns the full names an identifier may denote in the
	// stub's scope among those that exist (in the library, Lean core or the
	// file header); more than one means Lean would have to choose, and the
	// elaborator stays silent.
	Resolve func(name string) []string
	// Lookup returns the library's declaration of a full name; a name the
	// file header declares must not be found (its signature is not known).
	Lookup func(full string) (*library.Decl, bool)
	// SectionVariables returns the names of the explicit section variables
	// that may stand in d's signature or be added to it (those declared
	// explicit in a section still open at d); ok is false when that is not
	// known. Lean adds to a definition the section variables its body or a
	// structure's fields use, which a signature read from source lacks, and
	// a later `variable {x}` makes a listed explicit one implicit: a
	// signature with none lists its explicit parameters exactly; otherwise
	// those not named after one are a lower bound (enough to say a constant
	// is under-applied); without this function nothing is counted.
	SectionVariables func(d *library.Decl) (explicit []string, ok bool)
	// AddedVariables returns, when certain, the types of the explicit
	// section variables Lean adds to d (of those SectionVariables returns,
	// the ones d's signature does not list where Lean has them), in the
	// order Lean adds them (before d's own parameters): each is certainly
	// used by d's text; ok is false otherwise.
	AddedVariables func(d *library.Decl) (types []string, ok bool)
	// AddedInstances returns the `[Fact P]`, `[DecidablePred p]` and
	// `[DecidableRel r]` section variables in force at d that constrain one
	// of the variables AddedVariables gives (legendreSym's `[Fact
	// p.Prime]`, Finset.filter's `[DecidablePred p]`); nil: none known.
	AddedInstances func(d *library.Decl) []AddedInstance
	// SectionBinders returns every binder group of the `variable`
	// commands in force at d, any of which Lean may add to d; ok is false
	// when they are not all read.
	SectionBinders func(d *library.Decl) (groups []SectionBinder, ok bool)
	// Fields returns the types, as written, of structure d's fields (a
	// parent's subobject field included); nil: none known.
	Fields func(d *library.Decl) []string
	// FieldVariables returns how many of the explicit section variables at
	// a structure or class d are certainly its explicit parameters: those
	// its fields use (Lean adds them; `class DivisibleBy where div : A → α
	// → A` under `variable (A α : Type*)` takes A and α), declared
	// explicit and never made implicit before d. Nil: none.
	FieldVariables func(d *library.Decl) int
	// AllVariablesRead reports whether every `variable` command in force
	// at d was read, so that the explicit section variables
	// SectionVariables returns are all there are: a signature then takes at
	// most its explicit parameters and those variables; nil: unknown.
	AllVariablesRead func(d *library.Decl) bool
	// CoercesToFunction reports whether a value of the number type n (ℝ or
	// ℂ) may be coerced to a function in the stub's scope: a coercion
	// instance from n, or from a type variable ℝ may fill, to a function
	// type or a type variable a function type may fill (`open algebraMap`
	// brings one); nil: it may.
	CoercesToFunction func(n string) bool
	// PropInstance reports whether Prop may fill argument pos of class
	// (`Mul Prop`): the library has an instance on Prop, or on a type
	// variable whose constraints Prop may meet, or of a class extending
	// it, or the library has no instance of the class at all; nil: it may.
	PropInstance func(class string, pos int) bool
	// CoercesTo reports whether a value of the number type n (ℝ or ℂ), or
	// a Set (n is "Set"), may be coerced to a value of a type whose head is
	// the constant full (a coercion instance, or a chain of them, may reach
	// it); nil: it may.
	CoercesTo func(n, full string) bool
	// NumberTo reports whether a number of type n (ℕ … ℂ; a numeral's
	// digits, or "" for a numeral written otherwise) may be elaborated at,
	// cast or coerced to a type whose head is the constant full (a
	// structure, an inductive type, a subtype), as an argument is; nil:
	// it may.
	NumberTo func(full, n string) bool
	// NumberBeside reports whether a value of a type whose head is the
	// constant full (a structure or an inductive type) and a number of
	// type n (ℕ … ℂ; a numeral's digits, or "" for a numeral written
	// otherwise) may stand side by side in
	// arithmetic or a comparison, which Lean's binop% and binrel%
	// elaborate at one type: a cast, a coercion or a numeral instance may
	// take the number to that type, or a coercion the value to a number;
	// nil: they may.
	NumberBeside func(full, n string) bool
	// FunctionType returns what a value of a type whose head is the
	// constant full is as a function, by its FunLike instances: its
	// domain's head and its codomain, as the library writes them (a
	// measure: Set, ENNReal); "" when not known. nil: never known.
	FunctionType func(full string) (dom, cod string)
	// SetLike reports whether the library gives the type whose head is the
	// constant full a SetLike instance (a subobject: Submodule, Subgroup),
	// to which no element coerces; nil: never.
	SetLike func(full string) bool
	// VariableHas reports whether a type variable whose local instances are
	// of classes (`C`: the variable their only argument; `C@i`: at position
	// i beside others) may have an instance of class, through the classes'
	// parents and the library's instances; nil: it may.
	VariableHas func(classes []string, class string) bool
	// UniverseHas reports whether a universe (`Type u`) may have an
	// instance of class as its first argument (`Monoid (Type u)`, which a
	// type given for a value of a constrained type variable needs): the
	// library's instances on a universe or on a variable it may fill, and
	// the classes' parents; nil: it may.
	UniverseHas func(class string) bool
	// TypeHas reports whether a type whose head is the constant full may
	// fill argument pos (from 0) of class: an instance of the library on
	// such a type or on a variable it may fill, or a class the library
	// has no instance of; nil: it may.
	TypeHas func(full, class string, pos int) bool
	// NeedsFact reports whether the library gives a type whose head is the
	// constant full, applied to a variable, an instance of class (at pos)
	// only through instances that take a `[Fact P]` or a `[NeZero n]`
	// (ZMod's Field and IsDomain, its Fintype); nil: never.
	NeedsFact func(full, class string, pos int) bool
	// ReceiverInstance reports whether the library gives class on a type
	// that the definition named field builds from a variable whose type's
	// head is typeHead (`G.neighborSet v` with G : SimpleGraph V; field ""
	// for the variable coerced to a type, `↥s`) only through instances
	// that take an instance about that variable, returning one such binder
	// as written about its variable recv (`DecidableRel G.Adj`; "" when
	// Lean's generic Subtype.fintype is the only provider); nil: never.
	ReceiverInstance func(class, typeHead, field string) (binder, recv string, ok bool)
	// NumberHas reports whether the number type n (its symbol, ℂ) may have
	// an instance of class in the stub's scope: the library's instances on
	// it or on a variable it may fill, the classes' parents, and the
	// instances the header's opens bring; nil: it may.
	NumberHas func(n, class string) bool
	// CoercesToSort reports whether a value of a type whose head is the
	// constant full may be coerced to a sort (a CoeSort instance on it, or
	// a generic one whose constraints it may meet); nil: it may.
	CoercesToSort func(full string) bool
	// FunctionFrom reports whether a value of a type whose head is the
	// constant full may be coerced to a function (a CoeFun instance on it,
	// or a generic one whose constraints it may meet); nil: it may.
	FunctionFrom func(full string) bool
	// SortToProp reports whether a value of a type whose head is the
	// constant full may be coerced to a proposition (a CoeSort instance on
	// it whose target is Prop or any sort); nil: it may.
	SortToProp func(full string) bool
	// Token returns the constant a notation token of the library that
	// spans several scanner tokens stands for (Mathlib's `ℝ≥0∞`, ENNReal);
	// nil: none is read.
	Token func(tok string) (string, bool)
	// OneAtom reports whether the library declares tok as the only atom of
	// a notation that is not a token standing for a constant (Mathlib's
	// infix `→+*`); nil: none.
	OneAtom func(tok string) bool
	// Infix returns the constant an infix notation of the library applies
	// to its two operands (`→+`, AddMonoidHom); nil: none is read.
	Infix func(atom string) (string, bool)
	// InfixOperator returns the constant, fixity and precedence of an
	// infix command of the library in force in the stub's scope (`''`,
	// Set.image, infixl 80); nil: none is read.
	InfixOperator func(atom string) (string, leansrc.Operator, bool)
	// BracketArrow returns the constant an arrow of the library written
	// with a ring in brackets stands for (`→ₗ` of `M →ₗ[R] N`, LinearMap);
	// nil: none is read.
	BracketArrow func(atom string) (string, bool)
	// Postfix returns the constant a postfix notation of the library
	// applies to the operand glued before atom (`[X]` for `R[X]`,
	// Polynomial R); nil: none is read.
	Postfix func(atom string) (string, bool)
	// PostfixInForce reports whether the header puts the library's postfix
	// notation atom in force for the stub's text, with no other notation
	// in force that may read the same text; nil: always.
	PostfixInForce func(atom string) bool
	// Inactive returns, when every notation of the library spelled atom is
	// scoped to a namespace the header does not open (Mathlib's `n !`
	// without `open Nat`), their targets and namespaces; nil: none is.
	Inactive func(atom string) (targets, namespaces []string)
	// Classical says the header opens Classical, whose instance decides
	// every proposition (DecidableEq of any type).
	Classical bool
	// Opens says the header opens a namespace or puts the stub inside
	// one: a name may then read as a constant of that namespace in
	// another version of the library.
	Opens bool
	// Variables are the names the header's `variable` commands bind.
	Variables map[string]bool
	// AutoImplicit says the stub is elaborated with autoImplicit on, so an
	// unbound name in a binder type becomes a variable rather than an error.
	AutoImplicit bool
	// OnlyNamespace reports whether name, which Resolve finds nothing for,
	// is certainly no declaration but only a namespace of the library
	// (Mathlib's `Positive`), which Lean reports as an unknown identifier
	// when it stands as a term; nil: never.
	OnlyNamespace func(name string) bool
	// CoreNamespace reports whether ns is a namespace of Lean core (Nat,
	// List), whose declarations a library built from source lacks; nil:
	// none is known.
	CoreNamespace func(ns string) bool
	// Lean3Namespace returns the library's Lean 4 spelling of root (`Nat`
	// for `nat`, `MeasureTheory` for `measure_theory`) when root itself
	// names nothing in scope, neither a constant nor a namespace; nil:
	// never.
	Lean3Namespace func(root string) (string, bool)
	// Notation says the header declares notation, macros or syntax, which
	// may give a letter a meaning: a name bound nowhere is then not
	// reported.
	Notation bool
	// NotationSymbol reports whether the library declares a notation
	// spelled name that is not local to its file (scoped or global: `I`
	// after `open unitInterval`), which a name bound nowhere may be; nil:
	// none.
	NotationSymbol func(name string) bool
	// NotationWord reports whether a notation of the library may be
	// spelled with word (`on` of `f on g`); nil: any may.
	NotationWord func(word string) bool
}

// Ops gives the term parser the library's notation tokens (Env.Token), its
// arrows of bundled maps (Env.OneAtom) and its infix commands
// (Env.InfixOperator); nil when env reads none.
func (env *Env) Ops() func(string) (leansrc.Operator, bool) {
	if env.Token == nil && env.OneAtom == nil && env.InfixOperator == nil {
		return nil
	}
	return func(sym string) (leansrc.Operator, bool) {
		if env.Token != nil {
			if _, ok := env.Token(sym); ok {
				return leansrc.Operator{Fixity: leansrc.Nullary}, true
			}
		}
		if env.OneAtom != nil && mapArrow(sym) && env.OneAtom(sym) {
			// Mathlib declares each of them infixr:25, as →
			return leansrc.Operator{Fixity: leansrc.Infixr, Prec: 25}, true
		}
		if _, ok := env.quotientTarget(sym); ok {
			// notation:35 G " ⧸ " H:34 => HasQuotient.Quotient G H
			return leansrc.Operator{Fixity: leansrc.Infixl, Prec: 35}, true
		}
		if env.InfixOperator != nil {
			if _, op, ok := env.InfixOperator(sym); ok {
				// infixl:80 " '' " => image
				return op, true
			}
		}
		return leansrc.Operator{}, false
	}
}

// quotientSymbol is Mathlib's infix for a quotient type (`G ⧸ H`, `R ⧸
// I`: HasQuotient.Quotient), which is a type.
const quotientSymbol = "⧸"

// quotientTarget returns the constant sym stands for when it is
// quotientSymbol and the library declares that constant.
func (env *Env) quotientTarget(sym string) (string, bool) {
	const target = "HasQuotient.Quotient"
	if sym != quotientSymbol || env.Lookup == nil {
		return "", false
	}
	if _, ok := env.Lookup(target); !ok {
		return "", false
	}
	return target, true
}

// mapArrow reports whether an infix symbol is an arrow of bundled maps
// (→+*, →*₀, ≃o, ≃+*): an arrow or an equivalence sign decorated with
// marks of algebraic or order structure. Mathlib's are all structures with
// a coercion to the function type from their left operand to their right
// one; a partial function's `→.` (into `Part β`) and a partial
// equivalence's `≃.` (into `Option β`) are not, nor is any other mark.
func mapArrow(sym string) bool {
	for _, a := range []string{"→", "≃"} {
		rest, ok := strings.CutPrefix(sym, a)
		if ok && rest != "" && strings.Trim(rest, mapMarks) == "" {
			return true
		}
	}
	return false
}

// mapMarks are the marks Mathlib's arrows of bundled maps carry: + * ⋆
// for additive, multiplicative and star structure, ₀ for zero, o for
// order, ₗ ₐ L ᵃ for linear, algebra, continuous linear and affine maps, ₙ
// for non-unital, ᵇ ᵤ ₛ ₜ ᵢ for bounded, uniform, simple, topological and
// isometric ones.
const mapMarks = "+*⋆₀oₗₐLᵃₙᵇᵤₛₜᵢ"

// arrow reports whether binary operation text is a function arrow or an
// arrow of bundled maps (whose values apply as functions).
func arrow(text string) bool {
	return text == "→" || text == "->" || text == "≃" || mapArrow(text)
}

// ReplaceNotation renames the notation tokens of t, a term of the
// library, to their constants and rewrites its postfix notations (`R[X]`
// → `Polynomial R`).
func (env *Env) ReplaceNotation(t *leansrc.Term) {
	env.replaceNotation(t, false)
}

// replaceNotation is ReplaceNotation; stub says t is the stub's own text,
// where a postfix notation counts only in force (see postfixAt).
func (env *Env) replaceNotation(t *leansrc.Term, stub bool) {
	if env.Token != nil {
		leansrc.ReplaceTokens(t, env.Token)
	}
	env.expandPostfix(t, stub)
}

// parse parses a term of a signature or body with the library's notation
// tokens, renamed to their constants.
func (env *Env) parse(src string) *leansrc.Term {
	t := leansrc.ParseTerm(src, env.Ops())
	env.ReplaceNotation(t)
	return t
}

// onVariables reports whether t is a constant applied to variables of the
// stub alone (`CommGroup G`).
func onVariables(t *leansrc.Term, scope map[string]local) bool {
	if t.Kind != leansrc.TermApp {
		return false
	}
	for _, a := range t.Args[1:] {
		if _, ok := scope[a.Text]; a.Kind != leansrc.TermIdent || !ok {
			return false
		}
	}
	return true
}

// Finding is one application Lean would reject: Start and End are byte
// offsets in the stub's text, Message says why in Lean's terms.
type Finding struct {
	Start, End int
	Message    string
	// Name is the constant or variable the finding is about.
	Name string
	// Retype, when set, is a safe repair: the binder of Name, bound with a
	// wider numeric type than a signature demands, may be given the type
	// Retype instead (see Retype).
	Retype string
	// retypeAt is the byte range of that binder's type.
	retypeStart, retypeEnd int
	// Replace, when set, is text Lean accepts in place of the finding's
	// range and that means what the stub meant: the library's Finset
	// function of a Set function's name (`Finset.Icc 1 n` for `Set.Icc 1
	// n`), the natural floor `⌊x⌋₊` where a ℕ is expected (see Replace).
	Replace string
}

// local is a variable in scope: its numeric type when it has one, and
// whether it is one of the stub's own binders (the ones a repair retypes).
type local struct {
	num num
	// proof marks a hypothesis: its type is certainly a proposition.
	proof bool
	// dom and cod describe a function between numbers (f : ℕ → ℝ): the
	// parameters' types and the result's.
	dom []num
	cod num
	// head is the full name of the constant at the head of the local's
	// type when it is not a number (Finset for `Finset ℕ`), or "".
	head string
	// tv is the stub's type variable the local's type is (G for `(a : G)`
	// under `(G : Type*)`), or "".
	tv string
	// binder is the index+1 of the stub binder that binds it (0 for a
	// variable bound inside a term or by the header).
	binder int
	// isType marks a stub binder of type `Type*` or `Type u` (X for `(X :
	// Type*)`): the local is a type. ofType is such a local when it is the
	// type of this stub binder (X for `(x : X)`): no constant heads it.
	isType bool
	ofType string
	// typ is the local's type as written, when it is.
	typ *leansrc.Term
	// setDom is, for a function whose domain is a local Set or Finset
	// used as a type (f : S → ℝ, the subtype ↥S), that local's name.
	setDom string
}

// AddedInstance is a section instance variable that constrains an
// explicit section variable Lean adds to a declaration: its class (Fact,
// DecidablePred, DecidableRel, Fintype), its argument as written (`p.Prime`), and
// the variable's position among the added ones and its name.
type AddedInstance struct {
	Class, Arg string
	Param      int
	Name       string
	// Names are the added variables' names, by position.
	Names []string
}

// SectionBinder is a binder group of a `variable` command: its names
// (none for an anonymous instance), its type as written (an instance
// group's class), and whether its variables are certainly explicit at
// the declaration asked about (bound in ( ), never made implicit since).
type SectionBinder struct {
	Names    []string
	Type     string
	Explicit bool
}

// info is what the elaborator infers a term to be.
type info struct {
	kind kindOf
	num  num
	// lit marks a numeral, which has every numeric type.
	lit bool
	// neg marks arithmetic with a negation in it (-1, n - -x), which the
	// type its numbers are elaborated at must have.
	neg bool
	// sci marks a decimal (2.5, 1e3) or arithmetic with one in it, which
	// the type its numbers are elaborated at must have OfScientific for
	// (ℕ and ℤ have none).
	sci bool
	// inv marks x⁻¹ of a ℕ or ℤ x: Inv fails unless an expected type
	// (an ascription, a parameter's type) elaborates it wider; the operand
	// of arithmetic or a relation has none.
	inv bool
	// abs marks |x| of a number type with no negation (ℕ, ℝ≥0): abs needs
	// an AddGroup unless an expected type elaborates it wider, as inv.
	abs bool
	// prop marks a sort that is certainly a proposition (a relation, a
	// connective, ∃); ty one that is certainly a type (ℕ, a structure);
	// hyp a proof that is a local hypothesis.
	prop, ty, hyp bool
	// large marks a sort that is certainly a type and no proposition;
	// dataClass one that is a class of data applied (Group G).
	large, dataClass bool
	// set marks a value that is certainly a `Set α` (which no Finset is);
	// builder one written {x | p x}, which Mathlib elaborates as a
	// Finset's filter of univ where a Finset is expected, and builderOf the
	// number type its binder is written with ({x : ℕ | …}), which has no
	// Fintype for that univ.
	set, builder bool
	builderOf    num
	// tv is the stub's type variable a value certainly has as its type.
	tv string
	// pred marks a function that one more explicit argument makes a
	// proposition (Nat.Prime).
	pred bool
	// notPred marks a function that certainly is no predicate of one
	// argument, so no Set (Set α := α → Prop) either: a function between
	// numbers, or a constant applied to too few arguments whose value,
	// once applied to all, is no proposition or still wants several.
	notPred bool
	// typeFirst marks a function whose next explicit argument is a type
	// (RingHom.id unapplied): its type is a Π over a universe.
	typeFirst bool
	// proofNext marks a function whose next explicit argument is a proof
	// (`s.max'` without `H : s.Nonempty`): a Π over a proposition, which no
	// cast reaches (Pi's NatCast, OfNat and order are over types).
	proofNext bool
	// what names the constant a function or a proof is; detail describes
	// the function, for messages.
	what, detail string
	// of is, for a value of a library structure or inductive type (not a
	// number), that type's full name (Finset for `Nat.primeFactors n`).
	// ofLocal marks a local so typed ((s : Finset ℕ)), which only the
	// rules on numbers read: beside notation the parser splits (G →g G'),
	// a local may stand where a type seems expected.
	of      string
	ofLocal bool
	// local marks a type that is a stub's type variable (X of `(X :
	// Type*)`), which a stub passes where explicit section variables stand.
	local bool
}

type kindOf uint8

const (
	kUnknown kindOf = iota
	kSort           // a type or a proposition
	kFunc           // a function (a predicate not applied, for instance)
	kProof          // a proof: a theorem, applied or not
	kValue          // a value (of type num when num is set)
)

// checker holds the state of one Check.
type checker struct {
	env   Env
	s     *leansrc.Stub
	off   int // offset of the parsed header in s.Text
	src   string
	out   []Finding
	sigs  map[string]sig
	later map[string]bool // names the stub binds somewhere
	// unexpected is the term being elaborated with no expected type that
	// may fix its type variables (the set of `x ∈ s`, a field's receiver).
	unexpected *leansrc.Term
	// binderTypes are the byte ranges (in s.Text) of the stub binders'
	// types, by binder index; binderOf maps a name to its binder.
	binderTypes [][2]int
	binderNames [][]string
	// uses counts, per stub binder name, its occurrences; unsafe marks
	// those used where their type matters (x.field, x applied).
	uses   map[string]int
	unsafe map[string]bool
	// unknown are the names reported as unknown identifiers (once each).
	unknown map[string]bool
	// mixed marks, per node of a tree of arithmetic and relations (what
	// binop% and binrel% elaborate together), whether a leaf of it may
	// have another type than the rest (see markTree).
	mixed map[*leansrc.Term]bool
	// typeVars are the stub's type variables whose local instances are all
	// known, with the classes of those instances (see typeVariables), and
	// typeVarTexts those instances' types as written.
	typeVars, typeVarTexts map[string][]string
	// span is the byte range (in s.Text) of the term unbound walks: a name
	// another binder's type binds inside it (`(h : ∀ n, …)`) is out of
	// scope there.
	span [2]int
}

// Check elaborates stub s as far as the library's signatures allow and
// returns what Lean would certainly reject, in the order of the text.
func Check(s *leansrc.Stub, env Env) []Finding {
	if s == nil || env.Resolve == nil || env.Lookup == nil {
		return nil
	}
	start := s.NameEnd
	if s.Name == "" {
		// example: the header starts after the keyword
		for _, t := range s.Lexemes {
			if t.Text == s.Keyword {
				start = t.End
				break
			}
		}
	}
	if start <= 0 || s.ProofStart < start || s.ProofStart > len(s.Text) {
		return nil
	}
	if bars := append(append(append(strayBars(s, start), quantifierIn(s, start)...), lambdaComma(s, start)...), inactivePostfix(s, start, &env)...); len(bars) > 0 {
		return bars // the term parser stops there too
	}
	if fs := typeless(s, start); len(fs) > 0 {
		return fs
	}
	src := s.Text[start:s.ProofStart]
	binders, typ, chain, ok := leansrc.ParseHeaderChain(src, env.Ops())
	if !ok || typ == nil || len(binders) != len(s.Binders) {
		return nil
	}
	bound := map[string]bool{}
	for _, b := range s.Binders {
		for _, n := range b.Names {
			bound[n] = true
		}
	}
	collectBound(typ, bound)
	for _, b := range binders {
		collectBound(b.Type, bound)
	}
	inactive := inactiveTokens(&env, start, bound, typ)
	env.replaceNotation(typ, true)
	for _, b := range binders {
		inactive = append(inactive, inactiveTokens(&env, start, bound, b.Type)...)
		env.replaceNotation(b.Type, true)
	}
	for i := range binders {
		// the gate reads the names of binders whose type the term parser
		// does not (X I : Type*)
		binders[i].Names = s.Binders[i].Names
	}
	c := &checker{env: env, s: s, off: start, src: src, sigs: map[string]sig{}, later: map[string]bool{},
		uses: map[string]int{}, unsafe: map[string]bool{}, mixed: map[*leansrc.Term]bool{}, unknown: map[string]bool{}}
	if chain != nil {
		// 0 < x ≤ 1: Lean's relations are non-associative notation, so
		// the parser stops before the second one
		c.out = append(c.out, Finding{Start: start + chain.Start, End: start + chain.End, Name: chain.Symbol,
			Message: fmt.Sprintf("unexpected token '%s': relations do not chain in Lean (a < b ≤ c does not parse); state each and join them with ∧", chain.Symbol)})
	}
	for _, b := range binders {
		for _, n := range b.Names {
			c.later[n] = true
		}
	}
	collectBound(typ, c.later)
	c.out = append(c.out, inactive...)
	scope := map[string]local{}
	for v := range env.Variables {
		scope[v] = local{}
	}
	c.typeVars, c.typeVarTexts = typeVariables(binders, s.Binders, env.Variables, c.src)
	c.dropNonInstances()
	c.innerInstances(typ)
	for i, b := range binders {
		proof := false
		if b.Type != nil {
			c.binderTypes = append(c.binderTypes, [2]int{start + b.Type.Start, start + b.Type.End})
			if b.Bracket != '[' {
				c.unbound(b.Type, scope)
			} else {
				c.lean3Class(b.Type, scope)
				c.notClass(b.Type, scope)
			}
			ti := c.typePos(b.Type, scope)
			proof = ti.kind == kSort && ti.prop
		} else {
			c.binderTypes = append(c.binderTypes, [2]int{-1, -1})
		}
		c.binderNames = append(c.binderNames, b.Names)
		n := numNone
		if b.Type != nil && b.Type.Kind == leansrc.TermIdent {
			n = numOf(b.Type.Text)
		}
		dom, cod := numArrow(b.Type)
		if dom == nil {
			dom, _ = numDomains(b.Type) // a sequence ℕ → X: its arguments are checked
		}
		head := c.typeHeadName(b.Type)
		if head == "" {
			head = c.numberFieldHead(b.Type, scope)
		}
		tv := c.typeVar(b.Type)
		isType := b.Bracket != '[' && typeUniverse(s.Binders[i].Type)
		ofType := ""
		if b.Type != nil && b.Type.Kind == leansrc.TermIdent && scope[b.Type.Text].isType {
			ofType = b.Type.Text
		}
		setDom := ""
		if t := b.Type; t != nil && t.Kind == leansrc.TermInfix && arrow(t.Text) && t.Args[0].Kind == leansrc.TermIdent {
			if l, ok := scope[t.Args[0].Text]; ok && (l.head == "Set" || l.head == "Finset") {
				setDom = t.Args[0].Text
			}
		}
		for _, name := range b.Names {
			scope[name] = local{num: n, binder: i + 1, proof: proof, dom: dom, cod: cod, head: head, tv: tv, isType: isType, ofType: ofType, typ: b.Type, setDom: setDom}
		}
	}
	c.unbound(typ, scope)
	concl := c.typePos(typ, scope)
	if concl.kind == kValue && concl.of != "" && !concl.ofLocal && (s.Keyword == "theorem" || s.Keyword == "lemma") && c.sortable(concl.of) &&
		env.SortToProp != nil && !env.SortToProp(concl.of) {
		// Lean 4 (since v4.8): the type of a theorem must be a proposition;
		// a value has none, or a sort coercion to a type
		text := src[typ.Start:typ.End]
		c.report(typ, concl.of, "type of theorem is not a proposition: `%s` is a value of type `%s`", text, concl.of)
	}
	if concl.kind == kSort && concl.large && (s.Keyword == "theorem" || s.Keyword == "lemma") {
		// AddMonoidHom ℝ ℝ: a type of data, not a proposition
		c.report(typ, "", "type of theorem is not a proposition: `%s` is a type", src[typ.Start:typ.End])
	}
	if concl.kind == kSort && concl.dataClass && (s.Keyword == "theorem" || s.Keyword == "lemma") && !onVariables(typ, scope) {
		// Field (ZMod p): a class of data is a type. Stated of the stub's
		// own variables (`CommGroup G`), it stays silent: the references
		// write "G is abelian" so
		text := src[typ.Start:typ.End]
		c.report(typ, "", "type of theorem is not a proposition: `%s` is a type (a class of data, whose instances are structures); state `Nonempty (%s)`", text, text)
	}
	c.retypes()
	sort.SliceStable(c.out, func(i, j int) bool { return c.out[i].Start < c.out[j].Start })
	return c.out
}

// typeVariables returns the type variables binders bind, their types as
// written a universe (`(G : Type*)`, `{G : Type u}`; not a name the
// header's `variable` commands bind), with the classes of their local
// instances: every binder whose type applies a name to the variable
// (`[Group G]`, `(h : Group G)`; Lean takes any local of a class type as
// an instance), written `C` when the variable is its only argument and
// `C@i` when it stands at position i beside others (`[Module ℝ V]`:
// `Module@1`). texts are those binders' types as written (src), for
// messages.
func typeVariables(binders []leansrc.Binder, written []leansrc.StubBinder, header map[string]bool, src string) (vars, texts map[string][]string) {
	vars, texts = map[string][]string{}, map[string][]string{}
	for i, b := range binders {
		if b.Bracket == '[' || i >= len(written) || !sortParam(written[i].Type) {
			continue
		}
		for _, n := range b.Names {
			if !header[n] {
				vars[n] = []string{}
			}
		}
	}
	for _, b := range binders {
		if b.Type == nil || b.Type.Kind != leansrc.TermApp {
			continue
		}
		head, args := b.Type.Args[0], b.Type.Args[1:]
		for i, a := range args {
			if a.Kind != leansrc.TermIdent || vars[a.Text] == nil {
				continue
			}
			if head.Kind != leansrc.TermIdent {
				delete(vars, a.Text)
				continue
			}
			class := head.Text
			if len(args) > 1 {
				class = fmt.Sprintf("%s@%d", head.Text, i)
			}
			vars[a.Text] = append(vars[a.Text], class)
			texts[a.Text] = append(texts[a.Text], src[b.Type.Start:b.Type.End])
		}
	}
	for v := range texts {
		if vars[v] == nil {
			delete(texts, v)
		}
	}
	return vars, texts
}

// dropNonInstances removes from the type variables' local instances the
// binders whose type may not be a class (`(I : Ideal R)`: an abbreviation
// of the structure Submodule), which are no instances.
func (c *checker) dropNonInstances() {
	for v, classes := range c.typeVars {
		var keep, texts []string
		for i, class := range classes {
			head, _, _ := strings.Cut(class, "@")
			if c.mayBeInstance(head) {
				keep = append(keep, class)
				texts = append(texts, c.typeVarTexts[v][i])
			}
		}
		c.typeVars[v] = append([]string{}, keep...)
		if len(texts) > 0 {
			c.typeVarTexts[v] = texts
		} else {
			delete(c.typeVarTexts, v)
		}
	}
}

// innerInstances removes from c.typeVars the type variables that a binder
// inside statement t gives a type applying something that may be a class
// to them (`∃ τ : TopologicalSpace α, …`, `∀ [Fintype α], …`; not `∀ x :
// α`, nor `∀ U : Set α`): that binder may be a local instance there.
func (c *checker) innerInstances(t *leansrc.Term) {
	if t == nil || len(c.typeVars) == 0 {
		return
	}
	var applied func(x *leansrc.Term, arg bool)
	applied = func(x *leansrc.Term, arg bool) {
		if x == nil {
			return
		}
		if x.Kind == leansrc.TermIdent && arg {
			delete(c.typeVars, x.Text)
		}
		for i, a := range x.Args {
			instance := x.Kind != leansrc.TermApp || x.Args[0].Kind != leansrc.TermIdent || c.mayBeInstance(x.Args[0].Text)
			applied(a, arg || x.Kind == leansrc.TermApp && i > 0 && instance)
		}
	}
	for _, b := range t.Binders {
		applied(b.Type, false)
		c.innerInstances(b.Type)
		c.innerInstances(b.Bound)
	}
	for _, a := range t.Args {
		c.innerInstances(a)
	}
}

// typeVar returns the stub's type variable a binder's type is, or "".
func (c *checker) typeVar(t *leansrc.Term) string {
	if t != nil && t.Kind == leansrc.TermIdent && c.typeVars[t.Text] != nil {
		return t.Text
	}
	return ""
}

// typeHeadName returns the full name of the library constant at the head
// of a binder's type (Finset for `Finset ℕ`, Set for `Set ℝ`) when exactly
// one resolves and it is no number, else "".
func (c *checker) typeHeadName(t *leansrc.Term) string {
	if t == nil {
		return ""
	}
	h := t
	if t.Kind == leansrc.TermApp {
		h = t.Args[0]
	}
	name := h.Text
	if target, ok := c.infixTarget(t); ok {
		name = target // G →* H is MonoidHom G H
	} else if h.Kind != leansrc.TermIdent || numOf(h.Text) != numNone {
		return ""
	}
	fulls := c.env.Resolve(name)
	if len(fulls) != 1 {
		return ""
	}
	if _, ok := c.env.Lookup(fulls[0]); !ok {
		return ""
	}
	return fulls[0]
}

// numberFieldHead returns the constant a binder's type written in field
// notation on a local number heads (`(hp : p.Prime)` with `(p : ℕ)`:
// Nat.Prime), when the library declares it; "" otherwise.
func (c *checker) numberFieldHead(t *leansrc.Term, scope map[string]local) string {
	if t == nil {
		return ""
	}
	h := t
	if t.Kind == leansrc.TermApp {
		h = t.Args[0]
	}
	root, f, dotted := strings.Cut(h.Text, ".")
	l, ok := scope[root]
	if h.Kind != leansrc.TermIdent || !dotted || strings.Contains(f, ".") || !ok || l.num == numNone {
		return ""
	}
	full := numSpace[l.num] + "." + f
	if d, ok := c.env.Lookup(full); !ok || d.Name != full {
		return ""
	}
	return full
}

// numDomains reads a function type whose domains are core numbers and
// whose codomain is any type (`ℕ → X`, a sequence): the domains, and the
// codomain (nil, nil otherwise).
func numDomains(t *leansrc.Term) ([]num, *leansrc.Term) {
	var dom []num
	for t != nil && t.Kind == leansrc.TermInfix && arrow(t.Text) {
		a := t.Args[0]
		if a.Kind != leansrc.TermIdent || numOf(a.Text) == numNone {
			return nil, nil
		}
		dom = append(dom, numOf(a.Text))
		t = t.Args[1]
	}
	if len(dom) == 0 {
		return nil, nil
	}
	return dom, t
}

// numArrow reads a function type between core numbers, A → B → C with
// every one a numeric type's name: the parameters' types and the result's
// (nil, numNone otherwise).
func numArrow(t *leansrc.Term) ([]num, num) {
	dom, cod := numDomains(t)
	if cod == nil || cod.Kind != leansrc.TermIdent || numOf(cod.Text) == numNone {
		return nil, numNone
	}
	return dom, numOf(cod.Text)
}

// collectBound adds the names t binds (∀, ∃, fun, set-builder, ∑) to set.
func collectBound(t *leansrc.Term, set map[string]bool) {
	if t == nil {
		return
	}
	for _, b := range t.Binders {
		for _, n := range b.Names {
			set[n] = true
		}
		collectBound(b.Type, set)
		collectBound(b.Bound, set)
	}
	for _, a := range t.Args {
		collectBound(a, set)
	}
}

func (c *checker) report(t *leansrc.Term, name, format string, args ...any) {
	c.out = append(c.out, Finding{Start: c.off + t.Start, End: c.off + t.End, Name: name, Message: fmt.Sprintf(format, args...)})
}

// unbound reports, with autoImplicit off, the names a binder type uses that
// the stub binds only later (in a later binder or inside the statement):
// Lean elaborates binders left to right, so there the name is unknown. A
// dotted name whose root no binder binds (`z.re`) is unknown with
// autoImplicit on too: Lean binds only atomic names automatically.
func (c *checker) unbound(t *leansrc.Term, scope map[string]local) {
	if t == nil {
		return
	}
	seen := c.unknown
	c.span = [2]int{c.off + t.Start, c.off + t.End}
	var walk func(x *leansrc.Term, inner map[string]bool)
	walk = func(x *leansrc.Term, inner map[string]bool) {
		if x == nil {
			return
		}
		if x.Kind == leansrc.TermIdent {
			name := x.Text
			root, _, dotted := strings.Cut(name, ".")
			if _, ok := scope[root]; ok || inner[root] || seen[name] || strings.HasPrefix(c.src[x.End:], "(") {
				// C(ℝ, ℝ): Lean 4 reads no application glued to `(`, so
				// a notation's token
				return
			}
			if !AutoBoundShape(root) {
				c.lean3Name(x, name, root, dotted)
				return
			}
			if c.env.AutoImplicit && !dotted {
				return
			}
			if len(c.env.Resolve(name)) > 0 || root != name && len(c.env.Resolve(root)) > 0 {
				return
			}
			switch {
			case c.later[root] && c.env.AutoImplicit:
				seen[name] = true
				c.report(x, name, "unknown identifier `%s`: `%s` is bound only later in the statement, and Lean binds no dotted name automatically", name, root)
			case c.later[root]:
				seen[name] = true
				c.report(x, name, "unknown identifier `%s`: it is bound only later in the statement, and Lean reads binders left to right (autoImplicit is off)", name)
			case root == name && c.boundNowhere(name):
				seen[name] = true
				c.report(x, name, "unknown identifier `%s`: no binder of the statement binds it (autoImplicit is off)", name)
			case dotted && c.boundNowhere(root):
				seen[name] = true
				c.report(x, name, "unknown identifier `%s`: no binder of the statement binds `%s`, and Lean binds no dotted name automatically", name, root)
			}
			return
		}
		if x.Kind == leansrc.TermApp && x.Args[0].Kind == leansrc.TermIdent && (x.Args[0].Text == "Type" || x.Args[0].Text == "Sort") {
			return // Type u: u is a universe
		}
		if names, typ, ok := dependent(x); ok {
			walk(typ, inner)
			in := map[string]bool{}
			for k := range inner {
				in[k] = true
			}
			for _, n := range names {
				in[n] = true
			}
			walk(x.Args[1], in)
			return
		}
		if len(x.Binders) > 0 {
			in := map[string]bool{}
			for k := range inner {
				in[k] = true
			}
			for _, b := range x.Binders {
				walk(b.Type, in)
				walk(b.Bound, in)
				for _, n := range b.Names {
					in[n] = true
				}
			}
			inner = in
		}
		for _, a := range x.Args {
			walk(a, inner)
		}
	}
	walk(t, map[string]bool{})
}

// binderWords are the tokens after which a name may be bound by syntax
// the term parser does not read (∀ a b, fun ⟨x, y⟩ =>, {x | …}).
var binderWords = map[string]bool{"∀": true, "∃": true, "∃!": true, "λ": true, "fun": true, "∑": true, "∏": true,
	"⋃": true, "⋂": true, "⨆": true, "⨅": true, "{": true, "⟨": true, ",": true, "⦃": true, ".{": true, "Type": true,
	"Sort": true, "let": true, "have": true, "match": true, "|": true, "@": true, "Π": true, "Σ": true, "∫": true, "∮": true}

// lean3Name reports a dotted name whose root is Lean 3's spelling of a
// namespace (`nat.prime`, `real.log`): the root names nothing, and Lean binds
// no dotted name automatically, so it is an unknown identifier.
func (c *checker) lean3Name(x *leansrc.Term, name, root string, dotted bool) {
	if !dotted || c.env.Lean3Namespace == nil || !c.boundNowhere(root) {
		return
	}
	if lean4, ok := c.env.Lean3Namespace(root); ok {
		c.unknown[name] = true
		c.report(x, name, "unknown identifier `%s`: nothing is named `%s`; Lean 4 spells the namespace `%s`", name, root, lean4)
		return
	}
	c.notationName(x, name)
}

// lean3Class reports an instance binder whose class is Lean 3's
// spelling of a library class (`[topological_space X]`, `[group G]`): the
// name names nothing in scope, so Lean binds it as a variable, which is no
// class ("invalid binder annotation"), or, with autoImplicit off, does not
// know it at all.
func (c *checker) lean3Class(t *leansrc.Term, scope map[string]local) {
	head := t
	if t.Kind == leansrc.TermApp {
		head = t.Args[0]
	}
	if head.Kind != leansrc.TermIdent || strings.Contains(head.Text, ".") || c.env.Lean3Namespace == nil || c.env.Notation || c.env.Variables[head.Text] {
		return
	}
	if _, bound := scope[head.Text]; bound {
		return
	}
	lean4, ok := c.env.Lean3Namespace(head.Text)
	if !ok {
		return
	}
	c.unknown[head.Text] = true
	if d, found := c.env.Lookup(lean4); found && d.Kind == library.KindClass {
		c.report(head, head.Text, "invalid binder annotation: `%s` names nothing, so it is no class (Lean 3's spelling; Lean 4 writes `%s`)", head.Text, lean4)
		return
	}
	c.report(head, head.Text, "invalid binder annotation: `%s` names nothing, so it is no class (Lean 3's spelling of a name)", head.Text)
}

// notClass reports an instance binder whose type is certainly no class:
// a structure or inductive type that is none, or a definition that
// unfolds to one (`[Nat.Prime p]`: Irreducible p) or to a relation.
// Lean checks the binder annotation after unfolding the type to its head.
// A field of a number the statement binds (`[hp : p.Prime]` with p : ℕ)
// is its type's namespace's constant (Nat.Prime).
func (c *checker) notClass(t *leansrc.Term, scope map[string]local) {
	head := t
	if t.Kind == leansrc.TermApp {
		head = t.Args[0]
	}
	if head.Kind != leansrc.TermIdent || c.env.Notation {
		return
	}
	name := head.Text
	if root, f, dotted := strings.Cut(name, "."); dotted {
		if l, bound := scope[root]; bound {
			if l.binder == 0 || l.num == numNone || int(l.num) >= len(numSpace) || numSpace[l.num] == "" || strings.Contains(f, ".") {
				return
			}
			name = numSpace[l.num] + "." + f
		}
	}
	fulls := c.env.Resolve(name)
	if len(fulls) != 1 || fulls[0] != name {
		return // a short name an open namespace may hold: Lean core's Monad, or a Mathlib structure
	}
	d, ok := c.env.Lookup(fulls[0])
	for depth := 0; ok && depth < maxValueDepth && (d.Kind == library.KindDef || d.Kind == library.KindAbbrev) && d.Value != ""; depth++ {
		v := c.env.parse(d.Value)
		switch {
		case v.Kind == leansrc.TermInfix && relations[v.Text]:
			c.report(t, head.Text, "invalid binder annotation, type is not a class instance: `%s` is a proposition (`%s` unfolds to `%s`); bind a proof `(h : %s)`, or an instance `[Fact (%s)]`",
				c.src[t.Start:t.End], d.Name, d.Value, c.src[t.Start:t.End], c.src[t.Start:t.End])
			return
		case v.Kind == leansrc.TermApp && v.Args[0].Kind == leansrc.TermIdent:
			v = v.Args[0]
		}
		if v.Kind != leansrc.TermIdent {
			return
		}
		d, ok = lookupFrom(d, v.Text, c.env.Lookup)
	}
	if !ok || d.Kind != library.KindStructure && d.Kind != library.KindInductive || slices.Contains(d.Attrs, "class") {
		return
	}
	_, last := leansrc.SplitLast(d.Name)
	c.report(t, head.Text, "invalid binder annotation, type is not a class instance: `%s` is a proposition or a type (`%s` is a %s, no class); bind a proof `(h : %s)`, or an instance `[Fact (%s)]`",
		c.src[t.Start:t.End], last, d.Kind, c.src[t.Start:t.End], c.src[t.Start:t.End])
}

// relations are the infix relations a definition's body may be, which
// unfold to no class (Eq, LE.le's instances, And, Or, Iff).
var relations = setOf("=", "≠", "<", "≤", ">", "≥", "∣", "∧", "∨", "↔", "∈", "∉", "⊆")

// comparisons are the binder predicates whose bound fixes the bound
// variable's type (`∀ n ≥ N`: binrel% unifies n's type with N's).
var comparisons = setOf("<", "≤", ">", "≥", "≠")

// notationName reports a dotted name that names nothing and ends in a
// symbol the library declares as notation (`Real.π`: π is notation for
// Real.pi under `open Real`, no declaration of the namespace Real).
func (c *checker) notationName(x *leansrc.Term, name string) {
	ns, last := leansrc.SplitLast(name)
	if ns == "" || c.env.NotationSymbol == nil || !c.env.NotationSymbol(last) || len(c.env.Resolve(name)) > 0 || c.env.Notation {
		return
	}
	if r, _ := utf8.DecodeRuneInString(last); r < utf8.RuneSelf {
		return // an ASCII last component may be a declaration the index lacks
	}
	c.unknown[name] = true
	c.report(x, name, "unknown identifier `%s`: `%s` is the library's notation, not a declaration of `%s` (open the namespace that puts it in force, or write the constant)", name, last, ns)
}

// boundNowhere reports whether name, a variable's name in ASCII or a lone
// Greek type variable (x, n1, b', α; not σ₁, which libraries name constants by),
// that no notation of the library spells, stands nowhere in the term unbound
// walks (c.span) where syntax might bind it (after ∀, fun,
// ⟨, a comma, in a run of names that follows one; before :, ,, =>, ↦, |):
// with autoImplicit off and no notation from the header, Lean then has
// nothing to resolve it to.
func (c *checker) boundNowhere(name string) bool {
	first, w := utf8.DecodeRuneInString(name)
	if c.env.Notation || first >= utf8.RuneSelf && (!typeLetter(first) || len(name) > w) || c.env.NotationSymbol != nil && c.env.NotationSymbol(name) {
		return false
	}
	for _, r := range name[w:] {
		if r >= utf8.RuneSelf && !(r >= '₀' && r <= '₉') {
			return false
		}
	}
	lex := c.s.Lexemes
	for i, t := range lex {
		if t.Text != name || t.Start < c.span[0] || t.Start >= c.span[1] {
			continue
		}
		j := i - 1
		for j >= 0 && lex[j].Kind == leansrc.LexIdent {
			j-- // ∀ a b c, …
		}
		if j >= 0 && binderWords[lex[j].Text] && (lex[j].Text != "," || insideBrackets(lex, j)) {
			// a comma inside brackets may bind in a pattern (fun ⟨x, y⟩ =>,
			// {(x, y) | …}); outside any, after a quantifier's binders (∃ a
			// b : ℕ, p = …), the body starts
			return false
		}
		if i+1 < len(lex) && lex[i+1].Start < c.s.ProofStart {
			switch lex[i+1].Text {
			case ":", ",", "=>", "↦", "|", "⟩", ":=":
				return false
			}
		}
	}
	return true
}

// insideBrackets reports whether lexeme j stands inside brackets of the
// statement, where a comma may separate a pattern's names.
func insideBrackets(lex []leansrc.Lexeme, j int) bool {
	depth := 0
	for _, l := range lex[:j] {
		switch l.Text {
		case "⟨", "(", "{", "[", "⦃":
			depth++
		case "⟩", ")", "}", "]", "⦄":
			depth--
		}
	}
	return depth > 0
}

// typeLetter reports whether r is a lowercase Greek letter statements
// name variables by (α, θ, ε). λ is syntax; capitals are left alone, as
// libraries spell notation with them (Γ(X, U)); a letter the library
// spells notation with (φ n, σ k, π) is left alone by the caller.
func typeLetter(r rune) bool {
	return r >= 'α' && r <= 'ω' && r != 'λ' && r != 'ς'
}

// AutoBoundShape reports whether name is one letter followed by digits,
// subscripts or primes (x, n₁, α'): a variable's name, which no library
// constant the resolver might miss (an exported class field such as
// `star`, a notation) is likely to have.
func AutoBoundShape(name string) bool {
	r, w := utf8.DecodeRuneInString(name)
	if !unicode.IsLetter(r) {
		return false
	}
	for _, c := range name[w:] {
		if !(unicode.IsDigit(c) || c == '\'' || c == '_' || c >= '₀' && c <= '₉' || leansrc.IsSubScriptAlnum(c)) {
			return false
		}
	}
	return true
}

// with returns scope extended by binders bs, checking their types and
// membership domains; over is the big operator (∑, ∏) that binds them, or "".
func (c *checker) with(scope map[string]local, bs []leansrc.Binder, over string) map[string]local {
	in := make(map[string]local, len(scope)+len(bs))
	for k, v := range scope {
		in[k] = v
	}
	for _, b := range bs {
		n := numNone
		proof := false
		if b.Type != nil {
			ti := c.typePos(b.Type, in)
			proof = ti.kind == kSort && ti.prop
			if b.Type.Kind == leansrc.TermIdent {
				n = numOf(b.Type.Text)
			}
		}
		if b.Bound != nil {
			if b.Pred == "∈" || b.Pred == "∉" {
				c.unexpected = b.Bound // x ∈ s: s's type is Membership's outParam
			}
			bi := c.infer(b.Bound, in)
			// as with x ∈ s, nothing is a member of a type, a proposition or
			// a proof (`∑ n ∈ ℕ, …`: the model's sum over all naturals)
			member := b.Pred == "∈" || b.Pred == "∉"
			switch what := c.nonValue(b.Bound, bi, false); {
			case member && c.pairDomain(b.Bound):
				// ∃ c ∈ (a, b), …: an open interval is Set.Ioo a b
			case what != "" && member:
				c.report(b.Bound, "", "failed to synthesize `Membership`: `%s` is %s, not a set", c.src[b.Bound.Start:b.Bound.End], what)
			case member && bi.kind == kValue && !bi.lit && bi.num != numNone && bi.of == "":
				// ∑ i ∈ n, x i with (n : ℕ): the range is Finset.range n
				c.report(b.Bound, "", "failed to synthesize `Membership`: `%s` is a number of type %s, not a set (the numbers below it are `Finset.range %s`)",
					c.src[b.Bound.Start:b.Bound.End], bi.num, c.src[b.Bound.Start:b.Bound.End])
			case bi.set && b.Pred == "∈" && (over == "∑" || over == "∏") && c.bareSet(b.Bound, in):
				// ∑ x ∈ s, f x is Finset.sum (finset% s) f: a Set becomes
				// s.toFinset, which needs a Fintype instance on ↥s (the
				// library's intervals have one: ∑ i ∈ Set.Icc 1 n is fine)
				c.report(b.Bound, "", "failed to synthesize `Fintype ↑%s`: `%s x ∈ %s, …` over a Set sums over `%s.toFinset`, which needs `[Fintype %s]`, and no instance binder of the statement gives one (sum over a Finset, or use ∑ᶠ)",
					b.Bound.Text, over, b.Bound.Text, b.Bound.Text, b.Bound.Text)
			}
			if _, el := c.elements(b.Bound, in); b.Type == nil && b.Pred == "∈" && el != numNone {
				// ∑ i ∈ Finset.range n: i is a ℕ (Membership's element
				// type is an outParam)
				n = el
			}
			if b.Type == nil && comparisons[b.Pred] && bi.kind == kValue && !bi.lit && bi.of == "" {
				// ∀ n ≥ N, … is ∀ n, n ≥ N → …: n's type is N's
				n = bi.num
			}
		}
		tv := c.typeVar(b.Type)
		for _, name := range b.Names {
			in[name] = local{num: n, proof: proof, tv: tv, typ: b.Type}
		}
	}
	return in
}

// finsetOf returns Set function application t (`Set.Icc 1 n`) written
// with the library's Finset function of the same name and the same
// explicit parameters, whose result is a Finset; "" when t is no such
// application or the library has no such function (Finset.range takes a
// number, Set.range a function).
func (c *checker) finsetOf(t *leansrc.Term) string {
	if t.Kind != leansrc.TermApp || t.Args[0].Kind != leansrc.TermIdent {
		return ""
	}
	h := t.Args[0]
	f, ok := strings.CutPrefix(h.Text, "Set.")
	if !ok || c.src[h.Start:h.End] != h.Text {
		return ""
	}
	sd, ok1 := c.env.Lookup("Set." + f)
	fd, ok2 := c.env.Lookup("Finset." + f)
	if !ok1 || !ok2 {
		return ""
	}
	ss, fs := sigOf(sd, &c.env, 0), sigOf(fd, &c.env, 0)
	if !ss.known || !ss.exact || !fs.known || !fs.exact || !slices.Equal(ss.params, fs.params) || !strings.HasPrefix(fs.resText, "Finset ") {
		return ""
	}
	return c.src[t.Start:h.Start] + "Finset." + f + c.src[h.End:t.End] // a parenthesised argument keeps its (
}

// coreTheorem reports, where a type is expected, an application of a name
// in a namespace of Lean core that the library does not declare and that
// Lean's naming convention spells as a theorem (`Nat.gcd_comm a b`:
// snake_case): a proof, no proposition, or else an unknown identifier;
// Lean rejects it either way.
func (c *checker) coreTheorem(t *leansrc.Term, scope map[string]local) {
	head := t
	if t.Kind == leansrc.TermApp {
		head = t.Args[0]
	}
	if head.Kind != leansrc.TermIdent || c.env.CoreNamespace == nil || c.env.Notation || c.env.Opens {
		return
	}
	ns, last := leansrc.SplitLast(head.Text)
	root, _, _ := strings.Cut(head.Text, ".")
	if _, local := scope[root]; local || ns == "" || !c.env.CoreNamespace(root) || !snakeCase(last) || len(c.env.Resolve(head.Text)) > 0 {
		return
	}
	if _, ok := c.env.Lookup(head.Text); ok {
		return
	}
	c.report(t, head.Text, "type expected: `%s` is, by Lean's naming convention (snake_case), a theorem of Lean core, which the library does not declare: a proof, not a proposition (and if Lean core has no such theorem, an unknown identifier)", head.Text)
}

// snakeCase reports whether a name's last component is written as Lean
// names theorems: lowercase ASCII words joined by underscores (`gcd_comm`,
// `le_of_dvd`, `add_sub_cancel'`).
func snakeCase(last string) bool {
	if !strings.Contains(last, "_") || last == "" || last[0] < 'a' || last[0] > 'z' {
		return false
	}
	for _, r := range last {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '\'') {
			return false
		}
	}
	return true
}

// sortable reports whether a value of type full may be coerced to a sort.
func (c *checker) sortable(full string) bool {
	return c.env.CoercesToSort == nil || c.env.CoercesToSort(full)
}

// typePos checks t where Lean expects a type or a proposition: a proof, a
// function or a number there is an error. It returns what t is.
func (c *checker) typePos(t *leansrc.Term, scope map[string]local) info {
	if t == nil {
		return info{}
	}
	i := c.infer(t, scope)
	switch {
	case i.kind == kUnknown:
		c.coreTheorem(t, scope)
	case i.kind == kProof && i.hyp:
		c.report(t, i.what, "type expected: `%s` is a hypothesis, a proof and not a proposition", i.what)
	case i.kind == kProof:
		c.report(t, i.what, "type expected: `%s` is a theorem, a proof and not a proposition", i.what)
	case i.kind == kFunc:
		c.report(t, i.what, "type expected: `%s` is a function (%s); it must be applied to its arguments", i.what, i.detail)
	case i.kind == kValue && i.of != "" && !i.ofLocal && !c.sortable(i.of):
		// a value of a structure with no sort coercion
		text := c.src[t.Start:t.End]
		c.report(t, i.of, "type expected: `%s` is a value of type `%s`, not a type or a proposition (no coercion to a sort)", text, i.of)
	case i.kind == kValue && !i.lit && i.num != numNone:
		// ℕ, ℤ, ℚ, ℝ, ℂ have no coercion to a sort
		text := c.src[t.Start:t.End]
		c.report(t, text, "type expected: `%s` is a number of type %s, not a type or a proposition", text, i.num)
	case i.kind == kValue && i.lit && !c.env.Notation:
		// x = 2 ∨ -2: no numeral is a proposition or a type (no OfNat on a
		// sort)
		text := c.src[t.Start:t.End]
		c.report(t, text, "type expected: `%s` is a number, not a type or a proposition (each side of ∧, ∨ and → is a proposition: `… = %s`)", text, text)
	}
	return i
}
