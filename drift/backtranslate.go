package drift

import (
	"context"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// backTranslateSystem asks for the restatement of a stub in words: Aria's
// semantic check compares it with the informal statement.
const backTranslateSystem = `You are an expert in Lean 4 and mathematics. Restate this Lean theorem statement in one plain English sentence, as a mathematician would write it. Mention every hypothesis and every number. Do not prove it, do not add anything, and write no Lean code and no LaTeX.`

// Embedder is what the back-translation needs of a dense encoder (the
// retrieval engine's, when one is installed).
type Embedder interface {
	Embedder() embed.Embedder
}

// backTranslate restates in words the candidates that survived the checks
// (usable, every name known, not rejected by Lean, not refuted) and that
// the checks leave in the running (no other survivor ranks above them
// before the back-translation: only between those can it decide), one
// model call each while the action's budget lasts, and scores the
// agreement with statement. It runs the calls together.
func (pl *Pipeline) backTranslate(ctx context.Context, act *llm.Action, statement string, cands []*Candidate) {
	var todo []*Candidate
	for _, c := range cands {
		r := c.Check
		if c.Error != "" || r == nil || !r.GatePassed || len(r.Unknown) > 0 || leanRank(r) == 2 || r.Refuted() {
			continue
		}
		if len(todo) > 0 {
			less, decided := checkedBetter(todo[0], c, true)
			if decided && less {
				continue
			}
			if decided {
				todo = todo[:0]
			}
		}
		todo = append(todo, c)
	}
	todo = todo[:min(len(todo), max(act.Remaining(), 0))]
	var enc embed.Embedder
	if e, ok := pl.r.(Embedder); ok {
		enc = e.Embedder()
	}
	var wg sync.WaitGroup
	for _, c := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msgs := []llm.Message{{Role: "system", Content: backTranslateSystem}, {Role: "user", Content: "```lean\n" + c.Stub + "\n```"}}
			ans, err := act.Complete(ctx, pl.request(llm.StageBackTranslate, msgs, nil, 0, nil))
			if err != nil {
				return
			}
			text := clip(oneLine(ans.Text), maxInformal)
			if text == "" {
				return
			}
			bt := &leanrepl.BackTranslation{Text: text, Score: LexicalAgreement(statement, text), Method: "lexical"}
			if enc != nil {
				if v, err := enc.Embed(ctx, []string{statement, text}); err == nil && len(v) == 2 {
					bt.Score = (bt.Score + max(embed.Cosine(v[0], v[1]), 0)) / 2
					bt.Method = "lexical+dense"
				}
			}
			c.Check.BackTranslation = bt
		}()
	}
	wg.Wait()
}

// LexicalAgreement is the F1 overlap of the stemmed content words (the
// search analyzer's terms, LaTeX and Lean names understood) of two texts,
// 0 to 1.
func LexicalAgreement(a, b string) float64 {
	ta, tb := termSet(a), termSet(b)
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	common := 0
	for t := range ta {
		if tb[t] {
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p, r := float64(common)/float64(len(tb)), float64(common)/float64(len(ta))
	return 2 * p * r / (p + r)
}

func termSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range lexical.Terms(strings.ToLower(s)) {
		out[t] = true
	}
	return out
}
