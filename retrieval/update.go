package retrieval

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// updateKind says where a file update comes from.
type updateKind int

const (
	fromDisk   updateKind = iota // the watcher saw the file change on disk
	fromBuffer                   // unsaved editor text
	closed                       // the editor closed its buffer: back to disk
)

// fileUpdate is a pending change to one file.
type fileUpdate struct {
	path    string
	kind    updateKind
	content []byte // buffer text (fromBuffer only)
}

// UpdateBuffer indexes unsaved editor text for path in place of the file on
// disk; it returns at once and the change becomes searchable shortly after.
// Until CloseBuffer, changes of the file on disk do not override the
// buffer, and the buffer's text never reaches the on-disk caches.
func (e *Engine) UpdateBuffer(path string, text []byte) {
	e.enqueue(fileUpdate{path: path, kind: fromBuffer, content: append([]byte{}, text...)})
}

// CloseBuffer drops unsaved text for path and re-reads the file from disk.
func (e *Engine) CloseBuffer(path string) {
	e.enqueue(fileUpdate{path: path, kind: closed})
}

func (e *Engine) enqueue(u fileUpdate) {
	select {
	case e.updates <- u:
	case <-e.ctx.Done():
	}
}

// settleBatch bounds the files the update loop resolves again between two
// looks at the update queue.
const settleBatch = 1

// serveUpdates applies file updates until the engine closes, coalescing
// queued updates of the same file to the latest (a disk change never
// replaces a queued buffer update of the same file). When no update waits,
// it resolves again, in batches, the files that use names updates added or
// removed (which changes only their dependency edges).
func (e *Engine) serveUpdates() {
	pending := false
	var waiters []chan struct{}
	for {
		if !pending && len(e.updates) == 0 {
			for _, w := range waiters {
				close(w)
			}
			waiters = nil
		}
		var work <-chan struct{}
		if pending {
			work = closedChan
		}
		select {
		case <-e.ctx.Done():
			return
		case w := <-e.settleReq:
			waiters = append(waiters, w)
		case c := <-e.compacted:
			e.store(rebase(c.base, c.names, c.from, e.snapshot()))
			e.compacting = false
			e.cfg.Logf("retrieval: overlay folded into a new base")
			select {
			case e.embedKick <- struct{}{}:
			default:
			}
		case u := <-e.updates:
			pending = e.apply(e.coalesce(u))
		case d := <-e.describe:
			e.applyDescriptions(d)
		case <-work:
			select {
			case u := <-e.updates:
				pending = e.apply(e.coalesce(u))
			default:
				pending = e.settle(settleBatch)
			}
		}
	}
}

// closedChan is always ready.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// coalesce returns u and the updates queued after it, one per file.
func (e *Engine) coalesce(u fileUpdate) []fileUpdate {
	pending := map[string]fileUpdate{u.path: u}
	order := []string{u.path}
	for {
		select {
		case u2 := <-e.updates:
			prev, ok := pending[u2.path]
			if !ok {
				order = append(order, u2.path)
			}
			if !ok || u2.kind != fromDisk || prev.kind == fromDisk {
				pending[u2.path] = u2
			}
		default:
			batch := make([]fileUpdate, 0, len(order))
			for _, p := range order {
				batch = append(batch, pending[p])
			}
			return batch
		}
	}
}

