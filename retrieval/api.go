package retrieval

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// MaxQueryBytes bounds the text a query analyzes; longer input is cut at a
// rune boundary (a 1 MB paste still gets an answer, in bounded time).
const MaxQueryBytes = 8 << 10

// ErrEmptyQuery is returned for a query with no searchable content.
var ErrEmptyQuery = errors.New("retrieval: empty query")

func clip(s string) string {
	if len(s) <= MaxQueryBytes {
		return s
	}
	return strings.ToValidUTF8(s[:MaxQueryBytes], "")
}

// Search runs hybrid library search: every kind of declaration (or those in
// q.Kinds), ranked by the fused lexical, name and dense channels.
func (e *Engine) Search(ctx context.Context, q Query) ([]Hit, error) {
	s, err := e.current()
	if err != nil {
		return nil, err
	}
	text, formal := clip(q.Text), clip(q.Formal)
	k := q.K
	if k <= 0 {
		k = 10
	}
	terms := lexical.Terms(text + "\n" + formal)
	nameHits := e.nameMatches(s, text, formal)
	if len(terms) == 0 && len(nameHits) == 0 {
		if strings.TrimSpace(text+formal) == "" {
			return nil, ErrEmptyQuery
		}
		return []Hit{}, nil
	}
	allowed := func(d *library.Decl) bool {
		return len(q.Kinds) == 0 || slices.Contains(q.Kinds, d.Kind)
	}
	depth := max(4*k, 50)
	// Reciprocal-rank fusion of the lexical, name and dense channels, with the
	// popularity and locality priors as tie-breakers.
	const rrfK = 20
	acc := map[int32]*scored{}
	add := func(sl int32, ch string, rank int, w float64) {
		c := acc[sl]
		if c == nil {
			c = &scored{slot: sl, id: docID(s.decl(sl)), channels: map[string]int{}}
			acc[sl] = c
		}
		c.score += w / float64(rrfK+rank)
		if _, ok := c.channels[ch]; !ok {
			c.channels[ch] = rank
		}
	}
	if len(terms) > 0 {
		lex, _ := s.searchScores(terms, depth, func(sl int32) bool { return allowed(s.decl(sl)) })
		for i, sl := range lex {
			add(sl, "lexical", i+1, 1)
		}
		prem, err := e.rankPremises(ctx, s, text, formal, depth, e.ranking)
		if err != nil {
			return nil, err
		}
		r := 0
		for _, h := range prem {
			if allowed(h.Decl) {
				r++
				for _, sl := range s.slotsOf(h.Decl.Name) {
					if s.decl(sl) == h.Decl {
						add(sl, "premise", r, 1)
					}
				}
			}
		}
	}
	rank := 0
	for _, n := range nameHits {
		for _, sl := range s.slotsOf(n) {
			if allowed(s.decl(sl)) {
				rank++
				add(sl, "names", rank, 2)
			}
		}
	}
	if x := e.dense.Load(); e.ranking.Dense && x != nil {
		slots, _ := x.search(ctx, s, text+" "+formal, depth)
		for i, sl := range slots {
			if allowed(s.decl(sl)) {
				add(sl, "dense", i+1, e.ranking.DenseWeight)
			}
		}
	}
	out := make([]*scored, 0, len(acc))
	for _, c := range acc {
		d := s.decl(c.slot)
		c.score *= 1 + 0.02*s.popularity(d.Name)
		if d.User {
			c.score *= e.ranking.UserBoost
		}
		out = append(out, c)
	}
	sortScored(out)
	hits := make([]Hit, 0, k)
	for _, c := range out {
		hits = append(hits, Hit{Decl: s.decl(c.slot), Score: c.score, Channels: c.channels})
		if len(hits) == k {
			break
		}
	}
	return hits, nil
}

// Retrieve finds premises for a statement: with sub-queries, the top k
// premises of each (sentence and formal guess together; k = 1 is DRIFT's
// top-1), deduplicated; without, the top k premises of the statement itself.
func (e *Engine) Retrieve(ctx context.Context, statement string, subs []SubQuery, k int) ([]Premise, error) {
	s, err := e.current()
	if err != nil {
		return nil, err
	}
	if k <= 0 {
		k = 5
	}
	if len(subs) == 0 {
		statement = clip(statement)
		if len(lexical.Terms(statement)) == 0 && len(identTokens(statement)) == 0 {
			if strings.TrimSpace(statement) == "" {
				return nil, ErrEmptyQuery
			}
			return []Premise{}, nil
		}
		hits, err := e.rankPremises(ctx, s, statement, "", k, e.ranking)
		if err != nil {
			return nil, err
		}
		out := make([]Premise, len(hits))
		for i, h := range hits {
			out[i] = Premise{Hit: h, SubQuery: -1, Source: "retrieve"}
		}
		return out, nil
	}
	var out []Premise
	seen := map[string]bool{}
	for i, sq := range subs {
		hits, err := e.rankPremises(ctx, s, clip(sq.Informal), clip(sq.Formal), k, e.ranking)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if !seen[h.Decl.Name] {
				seen[h.Decl.Name] = true
				out = append(out, Premise{Hit: h, SubQuery: i, Source: "retrieve"})
			}
		}
	}
	return out, nil
}
