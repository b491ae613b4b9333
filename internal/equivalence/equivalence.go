// Package equivalence compares two theorem statements, a candidate and a
// reference: equal after normalisation (alpha-renaming, hypothesis order,
// ≥ and > read as ≤ and <, ¬(a = b) as a ≠ b, binder grouping), or
// disagreeing on an assignment of the falsifier's fragment where both are
// defined.
package equivalence

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// Statement is a theorem's signature: its binders and its conclusion.
type Statement = falsify.Statement

// maxPermuted bounds the variables whose correspondences are tried (6! = 720).
const maxPermuted = 6

// shape is a statement split into variables, hypotheses and conclusion,
// with its terms parsed.
type shape struct {
	vars  []variable
	hyps  []*leansrc.Term
	concl *leansrc.Term
	// texts are the hypotheses' and the conclusion's source texts, in
	// order (conclusion last), for Disagree.
	texts []string
}

type variable struct {
	name string
	typ  *leansrc.Term
	src  string // the type's source text
}

// split reads st: a binder whose names the other binders or the conclusion
// use is a variable, every other binder a hypothesis; leading ∀ binders
// and → premises of the conclusion become variables and hypotheses too.
func split(st Statement) shape {
	var s shape
	concl := leansrc.ParseTerm(st.Conclusion, nil)
	used := map[string]bool{}
	mark := func(t *leansrc.Term) { identsOf(t, used) }
	mark(concl)
	types := make([]*leansrc.Term, len(st.Binders))
	for i, b := range st.Binders {
		types[i] = leansrc.ParseTerm(b.Type, nil)
		mark(types[i])
	}
	for i, b := range st.Binders {
		isVar := false
		for _, n := range b.Names {
			isVar = isVar || used[n]
		}
		if isVar {
			for _, n := range b.Names {
				s.vars = append(s.vars, variable{n, types[i], b.Type})
			}
			continue
		}
		for range max(len(b.Names), 1) {
			s.hyps = append(s.hyps, types[i])
			s.texts = append(s.texts, b.Type)
		}
	}
	for {
		switch {
		case concl.Kind == leansrc.TermForall && allTyped(concl.Binders):
			for _, b := range concl.Binders {
				for _, n := range b.Names {
					s.vars = append(s.vars, variable{n, b.Type, st.Conclusion[b.Type.Start:b.Type.End]})
				}
			}
			concl = concl.Args[0]
			continue
		case concl.Kind == leansrc.TermInfix && concl.Text == "→":
			s.hyps = append(s.hyps, concl.Args[0])
			s.texts = append(s.texts, st.Conclusion[concl.Args[0].Start:concl.Args[0].End])
			concl = concl.Args[1]
			continue
		}
		break
	}
	s.concl = concl
	s.texts = append(s.texts, st.Conclusion[concl.Start:concl.End])
	return s
}

func allTyped(bs []leansrc.Binder) bool {
	for _, b := range bs {
		if b.Type == nil || b.Pred != "" {
			return false
		}
	}
	return len(bs) > 0
}

// identsOf adds the identifiers of t (the head of a dotted one) to set.
func identsOf(t *leansrc.Term, set map[string]bool) {
	if t == nil {
		return
	}
	if t.Kind == leansrc.TermIdent {
		head, _, _ := strings.Cut(t.Text, ".")
		set[head] = true
		set[t.Text] = true
	}
	for _, a := range t.Args {
		identsOf(a, set)
	}
	for _, b := range t.Binders {
		identsOf(b.Type, set)
		identsOf(b.Bound, set)
	}
}

// Equal reports whether a and b are the same statement after
// normalisation: some correspondence of their variables (of equal types)
// makes their variable types, their sets of hypotheses and their
// conclusions print alike.
func Equal(a, b Statement) bool {
	sa, sb := split(a), split(b)
	if len(sa.vars) != len(sb.vars) || len(sa.hyps) != len(sb.hyps) || len(sa.vars) > maxPermuted {
		return false
	}
	ident := make([]int, len(sa.vars))
	for i := range ident {
		ident[i] = i
	}
	want := sa.canonical(ident)
	found := false
	permute(len(sb.vars), func(p []int) bool {
		found = sb.canonical(p) == want
		return found
	})
	return found
}

