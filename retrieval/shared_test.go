package retrieval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSharedCache opens three engines on one workspace and one cache
// directory at once (as two editor windows and a CLI call do), then a
// fourth after them: every one must become ready and answer within a
// deadline — none waits on another's lock or loses its files — and the
// fourth must open the stored index instead of rebuilding it.
func TestSharedCache(t *testing.T) {
	dir := newWorkspace(t)
	cache := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := Open(ctx, Config{Roots: []string{dir}, CacheDir: cache, Watch: i == 0})
			if err != nil {
				errs[i] = err
				return
			}
			defer e.Close()
			if err := e.WaitReady(ctx); err != nil {
				errs[i] = fmt.Errorf("not ready: %w", err)
				return
			}
			if !searchable(e, "prime number", "Demo.Prime") {
				errs[i] = fmt.Errorf("does not answer")
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("engine %d: %v", i, err)
		}
	}
	var mu sync.Mutex
	var log strings.Builder
	e := openReady(t, Config{Roots: []string{dir}, CacheDir: cache, Logf: func(f string, a ...any) {
		mu.Lock()
		fmt.Fprintf(&log, f+"\n", a...)
		mu.Unlock()
	}})
	if !searchable(e, "prime number", "Demo.Prime") {
		t.Error("fourth engine does not answer")
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(log.String(), "indexes opened") {
		t.Errorf("fourth engine rebuilt the stored index:\n%s", log.String())
	}
	if tmps, _ := filepath.Glob(filepath.Join(cache, "retrieval", "*", "*.tmp")); len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
	if _, err := os.Stat(basePath(e.dir)); err != nil {
		t.Errorf("stored index: %v", err)
	}
}
