package retrieval

import (
	"context"
	"errors"
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

// PremiseKinds are the declaration kinds that can be premises: the things
// a statement names.
var PremiseKinds = []library.Kind{library.KindDef, library.KindAbbrev, library.KindStructure, library.KindClass,
	library.KindInductive, library.KindClassInductive, library.KindOpaque, library.KindAxiom, library.KindField,
	library.KindConstructor}

// Retrieve finds premises for a statement: with sub-queries, the top k
// premises of each (sentence and formal guess together, ranked by the
// search ranking restricted to PremiseKinds; k = 1 is DRIFT's top-1),
// deduplicated; without, the top k premises of the statement itself
// (premise ranking).
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
		hits, err := e.rankPremises(ctx, s, statement, "", "", k, e.ranking)
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
	// A sub-query is a short concept phrase and a formal guess: the search
	// ranking, restricted to premise kinds, finds its declaration (see
	// docs/retrieval.md, "Sub-query retrieval").
	for i, sq := range subs {
		hits, err := e.search(ctx, s, Query{Text: sq.Informal, Formal: sq.Formal, K: k, Kinds: PremiseKinds}, DefaultSearch)
		if errors.Is(err, ErrEmptyQuery) {
			continue
		}
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
