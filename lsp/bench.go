package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"
	"go.lsp.dev/protocol"
)

// BenchConfig configures RunBench, a scripted editor session replayed
// against a real server over OS pipes.
type BenchConfig struct {
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
	// Open overrides the backend (default OpenDrift).
	Open OpenFunc
	// Settle is a pause after the index is ready and before measuring, so
	// that post-load work (watchers, buffer updates) does not count.
	Settle time.Duration
}

// Latency summarises request latencies in milliseconds.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	Max float64 `json:"max_ms"`
}

func latencyOf(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return Latency{N: len(ds), P50: ms(ds[len(ds)/2]), P95: ms(ds[(len(ds)*95)/100]), Max: ms(ds[len(ds)-1])}
}

// BenchResult holds the figures of RunBench.
type BenchResult struct {
	File         string  `json:"file"`
	FileLines    int     `json:"file_lines"`
	InitializeMS float64 `json:"initialize_ms"`
	IndexSeconds float64 `json:"index_seconds"`
	Decls        int     `json:"decls"`
	CodeAction   Latency `json:"code_action"`
	Symbol       Latency `json:"workspace_symbol"`
	DuringJob    Latency `json:"during_job"`
	// DuringJobActions and DuringJobSymbol split DuringJob by request kind.
	DuringJobActions Latency `json:"during_job_code_action"`
	DuringJobSymbol  Latency `json:"during_job_symbol"`
	JobSeconds       float64 `json:"job_seconds"`
	JobOutcome       string  `json:"job_outcome"`
	SoakEdits        int     `json:"soak_edits"`
	SoakActions      int     `json:"soak_actions"`
	SoakSeconds      float64 `json:"soak_seconds"`
	// RSSBeforeIndexMB is the resident size before the index loaded;
	// RSSStartMB and RSSEndMB bracket the soak (both after a GC).
	RSSBeforeIndexMB float64 `json:"rss_before_index_mb"`
	RSSStartMB       float64 `json:"rss_start_mb"`
	RSSEndMB         float64 `json:"rss_end_mb"`
	HeapStartMB      float64 `json:"heap_start_mb"`
	HeapEndMB        float64 `json:"heap_end_mb"`
	Goroutines       [2]int  `json:"goroutines_start_end"`
}

// benchClient is a minimal editor: it keeps the document, applies
// workspace/applyEdit and sends the matching didChange, and records the end
// of progress sessions.
type benchClient struct {
	conn jsonrpc2.Conn
	mu   sync.Mutex
	doc  *Document
	ends map[string]string // token → end message
	tits map[string]string // token → title
	wake chan struct{}
}

func (c *benchClient) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	params := append([]byte(nil), req.Params()...)
	switch req.Method() {
	case "workspace/applyEdit":
		var p protocol.ApplyWorkspaceEditParams
		if err := protocol.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		var changes []Change
		for _, dc := range p.Edit.DocumentChanges {
			if tde, ok := dc.(*protocol.TextDocumentEdit); ok {
				for i := len(tde.Edits) - 1; i >= 0; i-- {
					if te, ok := tde.Edits[i].(*protocol.TextEdit); ok {
						r := fromRange(te.Range)
						changes = append(changes, Change{Range: &r, Text: te.NewText})
					}
				}
			}
		}
		c.doc.Apply(c.doc.Version+1, changes)
		wire := make([]map[string]any, 0, len(changes))
		for _, ch := range changes {
			wire = append(wire, map[string]any{"range": toRange(*ch.Range), "text": ch.Text})
		}
		_ = c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": c.doc.URI, "version": c.doc.Version}, "contentChanges": wire})
		return map[string]any{"applied": true}, nil
	case "$/progress":
		var p struct {
			Token any `json:"token"`
			Value struct {
				Kind    string `json:"kind"`
				Title   string `json:"title"`
				Message string `json:"message"`
			} `json:"value"`
		}
		_ = json.Unmarshal(params, &p)
		tok := fmt.Sprint(p.Token)
		c.mu.Lock()
		switch p.Value.Kind {
		case "begin":
			c.tits[tok] = p.Value.Title
		case "end":
			c.ends[tok] = p.Value.Message
		}
		close(c.wake)
		c.wake = make(chan struct{})
		c.mu.Unlock()
	}
	return nil, nil
}

// waitEnd waits for the end of the first progress with the given title that
// has not been seen yet.
func (c *benchClient) waitEnd(ctx context.Context, title string, seen map[string]bool) (string, error) {
	for {
		c.mu.Lock()
		for tok, t := range c.tits {
			if t == title && !seen[tok] {
				if msg, ok := c.ends[tok]; ok {
					seen[tok] = true
					c.mu.Unlock()
					return msg, nil
				}
			}
		}
		wake := c.wake
		c.mu.Unlock()
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-wake:
		}
	}
}

func (c *benchClient) call(ctx context.Context, method string, params, result any) (time.Duration, error) {
	start := time.Now()
	_, err := c.conn.Call(ctx, method, params, result)
	return time.Since(start), err
}

// edit replaces [start,end) of the document and notifies the server.
func (c *benchClient) edit(ctx context.Context, start, end int, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.doc.SpanOf(start, end)
	c.doc.Apply(c.doc.Version+1, []Change{{Range: &r, Text: text}})
	_ = c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.doc.URI, "version": c.doc.Version},
		"contentChanges": []any{map[string]any{"range": toRange(r), "text": text}},
	})
}

