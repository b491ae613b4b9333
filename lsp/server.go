// Package lsp is drift-lsp's language server: it speaks LSP over stdio next
// to the Lean server, offers "Formalize with DRIFT", "Find premises and
// examples" and "Check this theorem" code actions on comments and
// declarations, runs them as cancellable background jobs with work-done
// progress, applies their results with workspace/applyEdit, and answers
// workspace/symbol from the library index. It is the only package that uses
// the go.lsp.dev wire types.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Options configure Serve.
type Options struct {
	// Open builds the backend after initialize; nil runs the server without
	// one (code actions then explain that the pipeline is unavailable).
	Open OpenFunc
	// Getenv reads environment variables (os.Getenv when nil).
	Getenv func(string) string
	// Debounce delays feeding buffer text to the index and refreshing
	// diagnostics after edits (default 300 ms).
	Debounce time.Duration
	// Version is reported in serverInfo.
	Version string
	// MaxMessageBytes bounds the size of one message (default
	// DefaultMaxMessageBytes).
	MaxMessageBytes int
}

// server lifecycle states.
const (
	stateNew = iota
	stateRunning
	stateShutdown
)

// server is one LSP session.
type server struct {
	opts Options
	conn jsonrpc2.Conn
	log  *logger
	ctx  context.Context
	stop context.CancelFunc

	mu         sync.Mutex
	state      int
	caps       clientCaps
	root       string
	initOpts   []byte
	settings   Settings
	docs       map[string]*Document
	backend    Backend
	backendKey string
	requests   map[jsonrpc2.ID]context.CancelFunc
	timers     map[string]*time.Timer
	tracked    map[string]map[string]bool // uri → keys of declarations with drift diagnostics
	findings   map[string]*checked        // uri+"\x00"+key → last check result
	exitCode   int
	exitCh     chan struct{}
	exitOnce   sync.Once
	tokens     int

	jobs *jobManager
	wg   sync.WaitGroup
}

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	workDoneProgress bool
	applyEdit        bool
	documentChanges  bool
	configuration    bool
	configDynamic    bool
	codeActionLit    bool
}

// Serve runs an LSP session over r and w until the client sends exit or
// closes r, and returns the process exit status (0 after a proper
// shutdown, 1 otherwise).
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) int {
	s := newServer(ctx, opts)
	var closer io.Closer
	if c, ok := r.(io.Closer); ok {
		closer = c
	}
	st := newStream(r, w, closer, opts.MaxMessageBytes, func(err error) { s.log.Warnf("drift: skipped bad input: %v", err) })
	s.conn = jsonrpc2.NewConn(st, jsonrpc2.WithCodec(codec{}))
	s.conn.Go(s.ctx, s.handle)
	select {
	case <-s.conn.Done():
	case <-s.exitCh:
	case <-ctx.Done():
	}
	s.teardown()
	_ = s.conn.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitCode
}