// canonical prints s with variable perm[i] named v<i>: the variables'
// types, the sorted hypotheses and the conclusion.
func (s shape) canonical(perm []int) string {
	env := map[string]string{}
	for i, j := range perm {
		env[s.vars[j].name] = "v" + strconv.Itoa(i)
	}
	var b strings.Builder
	for i := range perm {
		b.WriteString(normal(s.vars[perm[i]].typ, env, 0))
		b.WriteByte(';')
	}
	hyps := make([]string, len(s.hyps))
	for i, h := range s.hyps {
		hyps[i] = normal(h, env, 0)
	}
	sort.Strings(hyps)
	b.WriteString(strings.Join(hyps, ";"))
	b.WriteString("⊢")
	b.WriteString(normal(s.concl, env, 0))
	return b.String()
}

// Assumed reports whether st states nothing: its conclusion, after
// normalisation, is one of its hypotheses (a binder that is no variable,
// or a premise of the conclusion's →), or `True`. It returns that
// hypothesis's text ("" for True).
func Assumed(st Statement) (string, bool) {
	s := split(st)
	if s.concl != nil && s.concl.Kind == leansrc.TermIdent && s.concl.Text == "True" {
		return "", true
	}
	concl := normal(s.concl, nil, 0)
	for i, h := range s.hyps {
		if normal(h, nil, 0) == concl {
			return s.texts[i], true
		}
	}
	return "", false
}

// reflexive are the relations every term has to itself.
var reflexive = map[string]bool{"=": true, "≤": true, "≥": true, "↔": true, "∣": true, "⊆": true}

// Reflexive reports whether st states nothing because its conclusion,
// after its ∀ binders and → premises, relates a term to itself by a
// reflexive relation after normalisation (`(-1 : ℝ) = (-1 : ℝ)`, `a ∣ a`).
// It returns the conclusion's text.
func Reflexive(st Statement) (string, bool) {
	s := split(st)
	c := s.concl
	if c == nil || c.Kind != leansrc.TermInfix || !reflexive[c.Text] || len(c.Args) != 2 ||
		normal(c.Args[0], nil, 0) != normal(c.Args[1], nil, 0) {
		return "", false
	}
	return s.texts[len(s.texts)-1], true
}

// permute calls f with every permutation of 0..n-1 until f returns true.
func permute(n int, f func([]int) bool) {
	p := make([]int, n)
	used := make([]bool, n)
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == n {
			return f(p)
		}
		for i := 0; i < n; i++ {
			if !used[i] {
				used[i], p[k] = true, i
				if rec(k + 1) {
					return true
				}
				used[i] = false
			}
		}
		return false
	}
	rec(0)
}

// flipped are the relations read the other way round.
var flipped = map[string]string{"≥": "≤", ">": "<"}

// normal writes t in a normal form: variables renamed by env, bound
// variables by their depth, ≥ and > flipped, ¬(a = b) as a ≠ b.
func normal(t *leansrc.Term, env map[string]string, depth int) string {
	if t == nil {
		return "_"
	}
	kind, op, args := t.Kind, t.Text, t.Args
	switch kind {
	case leansrc.TermIdent:
		head, rest, dotted := strings.Cut(t.Text, ".")
		if v, ok := env[head]; ok {
			if dotted {
				return v + "." + rest
			}
			return v
		}
		return t.Text
	case leansrc.TermNum, leansrc.TermUnsupported:
		return t.Text
	case leansrc.TermInfix:
		if to, ok := flipped[op]; ok {
			op, args = to, []*leansrc.Term{args[1], args[0]}
		}
	case leansrc.TermPrefix:
		if a := args[0]; op == "¬" && a.Kind == leansrc.TermInfix && a.Text == "=" {
			kind, op, args = leansrc.TermInfix, "≠", a.Args
		}
	}
	inner := env
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(strconv.Itoa(int(kind)))
	b.WriteString(op)
	if len(t.Binders) > 0 {
		inner = make(map[string]string, len(env)+2)
		for k, v := range env {
			inner[k] = v
		}
		for _, bd := range t.Binders {
			for _, n := range bd.Names {
				b.WriteString(" [" + normal(bd.Type, inner, depth) + " " + bd.Pred + " " + normal(bd.Bound, inner, depth) + "]")
				inner[n] = "#" + strconv.Itoa(depth)
				depth++
			}
		}
	}
	for _, a := range args {
		b.WriteString(" ")
		b.WriteString(normal(a, inner, depth))
	}
	b.WriteString(")")
	return b.String()
}

