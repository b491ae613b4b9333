package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// editor is a fake LSP client in the style of gopls's integration tests: it
// talks JSON-RPC to a real Server over in-memory pipes, keeps its own copy of
// each document, applies workspace/applyEdit to it (and tells the server with
// didChange, as an editor does), and records progress, messages and
// diagnostics so that tests can wait on them.
type editor struct {
	t    testing.TB
	conn jsonrpc2.Conn
	done chan int
	// closeFn closes the client's end and waits for the server to end.
	closeFn   func()
	closeOnce sync.Once

	mu       sync.Mutex
	cond     *sync.Cond
	docs     map[string]*Document
	progress map[string][]map[string]any // token → begin/report/end values in order
	messages []string                    // window/showMessage texts
	logs     []string
	diags    map[string][]map[string]any
	applied  int
	rejectN  int // reject this many applyEdit requests (applied=false)
	config   json.RawMessage
}

// editorOptions configure the fake editor.
type editorOptions struct {
	initOptions     any
	rootURI         string
	config          any
	noProgress      bool
	noDocChanges    bool
	open            OpenFunc
	debounce        time.Duration
	serverOverrides func(*Options)
}

// newEditor starts a server in-process and initializes it.
func newEditor(t testing.TB, o editorOptions) *editor {
	t.Helper()
	cw := newBufPipe() // client → server
	sw := newBufPipe() // server → client
	sr, cr := cw, sw
	e := &editor{t: t, done: make(chan int, 1), docs: map[string]*Document{},
		progress: map[string][]map[string]any{}, diags: map[string][]map[string]any{}}
	e.cond = sync.NewCond(&e.mu)
	if o.config != nil {
		e.config, _ = json.Marshal(o.config)
	}
	opts := Options{Open: o.open, Getenv: func(string) string { return "" }, Debounce: o.debounce}
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	if o.serverOverrides != nil {
		o.serverOverrides(&opts)
	}
	go func() {
		code := Serve(context.Background(), sr, sw, opts)
		_ = sw.Close()
		e.done <- code
	}()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(rwc{cr, cw}))
	e.conn.Go(context.Background(), e.handle)
	e.closeFn = func() {
		_ = cw.Close()
		select {
		case code := <-e.done:
			e.done <- code
		case <-time.After(10 * time.Second):
			t.Errorf("server did not exit after stdin closed")
		}
		_ = e.conn.Close()
	}
	t.Cleanup(e.close)
	caps := map[string]any{
		"workspace": map[string]any{
			"applyEdit":     true,
			"configuration": o.config != nil,
			"workspaceEdit": map[string]any{"documentChanges": !o.noDocChanges},
		},
		"window": map[string]any{"workDoneProgress": !o.noProgress},
		"textDocument": map[string]any{"codeAction": map[string]any{
			"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"refactor", "quickfix"}}},
		}},
	}
	root := o.rootURI
	if root == "" {
		root = "file:///work/ws"
	}
	params := map[string]any{"processId": nil, "rootUri": root, "capabilities": caps}
	if o.initOptions != nil {
		params["initializationOptions"] = o.initOptions
	}
	var res map[string]any
	if _, err := e.conn.Call(context.Background(), "initialize", params, &res); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := e.conn.Notify(context.Background(), "initialized", map[string]any{}); err != nil {
		t.Fatalf("initialized: %v", err)
	}
	return e
}

// close closes the editor's side of the connection and waits for the server
// to return.
func (e *editor) close() { e.closeOnce.Do(e.closeFn) }

type rwc struct {
	io.Reader
	io.WriteCloser
}

// bufPipe is an in-memory pipe with an unbounded buffer, like an OS pipe
// that never fills: writers do not wait for the reader.
type bufPipe struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
}

