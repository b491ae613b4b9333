package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The command and diagnostic codes of names in comments.
const (
	cmdFixReference = "drift.fixReference"
	codeStale       = "stale-reference"
	codeDeprecated  = "deprecated-reference"
)

// parsedDoc is the comment features' view of one revision of a document.
type parsedDoc struct {
	rev     uint64
	checker CommentChecker
	doc     CommentDoc
}

// commentDoc returns the open document u, its view for the comment
// features (parsed once per revision) and the checker; nil values when the
// document is not open or the checker is not built yet.
func (s *server) commentDoc(u string) (*Document, CommentDoc, CommentChecker) {
	b := s.currentBackend()
	s.mu.Lock()
	on := s.settings.Comments.Enable
	s.mu.Unlock()
	if b == nil || !on {
		return nil, nil, nil
	}
	c := b.Comments()
	d := s.snapshot(u)
	if c == nil || d == nil {
		return nil, nil, nil
	}
	var p *parsedDoc
	s.mu.Lock()
	if st := s.docs[u]; st != nil {
		p = st.parsed
	}
	s.mu.Unlock()
	if p != nil && p.rev == d.Rev && p.checker == c {
		return d, p.doc, c
	}
	p = &parsedDoc{rev: d.Rev, checker: c, doc: c.Parse(uriToPath(uri.URI(u)), d.Text)}
	s.mu.Lock()
	if s.current(u, d.Rev) {
		s.docs[u].parsed = p
	}
	s.mu.Unlock()
	return d, p.doc, c
}

func toPos(p protocol.Position) Pos {
	return Pos{Line: int(p.Line), Character: int(p.Character)}
}

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

// Definition implements protocol.Server for names in comments only (the
// Lean server owns code).
func (s *server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	_, doc, _ := s.commentDoc(string(p.TextDocument.URI))
	if doc == nil {
		return protocol.LocationSlice{}, nil
	}
	r, ok := doc.At(toPos(p.Position))
	if !ok || r.Definition.Path == "" {
		return protocol.LocationSlice{}, nil
	}
	return &protocol.Location{URI: uri.File(r.Definition.Path), Range: toRange(r.Definition.Range)}, nil
}

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

