package lsp

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
)

// editor drives a real server in-process through the shared fake editor
// (internal/fakeeditor), with the test's failure reporting.
type editor struct {
	fakeeditor.Tester
	t    testing.TB
	done chan int
	// closeFn closes the client's end and waits for the server to end.
	closeFn   func()
	closeOnce sync.Once
}

// codeAction is a code action as the fake editor sees it.
type codeAction = fakeeditor.CodeAction

// editorOptions configure the fake editor and the server.
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
	cw := fakeeditor.NewPipe() // client → server
	sw := fakeeditor.NewPipe() // server → client
	e := &editor{t: t, done: make(chan int, 1)}
	opts := Options{Open: o.open, Debounce: o.debounce}
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	if o.serverOverrides != nil {
		o.serverOverrides(&opts)
	}
	go func() {
		code := Serve(context.Background(), cw, sw, opts)
		_ = sw.Close()
		e.done <- code
	}()
	e.Tester = fakeeditor.Tester{Editor: fakeeditor.Connect(context.Background(), fakeeditor.Duplex{Reader: sw, WriteCloser: cw}), TB: t}
	e.closeFn = func() {
		_ = cw.Close()
		select {
		case code := <-e.done:
			e.done <- code
		case <-time.After(10 * time.Second):
			t.Errorf("server did not exit after stdin closed")
		}
		_ = e.Close()
	}
	t.Cleanup(e.close)
	if _, err := e.Initialize(context.Background(), fakeeditor.Options{RootURI: o.rootURI, InitOptions: o.initOptions,
		Config: o.config, NoProgress: o.noProgress, NoDocChanges: o.noDocChanges}); err != nil {
		t.Fatal(err)
	}
	return e
}

// close closes the editor's side of the connection and waits for the server
// to return.
func (e *editor) close() { e.closeOnce.Do(e.closeFn) }

// rangeOf returns the LSP range of the first occurrence of s in u.
func (e *editor) rangeOf(u, s string) Span {
	e.t.Helper()
	r, err := e.RangeOf(u, s)
	if err != nil {
		e.t.Fatal(err)
	}
	return fromRange(r)
}

// codeActions requests the code actions at r.
func (e *editor) codeActions(u string, r Span) []codeAction {
	e.t.Helper()
	ctx, cancel := fakeeditor.Step()
	defer cancel()
	out, err := e.CodeActions(ctx, u, toRange(r))
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

// progressEnds returns the end messages of every progress whose title starts
// with prefix.
func (e *editor) progressEnds(prefix string) []string {
	var out []string
	for _, p := range e.Progresses(prefix) {
		if p.Ended {
			out = append(out, p.End)
		}
	}
	return out
}

// progressMessages returns every message of progress with title prefix.
func (e *editor) progressMessages(prefix string) []string {
	var out []string
	for _, p := range e.Progresses(prefix) {
		out = append(out, p.Messages...)
	}
	return out
}

// waitEnds waits until n progress sessions with title prefix have ended.
func (e *editor) waitEnds(prefix string, n int) []string {
	e.t.Helper()
	var ends []string
	e.WaitFor(fmt.Sprintf("%d ended %q progress", n, prefix), func() bool {
		ends = e.progressEnds(prefix)
		return len(ends) >= n
	})
	return ends
}

// tokenOf returns the progress token of the running job with title prefix.
func (e *editor) tokenOf(prefix string) any {
	e.t.Helper()
	var tok any
	e.WaitFor("progress "+prefix, func() bool {
		for _, p := range e.Progresses(prefix) {
			if !p.Ended {
				tok = p.Token
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
	ctx, cancel := fakeeditor.Step()
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		e.t.Fatal(err)
	}
	select {
	case code := <-e.done:
		e.done <- code
		return code
	case <-ctx.Done():
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

// collapse turns a range into the cursor at its start.
func collapse(r Span) Span {
	r.End = r.Start
	return r
}