// WaitSettled blocks until the updates queued so far are applied and the
// files they make the library resolve again are done, or ctx ends.
func (e *Engine) WaitSettled(ctx context.Context) error {
	select {
	case <-e.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	w := make(chan struct{})
	select {
	case e.settleReq <- w:
	case <-ctx.Done():
		return ctx.Err()
	case <-e.ctx.Done():
		return e.ctx.Err()
	}
	select {
	case <-w:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-e.ctx.Done():
		return e.ctx.Err()
	}
}

// apply re-indexes the files of a batch of updates and swaps in the next
// snapshot, built beside the current one (which queries go on reading).
// It reports whether other files are left to resolve again (see settle).
func (e *Engine) apply(batch []fileUpdate) bool {
	start := time.Now()
	changed := map[string][]*library.Decl{}
	buffered := map[string]bool{}
	for _, u := range batch {
		if e.ctx.Err() != nil {
			return false // closing: drop the rest
		}
		if err := e.src.update(u, changed, buffered); err != nil {
			e.cfg.Logf("retrieval: updating %s: %v", u.path, err)
		}
	}
	e.commit(changed, buffered, start, fmt.Sprintf("reindexed %d file(s)", len(batch)))
	return e.src.settle(0, changed, buffered)
}

// settle resolves again up to max of the files that updates left and
// swaps in the snapshot with their new dependency edges; it reports
// whether some are left.
func (e *Engine) settle(max int) bool {
	start := time.Now()
	changed := map[string][]*library.Decl{}
	buffered := map[string]bool{}
	more := e.src.settle(max, changed, buffered)
	e.commit(changed, buffered, start, "resolved dependents again")
	return more
}

// commit swaps in the snapshot with the declarations of changed (by file
// key), skipping those that look the same as before.
func (e *Engine) commit(changed map[string][]*library.Decl, buffered map[string]bool, start time.Time, what string) {
	cur := e.snapshot()
	for k, ds := range changed {
		ds = e.described(ds)
		changed[k] = ds
		if slices.EqualFunc(ds, cur.fileDecls(k), sameIndexed) && buffered[k] == cur.buffered[k] {
			delete(changed, k)
		}
	}
	if len(changed) == 0 {
		return
	}
	parsed := time.Now()
	next := cur.with(changed, buffered)
	e.store(next)
	e.setStatus(func(s *Status) { s.Decls = next.count() })
	select {
	case e.embedKick <- struct{}{}:
	default:
	}
	if next.wantsCompaction() && !e.compacting {
		e.compacting = true
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.compact(next)
		}()
	}
	e.cfg.Logf("retrieval: %s in %v (parse %v, snapshot %v; overlay %d files, %d declarations)", what,
		time.Since(start).Round(time.Millisecond), parsed.Sub(start).Round(time.Millisecond),
		time.Since(parsed).Round(time.Millisecond), len(next.changed), next.over.n())
}

// sameIndexed reports whether two versions of a declaration look the same
// to the engine and to whoever reads a hit: everything but proof
// dependencies.
func sameIndexed(a, b *library.Decl) bool {
	return a.Name == b.Name && a.Kind == b.Kind && a.Module == b.Module && a.File == b.File && a.Range == b.Range &&
		a.Signature == b.Signature && a.Doc == b.Doc && a.Private == b.Private && a.Informal == b.Informal &&
		a.Protected == b.Protected && a.Anonymous == b.Anonymous && a.Parent == b.Parent && a.Twin == b.Twin &&
		a.Generated == b.Generated && a.Symbol == b.Symbol && a.Package == b.Package && a.User == b.User &&
		slices.Equal(a.Attrs, b.Attrs) && slices.Equal(a.StatementDeps, b.StatementDeps)
}

// compaction is a new base built from the visible declarations of from.
type compaction struct {
	from  *snapshot
	base  *part
	names *names.Index
}

// compact builds a new base from s in the background and hands it to the
// update loop, which re-applies the changes made meanwhile. Queries and
// updates go on during the build. The new base holds buffer text, so it is
// never stored.
func (e *Engine) compact(s *snapshot) {
	c := newCompaction(e.ctx, s)
	if e.ctx.Err() != nil {
		return // closing: c is incomplete
	}
	select {
	case e.compacted <- c:
	case <-e.ctx.Done():
	}
}

// newCompaction builds a base part and name index over s's visible
// declarations (incomplete when ctx ends).
func newCompaction(ctx context.Context, s *snapshot) compaction {
	decls := s.liveDecls()
	done := make(chan *names.Index)
	go func() { done <- names.New(decls) }()
	b := buildPart(ctx, decls, 0, nil)
	return compaction{from: s, base: b, names: <-done}
}
