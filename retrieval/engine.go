package retrieval

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// ErrNotReady is returned (wrapped, with an "indexing, N%" message) by
// queries made before the lexical and name indexes cover the library.
var ErrNotReady = errors.New("retrieval: index not ready")

// Config configures an Engine.
type Config struct {
	// Roots are workspace directories to index (Lake roots or plain trees).
	Roots []string
	// Corpus are declaration dumps in the decls JSONL schema.
	Corpus []string
	// CacheDir holds the persistent indexes; empty keeps them in memory.
	CacheDir string
	// ElanHome is elan's directory, where Lean's own sources are looked
	// for ("" leaves them out).
	ElanHome string
	// Embedder computes dense vectors; nil disables the dense channel.
	Embedder embed.Embedder
	// Watch keeps the index up to date with file changes under Roots.
	Watch bool
	// Logf receives progress and warnings; nil discards them.
	Logf func(string, ...any)
}

// Engine is a live, hybrid retrieval index over a workspace library.
type Engine struct {
	cfg     Config
	ranking Ranking
	// dir is this workspace's directory under cfg.CacheDir ("" in memory).
	dir string

	// snap is the current snapshot: a query loads it once and reads only
	// it, so it never sees half of a file's update and never waits for one.
	snap  atomic.Pointer[snapshot]
	dense atomic.Pointer[denseIndex]
	// swapMu guards swapped, which is closed (and replaced) whenever a new
	// snapshot is stored: tests and benchmarks wait on it instead of polling.
	swapMu  sync.Mutex
	swapped chan struct{}
	// src is set before ready is closed and then used only by the update
	// loop, the watcher and Library.
	src source

	stMu   sync.Mutex
	status Status

	ready    chan struct{}
	buildErr error
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	updates  chan fileUpdate
	// compacted delivers a new base built in the background; compacting is
	// true while one is being built (both used by the update loop only).
	compacted  chan compaction
	compacting bool
	// settleReq takes the channels of WaitSettled callers, closed by the
	// update loop when nothing is queued or left to resolve.
	settleReq chan chan struct{}
	// describe takes Describe's descriptions; informal holds them all by
	// name (used by the update loop only).
	describe chan map[string]Description
	informal map[string]Description
	// embedKick wakes the embedding loop after an update.
	embedKick chan struct{}
	// embedDone is closed when the first embedding pass ends (at once when
	// there is no embedder).
	embedDone chan struct{}
	embedOnce sync.Once
	closeMu   sync.Once
	// synOnce guards syn, the synonym table stored with the base (mined
	// by the first search in engines made otherwise, as in tests).
	synOnce sync.Once
	syn     *synonymTable
}

