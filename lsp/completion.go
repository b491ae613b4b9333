package lsp

import (
	"context"
	"strings"
	"time"

	"go.lsp.dev/protocol"
)

// Completion implements protocol.Server: after a backtick inside a comment,
// the names that start with what was typed and, when those are fewer than
// searchBelow, the library search's hits for the text typed since the
// backtick (the workspace/symbol ranking), deduplicated; nothing in code.
func (s *server) Completion(ctx context.Context, p *protocol.CompletionParams) (protocol.CompletionResult, error) {
	out := &protocol.CompletionList{IsIncomplete: true, Items: []protocol.CompletionItem{}}
	_, doc, c := s.commentDoc(string(p.TextDocument.URI))
	if doc == nil {
		return out, nil
	}
	prefix, start, ok := doc.CompletionAt(toPos(p.Position))
	if !ok {
		return out, nil
	}
	rng := toRange(Span{Start: start, End: toPos(p.Position)})
	seen := map[string]bool{}
	add := func(n, detail string) {
		if seen[n] {
			return
		}
		seen[n] = true
		item := protocol.CompletionItem{Label: n, Kind: protocol.CompletionItemKindReference,
			TextEdit: &protocol.TextEdit{Range: rng, NewText: n}}
		if detail != "" {
			item.Detail = protocol.NewOptional(detail)
		}
		out.Items = append(out.Items, item)
	}
	if !strings.ContainsAny(prefix, " \t") {
		for _, n := range c.Complete(prefix) {
			add(n, "")
		}
	}
	if len(out.Items) >= searchBelow {
		return out, nil
	}
	for _, h := range s.completionSearch(ctx, prefix) {
		add(h.Name, h.Summary)
	}
	return out, nil
}

// Bounds of the search hits in comment completion: the search runs when
// the prefix matches fewer than searchBelow names and the query has
// searchMinChars characters, adds searchHits names at most and is given
// searchTimeout (requests run in order on the read loop, so a slow search
// must not hold typing up; it then adds nothing).
const (
	searchBelow    = 5
	searchMinChars = 3
	searchHits     = 20
	searchTimeout  = 40 * time.Millisecond
)

// completionSearch returns the library search's hits for the words typed
// after a backtick (none before the index is ready or on error).
func (s *server) completionSearch(ctx context.Context, typed string) []Symbol {
	q := strings.TrimSpace(typed)
	b := s.currentBackend()
	if len([]rune(q)) < searchMinChars || b == nil || !b.Status().Ready {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, searchTimeout)
	defer cancel()
	hits, err := b.Search(ctx, q, searchHits)
	if err != nil {
		return nil
	}
	return hits
}
