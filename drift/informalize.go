package drift

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/llm"
)

const informalizeSystem = `You are an expert in Lean 4 and mathematics. Describe the given Lean declaration in one short paragraph of plain mathematical English, as a docstring would: what it defines or states, with its hypotheses, without Lean syntax and without proof details. Use the descriptions of the declarations it depends on. Answer with the paragraph only.`

// maxInformal caps one description (runes).
const maxInformal = 800

// InformalizeTargets returns the declarations informalization applies to:
// the user's own (Decl.User) theorems, definitions and types that have neither
// a docstring nor an informal description. Packages such as Mathlib are
// never included.
func InformalizeTargets(decls []*library.Decl) []*library.Decl {
	var out []*library.Decl
	for _, d := range decls {
		if !d.User || d.Doc != "" || d.Informal != "" || d.Generated || d.Anonymous {
			continue
		}
		switch d.Kind {
		case library.KindField, library.KindConstructor, library.KindNotation, library.KindInstance, library.KindAlias:
			continue
		}
		out = append(out, d)
	}
	return out
}

// Informalize writes informal descriptions for targets in dependency order
// (RAutoformalizer's topological informalization), so that each prompt carries
// the descriptions of the declarations its statement uses; lookup finds
// dependencies outside targets (their docstrings are used). Answers are
// cached on disk by the client, keyed by the prompt, which is built from the
// declaration's content and its dependencies' descriptions, so unchanged
// declarations cost nothing. It returns name → description for every target
// that got one; a failed call skips that declaration (and is returned as the
// first error) unless the context ends, which stops the run.
func (pl *Pipeline) Informalize(ctx context.Context, targets []*library.Decl, lookup func(string) (*library.Decl, bool), budget int, report progress.Func) (map[string]string, llm.Usage, error) {
	if pl.client == nil {
		return nil, llm.Usage{}, llm.ErrNotConfigured
	}
	if report == nil {
		report = func(progress.Event) {}
	}
	order := topoOrder(targets)
	if budget <= 0 {
		budget = len(order)
	}
	act := pl.client.NewAction(budget)
	out := map[string]string{}
	var firstErr error
	for i, d := range order {
		if err := ctx.Err(); err != nil {
			return out, act.Usage(), err
		}
		report(progress.Event{Stage: llm.StageInformalize, Message: fmt.Sprintf("Describing %s (%d/%d)…", d.Name, i+1, len(order)), Done: i, Total: len(order)})
		var deps strings.Builder
		for _, dep := range d.StatementDeps {
			desc := out[dep]
			if desc == "" && lookup != nil {
				if dd, ok := lookup(dep); ok {
					desc = docOf(dd)
				}
			}
			if desc != "" {
				fmt.Fprintf(&deps, "- %s: %s\n", dep, clip(oneLine(desc), maxDocChars))
			}
		}
		user := "Declaration:\n" + clip(d.Signature, 4*maxSigChars) + "\n"
		if deps.Len() > 0 {
			user += "\nIt uses:\n" + deps.String()
		}
		ans, err := act.Complete(ctx, llm.Request{Stage: llm.StageInformalize, Temperature: 0.2, Messages: []llm.Message{
			{Role: "system", Content: informalizeSystem}, {Role: "user", Content: user},
		}})
		if err != nil {
			if ctx.Err() != nil {
				return out, act.Usage(), ctx.Err()
			}
			if firstErr == nil {
				firstErr = fmt.Errorf("informalize %s: %w", d.Name, err)
			}
			continue
		}
		if text := clip(oneLine(ans.Text), maxInformal); text != "" {
			out[d.Name] = text
		}
	}
	return out, act.Usage(), firstErr
}

// topoOrder sorts decls so that each comes after the decls (among them) its
// statement uses; cycles are broken by name order, and ties keep name order.
func topoOrder(decls []*library.Decl) []*library.Decl {
	byName := map[string]*library.Decl{}
	for _, d := range decls {
		byName[d.Name] = d
	}
	sorted := append([]*library.Decl(nil), decls...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	state := map[string]int{} // 0 new, 1 visiting, 2 done
	var out []*library.Decl
	var visit func(d *library.Decl)
	visit = func(d *library.Decl) {
		if state[d.Name] != 0 {
			return
		}
		state[d.Name] = 1
		deps := append([]string(nil), d.StatementDeps...)
		sort.Strings(deps)
		for _, n := range deps {
			if dd, ok := byName[n]; ok && n != d.Name {
				visit(dd)
			}
		}
		state[d.Name] = 2
		out = append(out, d)
	}
	for _, d := range sorted {
		visit(d)
	}
	return out
}
