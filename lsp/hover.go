package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// Hover implements protocol.Server: on a name in backticks inside a
// comment, its signature, docstring's first sentence, kind, module, file
// and, when deprecated, its replacement; elsewhere in a comment that was
// formalized, the premises and examples the formalization found (as soon
// as it found them). Elsewhere (code) it answers null.
func (s *server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	_, doc, _ := s.commentDoc(string(p.TextDocument.URI))
	if doc == nil {
		return s.foundHover(string(p.TextDocument.URI), p.Position), nil
	}
	r, ok := doc.At(toPos(p.Position))
	if !ok {
		return s.foundHover(string(p.TextDocument.URI), p.Position), nil
	}
	if r.Hover == "" {
		return nil, nil
	}
	rng := toRange(r.Range)
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: r.Hover}, Range: &rng}, nil
}

// The premises a formalization found reach the editor while the model
// works: in the job's progress (the pipeline's own events), in the log, and
// as a hover over the statement's comment, which shows the latest premises
// and illustrative theorems found for that statement.

// foundView is what a hover over a formalized statement shows.
type foundView struct {
	markdown string
}

// storeFound records the premises found for target t of document u (a
// first look, or the final context) for the hover, and logs them.
func (s *server) storeFound(u string, t Target, p *Premises, final bool) {
	s.mu.Lock()
	if st := s.docs[u]; st != nil {
		if st.found == nil {
			st.found = map[string]foundView{}
		}
		st.found[strings.TrimSpace(t.Statement)] = foundView{markdown: foundMarkdown(p, final, s.root)}
	}
	s.mu.Unlock()
	what := "first look"
	if final {
		what = "the candidates' context"
	}
	s.log.Infof("drift: premises for %q (%s): %d premises, %d examples", textcut.Cut(t.Statement, 60), what, len(p.Premises), len(p.Examples))
}

// foundHover answers a hover inside a comment whose formalization found
// premises.
func (s *server) foundHover(u string, pos protocol.Position) *protocol.Hover {
	var views map[string]foundView
	var doc *Document
	s.mu.Lock()
	if st := s.docs[u]; st != nil && len(st.found) > 0 {
		views, doc = st.found, st.doc.clone()
	}
	s.mu.Unlock()
	if doc == nil {
		return nil
	}
	at := Span{Start: Pos{Line: int(pos.Line), Character: int(pos.Character)}, End: Pos{Line: int(pos.Line), Character: int(pos.Character)}}
	t, ok := findTarget(doc, at)
	if !ok {
		return nil
	}
	v, ok := views[strings.TrimSpace(t.Statement)]
	if !ok {
		return nil
	}
	rng := toRange(Span{Start: doc.Position(t.Start), End: doc.Position(t.End)})
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: v.markdown}, Range: &rng}
}

// foundMarkdown renders premises and examples for a hover.
func foundMarkdown(p *Premises, final bool, root string) string {
	var b strings.Builder
	if final {
		b.WriteString("**DRIFT premises** (the context the candidates are drawn with)\n\n")
	} else {
		b.WriteString("**DRIFT premises** (retrieved with the whole statement; the model is still working)\n\n")
	}
	section := func(title string, xs []Symbol) {
		b.WriteString(title + "\n\n")
		if len(xs) == 0 {
			b.WriteString("- (none found)\n")
		}
		for _, x := range xs {
			path := x.Path
			if rel, err := filepath.Rel(root, path); root != "" && err == nil && !strings.HasPrefix(rel, "..") {
				path = rel
			}
			sig := strings.Join(strings.Fields(x.Signature), " ")
			fmt.Fprintf(&b, "- `%s` — `%s` (%s:%d)\n", x.Name, strings.ReplaceAll(textcut.Cut(sig, 300), "`", "'"), filepath.ToSlash(path), x.Range.Start.Line+1)
		}
		b.WriteString("\n")
	}
	section("Premises:", p.Premises)
	section(fmt.Sprintf("Examples (coverage %.0f%%):", p.Coverage*100), p.Examples)
	return strings.TrimSpace(b.String())
}
