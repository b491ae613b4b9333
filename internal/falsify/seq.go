package falsify

import (
	"sort"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// seqPrefix marks the names of sequence variables defined by recursion.
const seqPrefix = "·seq·"

// maxSeq bounds the index of a sequence term that is computed.
const maxSeq = 4096

// seqDef is a sequence variable a : ℕ → T that hypotheses define by
// recursion: a 0 = e₀, …, a (k-1) = e_{k-1} and ∀ n, a (n + k) = e(n, a n, …,
// a (n + k - 1)). Only that sequence satisfies them, so the search takes it
// and drops those hypotheses.
type seqDef struct {
	id    int
	k     int64
	bases []nexpr
	rule  nexpr
	nslot int
	t     kind
	deps  uint64
}

// seqRule is the recursion rule being compiled: inside it, a (n + j) reads
// the values computed so far.
type seqRule struct {
	name  string
	nslot int
	id    int
	k     int64
	t     kind
}

// at computes a(m) for the assignment in e, extending the cached prefix.
func (d *seqDef) at(e *env, m int64) (num, bool) {
	if m < 0 || m > maxSeq {
		return num{}, false
	}
	sc := &e.seqs[d.id]
	if sc.gen != e.gen {
		sc.vals, sc.gen = sc.vals[:0], e.gen
	}
	if sc.busy {
		return num{}, false // a sequence whose rule needs itself through another
	}
	sc.busy = true
	defer func() { e.seqs[d.id].busy = false }()
	for int64(len(e.seqs[d.id].vals)) <= m {
		i := int64(len(e.seqs[d.id].vals))
		if !e.tick() {
			return num{}, false
		}
		var v num
		var ok bool
		if i < d.k {
			v, ok = d.bases[i].f(e)
		} else {
			saved := e.v[d.nslot]
			e.v[d.nslot] = small(i - d.k)
			v, ok = d.rule.f(e)
			e.v[d.nslot] = saved
		}
		if !ok {
			return num{}, false
		}
		e.seqs[d.id].vals = append(e.seqs[d.id].vals, v)
	}
	return e.seqs[d.id].vals[m], true
}

// seqApply compiles a(arg) for a sequence variable.
func (c *compiler) seqApply(name string, args []*leansrc.Term) (nexpr, bool) {
	if len(args) != 1 {
		c.failf("%s applied to %d arguments", name, len(args))
		return nexpr{}, false
	}
	if r := c.rule; r != nil && r.name == name {
		j, ok := c.ruleOffset(args[0], r)
		if !ok || j >= r.k {
			c.failf("%s (%s) in its own recursion", name, clip(args[0]))
			return nexpr{}, false
		}
		id, ns := r.id, r.nslot
		return nexpr{f: func(e *env) (num, bool) {
			return e.seqs[id].vals[e.v[ns].n+j], true
		}, t: r.t, deps: slotBit(ns)}, true
	}
	d := c.seqs[name]
	m, ok := c.argAs(args[0], kNat)
	if !ok {
		return nexpr{}, false
	}
	fm := m.f
	return nexpr{f: func(e *env) (num, bool) {
		x, ok := fm(e)
		if !ok {
			return num{}, false
		}
		i, ok := x.int64()
		if !ok {
			return num{}, false
		}
		return d.at(e, i)
	}, t: d.t, deps: m.deps | d.deps}, true
}

// ruleOffset reads the argument of a(…) inside a recursion rule: n is 0,
// n + j (or j + n) is j.
func (c *compiler) ruleOffset(t *leansrc.Term, r *seqRule) (int64, bool) {
	isN := func(x *leansrc.Term) bool {
		b, ok := c.local(x.Text)
		return x.Kind == leansrc.TermIdent && ok && b.slot == r.nslot
	}
	if isN(t) {
		return 0, true
	}
	if t.Kind == leansrc.TermInfix && t.Text == "+" {
		for side := 0; side < 2; side++ {
			if isN(t.Args[side]) && t.Args[1-side].Kind == leansrc.TermNum {
				if v, ok := literal(t.Args[1-side].Text); ok {
					return v.int64()
				}
			}
		}
	}
	return 0, false
}

// defineSeqs finds, for each variable a : ℕ → T, base hypotheses a c = e
// for c < k and one rule ∀ n, a (n + k) = e, and defines a by them; it
// returns the hypotheses it used, which hold by construction.
func (c *compiler) defineSeqs(hyps []*leansrc.Term, opaque map[string]*leansrc.Term) map[*leansrc.Term]bool {
	used := map[*leansrc.Term]bool{}
	names := make([]string, 0, len(opaque))
	for a := range opaque {
		names = append(names, a)
	}
	sort.Strings(names)
	// a rule may read another sequence: define until nothing changes
	for progress := true; progress; {
		progress = false
		for _, a := range names {
			if c.seqs[a] == nil && c.defineSeq(a, opaque[a], hyps, used) {
				progress = true
			}
		}
	}
	return used
}

// defineSeq defines the sequence variable a of type ty when the hypotheses
// give its recursion, recording the hypotheses it used.
func (c *compiler) defineSeq(a string, ty *leansrc.Term, hyps []*leansrc.Term, used map[*leansrc.Term]bool) bool {
	{
		parts := arrowParts(ty)
		if len(parts) != 2 || typeOf(parts[0]) != kNat || !typeOf(parts[1]).numeric() {
			return false
		}
		t := typeOf(parts[1])
		bases := map[int64]*leansrc.Term{}
		baseHyp := map[int64]*leansrc.Term{}
		var rule, ruleHyp *leansrc.Term
		var n string
		k := int64(-1)
		rules := 0
		for _, h := range hyps {
			if h.Kind == leansrc.TermInfix && h.Text == "=" {
				for side := 0; side < 2; side++ {
					app, rhs := h.Args[side], h.Args[1-side]
					if isApp(app, a) && app.Args[1].Kind == leansrc.TermNum && !c.mentions(rhs, a) {
						if v, ok := literal(app.Args[1].Text); ok && v.isInt() && v.sign() >= 0 {
							i, _ := v.int64()
							if _, dup := bases[i]; !dup {
								bases[i], baseHyp[i] = rhs, h
							}
						}
						break
					}
				}
				continue
			}
			if h.Kind != leansrc.TermForall || len(h.Binders) != 1 || len(h.Binders[0].Names) != 1 || h.Binders[0].Pred != "" ||
				(h.Binders[0].Type != nil && typeOf(h.Binders[0].Type) != kNat) || h.Args[0].Kind != leansrc.TermInfix || h.Args[0].Text != "=" {
				continue
			}
			eq, name := h.Args[0], h.Binders[0].Names[0]
			for side := 0; side < 2; side++ {
				app := eq.Args[side]
				if !isApp(app, a) {
					continue
				}
				arg := app.Args[1]
				if arg.Kind == leansrc.TermInfix && arg.Text == "+" && arg.Args[0].Kind == leansrc.TermIdent && arg.Args[0].Text == name &&
					arg.Args[1].Kind == leansrc.TermNum {
					if v, ok := literal(arg.Args[1].Text); ok && v.isInt() && v.sign() > 0 {
						rules++
						rule, ruleHyp, n = eq.Args[1-side], h, name
						k, _ = v.int64()
					}
				}
				break
			}
		}
		if rules != 1 || k < 1 || k > 8 {
			return false
		}
		complete := true
		for i := int64(0); i < k; i++ {
			if bases[i] == nil {
				complete = false
			}
		}
		if !complete {
			return false
		}
		d := &seqDef{id: c.nseqs, k: k, t: t}
		ok := true
		for i := int64(0); i < k && ok; i++ {
			e, good := c.argAs(bases[i], t)
			ok = good
			d.bases = append(d.bases, e)
			d.deps |= e.deps
		}
		if !ok {
			return false
		}
		b, done := c.bind(ruleHyp, 0, n, kNat)
		c.rule = &seqRule{name: a, nslot: b.slot, id: d.id, k: k, t: t}
		e, good := c.argAs(rule, t)
		c.rule = nil
		done()
		if !good {
			return false
		}
		d.rule, d.nslot = e, b.slot
		d.deps |= e.deps &^ slotBit(b.slot)
		c.seqs[a] = d
		c.nseqs++
		used[ruleHyp] = true
		for i := int64(0); i < k; i++ {
			used[baseHyp[i]] = true
		}
		return true
	}
}

// isApp reports whether t is the application of the variable a to one
// argument.
func isApp(t *leansrc.Term, a string) bool {
	return t.Kind == leansrc.TermApp && len(t.Args) == 2 && t.Args[0].Kind == leansrc.TermIdent && t.Args[0].Text == a
}
