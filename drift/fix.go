package drift

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/leanrepl"
)

// Deterministic repairs: edits of a checked candidate that need no model,
// made only where the findings leave no choice, and kept only when the
// candidate checked again is strictly better by the checks' order
// (checkedBetter) and no new problem appeared (improves).

// numericTypes are the binder types a numeral comparison can be stated
// of, by the number words that name them (ℂ has no order: only ≠).
var numericTypes = map[string]string{
	"ℕ": "natural", "Nat": "natural", "ℤ": "integer", "Int": "integer",
	"ℚ": "rational", "Rat": "rational", "ℝ": "real", "Real": "real", "ℂ": "complex", "Complex": "complex",
}

// nounTypes are the number words of a noun phrase and the types (by
// numericTypes' word) a variable it binds may have: an integer may be
// stated in ℕ, a number in any.
var nounTypes = map[string][]string{
	"natural": {"natural"}, "naturals": {"natural"}, "integer": {"natural", "integer"}, "integers": {"natural", "integer"},
	"real": {"real"}, "reals": {"real"}, "rational": {"rational"}, "rationals": {"rational"}, "complex": {"complex"},
}

// AddOmittedConditions adds to stub, a checked candidate's text parsed as
// parsed, a hypothesis for every omitted condition of its statement (cov's
// uncovered conditions) that says what to assume of whom:
//   - a numeral comparison ("greater than 2", "positive", "nonzero", "at
//     least 3"), stated as a comparison;
//   - a divisibility by a numeral the statement assumes ("if a natural
//     number is divisible by 4"), stated as 4 ∣ n;
//   - a concept said of the statement's subject ("two odd integers"),
//     stated as the concept's predicate applied to the variable: a name
//     the stub already writes whose last component is the concept's word
//     (`Odd`), else one of the concept's premises so named (`Nat.Prime`,
//     `Prime`), else the library's root name for the word when has says
//     it exists (`Odd` when the premises of "odd" are lemmas about it).
//
// The variable is the one the statement's words bind: the variables the
// condition names when the stub binds each of them with a numeric type;
// else the binders of a numeric type the condition's noun allows
// ("integer": ℕ or ℤ; "number": any), when there is one, or as many as
// the statement counts ("two odd integers"); else the only such binder the
// noun's predicate is applied to (Nat.Prime n for "prime number").
// Anything less certain is left alone. Each hypothesis gets a fresh name
// and goes after the last binder.
//
// A comparison counted as covered is added too, for the variables it is
// said of to which values (a refuting counterexample's, which meets every
// hypothesis the stub states) gives a value that breaks it: "two positive
// reals" read as covered by the conclusion `0 < x * y`, refuted at x = 0,
// assumes 0 < x of nobody.
//
// It returns the repaired stubs, the first the most likely (a later one
// tries a concept's next predicate name), each with a note per hypothesis;
// none when there is nothing to add.
func AddOmittedConditions(parsed *leansrc.Stub, cov *coverage.Result, has func(string) bool, values map[string]*big.Rat) []Fix {
	if parsed == nil || cov == nil || len(parsed.Binders) == 0 {
		return nil
	}
	typed := map[string]string{} // variable → its numeric type's word
	var order []string
	for _, b := range parsed.Binders {
		word, ok := numericTypes[strings.TrimSpace(b.Type)]
		if !ok || b.Bracket == "[" {
			continue
		}
		for _, n := range b.Names {
			if n != "_" {
				typed[n] = word
				order = append(order, n)
			}
		}
	}
	if len(order) == 0 {
		return nil
	}
	stated := map[string]bool{}
	for _, b := range parsed.Binders {
		stated[strings.Join(strings.Fields(b.Type), " ")] = true
	}
	// each omission: the variables, and the propositions to try for each
	type omission struct {
		vars   []string
		props  func(v string, k int) string // the k-th proposition for v
		tries  int
		phrase string
	}
	var oms []omission
	for _, c := range cov.Conditions {
		var broken []string
		if c.Covered && c.Bound != nil {
			for _, v := range subjectVars(c.Subject, typed, order, parsed) {
				if x, ok := values[v]; ok && !holds(x, c.Bound) {
					broken = append(broken, v)
				}
			}
		}
		if c.Covered && len(broken) == 0 {
			continue
		}
		switch {
		case c.Bound != nil:
			vars := subjectVars(c.Subject, typed, order, parsed)
			if c.Covered {
				vars = broken
			}
			for _, v := range vars {
				if typed[v] == "complex" && c.Bound.Rel != "≠" {
					vars = nil // ℂ has no order
					break
				}
			}
			var keep []string
			for _, v := range vars {
				if !stated[comparison(v, c.Bound)] && !stated[mirrored(v, c.Bound)] {
					keep = append(keep, v) // said of a, b and c, stated of a and b
				}
			}
			b := c.Bound
			oms = append(oms, omission{keep, func(v string, _ int) string { return comparison(v, b) }, 1, c.Phrase})
		case c.Kind == coverage.KindOrder && c.Divisor != nil && c.Divisor.Left && !c.Divisor.Reversed:
			// a divisibility the statement assumes ("if n is divisible by 4"):
			// of its subject, in ℕ or ℤ
			var vars []string
			for _, v := range subjectVars(c.Subject, typed, order, parsed) {
				if typed[v] == "natural" || typed[v] == "integer" {
					vars = append(vars, v)
				}
			}
			d := c.Divisor.Value
			oms = append(oms, omission{vars, func(v string, _ int) string { return d + " ∣ " + v }, 1, c.Phrase})
		case c.Kind == coverage.KindConcept && c.Of != "":
			preds := predicates(parsed, c, has)
			if len(preds) == 0 {
				continue
			}
			oms = append(oms, omission{subjectVars(c.Subject, typed, order, parsed), func(v string, k int) string {
				return preds[min(k, len(preds)-1)] + " " + v
			}, len(preds), c.Phrase})
		}
	}
	tries := 0
	for _, o := range oms {
		tries = max(tries, o.tries)
	}
	var out []Fix
	seen := map[string]bool{}
	for k := range min(tries, maxPredicates) {
		used := map[string]bool{}
		for _, l := range parsed.Lexemes {
			used[l.Text] = true
		}
		var hyps, notes []string
		for _, o := range oms {
			for _, v := range o.vars {
				h := freshName("h"+v, used)
				used[h] = true
				prop := o.props(v, k)
				hyps = append(hyps, fmt.Sprintf("(%s : %s)", h, prop))
				notes = append(notes, fmt.Sprintf("added the hypothesis (%s : %s) for '%s', which the stub omitted", h, prop, o.phrase))
			}
		}
		if len(hyps) == 0 {
			break
		}
		end := parsed.Binders[len(parsed.Binders)-1].End
		stub := parsed.Text[:end] + " " + strings.Join(hyps, " ") + parsed.Text[end:]
		if !seen[stub] {
			seen[stub] = true
			out = append(out, Fix{Stub: stub, Notes: notes})
		}
	}
	return out
}

