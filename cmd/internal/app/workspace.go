package app

import (
	"context"
	"os"
	"path/filepath"

	"github.com/drift-lsp/drift-lsp/cmd/internal/docref"
	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// Workspace is serve's backend for front ends other than the language
// server (drift-lsp mcp): the same live retrieval engine over the same cache
// and snapshot, the same checker and REPL pool, the same model and pipeline.
type Workspace struct {
	b      *driftBackend
	header string
}

// Open opens the workspace at root (with the extra roots and corpora of s;
// root may be "" when they name something) under settings s as serve opens
// an editor's workspace folder (Opener): the retrieval engine (OpenEngine),
// the model client (NewModel), the checker (OpenChecker) and the pipeline.
// The index is built or loaded in the background and follows edits on
// disk; logf receives the log.
func Open(ctx context.Context, s settings.Settings, root string, logf func(string, ...any)) (*Workspace, error) {
	b, err := open(ctx, root, s, logf)
	if err != nil {
		return nil, err
	}
	roots := append([]string{root}, s.Roots...)
	return &Workspace{b: b, header: DefaultHeader(roots)}, nil
}

// DefaultHeader is the header a stub is checked under when its caller gives
// none: "import Mathlib" when a root is Mathlib or depends on it, else "".
func DefaultHeader(roots []string) string {
	for _, r := range roots {
		for _, p := range []string{"Mathlib", filepath.Join(".lake", "packages", "mathlib")} {
			if st, err := os.Stat(filepath.Join(r, p)); err == nil && st.IsDir() {
				return "import Mathlib"
			}
		}
	}
	return ""
}

// Engine returns the live retrieval engine.
func (w *Workspace) Engine() *retrieval.Engine { return w.b.eng }

// Header returns the default header of the workspace's stubs (DefaultHeader).
func (w *Workspace) Header() string { return w.header }

// Params returns the pipeline's numbers of premises and illustrative
// theorems (the pipeline.k and pipeline.m settings).
func (w *Workspace) Params() (k, m int) {
	_, s, _ := w.b.current()
	return s.Pipeline.K, s.Pipeline.M
}

// PipelineParams returns the effective parameters of the workspace's
// pipeline (PipelineParams of its settings, defaults applied).
func (w *Workspace) PipelineParams() drift.Params {
	pl, _, _ := w.b.current()
	return pl.Params()
}

// Check runs the checker on req as given: the gate first, so that nothing
// it rejects reaches Lean.
func (w *Workspace) Check(ctx context.Context, req leanrepl.CheckRequest) (*leanrepl.Report, error) {
	w.b.mu.Lock()
	checker := w.b.checker
	w.b.mu.Unlock()
	return checker.Check(ctx, req)
}

// Formalize runs the pipeline on req as the language server's Formalize
// action does; without a model it returns why (wrapping lsp.ErrNoModel).
func (w *Workspace) Formalize(ctx context.Context, req drift.Request, report progress.Func) (*drift.Result, error) {
	return w.b.formalize(ctx, req, report)
}

// LintDocs checks the names in the comments of the indexed files at paths
// (absolute) with the checker of names in comments over the current
// snapshot, once it is built (in the background, when the index is ready).
// Many files are parsed through the index's parse cache.
func (w *Workspace) LintDocs(ctx context.Context, paths []string) ([]docref.FileReport, error) {
	c, err := w.comments(ctx)
	if err != nil {
		return nil, err
	}
	parse := leansrc.Parse
	if len(paths) > lintCacheFiles {
		_, s, _ := w.b.current()
		parse = library.Parser(s.Cache(), w.b.eng.Library().Workspace())
	}
	reports, _, err := c.LintFiles(ctx, paths, parse, 0)
	return reports, err
}

// lintCacheFiles is the number of files from which LintDocs reads the
// parse cache (the whole library's, too large to read for a few files).
const lintCacheFiles = 64

// comments waits for the checker of names in comments.
func (w *Workspace) comments(ctx context.Context) (*docref.Checker, error) {
	if err := w.b.eng.WaitReady(ctx); err != nil {
		return nil, err
	}
	for {
		changed := w.b.CommentsChanged()
		if c := w.b.docChecker(); c != nil {
			return c, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Close stops the engine, the REPL pool, the local model and the background
// work.
func (w *Workspace) Close() error { return w.b.Close() }
