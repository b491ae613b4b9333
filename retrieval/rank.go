package retrieval

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// Ranking holds the switches and weights of premise ranking; the zero value
// is not useful, start from DefaultRanking.
type Ranking struct {
	// Lexical enables the BM25 channel over premise-like declarations.
	Lexical bool
	// PRF enables pseudo-relevance feedback through the graph: theorems that
	// match the query vote for the declarations their statements use.
	PRF bool
	// Names enables the name channel for identifier-like query tokens.
	Names bool
	// Dense enables the embedding channel when vectors are available.
	Dense bool
	// LaTeX enables LaTeX understanding in the query analyzer (\mathbb{R} →
	// real, \mid → dvd).
	LaTeX bool
	// KindPrior favours definitions, structures and classes over fields.
	KindPrior bool
	// Popularity weights the graph in-degree prior.
	Popularity float64
	// NotationPenalty scales down constants that a notation stands for.
	NotationPenalty float64
	// UserBoost multiplies the score of the user's own declarations.
	UserBoost float64
	// LexWeight, PRFWeight, NameWeight and DenseWeight weight the channels.
	LexWeight, PRFWeight, NameWeight, DenseWeight float64
	// LexDepth and PRFDepth are how many hits each channel looks at.
	LexDepth, PRFDepth int
	// NameField, NSField and DocField weight the fields of the lexical
	// premise score; Coverage is the exponent on the share of a name's terms
	// that the query covers. DocField (0.5) is the premise ranking's
	// docstring weight (Retrieve, for a statement); search (Search, for a
	// phrase: the search command, workspace symbols, MCP search) ranks by
	// searchWeights, whose Doc (0.35) weighs the docstring's text apart
	// from its lead sentence and bold terms: two rankings, each tuned on
	// its own task (docs/retrieval.md).
	NameField, NSField, DocField, Coverage float64
}

// DefaultRanking is the configuration chosen by the ProofNet ablation (see
// docs/retrieval.md).
var DefaultRanking = Ranking{
	Lexical: true, PRF: true, Names: true, Dense: true, KindPrior: true, LaTeX: true,
	Popularity: 0.8, NotationPenalty: 1, UserBoost: 1.5,
	LexWeight: 1, PRFWeight: 1.2, NameWeight: 1, DenseWeight: 0.5,
	LexDepth: 300, PRFDepth: 60,
	NameField: 1, NSField: 0.3, DocField: 0.5, Coverage: 1,
}

// scored accumulates a candidate's score and the rank at which each channel
// found it.
type scored struct {
	slot     int32
	id       string
	score    float64
	channels map[string]int
}