// nounType is the type a number noun of the statement names.
var nounType = map[string]string{"natural": "ℕ", "integer": "ℤ", "rational": "ℚ", "real": "ℝ", "complex": "ℂ"}

// RetypeToNoun gives the stub's numeric binders the type of the number
// noun the statement names and the stub omits ("for natural numbers a, b
// and c" stated over ℤ becomes ℕ), when every numeric binder has one and
// the same other type and the statement names no other number noun, so
// that the noun certainly binds them. The concept
// must be the noun alone ("natural", "natural numbers"), not a phrase it
// starts ("real part"). nil when there is nothing so certain to change.
func RetypeToNoun(parsed *leansrc.Stub, cov *coverage.Result) *Fix {
	if parsed == nil || cov == nil {
		return nil
	}
	want, phrase, nouns := "", "", 0
	for _, c := range cov.Conditions {
		ws := strings.Fields(conceptWord(c))
		if c.Kind != coverage.KindConcept || len(ws) == 0 || len(ws) > 2 || len(ws) == 2 && ws[1] != "number" {
			continue
		}
		if t, ok := nounType[ws[0]]; ok {
			nouns++
			if !c.Covered {
				want, phrase = t, c.Phrase
			}
		}
	}
	if want == "" || nouns > 1 {
		return nil // a second number noun ("a real x and a natural n"): which binder is whose is not certain
	}
	have := ""
	var bs []leansrc.StubBinder
	var names []string
	for _, b := range parsed.Binders {
		t := strings.TrimSpace(b.Type)
		if _, ok := numericTypes[t]; !ok || b.Bracket == "[" {
			continue
		}
		if have != "" && t != have {
			return nil
		}
		have = t
		bs = append(bs, b)
		names = append(names, b.Names...)
	}
	if have == "" || numericTypes[have] == numericTypes[want] {
		return nil
	}
	var out strings.Builder
	last := 0
	for _, b := range bs {
		at := b.Start + strings.LastIndex(parsed.Text[b.Start:b.End], have)
		out.WriteString(parsed.Text[last:at] + want)
		last = at + len(have)
	}
	out.WriteString(parsed.Text[last:])
	return &Fix{Stub: out.String(), Notes: []string{fmt.Sprintf("gave %s the type %s for '%s', which the stub stated over %s",
		strings.Join(names, ", "), want, phrase, have)}}
}

