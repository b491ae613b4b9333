package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/proctest"
)

func start(t testing.TB, cmd *exec.Cmd, mem uint64) *Child {
	t.Helper()
	c, err := Start(cmd, mem, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// firstLine returns the first line the child prints.
func firstLine(t testing.TB, r io.Reader) string {
	t.Helper()
	sc := bufio.NewScanner(r)
	if !sc.Scan() {
		t.Fatalf("the child printed nothing: %v", sc.Err())
	}
	return sc.Text()
}

func gone(t *testing.T, pid int) {
	t.Helper()
	ok, err := proctest.WaitExit(pid, 10*time.Second)
	if err != nil || !ok {
		t.Fatalf("process %d still runs (%v)", pid, err)
	}
}

// TestStop: Kill, and Terminate for a child that honours SIGTERM, end the
// child and what it started (with Terminate, the watcher, which ignores
// SIGTERM, ends the rest of the group once the child was waited for).
func TestStop(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(*Child)
	}{
		{"kill", (*Child).Kill},
		{"terminate", (*Child).Terminate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", "sleep 1000 & echo $!; wait")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			c := start(t, cmd, 0)
			pid, err := strconv.Atoi(firstLine(t, out))
			if err != nil {
				t.Fatal(err)
			}
			if !Alive(pid) {
				t.Fatalf("grandchild %d not running", pid)
			}
			tc.stop(c)
			if err := c.Wait(); err == nil {
				t.Error("a stopped child exited with status 0")
			}
			gone(t, pid)
		})
	}
}

// TestWaitEndsLeftovers: what a child left running in its group is ended
// once the child has been waited for.
func TestWaitEndsLeftovers(t *testing.T) {
	f, err := os.Create(t.TempDir() + "/pid")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command("/bin/sh", "-c", "sleep 1000 >/dev/null 2>&1 & echo $!")
	cmd.Stdout = f
	c := start(t, cmd, 0)
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	gone(t, pid)
}

// TestMemoryLimit: the child sees the limit as RLIMIT_AS from its first
// instruction.
func TestMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		limit uint64
		want  string
	}{
		{0, "unlimited"},
		{512 << 20, "524288"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", "ulimit -v")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			c := start(t, cmd, tc.limit)
			got := firstLine(t, out)
			if err := c.Wait(); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ulimit -v = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestArguments: arguments reach the child as they were, however odd.
func TestArguments(t *testing.T) {
	args := []string{"a b", "", "$HOME", "'\"", "-c", "*"}
	cmd := exec.Command("/bin/sh", append([]string{"-c", `for a in "$@"; do printf '[%s]' "$a"; done`, "sh"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, cmd, 0)
	got, _ := io.ReadAll(out)
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	if want := "[a b][][$HOME]['\"][-c][*]"; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestNotFound: a program that does not exist is an error from Start.
func TestNotFound(t *testing.T) {
	if _, err := Start(exec.Command("drift-no-such-program"), 0, nil); err == nil {
		t.Fatal("no error")
	}
}

// TestParentDeath: the parent (this test binary re-run as a helper) starts
// a child and is killed with SIGKILL; the child must exit, and so must what
// the child started.
func TestParentDeath(t *testing.T) {
	if os.Getenv("DRIFT_PROC_HELPER") == "1" {
		cmd := exec.Command("/bin/sh", "-c", "sleep 1000 & echo $$ $!; wait")
		cmd.Stdout = os.Stdout
		start(t, cmd, 0)
		// Wait for the SIGKILL in a sleep: a bare select{} is reported as
		// a deadlock when no other goroutine is left (seen once in CI).
		time.Sleep(time.Hour)
	}
	cmd, out := proctest.Helper(t, "TestParentDeath", "DRIFT_PROC_HELPER=1")
	if !out.Scan() {
		t.Fatalf("the helper printed nothing: %v", out.Err())
	}
	var child, grandchild int
	if _, err := fmt.Sscanf(out.Text(), "%d %d", &child, &grandchild); err != nil {
		t.Fatal(err)
	}
	if !Alive(child) || !Alive(grandchild) {
		t.Fatalf("child %d or grandchild %d not running before the kill", child, grandchild)
	}
	_ = cmd.Process.Kill()
	gone(t, child)
	gone(t, grandchild)
}