var benchQueries = []string{"Nat.Prime", "prime", "continuous function", "IsOpen", "Finset.sum", "group homomorphism",
	"derivative", "ZMod", "metric space", "Real.sqrt", "linear map", "ideal", "polynomial roots", "Ring", "compact", "gcd"}

// RunBench starts a server in-process over OS pipes, indexes cfg.Root, and
// replays a scripted session: code actions on the comments of a large file,
// workspace/symbol queries, the same requests while a formalize job runs,
// and a soak of edits and actions.
func RunBench(ctx context.Context, cfg BenchConfig) (*BenchResult, error) {
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
	if cfg.Open == nil {
		cfg.Open = OpenDrift
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
	res := &BenchResult{File: file, FileLines: strings.Count(string(text), "\n") + 1}
	res.RSSBeforeIndexMB, _ = memMB()

	sr, cw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cr, sw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	served := make(chan int, 1)
	go func() {
		served <- Serve(ctx, sr, sw, Options{Open: cfg.Open, Debounce: 300 * time.Millisecond})
		_ = sw.Close()
	}()
	c := &benchClient{ends: map[string]string{}, tits: map[string]string{}, wake: make(chan struct{})}
	c.conn = jsonrpc2.NewConn(newStream(cr, cw, cw, 0, nil), jsonrpc2.WithCodec(codec{}))
	c.conn.Go(ctx, c.handle)
	defer func() {
		_ = cw.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
		}
		_ = c.conn.Close()
	}()

	caps := map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}},
		"window": map[string]any{"workDoneProgress": true}}
	init := map[string]any{"cacheDir": cache, "embedding": map[string]any{"provider": "none"}, "maxJobs": 2}
	if cfg.ModelURL != "" {
		init["llm"] = map[string]any{"baseUrl": cfg.ModelURL, "model": "bench-model"}
	}
	start := time.Now()
	d, err := c.call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": string(uri.File(root)), "capabilities": caps, "initializationOptions": init}, nil)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	res.InitializeMS = float64(d.Microseconds()) / 1000
	_ = c.conn.Notify(ctx, "initialized", map[string]any{})
	u := string(uri.File(file))
	c.doc = newDocument(u, "lean4", 1, string(text))
	_ = c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "lean4", "version": 1, "text": string(text)}})
	seen := map[string]bool{}
	logf("indexing %s…", root)
	end, err := c.waitEnd(ctx, "DRIFT: indexing library", seen)
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

	// Cursor positions on comments (and some elsewhere) of the file.
	comments := scanComments(c.doc.Text)
	if len(comments) == 0 {
		return nil, fmt.Errorf("%s has no comments", file)
	}
	positions := make([]Pos, 0, cfg.Requests)
	for i := 0; len(positions) < cfg.Requests; i++ {
		cm := comments[i%len(comments)]
		off := cm.start + 3
		if i%4 == 3 {
			off = cm.end + 1
		}
		positions = append(positions, c.doc.Position(off))
	}
	codeAction := func(p Pos) (time.Duration, []map[string]any, error) {
		var out []map[string]any
		d, err := c.call(ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
			"range": toRange(Span{p, p}), "context": map[string]any{"diagnostics": []any{}}}, &out)
		return d, out, err
	}
	symbol := func(i int) (time.Duration, error) {
		var out json.RawMessage
		return c.call(ctx, "workspace/symbol", map[string]any{"query": cfg.Queries[i%len(cfg.Queries)]}, &out)
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

	// The same requests while a formalize job runs.
	if cfg.ModelURL != "" {
		var action map[string]any
		var docs []Pos
		for _, cm := range comments {
			if cm.kind == KindDocComment {
				docs = append(docs, c.doc.Position(cm.start+4))
			}
		}
		for _, p := range append(docs, positions...) {
			_, acts, _ := codeAction(p)
			for _, a := range acts {
				if a["title"] == titleFormalize {
					action = a
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
		go func() {
			_, err := c.call(ctx, "workspace/executeCommand", action["command"], nil)
			jobDone <- err
		}()
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
		res.JobOutcome, _ = c.waitEnd(ctx, "DRIFT: "+titleFormalize, seen)
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
		c.mu.Lock()
		n := len(c.doc.Text)
		c.mu.Unlock()
		off := (i * 7919) % max(n, 1)
		switch i % 3 {
		case 0:
			c.edit(ctx, off, off, "x")
		case 1:
			c.edit(ctx, off, min(off+1, n), "")
		default:
			c.edit(ctx, off, off, "\n-- soak comment "+strconv.Itoa(i)+"\n")
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
	time.Sleep(time.Second)
	runtime.GC()
	res.RSSEndMB, res.HeapEndMB = memMB()
	res.Goroutines[1] = runtime.NumGoroutine()
	logf("soak: %d edits, %d actions in %.1fs; RSS %.0f → %.0f MB", res.SoakEdits, res.SoakActions, res.SoakSeconds, res.RSSStartMB, res.RSSEndMB)
	_, _ = c.call(ctx, "shutdown", nil, nil)
	_ = c.conn.Notify(ctx, "exit", nil)
	return res, nil
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
