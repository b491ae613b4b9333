package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
)

// TestMain lets the lifecycle tests run this test binary as the drift-lsp
// process itself: with DRIFT_LSP_TEST_MAIN=1 it runs the command line in
// its arguments and exits, as the real binary does.
func TestMain(m *testing.M) {
	if os.Getenv("DRIFT_LSP_TEST_MAIN") == "1" {
		os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// lspProcess is a drift-lsp server started as a child process, talking LSP
// over its stdin and stdout like an editor does.
type lspProcess struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	exit  chan error
	// responses carries the server's responses in arrival order.
	responses chan map[string]any
}

// startServer starts `drift-lsp serve` as a child process with a private
// cache and no model, dense retrieval or REPL.
func startServer(t *testing.T) *lspProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "serve")
	home := t.TempDir()
	// A -race binary sleeps 1 s at exit unless told not to.
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "DRIFT_LSP_TEST_MAIN=1", "HOME="+home, "XDG_CACHE_HOME="+home,
		"DRIFT_CACHE_DIR="+t.TempDir(), "DRIFT_EMBED_PROVIDER=none", "DRIFT_LLM_BASE_URL=", "DRIFT_REPL=")
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
	p := &lspProcess{t: t, cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout), exit: make(chan error, 1)}
	// Drain the server's output so that it never blocks on a full pipe;
	// responses are picked out by id.
	responses := make(chan map[string]any, 64)
	go func() {
		defer close(responses)
		for {
			m, err := p.read()
			if err != nil {
				return
			}
			if _, ok := m["id"]; ok {
				if _, isCall := m["method"]; !isCall {
					responses <- m
				}
			}
		}
	}()
	go func() { p.exit <- cmd.Wait() }()
	p.responses = responses
	t.Cleanup(func() {
		_ = stdin.Close()
		select {
		case <-p.exit:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-p.exit
		}
	})
	return p
}

func (p *lspProcess) send(v any) {
	p.t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		p.t.Fatal(err)
	}
	if err := fakeeditor.WriteFrame(p.stdin, body); err != nil {
		p.t.Fatalf("write to the server: %v", err)
	}
}

func (p *lspProcess) read() (map[string]any, error) { return fakeeditor.ReadMessage(p.out) }

// response waits for the response with the given numeric id.
func (p *lspProcess) response(id int) map[string]any {
	p.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-p.responses:
			if !ok {
				p.t.Fatalf("the server closed its output before answering %d", id)
			}
			if f, _ := m["id"].(float64); int(f) == id {
				return m
			}
		case <-timeout:
			p.t.Fatalf("no response to request %d", id)
		}
	}
}

// waitExit waits up to d for the process to end and returns its exit code.
func (p *lspProcess) waitExit(d time.Duration) (int, bool) {
	select {
	case err := <-p.exit:
		p.exit <- err
		return p.cmd.ProcessState.ExitCode(), true
	case <-time.After(d):
		return -1, false
	}
}

func (p *lspProcess) initialize(processID any) {
	p.t.Helper()
	p.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"processId": processID, "rootUri": nil, "capabilities": map[string]any{}}})
	if m := p.response(1); m["result"] == nil {
		p.t.Fatalf("initialize: %v", m)
	}
	p.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
}

// TestExitWithStdinOpen: after shutdown and exit the process ends within
// 1 s although the client keeps its stdin open.
func TestExitWithStdinOpen(t *testing.T) {
	p := startServer(t)
	p.initialize(nil)
	p.send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
	if m := p.response(2); m["error"] != nil {
		t.Fatalf("shutdown: %v", m)
	}
	p.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	code, ok := p.waitExit(time.Second)
	if !ok {
		t.Fatal("the server did not exit within 1 s of `exit` while its stdin stayed open")
	}
	if code != 0 {
		t.Errorf("exit code %d after shutdown and exit, want 0", code)
	}
}

// TestExitWhenClientDies: the server ends within 5 s of the death of the
// process named by processId (a real child process stands in for the
// editor), although its stdin stays open.
func TestExitWhenClientDies(t *testing.T) {
	client := exec.Command("sleep", "600")
	if err := client.Start(); err != nil {
		t.Skipf("cannot start a stand-in client process: %v", err)
	}
	p := startServer(t)
	p.initialize(client.Process.Pid)
	if err := client.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = client.Wait()
	code, ok := p.waitExit(5 * time.Second)
	if !ok {
		t.Fatal("the server did not exit within 5 s of its client's death")
	}
	if code != 1 {
		t.Errorf("exit code %d without shutdown, want 1", code)
	}
}
