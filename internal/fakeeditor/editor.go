// Package fakeeditor is a fake LSP client in the style of gopls's
// integration tests, shared by the language server's tests and
// cmd/drift-bench (it is never linked into drift-lsp). It talks JSON-RPC to
// a real server over a stream, keeps its own copy of each document, applies
// workspace/applyEdit to it (checking versions, as editors do) and tells the
// server with didChange, and records progress, messages and diagnostics so
// that callers can wait on them.
package fakeeditor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Editor is one fake editor connected to one server.
type Editor struct {
	conn jsonrpc2.Conn

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every server message
	docs     map[string]*Doc
	progress map[string][]map[string]any // token → begin/report/end values in order
	messages []string                    // window/showMessage texts
	logs     []string
	diags    map[string][]map[string]any
	applied  int
	rejectN  int // reject this many applyEdit requests (applied=false)
	config   json.RawMessage
}

// Options configure the client capabilities and the initialize request.
type Options struct {
	// RootURI is the workspace root (default file:///work/ws).
	RootURI string
	// InitOptions are sent as initializationOptions.
	InitOptions any
	// Config, when set, is the answer to workspace/configuration (and the
	// client says it supports it).
	Config any
	// NoProgress and NoDocChanges turn off the window.workDoneProgress and
	// workspaceEdit.documentChanges capabilities.
	NoProgress, NoDocChanges bool
	// ProcessID is sent as processId (0: null).
	ProcessID int
}

// Connect starts a fake editor on a connection to the server (stream is the
// client's end, with LSP header framing).
func Connect(ctx context.Context, stream io.ReadWriteCloser) *Editor {
	e := &Editor{changed: make(chan struct{}), docs: map[string]*Doc{},
		progress: map[string][]map[string]any{}, diags: map[string][]map[string]any{}}
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(stream))
	e.conn.Go(ctx, e.handle)
	return e
}

// Initialize sends initialize and initialized.
func (e *Editor) Initialize(ctx context.Context, o Options) (json.RawMessage, error) {
	if o.Config != nil {
		raw, err := json.Marshal(o.Config)
		if err != nil {
			return nil, err
		}
		e.SetConfig(raw)
	}
	caps := map[string]any{
		"workspace": map[string]any{
			"applyEdit":     true,
			"configuration": o.Config != nil,
			"workspaceEdit": map[string]any{"documentChanges": !o.NoDocChanges},
		},
		"window": map[string]any{"workDoneProgress": !o.NoProgress},
		"textDocument": map[string]any{"codeAction": map[string]any{
			"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"refactor", "quickfix"}}},
		}},
	}
	root := o.RootURI
	if root == "" {
		root = "file:///work/ws"
	}
	var pid any
	if o.ProcessID > 0 {
		pid = o.ProcessID
	}
	params := map[string]any{"processId": pid, "rootUri": root, "capabilities": caps}
	if o.InitOptions != nil {
		params["initializationOptions"] = o.InitOptions
	}
	var res json.RawMessage
	if err := e.Call(ctx, "initialize", params, &res); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return res, e.Notify(ctx, "initialized", map[string]any{})
}

// handle answers the server's requests and records its notifications.
func (e *Editor) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	params := append([]byte(nil), req.Params()...)
	e.mu.Lock()
	defer e.mu.Unlock()
	defer func() {
		close(e.changed)
		e.changed = make(chan struct{})
	}()
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
		return e.applyEdit(ctx, params)
	default:
		if req.IsCall() {
			return nil, jsonrpc2.ErrMethodNotFound
		}
	}
	return nil, nil
}

// applyEdit applies a workspace edit to the documents (with e.mu held) and
// sends the matching didChange.
func (e *Editor) applyEdit(ctx context.Context, params []byte) (any, error) {
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
		wire := make([]map[string]any, 0, len(de.edits))
		// Apply from the end so that earlier ranges stay valid.
		for i := len(de.edits) - 1; i >= 0; i-- {
			d.apply(de.edits[i].Range, de.edits[i].NewText)
			wire = append(wire, map[string]any{"range": de.edits[i].Range, "text": de.edits[i].NewText})
		}
		d.Version++
		e.applied++
		_ = e.conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": de.uri, "version": d.Version},
			"contentChanges": wire,
		})
	}
	return map[string]any{"applied": true}, nil
}

// Notify sends a notification.
func (e *Editor) Notify(ctx context.Context, method string, params any) error {
	return e.conn.Notify(ctx, method, params)
}

// Call sends a request and decodes its result.
func (e *Editor) Call(ctx context.Context, method string, params, result any) error {
	_, err := e.conn.Call(ctx, method, params, result)
	return err
}

// Open opens a document in the editor and the server.
func (e *Editor) Open(ctx context.Context, u, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.docs[u] = &Doc{URI: u, Version: 1, Text: text}
	return e.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "lean4", "version": 1, "text": text}})
}

