package lsp

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// engines opens a new scripted backend per open and counts how many are
// open, as the real retrieval engine (which holds the index lock) would.
type engines struct {
	mu     sync.Mutex
	opened int
	live   map[*engine]bool
	last   Settings
}

// engine is one opened backend.
type engine struct {
	*scripted
	owner  *engines
	closed bool
}

func (es *engines) open(ctx context.Context, root string, s Settings, logf func(string, ...any)) (Backend, error) {
	// Opening an engine takes a moment (the real one discovers the
	// workspace and takes the index lock); it returns before loading.
	time.Sleep(time.Millisecond)
	e := &engine{scripted: newScripted(), owner: es}
	es.mu.Lock()
	es.opened++
	es.live[e] = true
	es.last = s
	es.mu.Unlock()
	return e, nil
}

func (e *engine) Comments() CommentChecker { return nil }

func (e *engine) CommentsChanged() <-chan struct{} { return nil }

func (e *engine) Close() error {
	e.owner.mu.Lock()
	defer e.owner.mu.Unlock()
	if e.closed {
		return fmt.Errorf("engine closed twice")
	}
	e.closed = true
	delete(e.owner.live, e)
	return nil
}

func (es *engines) state() (opened, live int, last Settings) {
	es.mu.Lock()
	defer es.mu.Unlock()
	return es.opened, len(es.live), es.last
}

// TestLifecycleChurn sends 50 interleaved reindex commands, settings changes
// that need a new index and edits: afterwards exactly one engine is open
// (the one built from the last settings), the server exits cleanly, every
// engine is closed and no goroutine is left behind.
func TestLifecycleChurn(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	es := &engines{live: map[*engine]bool{}}
	e := newEditor(t, editorOptions{open: es.open})
	e.OpenDoc(demoURI, demoText)
	e.WaitFor("first engine", func() bool { o, _, _ := es.state(); return o > 0 })
	var wg sync.WaitGroup
	final := ""
	for i := range 50 {
		switch i % 3 {
		case 0:
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := e.Ask("workspace/executeCommand", map[string]any{"command": cmdReindex}, nil); err != nil {
					t.Errorf("reindex: %v", err)
				}
			}()
		case 1:
			final = fmt.Sprintf("/extra/root-%d", i)
			e.Tell("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"drift": map[string]any{"roots": []string{final}}}})
		case 2:
			e.Type(demoURI, "4t+3", "4t+3")
		}
	}
	wg.Wait()
	e.WaitFor("one engine built from the last settings", func() bool {
		_, live, last := es.state()
		return live == 1 && len(last.Roots) == 1 && last.Roots[0] == final
	})
	// The reopens have settled: one engine stays open.
	if code := e.shutdown(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	e.close()
	opened, live, _ := es.state()
	if live != 0 {
		t.Errorf("%d of %d engines still open after exit", live, opened)
	}
	t.Logf("%d engines opened for 50 requests", opened)
}