func newBufPipe() *bufPipe {
	p := &bufPipe{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

func (p *bufPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == 0 && !p.closed {
		p.cond.Wait()
	}
	if len(p.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

func (p *bufPipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, io.ErrClosedPipe
	}
	p.buf = append(p.buf, b...)
	p.cond.Broadcast()
	return len(b), nil
}

func (p *bufPipe) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.cond.Broadcast()
	return nil
}

// handle answers the server's requests and records its notifications.
func (e *editor) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	params := append([]byte(nil), req.Params()...)
	e.mu.Lock()
	defer e.mu.Unlock()
	defer e.cond.Broadcast()
	switch req.Method() {
	case "window/workDoneProgress/create", "client/registerCapability":
		return nil, nil
	case "workspace/configuration":
		if e.config == nil {
			return []any{nil}, nil
		}
		return []json.RawMessage{e.config}, nil
	case "$/progress":
		var p struct {
			Token any            `json:"token"`
			Value map[string]any `json:"value"`
		}
		_ = json.Unmarshal(params, &p)
		tok := fmt.Sprint(p.Token)
		e.progress[tok] = append(e.progress[tok], p.Value)
	case "window/showMessage":
		var p struct{ Message string }
		_ = json.Unmarshal(params, &p)
		e.messages = append(e.messages, p.Message)
	case "window/logMessage":
		var p struct{ Message string }
		_ = json.Unmarshal(params, &p)
		e.logs = append(e.logs, p.Message)
	case "textDocument/publishDiagnostics":
		var p struct {
			URI         string           `json:"uri"`
			Diagnostics []map[string]any `json:"diagnostics"`
		}
		_ = json.Unmarshal(params, &p)
		e.diags[p.URI] = p.Diagnostics
	case "workspace/applyEdit":
		return e.applyEdit(params)
	default:
		if req.IsCall() {
			return nil, jsonrpc2.ErrMethodNotFound
		}
	}
	return nil, nil
}

// applyEdit applies a workspace edit to the editor's documents (checking
// versions, as editors do) and sends the matching didChange.
func (e *editor) applyEdit(params []byte) (any, error) {
	var p protocol.ApplyWorkspaceEditParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	if e.rejectN > 0 {
		e.rejectN--
		return map[string]any{"applied": false, "failureReason": "test rejects"}, nil
	}
	type docEdits struct {
		uri     string
		version *int32
		edits   []protocol.TextEdit
	}
	var all []docEdits
	for u, edits := range p.Edit.Changes {
		all = append(all, docEdits{uri: string(u), edits: edits})
	}
	for _, dc := range p.Edit.DocumentChanges {
		tde, ok := dc.(*protocol.TextDocumentEdit)
		if !ok {
			continue
		}
		de := docEdits{uri: string(tde.TextDocument.URI), version: tde.TextDocument.Version}
		for _, x := range tde.Edits {
			if te, ok := x.(*protocol.TextEdit); ok {
				de.edits = append(de.edits, *te)
			}
		}
		all = append(all, de)
	}
	for _, de := range all {
		d := e.docs[de.uri]
		if d == nil {
			return map[string]any{"applied": false, "failureReason": "not open"}, nil
		}
		if de.version != nil && *de.version != d.Version {
			return map[string]any{"applied": false, "failureReason": "version mismatch"}, nil
		}
		changes := make([]Change, 0, len(de.edits))
		// Apply from the end so earlier ranges stay valid.
		for i := len(de.edits) - 1; i >= 0; i-- {
			r := fromRange(de.edits[i].Range)
			changes = append(changes, Change{Range: &r, Text: de.edits[i].NewText})
		}
		d.Apply(d.Version+1, changes)
		e.applied++
		wire := make([]map[string]any, 0, len(changes))
		for _, c := range changes {
			wire = append(wire, map[string]any{"range": toRange(*c.Range), "text": c.Text})
		}
		e.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": de.uri, "version": d.Version},
			"contentChanges": wire,
		})
	}
	return map[string]any{"applied": true}, nil
}

func (e *editor) notify(method string, params any) {
	if err := e.conn.Notify(context.Background(), method, params); err != nil {
		e.t.Logf("notify %s: %v", method, err)
	}
}

func (e *editor) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := e.conn.Call(ctx, method, params, result)
	return err
}

// open opens a document in the editor and the server.
func (e *editor) open(u, text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.docs[u] = newDocument(u, "lean4", 1, text)
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "lean4", "version": 1, "text": text}})
}

// edit replaces the first occurrence of old by new in document u, as a user
// would by typing, and sends an incremental didChange.
func (e *editor) edit(u, old, new string) {
	e.t.Helper()
	e.mu.Lock()
	d := e.docs[u]
	i := strings.Index(d.Text, old)
	if i < 0 {
		e.mu.Unlock()
		e.t.Fatalf("edit: %q not in document", old)
	}
	r := d.SpanOf(i, i+len(old))
	d.Apply(d.Version+1, []Change{{Range: &r, Text: new}})
	v := d.Version
	e.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": v},
		"contentChanges": []any{map[string]any{"range": toRange(r), "text": new}},
	})
	e.mu.Unlock()
}

