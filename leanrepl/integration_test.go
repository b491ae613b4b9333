package leanrepl

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realPool starts a pool over a real Lean REPL, or skips: it uses
// DRIFT_LEAN_REPL (a shell command) when set, else looks for a repl in the
// workspace DRIFT_LEAN_WORKSPACE (default ../testdata/workspace) or on PATH.
func realPool(t *testing.T) *Pool {
	t.Helper()
	root := os.Getenv("DRIFT_LEAN_WORKSPACE")
	if root == "" {
		root = filepath.Join("..", "testdata", "workspace")
	}
	var cmd []string
	if c := os.Getenv("DRIFT_LEAN_REPL"); c != "" {
		cmd = []string{"/bin/sh", "-c", c}
	} else {
		found, err := FindREPL(root)
		if err != nil {
			_, lakeErr := exec.LookPath("lake")
			t.Skipf("no real Lean REPL here (%v; lake on PATH: %v); set DRIFT_LEAN_REPL to run the integration tests", err, lakeErr == nil)
		}
		cmd = found
	}
	pool, err := NewPool(Config{Command: cmd, Root: root, Timeout: 5 * time.Minute, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	return pool
}

func TestRealREPL(t *testing.T) {
	pool := realPool(t)
	ctx := context.Background()
	err := pool.Session(ctx, "", func(s *Session) error {
		resp, err := s.Command(ctx, "theorem drift_t : 1 = 1 := by sorry")
		if err != nil {
			return err
		}
		if len(resp.Sorries) != 1 || len(resp.Messages) != 1 || !strings.Contains(resp.Messages[0].Data, "sorry") {
			t.Errorf("unexpected answer %+v", resp)
		}
		tac, err := s.Send(ctx, Tactic{Tactic: "rfl", ProofState: *resp.Sorries[0].ProofState})
		if err != nil {
			return err
		}
		if tac.ProofStatus != "Completed" {
			t.Errorf("tactic answer %+v", tac)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(CheckerConfig{Pool: pool})
	rep, err := c.Check(ctx, CheckRequest{Stub: "theorem drift_u (n : Nat) : Nat.succ_ish n = n + 1 := by sorry"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.LeanRan || rep.LeanOK || len(rep.Hallucinations()) == 0 {
		t.Errorf("invented name not reported as a hallucination: %+v", rep)
	}
	eq, err := c.Equivalent(ctx, "", "theorem a (n : Nat) : n + 0 = n := by sorry", "theorem b (m : Nat) : m = m + 0 := by sorry")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("equivalence: %v (%q / %q)", eq.Equivalent, eq.AtoB.Proof, eq.BtoA.Proof)
}