// Fix is one deterministic repair of a stub: its text and what changed.
type Fix struct {
	Stub  string
	Notes []string
}

// maxPredicates bounds the predicate names tried for one omitted concept
// (each try is one re-check).
const maxPredicates = 3

// predicates are the names that may state concept condition c of a
// variable, most likely first: the names parsed already writes (not a
// variable's field, n.Prime) whose last component is the concept's word
// (any case, singular), then c's premises so named.
func predicates(parsed *leansrc.Stub, c coverage.Condition, has func(string) bool) []string {
	named := func(n string) bool { return namesConcept(n, c) }
	bound := map[string]bool{}
	for _, b := range parsed.Binders {
		for _, n := range b.Names {
			bound[n] = true
		}
	}
	var out []string
	for _, l := range parsed.Lexemes {
		head, _, _ := strings.Cut(l.Text, ".")
		if l.Kind == leansrc.LexIdent && !bound[head] && named(l.Text) && !slices.Contains(out, l.Text) {
			out = append(out, l.Text)
		}
	}
	for _, n := range c.Names {
		if named(n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	// the library's own root name for the word, when no premise is one
	// (the premises of "odd" may be lemmas about Odd, not Odd)
	if w := conceptWord(c); len(out) == 0 && has != nil && w != "" {
		if n := strings.ToUpper(w[:1]) + w[1:]; has(n) {
			out = append(out, n)
		}
	}
	return out
}

// namesConcept reports whether name's last component is concept c's word
// (any case, a plural's s dropped): Odd for "odd", Nat.Prime for "primes".
func namesConcept(name string, c coverage.Condition) bool {
	return strings.ToLower(name[strings.LastIndexByte(name, '.')+1:]) == conceptWord(c)
}

// conceptWord is concept c's word in lower case, a plural's s dropped.
func conceptWord(c coverage.Condition) string {
	word := strings.ToLower(c.Phrase)
	if len(word) > 3 && strings.HasSuffix(word, "s") {
		word = word[:len(word)-1]
	}
	return word
}

// subjectVars returns the stub's variables a condition said of s binds:
// see AddOmittedConditions.
func subjectVars(s coverage.Subject, typed map[string]string, order []string, parsed *leansrc.Stub) []string {
	if len(s.Vars) > 0 {
		for _, v := range s.Vars {
			if typed[v] == "" {
				return nil
			}
		}
		return slices.Compact(slices.Clone(s.Vars))
	}
	allowed := map[string]bool{}
	var nounWords []string
	for _, w := range strings.Fields(s.Noun) {
		nounWords = append(nounWords, w)
		for _, t := range nounTypes[w] {
			allowed[t] = true
		}
	}
	var fits []string
	for _, v := range order {
		if len(allowed) == 0 || allowed[typed[v]] {
			fits = append(fits, v)
		}
	}
	if len(fits) == 1 || s.Count > 1 && len(fits) == s.Count {
		return fits
	}
	// the one the noun's predicate is applied to: Nat.Prime n, n.Prime
	var applied []string
	for _, v := range fits {
		if appliedTo(parsed, v, nounWords) {
			applied = append(applied, v)
		}
	}
	if len(applied) == 1 {
		return applied
	}
	return nil
}

// appliedTo reports whether a hypothesis binder of parsed applies a name
// whose last component is one of words (singular, any case) to v: `P v`,
// `Ns.P v` or `v.P`.
func appliedTo(parsed *leansrc.Stub, v string, words []string) bool {
	want := map[string]bool{}
	for _, w := range words {
		if _, number := nounTypes[w]; !number && w != "number" && w != "numbers" {
			want[strings.TrimSuffix(w, "s")] = true
		}
	}
	if len(want) == 0 {
		return false
	}
	last := func(name string) string {
		return strings.ToLower(name[strings.LastIndexByte(name, '.')+1:])
	}
	for _, b := range parsed.Binders {
		toks, _ := leansrc.Scan([]byte(b.Type))
		for i, t := range toks {
			if t.Kind != leansrc.TokIdent {
				continue
			}
			name := b.Type[t.Start:t.End]
			if strings.HasPrefix(name, v+".") && want[last(name)] {
				return true // n.Prime
			}
			if want[last(name)] && i+1 < len(toks) && b.Type[toks[i+1].Start:toks[i+1].End] == v {
				return true // Nat.Prime n
			}
		}
	}
	return false
}

// holds reports whether value x meets bound b (x > 0 for "positive"); a
// bound whose numeral does not parse holds.
func holds(x *big.Rat, b *coverage.Bound) bool {
	y, ok := new(big.Rat).SetString(b.Value)
	if !ok {
		return true
	}
	switch c := x.Cmp(y); b.Rel {
	case ">":
		return c > 0
	case "≥":
		return c >= 0
	case "<":
		return c < 0
	case "≤":
		return c <= 0
	case "≠":
		return c != 0
	case "=":
		return c == 0
	}
	return true
}

// counterexampleValues reads a falsifier's counterexample ("x = 0, y =
// -1/2") as the values of its variables; those that are no number are
// left out.
func counterexampleValues(ce string) map[string]*big.Rat {
	out := map[string]*big.Rat{}
	for _, part := range strings.Split(ce, ", ") {
		name, val, ok := strings.Cut(part, " = ")
		if !ok {
			continue
		}
		if x, ok := new(big.Rat).SetString(strings.TrimSpace(val)); ok {
			out[strings.TrimSpace(name)] = x
		}
	}
	return out
}

// comparison states v Rel Value the way Mathlib writes it: the numeral on
// the left of < and ≤.
func comparison(v string, b *coverage.Bound) string {
	switch b.Rel {
	case ">":
		return b.Value + " < " + v
	case "≥":
		return b.Value + " ≤ " + v
	}
	return v + " " + b.Rel + " " + b.Value
}

// mirrored states v Rel Value with the sides the other way round (v > 2,
// 0 < v for v ≠ 0's mirror 0 ≠ v).
func mirrored(v string, b *coverage.Bound) string {
	switch b.Rel {
	case ">":
		return v + " > " + b.Value
	case "≥":
		return v + " ≥ " + b.Value
	case "<":
		return b.Value + " > " + v
	case "≤":
		return b.Value + " ≥ " + v
	}
	return b.Value + " " + b.Rel + " " + v
}

// freshName returns base, or base with a prime or a subscript, whichever
// used lacks first.
func freshName(base string, used map[string]bool) string {
	if !used[base] {
		return base
	}
	if !used[base+"'"] {
		return base + "'"
	}
	for i := 1; ; i++ {
		n := fmt.Sprintf("%s_%d", base, i)
		if !used[n] {
			return n
		}
	}
}

// improves reports whether next, the report on a deterministically
// repaired stub, is strictly better than prev by the checks' order
// (checkedBetter, meaning included) with no new problem: every error and
// every omission of next was already in prev.
func improves(prev, next *leanrepl.Report) bool {
	if next == nil || !next.GatePassed {
		return false
	}
	if less, decided := checkedBetter(&Candidate{Check: next}, &Candidate{Check: prev}, true); !decided || !less {
		return false
	}
	had := map[string]bool{}
	for _, f := range prev.Findings() {
		had[f.Code+"\x00"+f.Message] = true
	}
	for _, f := range next.Findings() {
		if (f.Severity == leanrepl.SeverityError || f.Code == leanrepl.CodeCoverage) && !had[f.Code+"\x00"+f.Message] {
			return false
		}
	}
	return true
}

// fixOmissions widens a refuted c's ranges to the "from A to B" of its
// statement (WidenRanges), else makes a refuted c's conclusion the
// hypothesis its statement assumes (AssumeClause), else writes c's ∣ in
// the order its statement fixes (ReorderDivisors), else gives c's stub
// the number type its statement names (RetypeToNoun), else adds the
// hypotheses it omits
// (AddOmittedConditions), and keeps the first repair that improves on c's
// report; it reports whether one did.
func (pl *Pipeline) fixOmissions(ctx context.Context, res *Result, c *Candidate, header string) bool {
	if c.Check == nil || c.Check.Parsed == nil || c.Check.Parsed.Text != c.Stub {
		return false
	}
	has := func(n string) bool { _, ok := pl.r.Lookup(n); return ok }
	var values map[string]*big.Rat
	if c.Check.Refuted() && c.Check.Falsifier != nil {
		values = counterexampleValues(c.Check.Falsifier.Counterexample)
	}
	fixes := AddOmittedConditions(c.Check.Parsed, c.Check.Coverage, has, values)
	if f := RetypeToNoun(c.Check.Parsed, c.Check.Coverage); f != nil {
		fixes = append([]Fix{*f}, fixes...)
	}
	if f := ReorderDivisors(c.Stub, c.Check.Coverage); f != nil {
		fixes = append([]Fix{*f}, fixes...)
	}
	if c.Check.Refuted() {
		if f := AssumeClause(c.Check.Parsed, res.Statement, has); f != nil {
			fixes = append([]Fix{*f}, fixes...)
		}
		if f := WidenRanges(c.Stub, res.Statement); f != nil {
			fixes = append([]Fix{*f}, fixes...)
		}
	}
	for _, fix := range fixes {
		rep, err := pl.checker.Check(ctx, pl.checkRequest(res, header, fix.Stub, nil))
		if err != nil {
			return false
		}
		if improves(c.Check, rep) {
			c.Stub, c.Check = rep.Stub, rep
			c.Notes = append(c.Notes, fix.Notes...)
			return true
		}
	}
	return false
}

// ReorderDivisors swaps the arguments of every `x ∣ N` whose numeral N the
// statement puts on the other side of ∣ ("n is divisible by 6" written
// n ∣ 6 becomes 6 ∣ n; "n divides 6" written 6 ∣ n becomes n ∣ 6), for
// each order of ∣ the stub reverses (cov's uncovered KindOrder
// conditions), when the other argument is a single identifier or numeral,
// so that the swap changes nothing else. nil when there is none.
func ReorderDivisors(stub string, cov *coverage.Result) *Fix {
	if cov == nil {
		return nil
	}
	toks, _ := leansrc.Scan([]byte(stub))
	text := func(t leansrc.Token) string { return stub[t.Start:t.End] }
	simple := func(t leansrc.Token) bool { return t.Kind == leansrc.TokIdent || t.Kind == leansrc.TokNumber }
	type swap struct{ a, b leansrc.Token }
	var swaps []swap
	var notes []string
	for _, c := range cov.Conditions {
		if c.Covered || c.Kind != coverage.KindOrder || c.Divisor == nil {
			continue
		}
		n := 0
		for i := 1; i+1 < len(toks); i++ {
			if text(toks[i]) != "∣" || !simple(toks[i-1]) || !simple(toks[i+1]) {
				continue
			}
			num := toks[i-1] // the numeral is on the left: it wants the right
			if c.Divisor.Left {
				num = toks[i+1]
			}
			if num.Kind == leansrc.TokNumber && text(num) == c.Divisor.Value {
				swaps = append(swaps, swap{toks[i-1], toks[i+1]})
				n++
			}
		}
		if n > 0 {
			notes = append(notes, fmt.Sprintf("wrote ∣ the other way round for '%s'", c.Phrase))
		}
	}
	if len(swaps) == 0 {
		return nil
	}
	slices.SortFunc(swaps, func(x, y swap) int { return int(x.a.Start - y.a.Start) })
	var out strings.Builder
	last := int32(0)
	for _, s := range swaps {
		if s.a.Start < last {
			continue // overlapping swaps (1 ∣ 2 ∣ 3): leave the later one
		}
		out.WriteString(stub[last:s.a.Start] + text(s.b) + stub[s.a.End:s.b.Start] + text(s.a))
		last = s.b.End
	}
	out.WriteString(stub[last:])
	return &Fix{Stub: out.String(), Notes: notes}
}

// AscribeAppliedTypes rewrites every number type applied to one argument
// as a value, which Lean rejects ("function expected"), into a type
// ascription, the type as the stub writes it: `Real (x ^ 2)` becomes
// `(x ^ 2 : Real)`, `ℝ n` becomes `(n : ℝ)`
// — the cast a model means by it, which Lean inserts for a value of a
// smaller number type. Only findings (the light elaborator's, on stub)
// whose range is exactly such an application are rewritten, and not one
// that is a whole binder's type (`(h : Real x)` asserts nothing an
// ascription could). nil when there is none.
func AscribeAppliedTypes(stub string, fs []elab.Finding) *Fix {
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	var notes []string
	for _, f := range fs {
		if _, ok := numericTypes[f.Name]; !ok || f.Start < 0 || f.End > len(stub) || f.Start >= f.End {
			continue
		}
		app := stub[f.Start:f.End]
		arg, ok := strings.CutPrefix(app, f.Name)
		if !ok || arg == "" || arg[0] != ' ' && arg[0] != '(' {
			continue
		}
		arg = strings.TrimSpace(arg)
		if !singleArgument(arg) || binderType(stub, f.Start, f.End) {
			continue
		}
		if strings.HasPrefix(arg, "(") {
			arg = strings.TrimSpace(arg[1 : len(arg)-1])
		}
		edits = append(edits, edit{f.Start, f.End, "(" + arg + " : " + f.Name + ")"})
		notes = append(notes, fmt.Sprintf("wrote `%s` as the cast `(%s : %s)`", app, arg, f.Name))
	}
	if len(edits) == 0 {
		return nil
	}
	slices.SortFunc(edits, func(x, y edit) int { return x.start - y.start })
	var out strings.Builder
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue // nested applications: the outer one was rewritten
		}
		out.WriteString(stub[last:e.start] + e.text)
		last = e.end
	}
	out.WriteString(stub[last:])
	return &Fix{Stub: out.String(), Notes: notes}
}

