package lsp

import (
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// docState is all the server keeps about one open document, under
// server.mu: its text, its debounce timers, its drift diagnostics and what
// a hover over it shows.
type docState struct {
	doc *Document
	// refresh is the debounce timer of the diagnostics' refresh, feed that
	// of the next feed of the text to the index; fed is when the text was
	// last fed.
	refresh, feed *time.Timer
	fed           time.Time
	// checks holds the declarations with drift diagnostics, by key
	// (declKey), each with its last check result (nil until checked).
	checks map[string]*checked
	// commentDiags are the diagnostics of names in comments; parsed caches
	// the document's parse for them.
	commentDiags []protocol.Diagnostic
	parsed       *parsedDoc
	// found holds, by statement, what a formalization found (the premises
	// hover).
	found map[string]foundView
}

// stopTimers stops the document's debounce timers.
func (d *docState) stopTimers() {
	for _, t := range []*time.Timer{d.refresh, d.feed} {
		if t != nil {
			t.Stop()
		}
	}
}

// snapshot returns a copy of the open document u, or nil.
func (s *server) snapshot(u string) *Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.docs[u]; st != nil {
		return st.doc.clone()
	}
	return nil
}

// current reports whether document u is open at revision rev. s.mu is held.
func (s *server) current(u string, rev uint64) bool {
	st := s.docs[u]
	return st != nil && st.doc.Rev == rev
}

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
	if c == nil || d == nil || isTeX(d) {
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
