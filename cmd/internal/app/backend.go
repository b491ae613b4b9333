package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/drift-lsp/drift-lsp/cmd/internal/docref"
	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/local"
	"github.com/drift-lsp/drift-lsp/lsp"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// driftBackend is the real lsp.Backend: the retrieval engine, the model client,
// the DRIFT pipeline and the checks.
type driftBackend struct {
	eng  *retrieval.Engine
	logf func(string, ...any)

	root string

	mu       sync.Mutex
	pipeline *drift.Pipeline
	settings settings.Settings
	noModel  error
	checker  *leanrepl.Checker
	pool     *leanrepl.Pool
	replKey  string

	// comments is the checker of names in comments, built in the
	// background when the index is first ready (building starts on the
	// first call of Comments) and rebuilt after the index's snapshot
	// changes (followComments); commentsSwapped is closed at each new one.
	comments        *docref.Checker
	commentsSwapped chan struct{}
	commentsStart   sync.Once
	// closed is closed by Close; it stops followComments.
	closed chan struct{}
	ctx    context.Context
	// local is the bundled local model's server once the client used it;
	// it is reused by later configurations and stopped by Close.
	local *local.Server
	// model describes the model client for the log (modelDescription).
	model string
	// stopInformal cancels the running informalization and waits for it.
	stopInformal func()
	// jobs counts the running Formalize jobs.
	jobs int
	// idleInformal is the bundled local model's client, which describes
	// declarations only between jobs (see Formalize), nil otherwise.
	idleInformal *llm.Client
	// described maps the declarations described so far to the signature
	// each description was written for. Only the informalization goroutine
	// uses it; runs never overlap (startInformalize waits for the last).
	described map[string]string
}

// informalizeCalls bounds the model calls of one background
// informalization run with a configured endpoint, which runs once the
// index is ready; idleInformalizeCalls those of a run with the bundled
// local model, which runs after each Formalize job, when none is running,
// and stops when the next one starts.
const (
	informalizeCalls     = 64
	idleInformalizeCalls = 8
)

// startInformalize stops the running informalization and, when client is
// not nil, starts one with pl in the background, of at most budget model
// calls. It is called with b.mu held (the run never takes it).
func (b *driftBackend) startInformalize(pl *drift.Pipeline, client *llm.Client, budget int) {
	if b.stopInformal != nil {
		b.stopInformal()
		b.stopInformal = nil
	}
	if client == nil {
		return
	}
	ctx, cancel := context.WithCancel(b.ctx)
	done := make(chan struct{})
	b.stopInformal = func() {
		cancel()
		<-done
	}
	go func() {
		defer close(done)
		b.informalize(ctx, pl, budget)
	}()
}

// informalize waits for the index, describes the user's own undocumented
// declarations not described yet (drift's Informalize stage: the
// workspace's files, not its packages; in dependency order, at most budget
// model calls, answers cached on disk by the client) and hands the
// descriptions to the engine, whose search then finds the declarations by
// them.
func (b *driftBackend) informalize(ctx context.Context, pl *drift.Pipeline, budget int) {
	if b.eng.WaitReady(ctx) != nil {
		return
	}
	lib := b.eng.Library()
	if lib == nil {
		return
	}
	var targets []*library.Decl
	for _, d := range drift.InformalizeTargets(lib.Decls()) {
		if sig, ok := b.described[d.Name]; !ok || sig != d.Signature {
			targets = append(targets, d)
		}
	}
	if len(targets) == 0 {
		return
	}
	desc, usage, err := pl.Informalize(ctx, targets, b.eng.Lookup, budget, nil)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		b.logf("drift: describing your declarations: %v", err)
	}
	out := make(map[string]retrieval.Description, len(desc))
	if b.described == nil {
		b.described = map[string]string{}
	}
	for _, d := range targets {
		if text, ok := desc[d.Name]; ok {
			out[d.Name] = retrieval.Description{Signature: d.Signature, Text: text}
			b.described[d.Name] = d.Signature
		}
	}
	b.eng.Describe(out)
	b.logf("drift: described %d of %d undocumented declarations of yours (%d model calls, %d cache hits)", len(out), len(targets), usage.Calls, usage.CacheHits)
}

