package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
)

// rawClient writes hand-made frames to a Server and reads its messages, for
// tests that need exact control of the wire (string ids, garbage).
type rawClient struct {
	t    *testing.T
	in   *fakeeditor.Pipe
	out  *bufio.Reader
	done chan int
	msgs chan map[string]any
}

func newRawClient(t *testing.T, opts Options) *rawClient {
	in, out := fakeeditor.NewPipe(), fakeeditor.NewPipe()
	c := &rawClient{t: t, in: in, out: bufio.NewReader(out), done: make(chan int, 1), msgs: make(chan map[string]any, 1000)}
	go func() {
		c.done <- Serve(context.Background(), in, out, opts)
		_ = out.Close()
	}()
	go func() {
		defer close(c.msgs)
		for {
			m, err := c.read()
			if err != nil {
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() {
		_ = in.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("server did not exit")
		}
	})
	return c
}

func (c *rawClient) frame(body string) {
	_ = fakeeditor.WriteFrame(c.in, []byte(body))
}

func (c *rawClient) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.frame(string(b))
}

func (c *rawClient) read() (map[string]any, error) { return fakeeditor.ReadMessage(c.out) }

// response waits for the response with the given id (as JSON text, e.g.
// `7` or `"abc"`), answering the server's own requests with null.
func (c *rawClient) response(id string) map[string]any {
	c.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("connection closed waiting for response %s", id)
			}
			if _, isReq := m["method"]; isReq {
				if rid, ok := m["id"]; ok {
					c.send(map[string]any{"jsonrpc": "2.0", "id": rid, "result": nil})
				}
				continue
			}
			got, _ := json.Marshal(m["id"])
			if string(got) == id {
				return m
			}
		case <-timeout:
			c.t.Fatalf("no response %s", id)
		}
	}
}

func errCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	if e == nil {
		return 0
	}
	f, _ := e["code"].(float64)
	return int(f)
}

func (c *rawClient) initialize() {
	c.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"processId": nil, "rootUri": nil, "capabilities": map[string]any{"workspace": map[string]any{"applyEdit": true}}}})
	if m := c.response("1"); m["result"] == nil {
		c.t.Fatalf("initialize: %v", m)
	}
	c.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
}