func (e *editor) text(u string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.docs[u].Text
}

// rangeOf returns the LSP range of the first occurrence of s in u.
func (e *editor) rangeOf(u, s string) Span {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	d := e.docs[u]
	i := strings.Index(d.Text, s)
	if i < 0 {
		e.t.Fatalf("%q not in document", s)
	}
	return d.SpanOf(i, i+len(s))
}

// codeAction is a code action as the fake editor sees it.
type codeAction struct {
	Title   string `json:"title"`
	Kind    string `json:"kind"`
	Command struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	} `json:"command"`
}

// codeActions requests the code actions at r.
func (e *editor) codeActions(u string, r Span) []codeAction {
	e.t.Helper()
	var out []codeAction
	err := e.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u}, "range": toRange(r), "context": map[string]any{"diagnostics": []any{}},
	}, &out)
	if err != nil {
		e.t.Fatalf("codeAction: %v", err)
	}
	return out
}

// action returns the code action with the given title at r.
func (e *editor) action(u string, r Span, title string) codeAction {
	e.t.Helper()
	for _, a := range e.codeActions(u, r) {
		if a.Title == title {
			return a
		}
	}
	e.t.Fatalf("no code action %q at %v", title, r)
	return codeAction{}
}

// run executes a code action's command in the background and returns a
// channel with the request's error.
func (e *editor) run(a codeAction) <-chan error {
	ch := make(chan error, 1)
	go func() {
		ch <- e.call("workspace/executeCommand", map[string]any{"command": a.Command.Command, "arguments": a.Command.Arguments}, nil)
	}()
	return ch
}

// waitFor waits until cond (called with e.mu held) is true.
func (e *editor) waitFor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	// Wake up regularly too, for conditions that change without a message.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				e.mu.Lock()
				e.cond.Broadcast()
				e.mu.Unlock()
			}
		}
	}()
	e.mu.Lock()
	defer e.mu.Unlock()
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s; messages %q; progress %v", what, e.messages, e.progress)
		}
		e.cond.Wait()
	}
}

// progressEnds returns the end messages of every progress whose title starts
// with prefix, in token order.
func (e *editor) progressEnds(prefix string) []string {
	var out []string
	for _, vals := range e.progress {
		if len(vals) == 0 || !strings.HasPrefix(fmt.Sprint(vals[0]["title"]), prefix) {
			continue
		}
		last := vals[len(vals)-1]
		if last["kind"] == "end" {
			out = append(out, fmt.Sprint(last["message"]))
		}
	}
	return out
}

// progressMessages returns every message of progress with title prefix.
func (e *editor) progressMessages(prefix string) []string {
	var out []string
	for _, vals := range e.progress {
		if len(vals) == 0 || !strings.HasPrefix(fmt.Sprint(vals[0]["title"]), prefix) {
			continue
		}
		for _, v := range vals {
			if m, ok := v["message"]; ok {
				out = append(out, fmt.Sprint(m))
			}
		}
	}
	return out
}

// waitEnds waits until n progress sessions with title prefix have ended.
func (e *editor) waitEnds(prefix string, n int) []string {
	e.t.Helper()
	var ends []string
	e.waitFor(fmt.Sprintf("%d ended %q progress", n, prefix), func() bool {
		ends = e.progressEnds(prefix)
		return len(ends) >= n
	})
	return ends
}

// tokenOf returns the progress token of the running job with title prefix.
func (e *editor) tokenOf(prefix string) any {
	e.t.Helper()
	var tok any
	e.waitFor("progress "+prefix, func() bool {
		for k, vals := range e.progress {
			if len(vals) > 0 && strings.HasPrefix(fmt.Sprint(vals[0]["title"]), prefix) && vals[len(vals)-1]["kind"] != "end" {
				tok = k
				return true
			}
		}
		return false
	})
	return tok
}

// shutdown sends shutdown and exit and returns the exit code.
func (e *editor) shutdown() int {
	e.t.Helper()
	if err := e.call("shutdown", nil, nil); err != nil {
		e.t.Fatalf("shutdown: %v", err)
	}
	e.notify("exit", nil)
	select {
	case code := <-e.done:
		e.done <- code
		return code
	case <-time.After(10 * time.Second):
		e.t.Fatal("server did not exit")
	}
	return -1
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