// singleArgument reports whether arg is one argument of an application:
// one identifier or numeral, or one parenthesised group.
func singleArgument(arg string) bool {
	toks, errs := leansrc.Scan([]byte(arg))
	if len(errs) > 0 || len(toks) == 0 {
		return false
	}
	if len(toks) == 1 {
		return toks[0].Kind == leansrc.TokIdent || toks[0].Kind == leansrc.TokNumber
	}
	if arg[0] != '(' || arg[len(arg)-1] != ')' {
		return false
	}
	depth := 0
	for i, t := range toks {
		switch arg[t.Start:t.End] {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 && i != len(toks)-1 {
				return false // (a) (b): two arguments
			}
		}
	}
	return depth == 0
}

// binderType reports whether stub[start:end] is the whole type of a
// binder: `: ` before it and `)` after it.
func binderType(stub string, start, end int) bool {
	return strings.HasSuffix(strings.TrimRight(stub[:start], " "), ":") && strings.HasPrefix(strings.TrimLeft(stub[end:], " "), ")")
}

// fromToRE finds an inclusive range in words: "from 0 to n", "from $1$ to
// $n$", "for k from 1 to n", "from i = 1 to n".
var fromToRE = regexp.MustCompile(`\bfrom\s+(?:[A-Za-z]\s*=\s*)?([A-Za-z]\w*|\d+)\s+(?:up\s+)?to\s+([A-Za-z]\w*|\d+)\b`)

