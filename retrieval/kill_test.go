package retrieval

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// TestKillDuringBuild kills (SIGKILL) a process in the middle of building
// the persistent index, then checks that the next start repairs it: every
// declaration indexed exactly once and search answering.
func TestKillDuringBuild(t *testing.T) {
	if os.Getenv("DRIFT_KILL_CHILD") != "" {
		e, err := Open(context.Background(), Config{Corpus: []string{os.Getenv("DRIFT_KILL_CORPUS")}, CacheDir: os.Getenv("DRIFT_KILL_CACHE")})
		if err != nil {
			os.Exit(3)
		}
		e.WaitReady(context.Background())
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	var decls []*library.Decl
	for i := range 30000 {
		decls = append(decls, &library.Decl{Name: fmt.Sprintf("Gen.thing%d", i), Kind: library.KindDef,
			File: fmt.Sprintf("F%d.lean", i/20), Doc: fmt.Sprintf("generated widget number %d", i)})
	}
	decls = append(decls, def("Special.zorble", "the zorbling operator"))
	corpus := writeCorpus(t, decls)
	cache := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringBuild$")
	cmd.Env = append(os.Environ(), "DRIFT_KILL_CHILD=1", "DRIFT_KILL_CORPUS="+corpus, "DRIFT_KILL_CACHE="+cache)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill once the child has started writing the lexical index.
	deadline := time.Now().Add(60 * time.Second)
	for {
		m, _ := filepath.Glob(filepath.Join(cache, "retrieval", "*", manifestName))
		if len(m) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	e := openReady(t, Config{Corpus: []string{corpus}, CacheDir: cache})
	if c, err := e.lex.Count(); err != nil || int(c) != len(decls) {
		t.Errorf("after kill -9: %d documents (%v), want %d", c, err, len(decls))
	}
	if !searchable(e, "zorbling operator", "Special.zorble") {
		t.Error("repaired index does not answer")
	}
}