// TestProtocolAbuse sends bad input; the server answers with errors and
// keeps serving.
func TestProtocolAbuse(t *testing.T) {
	c := newRawClient(t, Options{MaxMessageBytes: 1 << 16})
	// Requests before initialize.
	c.send(map[string]any{"jsonrpc": "2.0", "id": 100, "method": "textDocument/codeAction", "params": map[string]any{}})
	if m := c.response("100"); errCode(m) != -32002 {
		t.Errorf("before initialize: %v", m)
	}
	c.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{}})
	c.initialize()
	// Malformed JSON, a garbled header, a body that is not an object.
	c.frame(`{"jsonrpc": "2.0", "id": 5, "method": `)
	if m := c.response("null"); errCode(m) != -32700 {
		t.Errorf("malformed JSON: %v", m)
	}
	fmt.Fprintf(c.in, "Content-Length: nope\r\nX: y\r\n\r\n")
	if m := c.response("null"); errCode(m) != -32700 {
		t.Errorf("bad header: %v", m)
	}
	c.frame(`[1, 2`)
	c.response("null")
	// A message over the limit is skipped whole.
	huge := `{"jsonrpc":"2.0","id":6,"method":"workspace/symbol","params":{"query":"` + strings.Repeat("x", 1<<17) + `"}}`
	c.frame(huge)
	if m := c.response("null"); errCode(m) != -32600 || !strings.Contains(fmt.Sprint(m["error"]), "exceeds the limit") {
		t.Errorf("huge message: %v", m)
	}
	// A large message under the limit is served.
	big := "file:///tmp/big.lean"
	c.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": big, "languageId": "lean4", "version": 1, "text": "/-- big -/\n" + strings.Repeat("-- filler line\n", 3000)}}})
	c.send(map[string]any{"jsonrpc": "2.0", "id": 61, "method": "textDocument/codeAction", "params": map[string]any{
		"textDocument": map[string]any{"uri": big},
		"range":        map[string]any{"start": map[string]any{"line": 0, "character": 5}, "end": map[string]any{"line": 0, "character": 5}},
		"context":      map[string]any{"diagnostics": []any{}}}})
	if m := c.response("61"); len(m["result"].([]any)) != 2 {
		t.Errorf("actions in a large document: %v", m)
	}
	// Unknown methods.
	c.send(map[string]any{"jsonrpc": "2.0", "id": "u1", "method": "drift/nonsense", "params": nil})
	if m := c.response(`"u1"`); errCode(m) != -32601 {
		t.Errorf("unknown method: %v", m)
	}
	c.send(map[string]any{"jsonrpc": "2.0", "method": "$/unknownNotification", "params": 3})
	c.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": []int{1}}})
	c.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": "garbage"})
	// Out-of-order versions and positions past the end of lines.
	u := "file:///tmp/x.lean"
	c.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "lean4", "version": 5, "text": "-- one 𝔽\n-- two\n"}}})
	c.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 3},
		"contentChanges": []any{map[string]any{"range": map[string]any{
			"start": map[string]any{"line": 0, "character": 500}, "end": map[string]any{"line": 99, "character": 0}}, "text": " three"}}}})
	c.send(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction", "params": map[string]any{
		"textDocument": map[string]any{"uri": u},
		"range":        map[string]any{"start": map[string]any{"line": 0, "character": 7}, "end": map[string]any{"line": 0, "character": 7}},
		"context":      map[string]any{"diagnostics": []any{}}}})
	m := c.response("7")
	acts, _ := m["result"].([]any)
	if len(acts) != 2 {
		t.Fatalf("code actions after abuse: %v", m)
	}
	args := acts[0].(map[string]any)["command"].(map[string]any)["arguments"].([]any)[0].(map[string]any)
	if args["text"] != "-- one 𝔽 three" {
		t.Errorf("document after out-of-order change = %q", args["text"])
	}
	// Shutdown, then requests are refused, then exit with status 0.
	c.send(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "shutdown"})
	c.response("8")
	c.send(map[string]any{"jsonrpc": "2.0", "id": 9, "method": "workspace/symbol", "params": map[string]any{"query": "x"}})
	if m := c.response("9"); errCode(m) != -32600 {
		t.Errorf("after shutdown: %v", m)
	}
	c.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	select {
	case code := <-c.done:
		c.done <- code
		if code != 0 {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit")
	}
}

// TestExitWithoutShutdown exits with status 1.
func TestExitWithoutShutdown(t *testing.T) {
	c := newRawClient(t, Options{})
	c.initialize()
	c.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	code := <-c.done
	c.done <- code
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
}

// TestCancelRequestIDs cancels running jobs with $/cancelRequest, by numeric
// and by string id.
func TestCancelRequestIDs(t *testing.T) {
	for _, id := range []any{42, "job-abc"} {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			b := newScripted()
			b.gate = make(chan struct{})
			defer close(b.gate)
			c := newRawClient(t, Options{Open: b.open})
			c.initialize()
			c.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
				"uri": demoURI, "languageId": "lean4", "version": 1, "text": demoText}}})
			args := map[string]any{"uri": demoURI, "range": map[string]any{"start": map[string]any{"line": 4, "character": 10}, "end": map[string]any{"line": 4, "character": 10}}}
			c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "workspace/executeCommand", "params": map[string]any{
				"command": cmdFormalize, "arguments": []any{args}}})
			<-b.started
			c.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": id}})
			idJSON, _ := json.Marshal(id)
			if m := c.response(string(idJSON)); errCode(m) != -32800 {
				t.Errorf("cancelled request answered %v", m)
			}
		})
	}
}