// commentsWhenReady waits (until ctx ends) for the backend's checker of
// names in comments, which it builds in the background once the index is
// ready, then computes the diagnostics of every open document, and again
// each time the backend rebuilt the checker because the library changed.
func (s *server) commentsWhenReady(ctx context.Context, b Backend) {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for b.Comments() == nil {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
	for {
		changed := b.CommentsChanged()
		s.refreshOpenComments()
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}

// refreshOpenComments recomputes the comment diagnostics of every open
// document.
func (s *server) refreshOpenComments() {
	s.mu.Lock()
	us := make([]string, 0, len(s.docs))
	for u := range s.docs {
		us = append(us, u)
	}
	s.mu.Unlock()
	for _, u := range us {
		s.refreshComments(u)
	}
}

// refreshComments recomputes the diagnostics of the names in u's comments
// (after the debounce, off the read loop) and republishes.
func (s *server) refreshComments(u string) {
	d, doc, _ := s.commentDoc(u)
	if doc == nil {
		// Turned off (comments.enable): take back what was published.
		s.mu.Lock()
		st := s.docs[u]
		had := st != nil && len(st.commentDiags) > 0 && !s.settings.Comments.Enable
		if had {
			st.commentDiags = nil
		}
		s.mu.Unlock()
		if had {
			s.publish(u)
		}
		return
	}
	s.mu.Lock()
	severity := commentSeverity(s.settings.Comments.Severity)
	s.mu.Unlock()
	var diags []protocol.Diagnostic
	for _, f := range doc.Diagnostics() {
		diag := protocol.Diagnostic{Range: toRange(f.Range), Source: protocol.NewOptional("drift")}
		if f.Deprecated {
			diag.Severity = protocol.DiagnosticSeverityHint
			diag.Code = protocol.String(codeDeprecated)
			msg := fmt.Sprintf("`%s` is deprecated", f.Name)
			if len(f.Suggestions) > 0 {
				msg += fmt.Sprintf(": use `%s`", f.Suggestions[0])
			}
			diag.Message = protocol.String(msg)
		} else {
			if severity == 0 {
				continue
			}
			diag.Severity = severity
			diag.Code = protocol.String(codeStale)
			msg := fmt.Sprintf("`%s` does not resolve here", f.Name)
			if len(f.Suggestions) > 0 {
				msg += "; did you mean `" + strings.Join(f.Suggestions, "`, `") + "`?"
			}
			diag.Message = protocol.String(msg)
		}
		diags = append(diags, diag)
	}
	s.mu.Lock()
	if !s.current(u, d.Rev) {
		s.mu.Unlock()
		return // a newer edit will refresh again
	}
	s.docs[u].commentDiags = diags
	s.mu.Unlock()
	s.publish(u)
}

// commentSeverity maps the comments.severity setting to a severity (0:
// off). The default is Information.
func commentSeverity(v string) protocol.DiagnosticSeverity {
	switch strings.ToLower(v) {
	case "off", "none":
		return 0
	case "hint":
		return protocol.DiagnosticSeverityHint
	case "warning":
		return protocol.DiagnosticSeverityWarning
	case "error":
		return protocol.DiagnosticSeverityError
	}
	return protocol.DiagnosticSeverityInformation
}

// fixArgs is the argument of drift.fixReference: the reference as it was
// when the quick fix was offered.
type fixArgs struct {
	URI         string    `json:"uri"`
	Version     int32     `json:"version"`
	Range       jsonRange `json:"range"`
	Name        string    `json:"name"`
	Replacement string    `json:"replacement"`
}

// referenceFixes returns the quick fixes of the names in comments within
// r: one per suggestion, each a drift.fixReference command.
func (s *server) referenceFixes(u string, r Span) []protocol.CommandOrCodeAction {
	d, doc, _ := s.commentDoc(u)
	if doc == nil {
		return nil
	}
	kind := protocol.CodeActionKindQuickFix
	var out []protocol.CommandOrCodeAction
	for _, f := range doc.Diagnostics() {
		fs := f.Range
		if fs.End.Before(r.Start) || r.End.Before(fs.Start) {
			continue
		}
		for i, sug := range f.Suggestions {
			title := fmt.Sprintf("Replace `%s` by `%s`", f.Name, sug)
			raw, _ := json.Marshal(fixArgs{URI: u, Version: d.Version, Range: toJSONRange(fs), Name: f.Name, Replacement: sug})
			preferred := i == 0 && f.Sure
			out = append(out, &protocol.CodeAction{Title: title, Kind: &kind, IsPreferred: &preferred,
				Command: protocol.Command{Title: title, Command: cmdFixReference, Arguments: []protocol.LSPAny{raw}}})
		}
	}
	return out
}

// fixReference applies a quick fix as a versioned edit, refusing it when
// the document changed since the fix was offered.
func (s *server) fixReference(ctx context.Context, raw json.RawMessage) error {
	var a fixArgs
	if err := json.Unmarshal(raw, &a); err != nil || a.URI == "" || a.Replacement == "" {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: %s: bad argument", cmdFixReference)
	}
	d := s.snapshot(a.URI)
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	span := Span{Start: Pos{Line: a.Range.Start.Line, Character: a.Range.Start.Character}, End: Pos{Line: a.Range.End.Line, Character: a.Range.End.Character}}
	if d == nil || d.Version != a.Version || d.Text[d.Offset(span.Start):d.Offset(span.End)] != a.Name {
		s.showMessage(protocol.MessageTypeWarning, "DRIFT: the document changed since the fix was offered; nothing was replaced.")
		return errRefused
	}
	we := versionedEdit(caps, d, protocol.TextEdit{Range: toRange(span), NewText: a.Replacement})
	label := "DRIFT: fix reference"
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: we})
	if err != nil {
		return fmt.Errorf("workspace/applyEdit: %w", err)
	}
	if res == nil || !res.Applied {
		return errRefused
	}
	return nil
}