// WidenRanges rewrites `Finset.range B` (or `range B`) as the range the
// statement's "from A to B" names, which includes B: `Finset.range (B +
// 1)` from 0, `Finset.Icc A B` from another A. A refuted stub whose sum
// stops one short ("the numbers from 0 to n" written ∑ i ∈ range n) is the
// case; the caller keeps the result only if it checks better. nil when the
// statement names no such range or the stub writes none of them.
func WidenRanges(stub, statement string) *Fix {
	plain := strings.NewReplacer("$", "", "\\(", "", "\\)", "").Replace(statement)
	toks, _ := leansrc.Scan([]byte(stub))
	text := func(t leansrc.Token) string { return stub[t.Start:t.End] }
	var out strings.Builder
	var notes []string
	last := int32(0)
	for _, m := range fromToRE.FindAllStringSubmatch(plain, -1) {
		a, b := m[1], m[2]
		for i := 0; i+1 < len(toks); i++ {
			name := text(toks[i])
			if name != "Finset.range" && name != "range" || text(toks[i+1]) != b || toks[i].Start < last {
				continue
			}
			wide := name + " (" + b + " + 1)"
			if a != "0" {
				wide = strings.TrimSuffix(name, "range") + "Icc " + a + " " + b
			}
			out.WriteString(stub[last:toks[i].Start] + wide)
			last = toks[i+1].End
			notes = append(notes, fmt.Sprintf("wrote the range '%s' to include %s: %s", m[0], b, wide))
		}
	}
	if len(notes) == 0 {
		return nil
	}
	out.WriteString(stub[last:])
	return &Fix{Stub: out.String(), Notes: notes}
}

