package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// DidOpen implements protocol.Server.
func (s *server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	st := s.docs[u]
	if st == nil {
		st = &docState{}
		s.docs[u] = st
	}
	st.doc = newDocument(u, string(p.TextDocument.LanguageID), p.TextDocument.Version, p.TextDocument.Text)
	s.mu.Unlock()
	s.scheduleBufferUpdate(u)
	return nil
}

// DidChange implements protocol.Server: changes apply in arrival order.
func (s *server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	u := string(p.TextDocument.URI)
	changes := make([]Change, 0, len(p.ContentChanges))
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			r := fromRange(c.Range)
			changes = append(changes, Change{Range: &r, Text: c.Text})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, Change{Text: c.Text})
		}
	}
	s.mu.Lock()
	st := s.docs[u]
	if st == nil {
		s.mu.Unlock()
		s.log.Warnf("drift: didChange for a document that is not open: %s", u)
		return nil
	}
	if p.TextDocument.Version <= st.doc.Version {
		s.log.Debugf("drift: %s: version %d after %d (applied in arrival order)", u, p.TextDocument.Version, st.doc.Version)
	}
	st.doc.Apply(p.TextDocument.Version, changes)
	s.mu.Unlock()
	s.scheduleBufferUpdate(u)
	return nil
}

// DidClose implements protocol.Server.
func (s *server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	if st := s.docs[u]; st != nil {
		st.stopTimers()
		delete(s.docs, u)
	}
	s.mu.Unlock()
	if b := s.currentBackend(); b != nil {
		if path := uriToPath(p.TextDocument.URI); path != "" {
			b.CloseBuffer(path)
		}
	}
	return nil
}

// scheduleBufferUpdate feeds the buffer to the index — at once after a
// quiet spell of the index debounce, else when edits pause that long — and
// refreshes drift's diagnostics after the (longer) debounce delay. The
// timers are the server's: teardown stops them, and a callback that already
// fired runs as an owned goroutine.
func (s *server) scheduleBufferUpdate(u string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.docs[u]
	if s.closing || st == nil {
		return
	}
	if st.refresh != nil {
		st.refresh.Stop()
	}
	st.refresh = time.AfterFunc(s.opts.Debounce, func() { s.spawn(func() { s.bufferChanged(u) }) })
	waiting := false
	if st.feed != nil {
		waiting = st.feed.Stop()
	}
	if !waiting && time.Since(st.fed) >= s.opts.IndexDebounce {
		st.feed = nil
		st.fed = time.Now()
		s.wg.Add(1) // as spawn does; s.mu is held and s.closing false
		go func() {
			defer s.wg.Done()
			s.indexBuffer(u)
		}()
		return
	}
	st.feed = time.AfterFunc(s.opts.IndexDebounce, func() { s.spawn(func() { s.indexBuffer(u) }) })
}

// indexBuffer feeds the text of u to the index (which applies it in its
// own goroutine: this never waits for indexing).
func (s *server) indexBuffer(u string) {
	s.mu.Lock()
	if st := s.docs[u]; st != nil {
		st.fed = time.Now()
	}
	s.mu.Unlock()
	s.feedMu.Lock()
	defer s.feedMu.Unlock()
	snap := s.snapshot(u)
	if snap == nil || isTeX(snap) {
		return // a blueprint's .tex file is no Lean for the index
	}
	if b := s.currentBackend(); b != nil {
		if path := uriToPath(uri.URI(u)); path != "" {
			b.UpdateBuffer(path, []byte(snap.Text))
		}
	}
}

// bufferChanged is the debounced refresh of drift's diagnostics and
// comment features after an edit of u.
func (s *server) bufferChanged(u string) {
	s.mu.Lock()
	st := s.docs[u]
	names := 0
	if st != nil {
		names = len(st.checks)
	}
	s.mu.Unlock()
	if st == nil {
		return
	}
	if names > 0 {
		s.refreshDiagnostics(u)
	}
	s.refreshComments(u)
}
