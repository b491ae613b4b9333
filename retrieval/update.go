package retrieval

import (
	"maps"
	"sort"
	"time"

	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// fileUpdate is a pending change to one file: new buffer text, or nil to
// re-read it from disk.
type fileUpdate struct {
	path    string
	content []byte
}

// UpdateBuffer indexes unsaved editor text for path in place of the file on
// disk; it returns at once and the change becomes searchable shortly after.
func (e *Engine) UpdateBuffer(path string, text []byte) {
	e.enqueue(fileUpdate{path: path, content: append([]byte{}, text...)})
}

// CloseBuffer drops unsaved text for path and re-reads the file from disk.
func (e *Engine) CloseBuffer(path string) {
	e.enqueue(fileUpdate{path: path})
}

func (e *Engine) enqueue(u fileUpdate) {
	select {
	case e.updates <- u:
	case <-e.ctx.Done():
	}
}

// serveUpdates applies file updates until the engine closes, coalescing
// queued updates of the same file to the latest.
func (e *Engine) serveUpdates() {
	for {
		select {
		case <-e.ctx.Done():
			return
		case u := <-e.updates:
			pending := map[string]fileUpdate{u.path: u}
			order := []string{u.path}
		drain:
			for {
				select {
				case u2 := <-e.updates:
					if _, ok := pending[u2.path]; !ok {
						order = append(order, u2.path)
					}
					pending[u2.path] = u2
				default:
					break drain
				}
			}
			for _, p := range order {
				e.applyUpdate(pending[p])
			}
		}
	}
}

// applyUpdate re-indexes one file in every channel and swaps the snapshot.
func (e *Engine) applyUpdate(u fileUpdate) {
	start := time.Now()
	oldKeys, decls, err := e.src.update(u.path, u.content)
	if err != nil {
		e.cfg.Logf("retrieval: updating %s: %v", u.path, err)
		return
	}
	if len(oldKeys) == 0 && len(decls) == 0 {
		return
	}
	parsed := time.Now()
	e.mu.RLock()
	old := e.snap
	e.mu.RUnlock()
	// Only this goroutine replaces e.snap, so the next snapshot can be built
	// outside the lock while queries go on reading the old one.
	next := old.with(oldKeys, decls)
	built := time.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	var del []string
	for _, k := range oldKeys {
		del = append(del, old.files[k]...)
	}
	docs := map[string]lexical.Doc{}
	keys := map[string]bool{}
	for _, d := range decls {
		keys[fileKey(d)] = true
	}
	m := readManifest(e.dir)
	for _, k := range oldKeys {
		delete(m.Files, k)
	}
	for k := range keys {
		delete(m.Files, k)
	}
	if err := writeManifest(e.dir, m); err != nil {
		e.cfg.Logf("retrieval: %v", err)
	}
	hashes := map[string]string{}
	for k := range keys {
		ds, h := fileDocs(next, k)
		for id, d := range ds {
			docs[id] = d
		}
		hashes[k] = h
	}
	if err := e.lex.Apply(del, docs); err != nil {
		e.cfg.Logf("retrieval: updating %s: %v", u.path, err)
		return
	}
	for k, h := range hashes {
		m.Files[k] = h
	}
	if err := writeManifest(e.dir, m); err != nil {
		e.cfg.Logf("retrieval: %v", err)
	}
	e.snap = next
	e.setStatus(func(s *Status) { s.Decls = len(next.decls) })
	select {
	case e.embedKick <- struct{}{}:
	default:
	}
	e.cfg.Logf("retrieval: reindexed %s (%d declarations) in %v (parse %v, snapshot %v, lexical %v)", u.path, len(decls),
		time.Since(start).Round(time.Millisecond), parsed.Sub(start).Round(time.Millisecond),
		built.Sub(parsed).Round(time.Millisecond), time.Since(built).Round(time.Millisecond))
}

// with returns a new snapshot in which the declarations of the files
// oldKeys are replaced by decls; the receiver stays valid for readers.
func (s *snapshot) with(oldKeys []string, decls []*library.Decl) *snapshot {
	// maps.Clone copies a map's table wholesale, far faster than
	// re-inserting every entry.
	n := &snapshot{
		decls:          maps.Clone(s.decls),
		byName:         maps.Clone(s.byName),
		files:          maps.Clone(s.files),
		usedBy:         maps.Clone(s.usedBy),
		indeg:          maps.Clone(s.indeg),
		notationTarget: maps.Clone(s.notationTarget),
		slotOf:         s.slotOf,
	}
	gone := map[string]bool{}
	var removedIDs, removedNames []string
	for _, k := range oldKeys {
		for _, id := range s.files[k] {
			gone[id] = true
			removedIDs = append(removedIDs, id)
			removedNames = append(removedNames, s.decls[id].Name)
		}
	}
	for id := range gone {
		delete(n.decls, id)
	}
	for _, k := range oldKeys {
		delete(n.files, k)
	}
	for _, name := range removedNames {
		var keep []string
		for _, id := range n.byName[name] {
			if !gone[id] {
				keep = append(keep, id)
			}
		}
		if len(keep) == 0 {
			delete(n.byName, name)
		} else {
			n.byName[name] = keep
		}
	}
	// Retract the removed declarations' edges (each affected usedBy list is
	// filtered once), then add the new ones.
	retract := map[string]bool{}
	for _, id := range removedIDs {
		d := s.decls[id]
		for _, dep := range uniq(d.StatementDeps) {
			if dep == d.Name {
				continue
			}
			n.indeg[dep]--
			if d.Kind == library.KindTheorem {
				retract[dep] = true
			}
		}
	}
	for dep := range retract {
		var keep []string
		for _, u := range n.usedBy[dep] {
			if !gone[u] {
				keep = append(keep, u)
			}
		}
		n.usedBy[dep] = keep
	}
	var added []*library.Decl
	for _, d := range decls {
		if d == nil || d.Name == "" {
			continue
		}
		id := docID(d)
		if _, dup := n.decls[id]; dup {
			continue
		}
		n.decls[id] = d
		added = append(added, d)
		n.byName[d.Name] = append(n.byName[d.Name][:len(n.byName[d.Name]):len(n.byName[d.Name])], id)
		k := fileKey(d)
		n.files[k] = append(n.files[k][:len(n.files[k]):len(n.files[k])], id)
		if d.Kind == library.KindNotation {
			for _, t := range d.StatementDeps {
				n.notationTarget[t] = true
			}
			continue
		}
		for _, dep := range uniq(d.StatementDeps) {
			if dep == d.Name {
				continue
			}
			n.indeg[dep]++
			if d.Kind == library.KindTheorem {
				u := n.usedBy[dep]
				n.usedBy[dep] = append(u[:len(u):len(u)], id)
			}
		}
	}
	var dropNames []string
	for _, name := range uniq(removedNames) {
		if len(n.byName[name]) == 0 {
			dropNames = append(dropNames, name)
		}
	}
	sort.Strings(dropNames)
	n.names = s.names.With(dropNames, added)
	n.model = s.model.with(removedIDs, added, s.slotOf)
	return n
}
