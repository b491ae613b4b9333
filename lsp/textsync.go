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
	s.docs[u] = newDocument(u, string(p.TextDocument.LanguageID), p.TextDocument.Version, p.TextDocument.Text)
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
	d := s.docs[u]
	if d == nil {
		s.mu.Unlock()
		s.log.Warnf("drift: didChange for a document that is not open: %s", u)
		return nil
	}
	if p.TextDocument.Version <= d.Version {
		s.log.Debugf("drift: %s: version %d after %d (applied in arrival order)", u, p.TextDocument.Version, d.Version)
	}
	d.Apply(p.TextDocument.Version, changes)
	s.mu.Unlock()
	s.scheduleBufferUpdate(u)
	return nil
}

// DidClose implements protocol.Server.
func (s *server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	delete(s.docs, u)
	delete(s.tracked, u)
	delete(s.commentDiags, u)
	delete(s.parsed, u)
	delete(s.indexed, u)
	delete(s.found, u)
	for _, k := range []string{u, indexTimer + u} {
		if t := s.timers[k]; t != nil {
			t.Stop()
			delete(s.timers, k)
		}
	}
	s.mu.Unlock()
	if b := s.currentBackend(); b != nil {
		if path := uriToPath(p.TextDocument.URI); path != "" {
			b.CloseBuffer(path)
		}
	}
	return nil
}

// indexTimer prefixes the timers map key of a document's index update.
const indexTimer = "index\x00"

// scheduleBufferUpdate feeds the buffer to the index — at once after a
// quiet spell of the index debounce, else when edits pause that long — and
// refreshes drift's diagnostics after the (longer) debounce delay. The
// timers are the server's: teardown stops them, and a callback that already
// fired runs as an owned goroutine.
func (s *server) scheduleBufferUpdate(u string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return
	}
	if t := s.timers[u]; t != nil {
		t.Stop()
	}
	s.timers[u] = time.AfterFunc(s.opts.Debounce, func() { s.spawn(func() { s.bufferChanged(u) }) })
	waiting := false
	if t := s.timers[indexTimer+u]; t != nil {
		waiting = t.Stop()
	}
	if !waiting && time.Since(s.indexed[u]) >= s.opts.IndexDebounce {
		delete(s.timers, indexTimer+u)
		s.indexed[u] = time.Now()
		s.wg.Add(1) // as spawn does; s.mu is held and s.closing false
		go func() {
			defer s.wg.Done()
			s.indexBuffer(u)
		}()
		return
	}
	s.timers[indexTimer+u] = time.AfterFunc(s.opts.IndexDebounce, func() { s.spawn(func() { s.indexBuffer(u) }) })
}

// indexBuffer feeds the text of u to the index (which applies it in its
// own goroutine: this never waits for indexing).
func (s *server) indexBuffer(u string) {
	s.mu.Lock()
	if _, open := s.docs[u]; open {
		s.indexed[u] = time.Now()
	}
	s.mu.Unlock()
	s.feedMu.Lock()
	defer s.feedMu.Unlock()
	snap := s.snapshot(u)
	if snap == nil {
		return
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
	d := s.docs[u]
	var snap *Document
	if d != nil {
		snap = d.clone()
	}
	names := len(s.tracked[u])
	s.mu.Unlock()
	if snap == nil {
		return
	}
	if names > 0 {
		s.refreshDiagnostics(u)
	}
	s.refreshComments(u)
}

// snapshot returns a copy of the open document u, or nil.
func (s *server) snapshot(u string) *Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[u]; d != nil {
		return d.clone()
	}
	return nil
}
