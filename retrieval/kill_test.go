package retrieval

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// TestKillDuringBuild kills (SIGKILL) a process while it stores the index it
// built — the new file written but not yet renamed into place, the one
// point where a crash leaves something on disk — then checks that the next start serves
// a correct index: every declaration once, search answering, and a stored
// file that the start after opens. The child announces the point on
// stdout and stops there, so the kill lands exactly at it, never after.
func TestKillDuringBuild(t *testing.T) {
	if point := os.Getenv("DRIFT_KILL_CHILD"); point != "" {
		stop := func() {
			fmt.Println("at", point)
			// Wait for the SIGKILL in a sleep: a bare select{} is
			// reported as a deadlock when no other goroutine is left.
			time.Sleep(time.Hour)
		}
		testHookBeforeRename = stop
		cfg := Config{Corpus: []string{os.Getenv("DRIFT_KILL_CORPUS")}, CacheDir: os.Getenv("DRIFT_KILL_CACHE")}
		e, err := Open(context.Background(), cfg)
		if err != nil {
			os.Exit(3)
		}
		e.WaitReady(context.Background())
		e.Close()
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	var decls []*library.Decl
	for i := range 20000 {
		decls = append(decls, &library.Decl{Name: fmt.Sprintf("Gen.thing%d", i), Kind: library.KindDef,
			File: fmt.Sprintf("F%d.lean", i/20), Doc: fmt.Sprintf("generated widget number %d", i)})
	}
	decls = append(decls, def("Special.zorble", "the zorbling operator"))
	corpus := writeCorpus(t, decls)
	for _, point := range []string{"rename"} {
		t.Run(point, func(t *testing.T) {
			cache := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringBuild$")
			cmd.Env = append(os.Environ(), "DRIFT_KILL_CHILD="+point, "DRIFT_KILL_CORPUS="+corpus, "DRIFT_KILL_CACHE="+cache)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if !strings.HasPrefix(line, "at "+point) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("child said %q, want the kill point", line)
			}
			cmd.Process.Kill()
			cmd.Wait()
			tmps, _ := filepath.Glob(atomicfile.TempPattern(basePath(filepath.Join(cache, "retrieval", "*"))))
			if len(tmps) != 1 {
				t.Fatalf("temporary files after the kill: %v, want one", tmps)
			}
			// A temporary file that old is abandoned: the next write removes it.
			old := time.Now().Add(-2 * atomicfile.AbandonedAfter)
			os.Chtimes(tmps[0], old, old)
			for round, want := range []string{"built", "opened"} {
				var mu sync.Mutex
				var logged []string
				e := openReady(t, Config{Corpus: []string{corpus}, CacheDir: cache, Logf: func(f string, a ...any) {
					mu.Lock()
					logged = append(logged, fmt.Sprintf(f, a...))
					mu.Unlock()
				}})
				if c := e.snapshot().count(); c != len(decls) {
					t.Errorf("start %d after kill -9: %d declarations, want %d", round, c, len(decls))
				}
				if !searchable(e, "zorbling operator", "Special.zorble") {
					t.Errorf("start %d after kill -9: index does not answer", round)
				}
				e.Close()
				mu.Lock()
				defer mu.Unlock()
				if !strings.Contains(strings.Join(logged, "\n"), "indexes "+want) {
					t.Errorf("start %d: indexes not %s: %q", round, want, logged)
				}
			}
			if _, err := os.Stat(tmps[0]); !os.IsNotExist(err) {
				t.Errorf("abandoned temporary file still there (%v)", err)
			}
		})
	}
}