// rankPremises ranks candidate premises for an informal text and an optional
// formal guess; the theorem named leaveOut, if any, casts no vote in the
// graph feedback.
func (e *Engine) rankPremises(ctx context.Context, s *snapshot, text, formal, leaveOut string, n int, r Ranking) ([]Hit, error) {
	terms := lexical.TermsLaTeX(text+"\n"+formal, r.LaTeX)
	cands := map[int32]*scored{}
	get := func(sl int32) *scored {
		c := cands[sl]
		if c == nil {
			c = &scored{slot: sl, id: docID(s.decl(sl)), channels: map[string]int{}}
			cands[sl] = c
		}
		return c
	}
	if r.Lexical && len(terms) > 0 {
		sc := s.premiseScores(terms, r)
		top := 0.0
		for _, v := range sc {
			top = max(top, v)
		}
		if top > 0 {
			for i, sl := range s.topSlots(sc, r.LexDepth) {
				c := get(sl)
				c.score += r.LexWeight * sc[sl] / top
				c.channels["lexical"] = i + 1
			}
		}
	}
	if r.PRF && len(terms) > 0 {
		slots, scores := s.theoremScores(terms, r.PRFDepth)
		votes := map[string]float64{}
		for i, sl := range slots {
			d := s.decl(sl)
			if len(d.StatementDeps) == 0 || d.Name == leaveOut {
				continue
			}
			w := scores[i] / scores[0] / math.Sqrt(float64(len(d.StatementDeps)))
			for _, dep := range uniq(d.StatementDeps) {
				votes[dep] += w
			}
		}
		type v struct {
			name string
			w    float64
		}
		var vs []v
		for name, w := range votes {
			vs = append(vs, v{name, w})
		}
		sort.Slice(vs, func(i, j int) bool {
			if vs[i].w != vs[j].w {
				return vs[i].w > vs[j].w
			}
			return vs[i].name < vs[j].name
		})
		if len(vs) > 0 {
			top := vs[0].w
			for i, x := range vs {
				for _, sl := range s.slotsOf(x.name) {
					if premiseKind(s.decl(sl).Kind) == 0 {
						continue
					}
					c := get(sl)
					c.score += r.PRFWeight * x.w / top
					c.channels["graph"] = i + 1
				}
			}
		}
	}
	if x := e.dense.Load(); r.Dense && x != nil {
		slots, sims := x.search(ctx, s, text+" "+formal, r.LexDepth)
		if len(slots) > 1 {
			hi, lo := sims[0], sims[len(sims)-1]
			for i, sl := range slots {
				if hi > lo {
					c := get(sl)
					c.score += r.DenseWeight * float64((sims[i]-lo)/(hi-lo))
					c.channels["dense"] = i + 1
				}
			}
		}
	}
	if r.Names {
		for i, name := range e.nameMatches(s, text, formal) {
			for _, sl := range s.slotsOf(name) {
				c := get(sl)
				c.score += r.NameWeight
				c.channels["names"] = i + 1
			}
		}
	}
	var out []*scored
	for _, c := range cands {
		d := s.decl(c.slot)
		pk := premiseKind(d.Kind)
		if pk == 0 {
			continue
		}
		if r.KindPrior {
			c.score *= pk
		}
		c.score *= 1 + r.Popularity*s.popularity(d.Name)
		if s.notationTarget(d.Name) {
			c.score *= r.NotationPenalty
		}
		if d.User {
			c.score *= r.UserBoost
		}
		out = append(out, c)
	}
	sortScored(out)
	hits := make([]Hit, 0, n)
	seen := map[string]bool{}
	for _, c := range out {
		d := s.decl(c.slot)
		if seen[d.Name] {
			continue
		}
		seen[d.Name] = true
		hits = append(hits, Hit{Decl: d, Score: c.score, Channels: c.channels})
		if len(hits) == n {
			break
		}
	}
	return hits, nil
}

// sortScored orders candidates by score, then by document ID.
func sortScored(out []*scored) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
	})
}

// topSlots returns the n best-scoring slots, best first.
func (s *snapshot) topSlots(sc map[int32]float64, n int) []int32 {
	h := s.top(n)
	for s, v := range sc {
		h.push(s, v)
	}
	out, _ := h.sorted()
	return out
}

// nameMatches returns the declaration names that identifier-like tokens of
// text denote exactly or as a dotted suffix.
// Tokens of informal text count only when written like Lean constants;
// every identifier of the formal guess counts.
func (e *Engine) nameMatches(s *snapshot, text string, formal string) []string {
	var out []string
	seen := map[string]bool{}
	var toks []string
	for _, tok := range identTokens(text) {
		if looksLikeIdent(tok) {
			toks = append(toks, tok)
		}
	}
	toks = append(toks, identTokens(formal)...)
	for _, tok := range toks {
		for _, n := range s.names.Suffix(tok) {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
			if len(out) > 50 {
				return out
			}
		}
	}
	return out
}

// looksLikeIdent reports whether a token is written like a Lean constant
// (dotted, capitalised camel case or snake case) rather than an English word.
func looksLikeIdent(tok string) bool {
	if len(tok) < 2 {
		return false
	}
	if strings.ContainsAny(tok, "._") {
		return true
	}
	upper := 0
	for _, r := range tok {
		if unicode.IsUpper(r) {
			upper++
		}
	}
	return upper >= 2
}

// identTokens splits text into identifier-shaped tokens.
func identTokens(text string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '\'')
	}) {
		if tok = strings.Trim(tok, "."); len(tok) > 1 {
			out = append(out, tok)
		}
	}
	return out
}

func uniq(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