func newServer(ctx context.Context, opts Options) *server {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Debounce <= 0 {
		opts.Debounce = 300 * time.Millisecond
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &server{
		opts:     opts,
		docs:     map[string]*Document{},
		requests: map[jsonrpc2.ID]context.CancelFunc{},
		timers:   map[string]*time.Timer{},
		tracked:  map[string]map[string]bool{},
		findings: map[string]*checked{},
		exitCode: 1,
		exitCh:   make(chan struct{}),
	}
	s.ctx, s.stop = context.WithCancel(ctx)
	s.settings = EnvSettings(opts.Getenv)
	s.log = newLogger(s.sendLog)
	s.log.configure(s.settings, opts.Getenv)
	s.jobs = newJobManager(s.settings.MaxJobs)
	return s
}

// teardown cancels jobs and requests and closes the backend.
func (s *server) teardown() {
	s.stop()
	s.jobs.cancelAll()
	s.mu.Lock()
	for _, c := range s.requests {
		c()
	}
	for _, t := range s.timers {
		t.Stop()
	}
	b := s.backend
	s.backend = nil
	s.mu.Unlock()
	waitTimeout(&s.wg, 5*time.Second)
	if b != nil {
		_ = b.Close()
	}
	s.log.close()
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// codec marshals payloads with the protocol package's union-aware codec.
type codec struct{}

// Marshal implements jsonrpc2.Codec.
func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case json.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

// Unmarshal implements jsonrpc2.Codec.
func (codec) Unmarshal(data []byte, v any) error {
	switch p := v.(type) {
	case *jsonrpc2.RawMessage:
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	case *json.RawMessage:
		*p = append(json.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// LSP error codes the server answers with.
const (
	codeRequestCancelled jsonrpc2.Code = -32800
	codeRequestFailed    jsonrpc2.Code = -32803
)

// handle is the jsonrpc2 handler: a switch over methods with the lifecycle
// rules of the specification. It never returns an error for a notification
// (that would end the connection) and never panics.
func (s *server) handle(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	method := req.Method()
	defer func() {
		if r := recover(); r != nil {
			s.log.Errorf("drift: internal error in %s: %v\n%s", method, r, debug.Stack())
			result = nil
			err = nil
			if req.IsCall() {
				err = jsonrpc2.Errorf(jsonrpc2.InternalError, "drift: internal error in %s", method)
			}
		}
	}()
	params := req.Params()
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch method {
	case "initialize":
		if state != stateNew {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "drift: initialize sent twice")
		}
		return s.initialize(params)
	case "exit":
		s.mu.Lock()
		if s.state == stateShutdown {
			s.exitCode = 0
		}
		s.mu.Unlock()
		s.exitOnce.Do(func() { close(s.exitCh) })
		return nil, nil
	case "$/cancelRequest":
		s.cancelRequest(params)
		return nil, nil
	}
	if state == stateNew {
		if req.IsCall() {
			return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "drift: server not initialized")
		}
		return nil, nil
	}
	if state == stateShutdown {
		if req.IsCall() {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "drift: server is shut down")
		}
		return nil, nil
	}
	switch method {
	case "initialized":
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.afterInitialized()
		}()
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.state = stateShutdown
		s.mu.Unlock()
		jsonrpc2.Async(ctx)
		s.jobs.cancelAll()
		s.jobs.wait(10 * time.Second)
		return nil, nil
	case "textDocument/didOpen":
		s.didOpen(params)
		return nil, nil
	case "textDocument/didChange":
		s.didChange(params)
		return nil, nil
	case "textDocument/didClose":
		s.didClose(params)
		return nil, nil
	case "textDocument/didSave", "textDocument/willSave", "$/setTrace", "$/progress",
		"workspace/didChangeWatchedFiles", "workspace/didChangeWorkspaceFolders":
		return nil, nil
	case "workspace/didChangeConfiguration":
		s.didChangeConfiguration(params)
		return nil, nil
	case "window/workDoneProgress/cancel":
		s.cancelProgress(params)
		return nil, nil
	case "textDocument/codeAction":
		return s.codeAction(params)
	case "workspace/executeCommand":
		return s.asyncRequest(ctx, req, func(ctx context.Context) (any, error) {
			return s.executeCommand(ctx, params)
		})
	case "workspace/symbol":
		return s.asyncRequest(ctx, req, func(ctx context.Context) (any, error) {
			return s.workspaceSymbol(ctx, params)
		})
	}
	if req.IsCall() {
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "drift: method not found: %s", method)
	}
	return nil, nil
}

// asyncRequest releases the read loop, registers the request for
// $/cancelRequest and runs f.
func (s *server) asyncRequest(ctx context.Context, req *jsonrpc2.Request, f func(context.Context) (any, error)) (any, error) {
	id := req.ID()
	jsonrpc2.Async(ctx)
	rctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.requests[id] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.requests, id)
		s.mu.Unlock()
		cancel()
	}()
	go func() {
		select {
		case <-s.ctx.Done():
			cancel()
		case <-rctx.Done():
		}
	}()
	res, err := f(rctx)
	if err != nil && rctx.Err() != nil && errors.Is(err, context.Canceled) {
		return nil, jsonrpc2.NewError(codeRequestCancelled, "drift: request cancelled")
	}
	return res, err
}

// rawID is a request id or progress token as it appears on the wire.
type rawID struct {
	num   int64
	str   string
	isStr bool
	ok    bool
}

// UnmarshalJSON accepts a JSON number or string.
func (r *rawID) UnmarshalJSON(b []byte) error {
	var v any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return err
	}
	switch x := v.(type) {
	case string:
		r.str, r.isStr, r.ok = x, true, true
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			return err
		}
		r.num, r.ok = n, true
	}
	return nil
}