// modelDescription says which model client is in use, for the log: the
// bundled local model, an endpoint's model, or none and why.
func modelDescription(client *llm.Client, srv *local.Server, noModel error) string {
	switch {
	case noModel != nil:
		return "none: " + noModel.Error()
	case srv != nil:
		return fmt.Sprintf("the bundled local model %s (started on first use)", srv.Installation().ModelName())
	case client != nil:
		return fmt.Sprintf("%s at the configured endpoint", client.Config().Model)
	}
	return "none"
}

// open builds the backend of the workspace at root under settings s (Open).
func open(ctx context.Context, root string, s settings.Settings, logf func(string, ...any)) (*driftBackend, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	for _, w := range s.Warnings {
		logf("drift: settings: %s", w)
	}
	var roots []string
	if root != "" {
		roots = append(roots, root)
	}
	roots = append(roots, s.Roots...)
	if len(roots) == 0 && len(s.Corpus) == 0 {
		return nil, errors.New("no workspace folder and no drift.roots or drift.corpus setting: nothing to index")
	}
	b := &driftBackend{logf: logf, commentsSwapped: make(chan struct{}), closed: make(chan struct{})}
	if len(roots) > 0 {
		b.root = roots[0]
	}
	eng, err := OpenEngine(ctx, s, roots, true, logf)
	if err != nil {
		return nil, err
	}
	b.eng = eng
	b.ctx = ctx
	b.Configure(s)
	return b, nil
}

// Comments implements lsp.Backend with docChecker (comments.go).
func (b *driftBackend) Comments() lsp.CommentChecker { return newCommentChecker(b.docChecker()) }

// docChecker returns nil until the index is ready and the names that the
// library's code uses have been read (a few seconds on Mathlib, in the
// background); then the checker of names in comments over the latest
// snapshot.
func (b *driftBackend) docChecker() *docref.Checker {
	b.mu.Lock()
	c := b.comments
	b.mu.Unlock()
	if c != nil || !b.eng.Status().Ready {
		return c
	}
	b.commentsStart.Do(func() { go b.followComments() })
	return nil
}

// CommentsChanged implements lsp.Backend.
func (b *driftBackend) CommentsChanged() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.commentsSwapped
}

// commentsDebounce is how long the index's snapshot must stay unchanged
// before the checker of names in comments is rebuilt over it.
const commentsDebounce = 300 * time.Millisecond

// followComments builds the checker of names in comments over the current
// snapshot, then rebuilds it each time the snapshot changed and settled
// for commentsDebounce, until the backend closes. The names the library's
// code uses (Known) are read once, and before them the instances the type
// checks read (leanrepl.WarmTypes): the rebuild is one pass over the
// declarations, off every request and the typing path.
func (b *driftBackend) followComments() {
	var known docref.Known
	for {
		changed := b.eng.Changed()
		if lib, ix := b.eng.Library(), b.eng.Names(); lib != nil && ix != nil {
			if known == nil {
				leanrepl.WarmTypes(lib) // once, as the names below: a type check's first read
				var err error
				if known, err = docref.LoadKnown(b.ctx, lib, 1); err != nil {
					b.logf("drift: names in comments: %v", err)
					return
				}
			}
			c := docref.New(lib, ix, known)
			b.mu.Lock()
			b.comments = c
			close(b.commentsSwapped)
			b.commentsSwapped = make(chan struct{})
			b.mu.Unlock()
		}
		select {
		case <-b.ctx.Done():
			return
		case <-b.closed:
			return
		case <-changed:
		}
		if !b.settle() {
			return
		}
	}
}

// settle waits until the index's snapshot has not changed for
// commentsDebounce; false when the backend closes first.
func (b *driftBackend) settle() bool {
	t := time.NewTimer(commentsDebounce)
	defer t.Stop()
	for {
		select {
		case <-b.ctx.Done():
			return false
		case <-b.closed:
			return false
		case <-b.eng.Changed():
			t.Reset(commentsDebounce)
		case <-t.C:
			return true
		}
	}
}

