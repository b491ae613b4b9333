package drift

import (
	"context"
	"fmt"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/llm"
)

// request is one model request of a stage: the stage's answer cap, and its
// schema when the client does structured output.
func (pl *Pipeline) request(stage string, msgs []llm.Message, schema *llm.Schema, temp float64, seed *int) llm.Request {
	r := llm.Request{Stage: stage, Messages: msgs, Temperature: temp, Seed: seed, MaxTokens: stageMaxTokens[stage]}
	if pl.client.Structured() {
		r.Schema = schema
	}
	return r
}

// drawGroup is a set of candidates drawn from one prompt.
type drawGroup struct {
	msgs    []llm.Message
	withCtx bool
	// seeds number the group's samples; the first is the request's seed.
	seeds []int
	// grammar constrains the answers (llm.Request.Grammar; "" for none).
	grammar string
	// optional marks a group drawn one call after another only while the
	// action's time budget allows it (the draw without context).
	optional bool
}

// sample is one drawn candidate, or why it is unusable.
type sample struct {
	withCtx bool
	seed    int
	stub    *Normalized
	err     error
	// answer is the model's text; grammar says it was asked for under
	// the group's grammar (so that it should keep to it).
	answer  string
	grammar bool
}

// drawCandidates draws every group's candidates: a group is one request for
// all its answers (llm.Request.N), so the server processes its prompt once
// and decodes the answers side by side (llama.cpp copies the processed
// prompt to as many slots). The groups go concurrently, but in order when
// the client makes one call at a time (the local model): then the group
// without context, which shares the instruction and worked example, finds
// them in the server's prompt cache. A server that answers fewer than
// asked (it ignores n) gets one request per missing answer, with the
// sample's number as seed. parse turns an answer into a stub. Samples come
// back in group order. Drawn in order, an optional group is left out when
// the draws before it gave a usable candidate and the time budget (clk)
// will not cover a third of what they took (it reads about 100 new prompt
// tokens where a draw with context reads 400–500, and writes about as
// many: a third of its time with the bundled model); skipped counts the
// samples so left out.
func (pl *Pipeline) drawCandidates(ctx context.Context, act *llm.Action, clk clock, groups []drawGroup, temp float64,
	parse func(string) (*Normalized, error), report progress.Func) (all []sample, skipped int) {
	total := 0
	for _, g := range groups {
		total += len(g.seeds)
	}
	out := make([][]sample, len(groups))
	var mu sync.Mutex
	done := 0
	finished := func(n int) {
		mu.Lock()
		done += n
		report(progress.Event{Stage: StageFormalize, Message: fmt.Sprintf("Formalizing: candidate %d/%d", done, total), Done: done, Total: total})
		mu.Unlock()
	}
	inOrder := pl.client.Config().Concurrency == 1
	var wg sync.WaitGroup
	began := clk.now()
	for gi, g := range groups {
		if len(g.seeds) == 0 {
			continue
		}
		if inOrder {
			if g.optional && gi > 0 && usable(out[:gi]) && !clk.allows(clk.now().Sub(began)/3) {
				skipped += len(g.seeds)
				finished(len(g.seeds))
				continue
			}
			out[gi] = pl.drawGroup(ctx, act, g, temp, parse, finished)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[gi] = pl.drawGroup(ctx, act, g, temp, parse, finished)
		}()
	}
	wg.Wait()
	for _, s := range out {
		all = append(all, s...)
	}
	return all, skipped
}

// usable reports whether any of the groups' samples parsed.
func usable(groups [][]sample) bool {
	for _, g := range groups {
		for _, s := range g {
			if s.err == nil {
				return true
			}
		}
	}
	return false
}

// drawGroup draws one group: one request for all its samples, then one
// request per sample the server did not answer.
func (pl *Pipeline) drawGroup(ctx context.Context, act *llm.Action, g drawGroup, temp float64,
	parse func(string) (*Normalized, error), finished func(int)) []sample {
	samples := make([]sample, len(g.seeds))
	for i, s := range g.seeds {
		samples[i] = sample{withCtx: g.withCtx, seed: s}
	}
	seed := g.seeds[0]
	r := pl.request(llm.StageFormalize, g.msgs, formalizeSchema, temp, &seed)
	r.N, r.Grammar = len(g.seeds), g.grammar
	ans, err := act.Complete(ctx, r)
	if err != nil {
		for i := range samples {
			samples[i].err = err
		}
		finished(len(samples))
		return samples
	}
	for i, text := range ans.Texts {
		if i < len(samples) {
			samples[i].stub, samples[i].err = parse(text)
			samples[i].answer, samples[i].grammar = text, ans.Grammar
		}
	}
	finished(min(len(ans.Texts), len(samples)))
	rest := samples[min(len(ans.Texts), len(samples)):]
	var wg sync.WaitGroup
	for i := range rest {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seed := rest[i].seed
			r := pl.request(llm.StageFormalize, g.msgs, formalizeSchema, temp, &seed)
			r.Grammar = g.grammar
			ans, err := act.Complete(ctx, r)
			if err == nil {
				rest[i].stub, rest[i].err = parse(ans.Text)
				rest[i].answer, rest[i].grammar = ans.Text, ans.Grammar
			} else {
				rest[i].err = err
			}
			finished(1)
		}()
	}
	wg.Wait()
	return samples
}
