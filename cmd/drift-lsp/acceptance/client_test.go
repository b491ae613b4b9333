package acceptance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"
)

// server is a `drift-lsp serve` child process spoken to over stdio with
// LSP's JSON-RPC framing, answering the requests the server sends to its
// editor as a plain editor would.
type server struct {
	t       *testing.T
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stderr  bytes.Buffer
	logMu   sync.Mutex // guards stderr
	wmu     sync.Mutex // serialises writes to stdin
	mu      sync.Mutex // guards nextID and pending
	nextID  int
	pending map[int]chan response
	done    chan struct{}
}

type response struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type message struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
	Params json.RawMessage  `json:"params"`
	response
}

// startServer starts `drift-lsp serve` with the given environment and
// initializes it on root with settings.
func startServer(t *testing.T, environ []string, root string, settings map[string]any) *server {
	t.Helper()
	s := &server{t: t, pending: map[int]chan response{}, done: make(chan struct{})}
	s.cmd = exec.Command(binary, "serve")
	s.cmd.Env = environ
	s.cmd.Stderr = &syncWriter{w: &s.stderr, mu: &s.logMu}
	var err error
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go s.read(out, settings)
	t.Cleanup(s.close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	uri := "file://" + root
	var res json.RawMessage
	if err := s.call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": uri,
		"workspaceFolders":      []map[string]any{{"uri": uri, "name": "ws"}},
		"initializationOptions": settings,
		"capabilities":          map[string]any{"window": map[string]any{"workDoneProgress": true}, "workspace": map[string]any{"configuration": true}}}, &res); err != nil {
		t.Fatalf("initialize: %v\n%s", err, s.log())
	}
	s.notify("initialized", map[string]any{})
	return s
}

// syncWriter serialises writes to a buffer read by the test.
type syncWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (w *syncWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(b)
}

// log returns the server's stderr so far.
func (s *server) log() string {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return s.stderr.String()
}

func (s *server) write(v any) {
	b, _ := json.Marshal(v)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	fmt.Fprintf(s.stdin, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (s *server) notify(method string, params any) {
	s.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits for its response or ctx's end.
func (s *server) call(ctx context.Context, method string, params any, result *json.RawMessage) error {
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	ch := make(chan response, 1)
	s.pending[id] = ch
	s.mu.Unlock()
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %d %s", method, r.Error.Code, r.Error.Message)
		}
		*result = r.Result
		return nil
	case <-s.done:
		return fmt.Errorf("%s: server exited", method)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// read dispatches the server's messages: responses to their callers,
// requests answered as an editor would (configuration → settings).
func (s *server) read(r io.Reader, settings map[string]any) {
	defer close(s.done)
	tp := textproto.NewReader(bufio.NewReader(r))
	for {
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(tp.R, body); err != nil {
			return
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		switch {
		case m.ID != nil && m.Method != "":
			var result any
			if m.Method == "workspace/configuration" {
				var p struct{ Items []any }
				_ = json.Unmarshal(m.Params, &p)
				items := make([]any, len(p.Items))
				for i := range items {
					items[i] = settings
				}
				result = items
			}
			// Answer from another goroutine: this one must keep reading.
			go s.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		case m.ID != nil:
			id, err := strconv.Atoi(string(*m.ID))
			if err != nil {
				continue
			}
			s.mu.Lock()
			ch := s.pending[id]
			delete(s.pending, id)
			s.mu.Unlock()
			if ch != nil {
				ch <- m.response
			}
		}
	}
}

// symbols runs workspace/symbol until it answers with symbols (the index
// is ready) or ctx ends, and returns the symbol names.
func (s *server) symbols(ctx context.Context, query string) ([]string, error) {
	var last error
	for {
		var res json.RawMessage
		err := s.call(ctx, "workspace/symbol", map[string]any{"query": query}, &res)
		if err == nil {
			var syms []struct{ Name string }
			if err := json.Unmarshal(res, &syms); err != nil {
				return nil, err
			}
			if len(syms) > 0 {
				names := make([]string, len(syms))
				for i, x := range syms {
					names[i] = x.Name
				}
				return names, nil
			}
			err = errors.New("workspace/symbol: no symbols")
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%v (last answer: %v)", ctx.Err(), last)
		}
		last = err
		select { // the server answers "indexing, N%" until ready: ask again
		case <-ctx.Done():
		case <-s.done:
			return nil, fmt.Errorf("server exited (last answer: %v)", last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (s *server) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var res json.RawMessage
	if s.call(ctx, "shutdown", nil, &res) == nil {
		s.notify("exit", nil)
	}
	s.stdin.Close()
	select {
	case <-s.done:
	case <-ctx.Done():
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}