// configureChecker (re)builds the checker and its REPL pool when the REPL
// or lean settings changed. It is called with b.mu held.
func (b *driftBackend) configureChecker(s settings.Settings) {
	key := fmt.Sprintf("%s\x00%d\x00%d\x00%d\x00%s", s.REPL.Command, s.REPL.PoolSize, s.REPL.TimeoutSeconds, s.REPL.MemoryMB, s.Lean.Command)
	if b.checker != nil && key == b.replKey {
		return
	}
	if b.pool != nil {
		_ = b.pool.Close()
		b.pool = nil
	}
	// Without a REPL the checker runs `lean --json` (lean.command, else the
	// workspace's toolchain); without either its reports say why.
	b.checker, b.pool, _ = OpenChecker(b.eng, s, b.root, CheckOptions{}, b.logf)
	b.replKey = key
}

// Configure rebuilds the model client, the checker and the pipeline from s.
func (b *driftBackend) Configure(s settings.Settings) {
	b.mu.Lock()
	srv := b.local
	b.mu.Unlock()
	client, srv, noModel := NewModel(s, b.logf, srv)
	if noModel != nil {
		client = nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	// A local model the new client does not use (turned off, or an
	// endpoint set) is stopped; a later configuration starts a new one.
	if b.local != nil && srv != b.local {
		_ = b.local.Close()
	}
	b.local = srv
	if desc := modelDescription(client, srv, noModel); desc != b.model {
		b.model = desc
		b.logf("drift: model: %s", desc)
	}
	b.settings = s
	b.noModel = noModel
	b.configureChecker(s)
	b.pipeline = drift.New(b.eng, client, b.checker, PipelineParams(s))
	// With a configured endpoint the descriptions start now. The bundled
	// local model (one call at a time, two cores on a laptop) is not
	// started for them: they run between jobs, once a job has started it
	// (Formalize).
	b.idleInformal = nil
	if srv != nil {
		b.idleInformal, client = client, nil
	}
	b.startInformalize(b.pipeline, client, informalizeCalls)
}

func (b *driftBackend) current() (*drift.Pipeline, settings.Settings, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pipeline, b.settings, b.noModel
}

// Status implements lsp.Backend.
func (b *driftBackend) Status() lsp.IndexStatus {
	st := b.eng.Status()
	out := lsp.IndexStatus{Phase: st.Phase, Done: st.Done, Total: st.Total, Ready: st.Ready, Decls: st.Decls, Warning: st.Warning}
	if st.Phase == "failed" {
		out.Err = errors.New(st.Warning)
		out.Warning = ""
	}
	return out
}

// Search implements lsp.Backend.
func (b *driftBackend) Search(ctx context.Context, query string, k int) ([]lsp.Symbol, error) {
	hits, err := b.eng.Search(ctx, retrieval.Query{Text: query, K: k})
	if err != nil {
		return nil, err
	}
	out := make([]lsp.Symbol, 0, len(hits))
	for _, h := range hits {
		if h.Decl != nil {
			sym := b.symbol(h.Decl)
			sym.Summary, sym.Why = h.Summary, h.Why
			out = append(out, sym)
		}
	}
	return out, nil
}

// symbol converts a declaration, its file resolved by the library
// (library.DeclPath; "" when no indexed file declares it).
func (b *driftBackend) symbol(d *library.Decl) lsp.Symbol {
	path, _ := b.eng.Library().DeclPath(d)
	return lsp.Symbol{
		Name: d.Name, Kind: string(d.Kind), Signature: d.Signature, Path: path, Container: d.Module,
		Range: d.Range,
	}
}

// Formalize implements lsp.Backend.
func (b *driftBackend) Formalize(ctx context.Context, req lsp.FormalizeRequest, report progress.Func) (*lsp.Formalized, error) {
	dreq := drift.Request{Statement: req.Statement, Name: req.Name, Header: req.Header, Taken: drift.DeclaredNames(req.Text)}
	if req.Found != nil {
		dreq.Found = func(f drift.Found) { req.Found(b.premises(f.Premises, f.Illustration), f.Final) }
	}
	res, err := b.formalize(ctx, dreq, report)
	if err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("%d candidate(s), %d premise(s), %d model call(s)", len(res.Candidates), len(res.Premises), res.Usage.Calls)
	return &lsp.Formalized{Name: res.Name, Stub: res.Stub, Summary: summary, Report: checkReport(res.Report)}, nil
}

// formalize runs the pipeline on req as one job: the bundled local model's
// background descriptions pause while it runs.
func (b *driftBackend) formalize(ctx context.Context, req drift.Request, report progress.Func) (*drift.Result, error) {
	pl, _, noModel := b.current()
	if noModel != nil {
		return nil, noModel
	}
	b.mu.Lock()
	b.jobs++
	if b.idleInformal != nil {
		b.startInformalize(nil, nil, 0) // the job gets the model: it answers one call at a time
	}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.jobs--
		select {
		case <-b.closed:
			return
		default:
		}
		if b.jobs == 0 && b.idleInformal != nil && b.local != nil && b.local.PID() != 0 {
			b.startInformalize(b.pipeline, b.idleInformal, idleInformalizeCalls)
		}
	}()
	return pl.Formalize(ctx, req, report)
}