// whoseRE reads a statement of the shape "A real number whose square is
// zero is zero": the noun, the clause the noun's variable is assumed to
// meet, and the predicate the statement claims of it.
var whoseRE = regexp.MustCompile(`(?i)^\s*(?:a|an|any|every|each)\s+([a-z ]+?)\s+whose\s+(.+?)\s+is\s+(.+?)\s+(?:is|must be)\s+(?:also\s+|itself\s+)?(.+?)\s*\.?\s*$`)

// divisibleRE reads "divisible by 3" and "a multiple of 3".
var divisibleRE = regexp.MustCompile(`^(?:divisible by|a multiple of)\s+(\d+)$`)

// claimedOf states predicate word p ("zero", "positive", "even",
// "divisible by 3") of v the way Mathlib writes it; "" for any other.
// The names Even, Odd and Nat.Prime are stated only when has has them.
func claimedOf(p, v, typeWord string, has func(string) bool) string {
	switch p = strings.ToLower(strings.Join(strings.Fields(p), " ")); p {
	case "zero", "0":
		return v + " = 0"
	case "nonzero", "non-zero", "not zero":
		return v + " ≠ 0"
	case "positive":
		return "0 < " + v
	case "negative":
		return v + " < 0"
	case "nonnegative", "non-negative":
		return "0 ≤ " + v
	case "nonpositive", "non-positive":
		return v + " ≤ 0"
	case "even", "odd":
		if n := strings.ToUpper(p[:1]) + p[1:]; has(n) && typeWord != "real" && typeWord != "complex" {
			return n + " " + v
		}
	case "prime", "a prime":
		if typeWord == "natural" && has("Nat.Prime") {
			return "Nat.Prime " + v
		}
	}
	if m := divisibleRE.FindStringSubmatch(p); m != nil && (typeWord == "natural" || typeWord == "integer") {
		return m[1] + " ∣ " + v
	}
	return ""
}

