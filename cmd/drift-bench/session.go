package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/lsp"
)

// sessionConfig configures runSession, a scripted editor session replayed
// against a real server over OS pipes.
type sessionConfig struct {
	// Root is the workspace the server indexes (for example a Mathlib tree).
	Root string
	// File is the Lean file the session edits; empty picks the largest .lean
	// file under Root (skipping .lake).
	File string
	// CacheDir is the server's index cache (empty: a temporary directory).
	CacheDir string
	// ModelURL is the OpenAI-compatible endpoint the formalize job talks to.
	ModelURL string
	// Requests is the number of measured requests of each kind (default 300).
	Requests int
	// SoakEdits is the number of edits of the soak phase (default 3000).
	SoakEdits int
	// Queries are workspace/symbol queries (cycled); empty uses a built-in list.
	Queries []string
	// Logf receives progress lines; nil discards them.
	Logf func(format string, args ...any)
	// Settle is a pause after the index is ready and before measuring, so
	// that post-load work (watchers, buffer updates) does not count.
	Settle time.Duration
}

// latency summarises request latencies in milliseconds.
type latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	Max float64 `json:"max_ms"`
}

func latencyOf(ds []time.Duration) latency {
	if len(ds) == 0 {
		return latency{}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return latency{N: len(ds), P50: ms(ds[len(ds)/2]), P95: ms(ds[(len(ds)*95)/100]), Max: ms(ds[len(ds)-1])}
}

// sessionResult holds the figures of runSession.
type sessionResult struct {
	File         string  `json:"file"`
	FileLines    int     `json:"file_lines"`
	InitializeMS float64 `json:"initialize_ms"`
	IndexSeconds float64 `json:"index_seconds"`
	Decls        int     `json:"decls"`
	CodeAction   latency `json:"code_action"`
	Symbol       latency `json:"workspace_symbol"`
	DuringJob    latency `json:"during_job"`
	// DuringJobActions and DuringJobSymbol split DuringJob by request kind.
	DuringJobActions latency `json:"during_job_code_action"`
	DuringJobSymbol  latency `json:"during_job_symbol"`
	// EditSearchable is the time from a didChange that appends a new
	// theorem to the file to the first workspace/symbol answer naming it.
	EditSearchable latency `json:"edit_searchable"`
	JobSeconds     float64 `json:"job_seconds"`
	JobOutcome     string  `json:"job_outcome"`
	SoakEdits      int     `json:"soak_edits"`
	SoakActions    int     `json:"soak_actions"`
	SoakSeconds    float64 `json:"soak_seconds"`
	// RSSBeforeIndexMB is the resident size before the index loaded;
	// RSSStartMB and RSSEndMB bracket the soak (both after a GC).
	RSSBeforeIndexMB float64 `json:"rss_before_index_mb"`
	RSSStartMB       float64 `json:"rss_start_mb"`
	RSSEndMB         float64 `json:"rss_end_mb"`
	HeapStartMB      float64 `json:"heap_start_mb"`
	HeapEndMB        float64 `json:"heap_end_mb"`
	Goroutines       [2]int  `json:"goroutines_start_end"`
}

var benchQueries = []string{"Nat.Prime", "prime", "continuous function", "IsOpen", "Finset.sum", "group homomorphism",
	"derivative", "ZMod", "metric space", "Real.sqrt", "linear map", "ideal", "polynomial roots", "Ring", "compact", "gcd"}

// symbolHit is the part of a workspace/symbol answer the bench reads.
type symbolHit struct {
	Name string `json:"name"`
}

// editRounds is the number of edit → searchable measurements.
const editRounds = 40

// titleFormalize is the server's title of the formalize action.
const titleFormalize = "Formalize with DRIFT"

// runSession starts a server in-process over OS pipes, indexes cfg.Root,
// and replays a scripted session: code actions on the comments of a large
// file, workspace/symbol queries, the same requests while a formalize job
// runs, and a soak of edits and actions.
func runSession(ctx context.Context, cfg sessionConfig) (*sessionResult, error) {
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if cfg.Requests <= 0 {
		cfg.Requests = 300
	}
	if cfg.SoakEdits <= 0 {
		cfg.SoakEdits = 3000
	}
	if len(cfg.Queries) == 0 {
		cfg.Queries = benchQueries
	}
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, err
	}
	file := cfg.File
	if file == "" {
		if file, err = largestLean(root); err != nil {
			return nil, err
		}
	}
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	cache := cfg.CacheDir
	if cache == "" {
		if cache, err = os.MkdirTemp("", "drift-bench-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(cache)
	}
	res := &sessionResult{File: file, FileLines: strings.Count(string(text), "\n") + 1}
	res.RSSBeforeIndexMB, _ = memMB()

	sr, cw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cr, sw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// The model's responses are never cached: every job calls the model.
	base := settings.FromEnv(os.Getenv)
	base.LLM.CacheDir = ""
	opts := app.ServerOptions(base)
	opts.Debounce = 300 * time.Millisecond
	served := make(chan int, 1)
	go func() {
		served <- lsp.Serve(ctx, sr, sw, opts)
		_ = sw.Close()
	}()
	e := fakeeditor.Connect(ctx, fakeeditor.Duplex{Reader: cr, WriteCloser: cw})
	defer func() {
		_ = cw.Close()
		select {
		case <-served:
			_ = e.Close()
		case <-time.After(10 * time.Second):
			// The engine finishes an update in flight before it closes;
			// the figures are taken, the process exit ends the rest.
			logf("the server had not stopped 10 s after exit; not waiting for it")
		}
	}()
	timed := func(f func() error) (time.Duration, error) {
		start := time.Now()
		err := f()
		return time.Since(start), err
	}

	init := map[string]any{"cacheDir": cache, "embedding": map[string]any{"provider": "none"}, "maxJobs": 2}
	if cfg.ModelURL != "" {
		init["llm"] = map[string]any{"baseUrl": cfg.ModelURL, "model": "bench-model"}
	}
	start := time.Now()
	d, err := timed(func() error {
		_, err := e.Initialize(ctx, fakeeditor.Options{RootURI: string(uri.File(root)), InitOptions: init})
		return err
	})
	if err != nil {
		return nil, err
	}
	res.InitializeMS = float64(d.Microseconds()) / 1000
	u := string(uri.File(file))
	if err := e.Open(ctx, u, string(text)); err != nil {
		return nil, err
	}
	logf("indexing %s…", root)
	end, err := waitEnd(ctx, e, "DRIFT: indexing library", 1)
	if err != nil {
		return nil, err
	}
	res.IndexSeconds = time.Since(start).Seconds()
	res.Decls, _ = strconv.Atoi(strings.Fields(end + " 0")[0])
	logf("index: %s in %.1fs", end, res.IndexSeconds)
	if cfg.Settle > 0 {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(cfg.Settle):
		}
	}
	runtime.GC()

	// Cursor positions on comments (and some elsewhere) of the file, found
	// with the Lean lexer.
	doc := &fakeeditor.Doc{Text: string(text)}
	toks, _ := leansrc.ScanWithComments(text)
	var comments []leansrc.Token
	for _, t := range toks {
		if t.Kind == leansrc.TokComment || t.Kind == leansrc.TokDoc || t.Kind == leansrc.TokModDoc {
			comments = append(comments, t)
		}
	}
	if len(comments) == 0 {
		return nil, fmt.Errorf("%s has no comments", file)
	}
	positions := make([]protocol.Position, 0, cfg.Requests)
	for i := 0; len(positions) < cfg.Requests; i++ {
		cm := comments[i%len(comments)]
		off := int(cm.Start) + 3
		if i%4 == 3 {
			off = int(cm.End) + 1
		}
		positions = append(positions, doc.Position(off))
	}
	codeAction := func(p protocol.Position) (time.Duration, []fakeeditor.CodeAction, error) {
		var acts []fakeeditor.CodeAction
		d, err := timed(func() error {
			var err error
			acts, err = e.CodeActions(ctx, u, protocol.Range{Start: p, End: p})
			return err
		})
		return d, acts, err
	}
	symbol := func(i int) (time.Duration, error) {
		return timed(func() error {
			var out json.RawMessage
			return e.Call(ctx, "workspace/symbol", map[string]any{"query": cfg.Queries[i%len(cfg.Queries)]}, &out)
		})
	}
	var ds []time.Duration
	for _, p := range positions {
		d, _, err := codeAction(p)
		if err != nil {
			return nil, fmt.Errorf("codeAction: %w", err)
		}
		ds = append(ds, d)
	}
	res.CodeAction = latencyOf(ds)
	logf("codeAction: %+v", res.CodeAction)
	ds = nil
	for i := 0; i < cfg.Requests; i++ {
		d, err := symbol(i)
		if err != nil {
			return nil, fmt.Errorf("workspace/symbol: %w", err)
		}
		ds = append(ds, d)
	}
	res.Symbol = latencyOf(ds)
	logf("workspace/symbol: %+v", res.Symbol)

	// Edit → searchable: append a theorem with a new name, then ask
	// workspace/symbol for it until it answers with it.
	ds = nil
	for i := 0; i < editRounds; i++ {
		name := fmt.Sprintf("driftBenchProbe%d", i)
		cur, _ := e.Text(u)
		t0 := time.Now()
		if err := e.EditOffsets(ctx, u, len(cur), len(cur), "\ntheorem "+name+" : True := trivial\n"); err != nil {
			return nil, err
		}
		for {
			var out []symbolHit
			if err := e.Call(ctx, "workspace/symbol", map[string]any{"query": name}, &out); err != nil {
				return nil, fmt.Errorf("workspace/symbol: %w", err)
			}
			if slices.ContainsFunc(out, func(s symbolHit) bool { return strings.HasSuffix(s.Name, name) }) {
				break
			}
			if time.Since(t0) > time.Minute {
				return nil, fmt.Errorf("%s not searchable after a minute", name)
			}
			time.Sleep(5 * time.Millisecond) // each probe is a search: polling harder steals the CPU the update needs
		}
		ds = append(ds, time.Since(t0))
	}
	res.EditSearchable = latencyOf(ds)
	logf("edit → searchable: %+v", res.EditSearchable)

	// The same requests while a formalize job runs.
	if cfg.ModelURL != "" {
		var action *fakeeditor.CodeAction
		var docs []protocol.Position
		for _, cm := range comments {
			if cm.Kind == leansrc.TokDoc {
				docs = append(docs, doc.Position(int(cm.Start)+4))
			}
		}
		for _, p := range append(docs, positions...) {
			_, acts, _ := codeAction(p)
			for i := range acts {
				if acts[i].Title == titleFormalize {
					action = &acts[i]
				}
			}
			if action != nil {
				break
			}
		}
		if action == nil {
			return nil, errors.New("no Formalize action found in the file")
		}
		jobStart := time.Now()
		jobDone := make(chan error, 1)
		go func() { jobDone <- e.Execute(ctx, *action) }()
		ds = nil
		var dsA, dsS []time.Duration
		running := true
		for i := 0; running; i++ {
			select {
			case err := <-jobDone:
				if err != nil {
					return nil, fmt.Errorf("formalize: %w", err)
				}
				running = false
				continue
			default:
			}
			var d time.Duration
			if i%2 == 0 {
				d, _, err = codeAction(positions[i%len(positions)])
				dsA = append(dsA, d)
			} else {
				d, err = symbol(i)
				dsS = append(dsS, d)
			}
			if err != nil {
				return nil, err
			}
			ds = append(ds, d)
		}
		res.JobSeconds = time.Since(jobStart).Seconds()
		res.JobOutcome, _ = waitEnd(ctx, e, "DRIFT: "+titleFormalize, 1)
		res.DuringJob = latencyOf(ds)
		res.DuringJobActions, res.DuringJobSymbol = latencyOf(dsA), latencyOf(dsS)
		logf("during job (%.1fs, %s): %+v", res.JobSeconds, res.JobOutcome, res.DuringJob)
	}

	// Soak: many edits with code actions and searches in between.
	runtime.GC()
	res.RSSStartMB, res.HeapStartMB = memMB()
	res.Goroutines[0] = runtime.NumGoroutine()
	soakStart := time.Now()
	for i := 0; i < cfg.SoakEdits; i++ {
		cur, _ := e.Text(u)
		n := len(cur)
		off := (i * 7919) % max(n, 1)
		// Keep edits on rune boundaries.
		for off > 0 && off < n && cur[off]&0xC0 == 0x80 {
			off--
		}
		next := off + 1
		for next < n && cur[next]&0xC0 == 0x80 {
			next++
		}
		var err error
		switch i % 3 {
		case 0:
			err = e.EditOffsets(ctx, u, off, off, "x")
		case 1:
			err = e.EditOffsets(ctx, u, off, min(next, n), "")
		default:
			err = e.EditOffsets(ctx, u, off, off, "\n-- soak comment "+strconv.Itoa(i)+"\n")
		}
		if err != nil {
			return nil, err
		}
		if i%10 == 0 {
			if _, _, err := codeAction(positions[i%len(positions)]); err != nil {
				return nil, err
			}
			res.SoakActions++
		}
		if i%500 == 0 {
			if _, err := symbol(i); err != nil {
				return nil, err
			}
			res.SoakActions++
		}
	}
	res.SoakEdits = cfg.SoakEdits
	res.SoakSeconds = time.Since(soakStart).Seconds()
	// Let the last debounced buffer update run before measuring memory.
	time.Sleep(time.Second)
	runtime.GC()
	res.RSSEndMB, res.HeapEndMB = memMB()
	res.Goroutines[1] = runtime.NumGoroutine()
	logf("soak: %d edits, %d actions in %.1fs; RSS %.0f → %.0f MB", res.SoakEdits, res.SoakActions, res.SoakSeconds, res.RSSStartMB, res.RSSEndMB)
	_ = e.Shutdown(ctx)
	return res, nil
}