// Verdict is Disagree's outcome.
type Verdict int

// The verdicts of Disagree.
const (
	// Undecided: the falsifier could not compare them (outside its
	// fragment, or no correspondence of their variables).
	Undecided Verdict = iota
	// Agree: under some correspondence of variables, no assignment tried
	// told them apart.
	Agree
	// Disagree: under every correspondence of variables, an assignment
	// where both are defined makes one true and the other false.
	Disagree
)

// String names the verdict: "undecided", "agree" or "disagree".
func (v Verdict) String() string {
	switch v {
	case Agree:
		return "agree"
	case Disagree:
		return "disagree"
	}
	return "undecided"
}

// Compare evaluates a and b with the falsifier on common assignments of
// their variables (matched in every way their types allow), with lib
// resolving the names of both.
func Compare(ctx context.Context, a, b Statement, lib falsify.Library, opt falsify.Options) Verdict {
	sa, sb := split(a), split(b)
	if len(sa.vars) != len(sb.vars) || len(sa.vars) > maxPermuted {
		return Undecided
	}
	verdict := Undecided
	matched, refuted := 0, 0
	permute(len(sb.vars), func(p []int) bool {
		st, ok := iff(sa, sb, p)
		if !ok {
			return false
		}
		matched++
		switch falsify.Falsify(ctx, st, lib, opt).Verdict {
		case falsify.NotRefuted:
			verdict = Agree
			return true
		case falsify.Refuted:
			refuted++
		}
		return false
	})
	if verdict == Undecided && matched > 0 && refuted == matched {
		verdict = Disagree
	}
	return verdict
}

// iff builds the statement "a's implication ↔ b's implication" over a's
// variables, b's variable perm[i] renamed to a's i-th; ok is false when
// the types do not match.
func iff(sa, sb shape, perm []int) (Statement, bool) {
	var st Statement
	ren := map[string]string{}
	for i, j := range perm {
		ta, tb := sa.vars[i].typ, sb.vars[j].typ
		if normal(ta, nil, 0) != normal(tb, nil, 0) {
			return st, false
		}
		ren[sb.vars[j].name] = varName(i)
		st.Binders = append(st.Binders, falsify.Param{Names: []string{varName(i)}, Type: sa.vars[i].src, Explicit: true})
	}
	renA := map[string]string{}
	for i, v := range sa.vars {
		renA[v.name] = varName(i)
	}
	st.Conclusion = "(" + implication(sa.texts, renA) + ") ↔ (" + implication(sb.texts, ren) + ")"
	return st, true
}

// varName names the i-th common variable of Compare's statement.
func varName(i int) string { return "eqv_" + strconv.Itoa(i) }

// implication joins hypothesis and conclusion texts with →, renaming
// variables token by token.
func implication(texts []string, ren map[string]string) string {
	parts := make([]string, len(texts))
	for i, t := range texts {
		parts[i] = "(" + rename(t, ren) + ")"
	}
	return strings.Join(parts, " → ")
}

// rename replaces the identifiers of src (or the head of a dotted one)
// that ren maps.
func rename(src string, ren map[string]string) string {
	toks, _ := leansrc.Scan([]byte(src))
	var b strings.Builder
	last := 0
	for _, t := range toks {
		if t.Kind != leansrc.TokIdent {
			continue
		}
		id := src[t.Start:t.End]
		head, rest, dotted := strings.Cut(id, ".")
		to, ok := ren[head]
		if !ok {
			continue
		}
		b.WriteString(src[last:t.Start])
		b.WriteString(to)
		if dotted {
			b.WriteString("." + rest)
		}
		last = int(t.End)
	}
	b.WriteString(src[last:])
	return b.String()
}
