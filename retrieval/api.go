package retrieval

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/internal/library"
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
	e.mu.RLock()
	defer e.mu.RUnlock()
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
	kinds := make([]string, len(q.Kinds))
	for i, kd := range q.Kinds {
		kinds[i] = string(kd)
	}
	allowed := func(d *library.Decl) bool {
		if len(kinds) == 0 {
			return true
		}
		for _, kd := range kinds {
			if string(d.Kind) == kd {
				return true
			}
		}
		return false
	}
	depth := max(4*k, 50)
	res, err := e.lex.Search(ctx, terms, lexical.DefaultBoosts, kinds, depth)
	if err != nil {
		return nil, err
	}
	// Reciprocal-rank fusion of the lexical, name and dense channels, with the
	// popularity and locality priors as tie-breakers.
	const rrfK = 20
	acc := map[string]*scored{}
	add := func(id, ch string, rank int, w float64) {
		c := acc[id]
		if c == nil {
			c = &scored{id: id, channels: map[string]int{}}
			acc[id] = c
		}
		c.score += w / float64(rrfK+rank)
		if _, ok := c.channels[ch]; !ok {
			c.channels[ch] = rank
		}
	}
	for i, h := range res {
		if _, ok := s.decls[h.ID]; ok {
			add(h.ID, "lexical", i+1, 1)
		}
	}
	if len(terms) > 0 {
		prem, err := e.rankPremises(ctx, s, text, formal, depth, e.ranking)
		if err != nil {
			return nil, err
		}
		r := 0
		for _, h := range prem {
			if id := docID(h.Decl); allowed(h.Decl) {
				r++
				add(id, "premise", r, 1)
			}
		}
	}
	rank := 0
	for _, n := range nameHits {
		for _, id := range s.byName[n] {
			if allowed(s.decls[id]) {
				rank++
				add(id, "names", rank, 2)
			}
		}
	}
	if e.ranking.Dense && e.dense != nil {
		ids, _ := e.dense.search(ctx, s, text+" "+formal, depth)
		for i, id := range ids {
			if allowed(s.decls[id]) {
				add(id, "dense", i+1, e.ranking.DenseWeight)
			}
		}
	}
	out := make([]*scored, 0, len(acc))
	for _, c := range acc {
		d := s.decls[c.id]
		c.score *= 1 + 0.02*s.popularity(d.Name)
		if d.User {
			c.score *= e.ranking.UserBoost
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
	})
	hits := make([]Hit, 0, k)
	for _, c := range out {
		hits = append(hits, Hit{Decl: s.decls[c.id], Score: c.score, Channels: c.channels})
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
	e.mu.RLock()
	defer e.mu.RUnlock()
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
