//go:build linux

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/drift-lsp/drift-lsp/internal/proctest"
)

// TestMCPStopsChildren: `drift-lsp mcp` started by an agent ends, and its
// Lean REPL with it, when its stdin is closed or on SIGTERM.
func TestMCPStopsChildren(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fake := buildReplFake(t)
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"stdin closed", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "repl.pid")
			cmd := exec.Command(exe, "mcp", "--root", root)
			home := t.TempDir()
			cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "DRIFT_LSP_TEST_MAIN=1", "HOME="+home, "XDG_CACHE_HOME="+home,
				"DRIFT_CACHE_DIR="+t.TempDir(), "DRIFT_EMBED_PROVIDER=none", "DRIFT_LLM_BASE_URL=", "DRIFT_LLM_LOCAL=off",
				"DRIFT_REPL=echo $$ > "+pidFile+" && exec "+fake)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() {
				select {
				case <-exited:
				default:
					_ = cmd.Process.Kill()
					<-exited
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "check", Arguments: map[string]any{"stub": "theorem t (p : Nat) (hp : Mm.Prime p) : Mm.Odd p := by sorry"}})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res.StructuredContent)
			var rep struct {
				LeanBackend string `json:"lean_backend"`
				LeanRan     bool   `json:"lean_ran"`
			}
			if err := json.Unmarshal(b, &rep); err != nil || rep.LeanBackend != "repl" || !rep.LeanRan {
				t.Fatalf("report %s: want Lean run in the REPL", b)
			}
			raw, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
			if err != nil {
				t.Fatal(err)
			}
			if how == "SIGTERM" {
				err = cmd.Process.Signal(syscall.SIGTERM)
			} else {
				err = stdin.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				exited <- err
				if err != nil {
					t.Errorf("drift-lsp mcp exited with %v, want 0", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("drift-lsp mcp still runs 10 s after " + how)
			}
			if gone, err := proctest.WaitExit(pid, 5*time.Second); err != nil || !gone {
				t.Errorf("the REPL (pid %d) outlived drift-lsp mcp (%v)", pid, err)
			}
		})
	}
}