func (r rawID) key() string {
	if r.isStr {
		return "s:" + r.str
	}
	return fmt.Sprintf("n:%d", r.num)
}

func (s *server) cancelRequest(params []byte) {
	var p struct {
		ID rawID `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || !p.ID.ok {
		s.log.Debugf("drift: ignored $/cancelRequest with bad params: %s", truncate(string(params), 200))
		return
	}
	id := jsonrpc2.NewNumberID(p.ID.num)
	if p.ID.isStr {
		id = jsonrpc2.NewStringID(p.ID.str)
	}
	s.mu.Lock()
	cancel := s.requests[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *server) cancelProgress(params []byte) {
	var p struct {
		Token rawID `json:"token"`
	}
	if err := json.Unmarshal(params, &p); err != nil || !p.Token.ok {
		return
	}
	s.jobs.cancelToken(p.Token.key())
}

func (s *server) initialize(params []byte) (any, error) {
	var p protocol.InitializeParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: bad initialize params: %v", err)
	}
	caps := clientCaps{}
	if w := p.Capabilities.Window; w != nil && w.WorkDoneProgress != nil {
		caps.workDoneProgress = *w.WorkDoneProgress
	}
	if ws := p.Capabilities.Workspace; ws != nil {
		caps.applyEdit = ws.ApplyEdit != nil && *ws.ApplyEdit
		caps.configuration = ws.Configuration != nil && *ws.Configuration
		if ws.WorkspaceEdit != nil && ws.WorkspaceEdit.DocumentChanges != nil {
			caps.documentChanges = *ws.WorkspaceEdit.DocumentChanges
		}
		if dc := ws.DidChangeConfiguration; dc != nil && dc.DynamicRegistration != nil {
			caps.configDynamic = *dc.DynamicRegistration
		}
	}
	if td := p.Capabilities.TextDocument; td != nil && td.CodeAction != nil {
		caps.codeActionLit = len(td.CodeAction.CodeActionLiteralSupport.CodeActionKind.ValueSet) > 0
	}
	root := ""
	if folders, ok := p.WorkspaceFolders.Get(); ok && len(folders) > 0 {
		root = uriToPath(string(folders[0].URI))
	}
	//lint:ignore SA1019 clients without workspace folders (Neovim 0.7) send only rootUri
	if root == "" && p.RootURI != nil {
		//lint:ignore SA1019 as above
		root = uriToPath(string(*p.RootURI))
	}
	if root == "" {
		//lint:ignore SA1019 the oldest clients send only rootPath
		if rp, ok := p.RootPath.Get(); ok {
			root = rp
		}
	}
	settings, err := s.settings.Overlay(p.InitializationOptions)
	if err != nil {
		s.log.Warnf("drift: ignoring initializationOptions: %v", err)
	}
	s.mu.Lock()
	s.state = stateRunning
	s.caps = caps
	s.root = root
	s.initOpts = append([]byte(nil), p.InitializationOptions...)
	s.settings = settings
	s.mu.Unlock()
	s.log.configure(settings, s.opts.Getenv)
	s.jobs.setLimit(settings.MaxJobs)

	var actions protocol.CodeActionProvider = protocol.Boolean(true)
	if caps.codeActionLit {
		actions = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindRefactorRewrite}}
	}
	change := protocol.TextDocumentSyncKindIncremental
	yes := true
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding:        protocol.PositionEncodingKindUTF16,
			TextDocumentSync:        &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &change},
			CodeActionProvider:      actions,
			ExecuteCommandProvider:  protocol.ExecuteCommandOptions{Commands: []string{cmdFormalize, cmdPremises, cmdCheck, cmdReindex}},
			WorkspaceSymbolProvider: protocol.Boolean(true),
		},
		ServerInfo: protocol.ServerInfo{Name: "drift-lsp", Version: protocol.NewOptional(s.opts.Version)},
	}, nil
}

// afterInitialized pulls the configuration and starts the backend.
func (s *server) afterInitialized() {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if caps.configDynamic {
		params := map[string]any{"registrations": []map[string]any{{"id": "drift-configuration", "method": "workspace/didChangeConfiguration"}}}
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		if _, err := s.conn.Call(ctx, "client/registerCapability", params, nil); err != nil {
			s.log.Debugf("drift: client/registerCapability: %v", err)
		}
		cancel()
	}
	if caps.configuration {
		s.pullConfiguration()
	}
	s.reopenBackend()
}

// pullConfiguration asks the client for section "drift" and applies it.
func (s *server) pullConfiguration() {
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	section := "drift"
	var res []json.RawMessage
	if _, err := s.conn.Call(ctx, "workspace/configuration", &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: &section}}}, &res); err != nil {
		s.log.Debugf("drift: workspace/configuration: %v", err)
		return
	}
	if len(res) == 0 {
		return
	}
	s.mu.Lock()
	base, err := EnvSettings(s.opts.Getenv).Overlay(s.initOpts)
	if err == nil {
		base, err = base.Overlay(res[0])
	}
	if err == nil {
		s.settings = base
	}
	s.mu.Unlock()
	if err != nil {
		s.log.Warnf("drift: ignoring workspace configuration: %v", err)
		return
	}
	s.applySettings()
}

func (s *server) didChangeConfiguration(params []byte) {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	_ = json.Unmarshal(params, &p)
	s.mu.Lock()
	pull := s.caps.configuration
	s.mu.Unlock()
	if pull {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.pullConfiguration()
		}()
		return
	}
	s.mu.Lock()
	base, err := EnvSettings(s.opts.Getenv).Overlay(s.initOpts)
	if err == nil {
		base, err = base.Overlay(p.Settings)
	}
	if err == nil {
		s.settings = base
	}
	s.mu.Unlock()
	if err != nil {
		s.log.Warnf("drift: ignoring settings: %v", err)
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.applySettings()
	}()
}

// applySettings pushes settings to the logger, the job manager and the
// backend, reopening the backend when index settings changed.
func (s *server) applySettings() {
	s.mu.Lock()
	settings := s.settings
	b, key := s.backend, s.backendKey
	s.mu.Unlock()
	s.log.configure(settings, s.opts.Getenv)
	s.jobs.setLimit(settings.MaxJobs)
	s.log.Debugf("drift: settings %s", settings)
	if b != nil && key == settings.IndexKey() {
		b.Configure(settings)
		return
	}
	if b != nil {
		s.reopenBackend()
	}
}

// reopenBackend (re)builds the backend from the current settings and reports
// index loading with server-created work-done progress.
func (s *server) reopenBackend() {
	if s.opts.Open == nil {
		return
	}
	s.mu.Lock()
	settings, root, old := s.settings, s.root, s.backend
	s.backend = nil
	s.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	b, err := s.opts.Open(s.ctx, root, settings, func(format string, args ...any) { s.log.Infof(format, args...) })
	if err != nil {
		s.log.Errorf("drift: cannot open the library index: %v", err)
		s.showMessage(protocol.MessageTypeError, "drift: cannot open the library index: "+firstLine(err.Error()))
		return
	}
	s.mu.Lock()
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		_ = b.Close()
		return
	}
	s.backend = b
	s.backendKey = settings.IndexKey()
	docs := make([]*Document, 0, len(s.docs))
	for _, d := range s.docs {
		docs = append(docs, d.clone())
	}
	s.mu.Unlock()
	for _, d := range docs {
		if p := uriToPath(d.URI); p != "" {
			b.UpdateBuffer(p, []byte(d.Text))
		}
	}
	s.watchIndex(b)
}

// watchIndex reports index loading as work-done progress until it is ready.
func (s *server) watchIndex(b Backend) {
	st := b.Status()
	if st.Ready || st.Err != nil {
		s.reportIndexDone(st)
		return
	}
	p := s.newProgress(s.ctx, nil, "DRIFT: indexing library", false)
	last := ""
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		st = b.Status()
		if st.Ready || st.Err != nil {
			break
		}
		msg := fmt.Sprintf("%s %d/%d", st.Phase, st.Done, st.Total)
		if msg != last {
			p.report(msg, st.Percent())
			last = msg
		}
		select {
		case <-s.ctx.Done():
			p.end("stopped")
			return
		case <-tick.C:
		}
		s.mu.Lock()
		current := s.backend == b
		s.mu.Unlock()
		if !current {
			p.end("restarted")
			return
		}
	}
	p.end(indexSummary(st))
	s.reportIndexDone(st)
}

func indexSummary(st IndexStatus) string {
	if st.Err != nil {
		return "failed: " + firstLine(st.Err.Error())
	}
	return fmt.Sprintf("%d declarations", st.Decls)
}

func (s *server) reportIndexDone(st IndexStatus) {
	if st.Err != nil {
		s.log.Errorf("drift: library index failed: %v", st.Err)
		s.showMessage(protocol.MessageTypeError, "drift: library index failed: "+firstLine(st.Err.Error()))
		return
	}
	s.log.Infof("drift: library index ready (%d declarations)", st.Decls)
	if st.Warning != "" {
		s.log.Warnf("drift: %s", st.Warning)
	}
}

// currentBackend returns the backend or nil.
func (s *server) currentBackend() Backend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backend
}

func (s *server) didOpen(params []byte) {
	var p protocol.DidOpenTextDocumentParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		s.log.Warnf("drift: bad didOpen: %v", err)
		return
	}
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	s.docs[u] = newDocument(u, string(p.TextDocument.LanguageID), p.TextDocument.Version, p.TextDocument.Text)
	s.mu.Unlock()
	s.scheduleBufferUpdate(u)
}

func (s *server) didChange(params []byte) {
	var p protocol.DidChangeTextDocumentParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		s.log.Warnf("drift: bad didChange: %v", err)
		return
	}
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
		return
	}
	if p.TextDocument.Version <= d.Version {
		s.log.Debugf("drift: %s: version %d after %d (applied in arrival order)", u, p.TextDocument.Version, d.Version)
	}
	d.Apply(p.TextDocument.Version, changes)
	s.mu.Unlock()
	s.scheduleBufferUpdate(u)
}

func (s *server) didClose(params []byte) {
	var p protocol.DidCloseTextDocumentParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		return
	}
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	delete(s.docs, u)
	delete(s.tracked, u)
	if t := s.timers[u]; t != nil {
		t.Stop()
		delete(s.timers, u)
	}
	b := s.backend
	s.mu.Unlock()
	if b != nil {
		if path := uriToPath(u); path != "" {
			b.CloseBuffer(path)
		}
	}
}

// scheduleBufferUpdate feeds the buffer to the index and refreshes drift's
// diagnostics after the debounce delay.
func (s *server) scheduleBufferUpdate(u string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.timers[u]; t != nil {
		t.Stop()
	}
	s.timers[u] = time.AfterFunc(s.opts.Debounce, func() {
		if s.ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		d := s.docs[u]
		var snap *Document
		if d != nil {
			snap = d.clone()
		}
		b := s.backend
		names := len(s.tracked[u])
		s.mu.Unlock()
		if snap == nil {
			return
		}
		if b != nil {
			if path := uriToPath(u); path != "" {
				b.UpdateBuffer(path, []byte(snap.Text))
			}
		}
		if names > 0 {
			s.refreshDiagnostics(u)
		}
	})
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

func (s *server) sendLog(lvl level, msg string) {
	if s.conn == nil {
		return
	}
	t := protocol.MessageTypeLog
	switch lvl {
	case levelError:
		t = protocol.MessageTypeError
	case levelWarn:
		t = protocol.MessageTypeWarning
	case levelInfo:
		t = protocol.MessageTypeInfo
	}
	_ = s.conn.Notify(context.Background(), "window/logMessage", &protocol.LogMessageParams{Type: t, Message: msg})
}

func (s *server) showMessage(t protocol.MessageType, msg string) {
	_ = s.conn.Notify(context.Background(), "window/showMessage", &protocol.ShowMessageParams{Type: t, Message: s.log.redact(msg)})
}

func fromRange(r protocol.Range) Span {
	return Span{Start: Pos{Line: int(r.Start.Line), Char: int(r.Start.Character)}, End: Pos{Line: int(r.End.Line), Char: int(r.End.Character)}}
}

func toRange(r Span) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(r.Start.Line), Character: uint32(r.Start.Char)},
		End:   protocol.Position{Line: uint32(r.End.Line), Character: uint32(r.End.Char)},
	}
}

// uriToPath returns the file system path of a file: URI, or "".
func uriToPath(u string) string {
	if !strings.HasPrefix(u, "file:") {
		return ""
	}
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return filepath.FromSlash(pu.Path)
}

// pathToURI returns the file: URI of a path.
func pathToURI(p string) uri.URI {
	return uri.File(p)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
