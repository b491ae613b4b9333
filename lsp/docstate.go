package lsp

import (
	"time"

	"go.lsp.dev/protocol"
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
