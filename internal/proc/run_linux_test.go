package proc

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestCombinedOutput: both streams are returned and a failing exit status
// is the error.
func TestCombinedOutput(t *testing.T) {
	out, err := CombinedOutput(context.Background(), exec.Command("/bin/sh", "-c", "echo out; echo err >&2; exit 3"))
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("err = %v, want exit status 3", err)
	}
	if got := string(out); got != "out\nerr\n" {
		t.Errorf("output %q", got)
	}
}

// TestRunCancel: ending the context ends the child and what it started;
// the error is the context's.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.Command("/bin/sh", "-c", "sleep 1000 & echo $!; wait")
	pids := make(chan int, 1)
	r, w := ioPipe(t)
	cmd.Stdout = w
	go func() {
		line, _ := readLine(r)
		pid, _ := strconv.Atoi(strings.TrimSpace(line))
		pids <- pid
		cancel()
	}()
	err := Run(ctx, cmd)
	w.Close()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	gone(t, <-pids)
}

func ioPipe(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

func readLine(r io.Reader) (string, error) {
	return bufio.NewReader(r).ReadString('\n')
}
