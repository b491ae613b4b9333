package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

// driftBackend is the real Backend: the retrieval engine, the model client,
// the DRIFT pipeline and the checks.
type driftBackend struct {
	eng   *retrieval.Engine
	logf  func(string, ...any)
	roots map[string]string // package → absolute root directory

	root string

	mu       sync.Mutex
	pipeline *drift.Pipeline
	settings Settings
	noModel  error
	checker  *leanrepl.Checker
	pool     *leanrepl.Pool
	replKey  string
}

// OpenDrift is the OpenFunc of drift-lsp: it opens the retrieval engine over
// the workspace at root plus the extra roots and corpora of s (building the
// index in the background), and sets up the model client and the pipeline.
func OpenDrift(ctx context.Context, root string, s Settings, logf func(string, ...any)) (Backend, error) {
	var roots []string
	if root != "" {
		roots = append(roots, root)
	}
	roots = append(roots, s.Roots...)
	if len(roots) == 0 && len(s.Corpus) == 0 {
		return nil, errors.New("no workspace folder and no drift.roots or drift.corpus setting: nothing to index")
	}
	b := &driftBackend{logf: logf, roots: map[string]string{}}
	if len(roots) > 0 {
		b.root = roots[0]
	}
	if len(roots) > 0 {
		if ws, err := library.Discover(roots[0], roots[1:]); err == nil {
			for _, r := range ws.Roots {
				if _, dup := b.roots[r.Package]; !dup {
					b.roots[r.Package] = r.Dir
				}
			}
		}
	}
	var emb embed.Embedder
	ecfg := embed.ConfigFromEnv()
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&ecfg.Provider, s.Embedding.Provider)
	set(&ecfg.ModelDir, s.Embedding.ModelDir)
	set(&ecfg.BaseURL, s.Embedding.BaseURL)
	set(&ecfg.Model, s.Embedding.Model)
	if ecfg.Provider != embed.ProviderNone {
		var warn string
		emb, warn = embed.Default(ecfg)
		if warn != "" {
			logf("drift: %s", warn)
		}
	}
	cache := s.CacheDir
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "drift-lsp")
		}
	}
	eng, err := retrieval.Open(ctx, retrieval.Config{Roots: roots, Corpus: s.Corpus, CacheDir: cache, Embedder: emb, Watch: true, Logf: logf})
	if err != nil {
		return nil, err
	}
	b.eng = eng
	b.Configure(s)
	return b, nil
}

// configureChecker (re)builds the checker and its REPL pool when the REPL
// settings changed. It is called with b.mu held.
func (b *driftBackend) configureChecker(s Settings) {
	key := fmt.Sprintf("%s\x00%d\x00%d\x00%d", s.REPL.Command, s.REPL.PoolSize, s.REPL.TimeoutSeconds, s.REPL.MemoryMB)
	if b.checker != nil && key == b.replKey {
		return
	}
	if b.pool != nil {
		_ = b.pool.Close()
		b.pool = nil
	}
	cfg := leanrepl.CheckerConfig{Names: drift.LiveNames(b.eng), Kinds: leanrepl.LibraryKinds(b.eng.Lookup)}
	var cmd []string
	if s.REPL.Command != "" {
		cmd = []string{"sh", "-c", s.REPL.Command}
	}
	// A pool that cannot be made leaves the checker without Lean; its
	// reports say why.
	b.checker, b.pool, _ = leanrepl.OpenChecker(cfg, leanrepl.Config{Command: cmd, Root: b.root, Size: s.REPL.PoolSize,
		Timeout: time.Duration(s.REPL.TimeoutSeconds) * time.Second, MemoryLimit: int64(s.REPL.MemoryMB) << 20, Logf: b.logf})
	b.replKey = key
}

// Configure rebuilds the model client, the checker and the pipeline from s.
func (b *driftBackend) Configure(s Settings) {
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		b.logf("drift: %v", err)
	}
	if s.LLM.BaseURL != "" {
		cfg.BaseURL = s.LLM.BaseURL
	}
	if s.LLM.Model != "" {
		cfg.Model = s.LLM.Model
	}
	if s.LLM.APIKeyEnv != "" {
		cfg.APIKeyEnv = s.LLM.APIKeyEnv
	}
	cfg.Logf = b.logf
	var client *llm.Client
	var noModel error
	if cfg.Configured() {
		client, err = llm.New(cfg)
		if err != nil {
			noModel = err
			client = nil
		}
	} else {
		noModel = fmt.Errorf("%w: %s", ErrNoModel, llm.HowToConfigure)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settings = s
	b.noModel = noModel
	b.configureChecker(s)
	params := drift.Params{K: s.Pipeline.K, M: s.Pipeline.M, Samples: s.Pipeline.Samples, RepairBudget: s.Pipeline.RepairBudget}
	if s.Pipeline.SubQueries == "topk" {
		params.PerSubQuery = s.Pipeline.K
	}
	b.pipeline = drift.New(b.eng, client, b.checker, params)
}