// EditOffsets replaces the bytes [start, end) of document u by text, as a
// user typing would, and sends an incremental didChange.
func (e *Editor) EditOffsets(ctx context.Context, u string, start, end int, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	d := e.docs[u]
	if d == nil {
		return fmt.Errorf("%s is not open", u)
	}
	r := d.Range(start, end)
	d.apply(r, text)
	d.Version++
	return e.conn.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": d.Version},
		"contentChanges": []any{map[string]any{"range": r, "text": text}},
	})
}

// Edit replaces the first occurrence of old by new in document u.
func (e *Editor) Edit(ctx context.Context, u, old, new string) error {
	text, _ := e.Text(u)
	i := strings.Index(text, old)
	if i < 0 {
		return fmt.Errorf("edit: %q not in %s", old, u)
	}
	return e.EditOffsets(ctx, u, i, i+len(old), new)
}

// Text returns the editor's text of document u and its version.
func (e *Editor) Text(u string) (string, int32) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if d := e.docs[u]; d != nil {
		return d.Text, d.Version
	}
	return "", 0
}

// RangeOf returns the range of the first occurrence of s in document u.
func (e *Editor) RangeOf(u, s string) (protocol.Range, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	d := e.docs[u]
	if d == nil {
		return protocol.Range{}, fmt.Errorf("%s is not open", u)
	}
	i := strings.Index(d.Text, s)
	if i < 0 {
		return protocol.Range{}, fmt.Errorf("%q not in %s", s, u)
	}
	return d.Range(i, i+len(s)), nil
}

// CodeAction is a code action as the editor sees it.
type CodeAction struct {
	Title   string `json:"title"`
	Kind    string `json:"kind"`
	Command struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	} `json:"command"`
}

// CodeActions requests the code actions at r in document u.
func (e *Editor) CodeActions(ctx context.Context, u string, r protocol.Range) ([]CodeAction, error) {
	var out []CodeAction
	err := e.Call(ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u}, "range": r, "context": map[string]any{"diagnostics": []any{}},
	}, &out)
	return out, err
}

// Execute runs a code action's command and waits for its answer.
func (e *Editor) Execute(ctx context.Context, a CodeAction) error {
	return e.Call(ctx, "workspace/executeCommand", map[string]any{"command": a.Command.Command, "arguments": a.Command.Arguments}, nil)
}

// Wait calls cond after every message from the server (and every 20 ms,
// for conditions that change without one) until it returns true, or
// returns ctx's error.
func (e *Editor) Wait(ctx context.Context, cond func() bool) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		e.mu.Lock()
		changed := e.changed
		e.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		case <-tick.C:
		}
	}
}

// Messages returns the window/showMessage texts so far.
func (e *Editor) Messages() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.messages...)
}

// Logs returns the window/logMessage texts so far.
func (e *Editor) Logs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.logs...)
}

// Diagnostics returns the last published diagnostics of document u.
func (e *Editor) Diagnostics(u string) []map[string]any {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]map[string]any(nil), e.diags[u]...)
}

// Published reports whether the server published diagnostics for u.
func (e *Editor) Published(u string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.diags[u]
	return ok
}

// Applied returns the number of workspace edits applied.
func (e *Editor) Applied() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.applied
}

// SetConfig sets the answer to workspace/configuration.
func (e *Editor) SetConfig(raw json.RawMessage) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.config = raw
}

// RejectEdits makes the editor refuse the next n workspace edits.
func (e *Editor) RejectEdits(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rejectN = n
}

// Progress is one work-done progress session as the editor saw it.
type Progress struct {
	Token    string
	Title    string
	Messages []string // begin, report and end messages in order
	Ended    bool
	End      string // the end message
}

// Progresses returns the progress sessions whose title starts with prefix.
func (e *Editor) Progresses(prefix string) []Progress {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Progress
	for tok, vals := range e.progress {
		if len(vals) == 0 || !strings.HasPrefix(fmt.Sprint(vals[0]["title"]), prefix) {
			continue
		}
		p := Progress{Token: tok, Title: fmt.Sprint(vals[0]["title"])}
		for _, v := range vals {
			if m, ok := v["message"]; ok {
				p.Messages = append(p.Messages, fmt.Sprint(m))
			}
		}
		if last := vals[len(vals)-1]; last["kind"] == "end" {
			p.Ended, p.End = true, fmt.Sprint(last["message"])
		}
		out = append(out, p)
	}
	return out
}

// Shutdown sends shutdown and exit.
func (e *Editor) Shutdown(ctx context.Context) error {
	if err := e.Call(ctx, "shutdown", nil, nil); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return e.Notify(ctx, "exit", nil)
}

// Close closes the editor's connection.
func (e *Editor) Close() error {
	err := e.conn.Close()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