// waitEnd waits until n progress sessions titled title have ended and
// returns the end message of the last one to end.
func waitEnd(ctx context.Context, e *fakeeditor.Editor, title string, n int) (string, error) {
	var end string
	err := e.Wait(ctx, func() bool {
		ended := 0
		for _, p := range e.Progresses(title) {
			if p.Ended && p.Title == title {
				ended++
				end = p.End
			}
		}
		return ended >= n
	})
	return end, err
}

// largestLean returns the largest .lean file under root (outside .lake)
// that has docstrings.
func largestLean(root string) (string, error) {
	type file struct {
		path string
		size int64
	}
	var files []file
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == ".lake" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".lean") {
			if info, err := d.Info(); err == nil {
				files = append(files, file{p, info.Size()})
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].size > files[j].size })
	for _, f := range files {
		if b, err := os.ReadFile(f.path); err == nil && strings.Contains(string(b), "/--") {
			return f.path, nil
		}
	}
	return "", fmt.Errorf("no .lean file with docstrings under %s", root)
}

// memMB returns the process's resident set size and Go heap in MiB.
func memMB() (rss, heap float64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap = float64(ms.HeapAlloc) / (1 << 20)
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, heap
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseFloat(f[0], 64)
				rss = kb / 1024
			}
		}
	}
	return rss, heap
}