func (b *driftBackend) current() (*drift.Pipeline, Settings, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pipeline, b.settings, b.noModel
}

// Status implements Backend.
func (b *driftBackend) Status() IndexStatus {
	st := b.eng.Status()
	out := IndexStatus{Phase: st.Phase, Done: st.Done, Total: st.Total, Ready: st.Ready, Decls: st.Decls, Warning: st.Warning}
	if st.Phase == "failed" {
		out.Err = errors.New(st.Warning)
		out.Warning = ""
	}
	return out
}

// Search implements Backend.
func (b *driftBackend) Search(ctx context.Context, query string, k int) ([]Symbol, error) {
	hits, err := b.eng.Search(ctx, retrieval.Query{Text: query, K: k})
	if err != nil {
		return nil, err
	}
	out := make([]Symbol, 0, len(hits))
	for _, h := range hits {
		if h.Decl != nil {
			out = append(out, b.symbol(h.Decl))
		}
	}
	return out, nil
}

// symbol converts a declaration, resolving its file against its root.
func (b *driftBackend) symbol(d *library.Decl) Symbol {
	path := d.File
	if dir, ok := b.roots[d.Package]; ok && !filepath.IsAbs(path) {
		path = filepath.Join(dir, filepath.FromSlash(d.File))
	} else if !filepath.IsAbs(path) {
		path = ""
	}
	return Symbol{
		Name: d.Name, Kind: string(d.Kind), Signature: d.Signature, Path: path, Container: d.Module,
		Range: Span{Start: Pos{d.Range.Start.Line, d.Range.Start.Character}, End: Pos{d.Range.End.Line, d.Range.End.Character}},
	}
}

// Formalize implements Backend.
func (b *driftBackend) Formalize(ctx context.Context, req FormalizeRequest, progress func(Progress)) (*Formalized, error) {
	pl, _, noModel := b.current()
	if noModel != nil {
		return nil, noModel
	}
	res, err := pl.Formalize(ctx, drift.Request{Statement: req.Statement, Name: req.Name, Header: req.Header, Taken: drift.DeclaredNames(req.Text)}, func(e drift.Event) {
		progress(Progress{Stage: e.Stage, Message: e.Message, Done: e.Done, Total: e.Total})
	})
	if err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("%d candidate(s), %d premise(s), %d model call(s)", len(res.Candidates), len(res.Premises), res.Usage.Calls)
	return &Formalized{Stub: res.Stub, Summary: summary, Report: res.Report}, nil
}

// FindPremises implements Backend.
func (b *driftBackend) FindPremises(ctx context.Context, statement string, progress func(Progress)) (*Premises, error) {
	pl, s, _ := b.current()
	progress(Progress{Stage: "retrieve", Message: fmt.Sprintf("Retrieving the top %d premises…", s.Pipeline.K)})
	prem, ill, err := pl.FindPremises(ctx, statement, s.Pipeline.K, s.Pipeline.M)
	if err != nil {
		return nil, err
	}
	out := &Premises{Coverage: ill.Coverage}
	for _, p := range prem {
		if p.Decl != nil {
			out.Premises = append(out.Premises, b.symbol(p.Decl))
		}
	}
	for _, d := range ill.Theorems {
		out.Examples = append(out.Examples, b.symbol(d))
	}
	return out, nil
}

// Check implements Backend: the leanrepl checks (gate, unknown names,
// lints, Lean when a REPL is available) on the statement of decl, its proof
// replaced by sorry; the report's positions are in its Stub, decl's text
// trimmed up to the proof.
func (b *driftBackend) Check(ctx context.Context, header, decl string) (*CheckReport, error) {
	stub := statementStub(decl)
	b.mu.Lock()
	checker := b.checker
	b.mu.Unlock()
	rep, err := checker.Check(ctx, leanrepl.CheckRequest{Header: header, Stub: stub})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// statementStub replaces the proof of a theorem or example by sorry, so
// that the checks see its statement.
func statementStub(decl string) string {
	if stmt, _, ok := leanrepl.SplitProof(decl); ok {
		return stmt + " := by sorry"
	}
	return decl
}

// UpdateBuffer implements Backend.
func (b *driftBackend) UpdateBuffer(path string, text []byte) { b.eng.UpdateBuffer(path, text) }

// CloseBuffer implements Backend.
func (b *driftBackend) CloseBuffer(path string) { b.eng.CloseBuffer(path) }

// Close implements Backend.
func (b *driftBackend) Close() error {
	b.mu.Lock()
	if b.pool != nil {
		_ = b.pool.Close()
		b.pool = nil
	}
	b.mu.Unlock()
	return b.eng.Close()
}