// FindPremises implements lsp.Backend.
func (b *driftBackend) FindPremises(ctx context.Context, statement string, report progress.Func) (*lsp.Premises, error) {
	pl, s, _ := b.current()
	report.Report(progress.Event{Stage: drift.StageRetrieve, Message: fmt.Sprintf("Retrieving the top %d premises…", s.Pipeline.K)})
	prem, ill, err := pl.FindPremises(ctx, statement, s.Pipeline.K, s.Pipeline.M)
	if err != nil {
		return nil, err
	}
	return b.premises(prem, ill), nil
}

// premises converts retrieved premises and illustrative theorems for the
// editor.
func (b *driftBackend) premises(prem []retrieval.Premise, ill retrieval.Illustration) *lsp.Premises {
	out := &lsp.Premises{Coverage: ill.Coverage}
	for _, p := range prem {
		if p.Decl != nil {
			out.Premises = append(out.Premises, b.symbol(p.Decl))
		}
	}
	for _, d := range ill.Theorems {
		out.Examples = append(out.Examples, b.symbol(d))
	}
	return out
}

// Check implements lsp.Backend: the leanrepl checks (gate, unknown names,
// lints, Lean when a REPL is available) on the statement of decl, its proof
// replaced by sorry; the report's positions are in its Stub, decl's text
// trimmed up to the proof.
func (b *driftBackend) Check(ctx context.Context, header, decl string, report progress.Func) (*lsp.CheckReport, error) {
	stub := statementStub(decl)
	b.mu.Lock()
	checker := b.checker
	b.mu.Unlock()
	rep, err := checker.Check(ctx, leanrepl.CheckRequest{Header: header, Stub: stub, Progress: report})
	if err != nil {
		return nil, err
	}
	return checkReport(rep), nil
}

// statementStub replaces the proof of a theorem or example by sorry, so
// that the checks see its statement.
func statementStub(decl string) string {
	if stmt, _, ok := leansrc.SplitProof(decl); ok {
		return stmt + " := by sorry"
	}
	return decl
}

// UpdateBuffer implements lsp.Backend.
func (b *driftBackend) UpdateBuffer(path string, text []byte) { b.eng.UpdateBuffer(path, text) }

// CloseBuffer implements lsp.Backend.
func (b *driftBackend) CloseBuffer(path string) { b.eng.CloseBuffer(path) }

// Close implements lsp.Backend.
func (b *driftBackend) Close() error {
	b.mu.Lock()
	select {
	case <-b.closed:
	default:
		close(b.closed)
	}
	b.startInformalize(nil, nil, 0)
	if b.pool != nil {
		_ = b.pool.Close()
		b.pool = nil
	}
	if b.local != nil {
		_ = b.local.Close()
	}
	b.mu.Unlock()
	return b.eng.Close()
}