// Open starts an engine over cfg and returns at once; the library is loaded
// and indexed in the background (see Status and WaitReady).
func Open(ctx context.Context, cfg Config) (*Engine, error) {
	if len(cfg.Roots) == 0 && len(cfg.Corpus) == 0 {
		return nil, errors.New("retrieval: no roots and no corpus to index")
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	e := &Engine{
		cfg:       cfg,
		ranking:   DefaultRanking,
		ready:     make(chan struct{}),
		ctx:       bctx,
		cancel:    cancel,
		updates:   make(chan fileUpdate, 256),
		compacted: make(chan compaction),
		settleReq: make(chan chan struct{}),
		describe:  make(chan map[string]Description),
		embedKick: make(chan struct{}, 1),
		embedDone: make(chan struct{}),
		status:    Status{Phase: "scanning"},
		swapped:   make(chan struct{}),
	}
	if cfg.CacheDir != "" {
		e.dir = filepath.Join(cfg.CacheDir, "retrieval", workspaceKey(cfg))
	}
	if cfg.Embedder == nil {
		e.status.Warning = "dense retrieval off: no embedding model configured; using lexical and name search"
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.build()
	}()
	return e, nil
}

// workspaceKey names the cache directory of one set of roots and corpora.
func workspaceKey(cfg Config) string {
	h := sha256.New()
	for _, r := range cfg.Roots {
		if a, err := filepath.Abs(r); err == nil {
			r = a
		}
		fmt.Fprintf(h, "root %s\n", r)
	}
	for _, c := range cfg.Corpus {
		if a, err := filepath.Abs(c); err == nil {
			c = a
		}
		fmt.Fprintf(h, "corpus %s\n", c)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// build loads the library and the indexes, then serves updates.
func (e *Engine) build() {
	err := e.buildIndexes()
	if err != nil {
		e.buildErr = err
		e.setStatus(func(s *Status) { s.Phase = "failed"; s.Warning = err.Error() })
		e.cfg.Logf("retrieval: %v", err)
		close(e.ready)
		e.finishEmbedding()
		return
	}
	close(e.ready)
	if e.cfg.Embedder == nil {
		e.finishEmbedding()
	}
	if e.cfg.Embedder != nil {
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.embedAll()
		}()
	}
	if lib := e.Library(); lib != nil && e.cfg.Watch {
		// A live engine will update files: build the library's name index
		// now rather than in the first update.
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			lib.Prepare()
		}()
	}
	e.serveUpdates()
}

func (e *Engine) buildIndexes() error {
	t0 := time.Now()
	src, decls, err := loadSource(e.ctx, e.cfg, func(done, total int) {
		e.setStatus(func(s *Status) {
			s.Phase, s.Done, s.Total = "scanning", done, total
			s.Scan = Progress{Done: done, Total: total}
		})
	})
	if err != nil {
		return err
	}
	if e.cfg.Watch {
		// Watch from now on (changes during the index build are applied
		// after it), and before ready: a change made once a caller saw the
		// index ready is never missed.
		watching := make(chan struct{})
		go func() {
			defer close(watching)
			e.startWatcher(src)
		}()
		defer func() { <-watching }()
	}
	t1 := time.Now()
	kept := dedup(decls)
	e.setStatus(func(s *Status) {
		s.Phase, s.Done, s.Total = "indexing", 0, len(kept)
		s.Index = Progress{Total: len(kept)}
	})
	fp := fingerprint(kept)
	how := "opened"
	b, nm, why := openBase(e.dir, kept, fp)
	if b == nil {
		how = "built (" + why + ")"
		b, nm = buildBase(e.ctx, kept, func(done int) {
			e.setStatus(func(s *Status) {
				if done > s.Index.Done { // workers report out of order
					s.Index.Done, s.Done = done, done
				}
			})
		})
		if err := e.ctx.Err(); err != nil {
			return err // closing: the part is incomplete
		}
		// Stored before ready (a second or so on Mathlib): a process that
		// starts once this one is ready opens it instead of building again.
		if e.dir != "" {
			if err := saveBase(e.dir, b, nm, fp); err != nil {
				e.cfg.Logf("retrieval: %v", err)
			}
		}
	}
	if err := e.ctx.Err(); err != nil {
		return err
	}
	snap := fromBase(b, nm)
	// Search's synonyms come with the base (mined at its build).
	e.synOnce.Do(func() { e.syn = synonymsFrom(b.synPairs) })
	e.src = src
	e.store(snap)
	e.cfg.Logf("retrieval: %d declarations: loaded in %v, indexes %s in %v (%s)", snap.count(),
		t1.Sub(t0).Round(time.Millisecond), how, time.Since(t1).Round(time.Millisecond), cmp.Or(e.dir, "in memory"))
	e.setStatus(func(s *Status) {
		s.Phase, s.Ready, s.Decls = "ready", true, snap.count()
		s.Index.Done = s.Index.Total
		s.Done, s.Total = s.Index.Done, s.Index.Total
	})
	return nil
}

// buildGCPercent is the garbage collector's target while a base is built.
const buildGCPercent = 300

// buildBase builds the base part over kept (deduplicated) and its name
// index, and mines the lexicon stored with it; progress, when not nil,
// counts the declarations analyzed. When ctx ends the result is incomplete
// and must be dropped.
func buildBase(ctx context.Context, kept []*library.Decl, progress func(done int)) (*part, *names.Index) {
	// The build allocates about a gigabyte over a live heap of the library's
	// size; at the default GOGC the collector ran so often that it was a
	// third of the build's CPU. Fewer cycles while it runs, at the cost of
	// a higher peak (measured: docs/retrieval.md).
	if prev := debug.SetGCPercent(buildGCPercent); prev < 0 || prev >= buildGCPercent {
		debug.SetGCPercent(prev) // off, or already as lax: left as set
	} else {
		defer debug.SetGCPercent(prev)
	}
	done := make(chan struct{})
	var mined []lexPair
	var nm *names.Index
	go func() {
		nm = names.New(kept)
		mined = minePairs(kept)
		close(done)
	}()
	analyzed := analyzeAll(ctx, kept, progress)
	b := buildAnalyzed(kept, analyzed, 0)
	<-done
	// The symbols' words are mined from the analyzed statements.
	b.synPairs = append(mined, mineSymbols(kept, analyzed)...)
	return b, nm
}

func (e *Engine) setStatus(f func(*Status)) {
	e.stMu.Lock()
	f(&e.status)
	e.stMu.Unlock()
}

// Status reports indexing progress.
func (e *Engine) Status() Status {
	e.stMu.Lock()
	defer e.stMu.Unlock()
	return e.status
}

// WaitReady blocks until lexical and name search cover the library, the
// build fails, or ctx ends.
func (e *Engine) WaitReady(ctx context.Context) error {
	select {
	case <-e.ready:
		return e.buildErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *Engine) finishEmbedding() { e.embedOnce.Do(func() { close(e.embedDone) }) }

// WaitEmbedded blocks until the first background embedding pass is over
// (every declaration has a vector, or embedding failed or is off), or ctx
// ends. One-shot commands use it for reproducible dense results.
func (e *Engine) WaitEmbedded(ctx context.Context) error {
	select {
	case <-e.embedDone:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// current returns the snapshot for a query, or ErrNotReady.
func (e *Engine) current() (*snapshot, error) {
	select {
	case <-e.ready:
		if e.buildErr != nil {
			return nil, e.buildErr
		}
	default:
		st := e.Status()
		pct := 0
		if st.Total > 0 {
			pct = 100 * st.Done / st.Total
			if st.Phase == "scanning" {
				pct /= 2
			} else {
				pct = 50 + pct/2
			}
		}
		return nil, fmt.Errorf("%w: indexing, %d%%", ErrNotReady, pct)
	}
	return e.snap.Load(), nil
}

// store makes s the current snapshot and wakes the waiters of Changed.
func (e *Engine) store(s *snapshot) {
	e.snap.Store(s)
	e.swapMu.Lock()
	close(e.swapped)
	e.swapped = make(chan struct{})
	e.swapMu.Unlock()
}

// Changed returns a channel that is closed when the next snapshot (a build
// or an applied file update) becomes current.
func (e *Engine) Changed() <-chan struct{} {
	e.swapMu.Lock()
	defer e.swapMu.Unlock()
	return e.swapped
}

// snapshot returns the current snapshot (nil before the index is ready).
func (e *Engine) snapshot() *snapshot { return e.snap.Load() }

// Names returns the name channel of the current snapshot (nil before the
// index is ready).
func (e *Engine) Names() *names.Index {
	if s := e.snapshot(); s != nil {
		return s.names
	}
	return nil
}

// Library returns the workspace library the index was built from, as last
// updated (nil before the index is ready or when only corpora are served).
func (e *Engine) Library() *library.Library {
	if e.snapshot() == nil {
		return nil
	}
	if ls, ok := e.src.(*libSource); ok {
		ls.mu.Lock()
		defer ls.mu.Unlock()
		return ls.lib
	}
	return nil
}

// Embedder returns the dense encoder the engine uses (nil when none).
func (e *Engine) Embedder() embed.Embedder { return e.cfg.Embedder }

// Lookup returns the declaration with a full name (the user's own first).
func (e *Engine) Lookup(name string) (*library.Decl, bool) {
	if s := e.snapshot(); s != nil {
		return s.lookup(name)
	}
	return nil, false
}

// ExportAlias returns the constant an `export` command of the library
// makes name stand for (library.Library.ExportAlias); ok is false before
// the library is loaded.
func (e *Engine) ExportAlias(name string) (string, bool) {
	if lib := e.Library(); lib != nil {
		return lib.ExportAlias(name)
	}
	return "", false
}

// Close stops background work (waiting for a cache write under way).
func (e *Engine) Close() error {
	e.closeMu.Do(func() {
		e.cancel()
		e.wg.Wait()
	})
	return nil
}
