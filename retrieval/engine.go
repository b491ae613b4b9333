package retrieval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/drift-lsp/drift-lsp/retrieval/embed"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/internal/library"
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

	// mu is held for reading by queries and for writing while an update
	// swaps the lexical index and the snapshot together, so a query never
	// sees half of a file's update.
	mu    sync.RWMutex
	snap  *snapshot
	lex   *lexical.Index
	dense *denseIndex
	src   source

	stMu   sync.Mutex
	status Status

	ready    chan struct{}
	buildErr error
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	updates  chan fileUpdate
	// embedKick wakes the embedding loop after an update.
	embedKick chan struct{}
	// embedDone is closed when the first embedding pass ends (at once when
	// there is no embedder).
	embedDone chan struct{}
	embedOnce sync.Once
	closeMu   sync.Once
	// statsOnce guards stats, what the first search mines from the whole
	// library (synonyms, proof uses).
	statsOnce sync.Once
	stats     *libraryStats
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
		embedKick: make(chan struct{}, 1),
		embedDone: make(chan struct{}),
		status:    Status{Phase: "scanning"},
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
	if e.cfg.Watch {
		e.startWatcher()
	}
	if e.cfg.Embedder != nil {
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.embedAll()
		}()
	}
	e.serveUpdates()
}

func (e *Engine) buildIndexes() error {
	t0 := time.Now()
	src, decls, err := loadSource(e.ctx, e.cfg, func(done, total int) {
		e.setStatus(func(s *Status) { s.Phase = "scanning"; s.Done, s.Total = done, total })
	})
	if err != nil {
		return err
	}
	t1 := time.Now()
	snap := newSnapshot(decls)
	t2 := time.Now()
	var lex *lexical.Index
	fresh := true
	if e.dir == "" {
		lex, err = lexical.OpenMemory()
	} else {
		lex, fresh, err = lexical.Open(e.dir)
	}
	if err != nil {
		return err
	}
	if !fresh {
		e.cfg.Logf("retrieval: reusing lexical index in %s", e.dir)
	}
	if err := syncLexical(e.ctx, lex, snap, e.dir, func(done, total int) {
		e.setStatus(func(s *Status) { s.Phase = "indexing"; s.Done, s.Total = done, total })
	}); err != nil {
		lex.Close()
		return err
	}
	e.mu.Lock()
	e.snap, e.lex, e.src = snap, lex, src
	e.mu.Unlock()
	e.cfg.Logf("retrieval: %d declarations: loaded in %v, in-memory indexes in %v, lexical index in %v",
		len(snap.decls), t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
	e.setStatus(func(s *Status) {
		s.Phase, s.Ready, s.Decls = "ready", true, len(snap.decls)
		s.Done = s.Total
	})
	return nil
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
	return e.snap, nil
}

// Names returns the name channel of the current snapshot (nil before the
// index is ready).
func (e *Engine) Names() *names.Index {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.snap == nil {
		return nil
	}
	return e.snap.names
}

// Lookup returns the declaration with a full name (the user's own first).
func (e *Engine) Lookup(name string) (*library.Decl, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.snap == nil {
		return nil, false
	}
	var best *library.Decl
	for _, id := range e.snap.byName[name] {
		d := e.snap.decls[id]
		if best == nil || (d.User && !best.User) {
			best = d
		}
	}
	return best, best != nil
}

// Close stops background work and closes the indexes.
func (e *Engine) Close() error {
	var err error
	e.closeMu.Do(func() {
		e.cancel()
		e.wg.Wait()
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.lex != nil {
			err = e.lex.Close()
		}
	})
	return err
}