// namesQuantity reports whether Lean text concl writes the quantity of v
// a clause names ("square": v ^ 2 or v * v; "cube": v ^ 3; "absolute
// value": |v| or abs; "double": 2 * v); false for a quantity it does not
// know.
func namesQuantity(concl, quantity, v string) bool {
	c := strings.Join(strings.Fields(concl), " ")
	var forms []string
	switch strings.ToLower(strings.Join(strings.Fields(quantity), " ")) {
	case "square":
		forms = []string{v + " ^ 2", v + " * " + v, v + "^2", "sq " + v}
	case "cube":
		forms = []string{v + " ^ 3", v + "^3"}
	case "absolute value":
		forms = []string{"|" + v + "|", "abs " + v, "abs (" + v}
	case "double":
		forms = []string{"2 * " + v}
	}
	for _, f := range forms {
		if strings.Contains(c, f) {
			return true
		}
	}
	return false
}

// AssumeClause restates a refuted stub whose conclusion is the condition
// its statement assumes ("A real number whose square is zero is zero"
// written `x ^ 2 = 0`) as that condition's hypothesis and the statement's
// claim: `(h : x ^ 2 = 0) : x = 0`. Only when the statement has that shape,
// the stub binds exactly one variable of the noun's number type, its
// conclusion writes the clause's quantity of that variable (namesQuantity),
// has no → or ∀ of its own and is not already the claim, and the claim is
// one claimedOf states. nil otherwise;
// the caller keeps it only if it checks better.
func AssumeClause(parsed *leansrc.Stub, statement string, has func(string) bool) *Fix {
	plain := strings.NewReplacer("$", "", "\\(", "", "\\)", "").Replace(statement)
	m := whoseRE.FindStringSubmatch(plain)
	if parsed == nil || m == nil || len(parsed.Binders) == 0 {
		return nil
	}
	allowed := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(m[1])) {
		for _, t := range nounTypes[w] {
			allowed[t] = true
		}
	}
	v, typeWord := "", ""
	for _, b := range parsed.Binders {
		word, ok := numericTypes[strings.TrimSpace(b.Type)]
		if !ok || b.Bracket != "(" || !allowed[word] {
			continue
		}
		for _, n := range b.Names {
			if v != "" {
				return nil // which variable the noun binds is not certain
			}
			v, typeWord = n, word
		}
	}
	if v == "" {
		return nil
	}
	claim := claimedOf(m[4], v, typeWord, has)
	concl := strings.TrimSpace(parsed.Type)
	if claim == "" || strings.Join(strings.Fields(concl), " ") == claim {
		return nil
	}
	if !namesQuantity(concl, m[2], v) {
		return nil // the conclusion is not the clause: nothing to move
	}
	mentions := false
	for _, l := range parsed.Lexemes {
		if l.Start < parsed.TypeStart || l.End > parsed.TypeEnd {
			continue
		}
		switch l.Text {
		case v:
			mentions = true
		case "→", "->", "∀", "↔", "∃":
			return nil
		}
	}
	if !mentions {
		return nil
	}
	used := map[string]bool{}
	for _, l := range parsed.Lexemes {
		used[l.Text] = true
	}
	h := freshName("h"+v, used)
	end := parsed.Binders[len(parsed.Binders)-1].End
	stub := parsed.Text[:end] + fmt.Sprintf(" (%s : %s) : %s", h, concl, claim) + parsed.Text[parsed.TypeEnd:]
	return &Fix{Stub: stub, Notes: []string{fmt.Sprintf("assumed '%s is %s' as (%s : %s) and stated '%s' as %s: the stub's conclusion was the condition the statement assumes",
		m[2], m[3], h, concl, m[4], claim)}}
}
