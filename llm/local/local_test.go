package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/settings"

	"github.com/drift-lsp/drift-lsp/internal/proctest"
	"github.com/drift-lsp/drift-lsp/llm"
)

// fakeInstall writes an installation whose "python" is the given shell
// script (it receives the same arguments as the real one: -c SCRIPT MODEL
// PORT N_CTX THREADS ALIAS).
func fakeInstall(t *testing.T, script string) Installation {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "venv", "bin"), 0o755)
	os.MkdirAll(filepath.Join(dir, "models"), 0o755)
	os.WriteFile(filepath.Join(dir, "models", "tiny.gguf"), []byte("GGUF"), 0o644)
	os.WriteFile(filepath.Join(dir, "model"), []byte("tiny.gguf\n"), 0o644)
	if err := os.WriteFile(filepath.Join(dir, "venv", "bin", "python"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	inst, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestFindAndConfigure(t *testing.T) {
	empty := t.TempDir()
	if _, err := Find(empty); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Find(empty) = %v", err)
	}
	inst := fakeInstall(t, "exit 1")
	if inst.ModelName() != "tiny" {
		t.Fatalf("model name %q", inst.ModelName())
	}
	tests := []struct {
		name, mode, dir, baseURL string
		wantLocal                bool
		wantErr                  error
	}{
		{"installed, no endpoint: local", "auto", inst.Dir, "", true, nil},
		{"default mode is auto", "", inst.Dir, "", true, nil},
		{"an endpoint wins", "auto", inst.Dir, "http://example.invalid/v1", false, nil},
		{"turned off", "off", inst.Dir, "", false, nil},
		{"not installed", "auto", empty, "", false, ErrNotInstalled},
		{"bad mode", "sometimes", inst.Dir, "", false, errors.New("llm.local")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, srv, err := Configure(llm.Config{BaseURL: tc.baseURL, Timeout: llm.DefaultTimeout, MaxTokens: llm.DefaultMaxTokens}, tc.mode, tc.dir, Options{})
			switch {
			case tc.wantErr == ErrNotInstalled:
				if !errors.Is(err, ErrNotInstalled) {
					t.Fatalf("err %v", err)
				}
			case tc.wantErr != nil:
				if err == nil || !strings.Contains(err.Error(), tc.wantErr.Error()) {
					t.Fatalf("err %v", err)
				}
			case err != nil:
				t.Fatal(err)
			}
			if (srv != nil) != tc.wantLocal || (cfg.Endpoint != nil) != tc.wantLocal {
				t.Fatalf("local %v endpoint %v, want %v", srv != nil, cfg.Endpoint, tc.wantLocal)
			}
			if tc.wantLocal && (cfg.Model != "tiny" || cfg.Timeout != Timeout || cfg.MaxTokens != MaxTokens || cfg.Concurrency != 1 || !cfg.Configured()) {
				t.Fatalf("config %+v", cfg)
			}
			if srv != nil {
				srv.Close()
			}
		})
	}
}

// A server that dies while loading, or never gets ready, gives a clear
// error; the next call tries again.
func TestStartFailures(t *testing.T) {
	crash := fakeInstall(t, `echo "error loading model: tensor data is not within file bounds" >&2; exit 3`)
	s := New(crash, Options{StartTimeout: time.Minute})
	defer s.Close()
	for i := 0; i < 2; i++ {
		_, err := s.BaseURL(context.Background())
		if err == nil || !strings.Contains(err.Error(), "exited during start-up") || !strings.Contains(err.Error(), "tensor data is not within file bounds") {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	slow := fakeInstall(t, `exec sleep 60`)
	s2 := New(slow, Options{StartTimeout: 300 * time.Millisecond})
	defer s2.Close()
	if _, err := s2.BaseURL(context.Background()); err == nil || !strings.Contains(err.Error(), "not ready after 300ms") {
		t.Fatalf("slow start: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s2.BaseURL(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled start: %v", err)
	}
	s2.Close()
	if _, err := s2.BaseURL(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// fakeServer is a python3 HTTP server standing in for llama.cpp's: /health
// answers 200, except while the file HANG next to the model holds this
// server's process id: then it stops answering (a hung server).
const fakeServer = `exec python3 -c '
import http.server, os, sys, time
port, hang = int(sys.argv[1]), os.path.join(os.path.dirname(sys.argv[2]), "HANG")
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        while os.path.exists(hang) and open(hang).read() == str(os.getpid()): time.sleep(1)
        self.send_response(200); self.end_headers(); self.wfile.write(b"{\"status\":\"ok\"}")
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
' "$4" "$3"`

// TestRestartAfterCrashAndHang: a killed server is started again on the
// next request, a hung one on the next job (Start's health check).
func TestRestartAfterCrashAndHang(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed: the fake server needs it")
	}
	inst := fakeInstall(t, fakeServer)
	s := New(inst, Options{})
	defer s.Close()
	var lines []string
	if err := s.Start(context.Background(), func(l string) { lines = append(lines, l) }); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "Starting the local model (tiny)") || !strings.HasPrefix(lines[1], "Local model ready in") {
		t.Fatalf("progress %q", lines)
	}
	pid := s.PID()
	url1, _ := s.BaseURL(context.Background())
	// Reused: no new process.
	if err := s.Start(context.Background(), nil); err != nil || s.PID() != pid {
		t.Fatalf("second Start: %v, pid %d → %d", err, pid, s.PID())
	}
	// Crash: the next BaseURL starts a new process.
	s.mu.Lock()
	exited := s.proc.done
	s.mu.Unlock()
	kill(t, pid)
	select { // until the server has noticed the exit
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not notice that process %d was killed", pid)
	}
	url2, err := s.BaseURL(context.Background())
	if err != nil || s.PID() == pid || s.PID() == 0 {
		t.Fatalf("after a crash: %v, pid %d → %d", err, pid, s.PID())
	}
	if url2 == url1 {
		t.Logf("the restarted server got the same port")
	}
	// Hang: Start's health check fails, the server is replaced.
	pid = s.PID()
	os.WriteFile(filepath.Join(inst.Dir, "models", "HANG"), []byte(strconv.Itoa(pid)), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Start(ctx, nil); err != nil || s.PID() == pid {
		t.Fatalf("after a hang: %v, pid %d → %d", err, pid, s.PID())
	}
	waitGone(t, pid)
	last := s.PID()
	s.Close()
	waitGone(t, last)
}

// waitGone waits until process pid has terminated (a zombie counts).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if ok, err := proctest.WaitExit(pid, 30*time.Second); err != nil || !ok {
		t.Fatalf("process %d still running after 30 s (%v)", pid, err)
	}
}

// alive reports whether pid exists and is not a zombie, from /proc.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndex(s, ")")
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// installed returns the real local model or skips the test, saying why.
func installed(t *testing.T) Installation {
	t.Helper()
	inst, err := Find(settings.FromEnv(os.Getenv).Paths.LocalLLM)
	if err != nil {
		t.Skipf("the real local model is not installed (%v); `make setup` installs it", err)
	}
	return inst
}

// TestRealServer drives the installed xllamacpp server: start, a real
// chat completion with structured output, reuse, restart after a crash,
// stop.
func TestRealServer(t *testing.T) {
	inst := installed(t)
	opts := Options{PromptCacheDir: t.TempDir()}
	s := New(inst, opts)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	if err := s.Start(ctx, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("model %s loaded in %s", inst.ModelName(), time.Since(start))
	cfg, _, _ := Configure(llm.Config{MaxRetries: 2}, ModeAuto, inst.Dir, Options{})
	cfg.Endpoint = s
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Stage: llm.StageFormalize, Messages: []llm.Message{{Role: "user", Content: "Give a JSON object with the key ok set to true."}},
		Schema: &llm.Schema{Name: "ok", JSON: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)}}
	r, err := c.NewAction(0).Complete(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ OK *bool }
	if !r.Structured || json.Unmarshal([]byte(r.Text), &v) != nil || v.OK == nil {
		t.Fatalf("structured answer %+v", r)
	}
	// Three answers drawn together from a prompt that extends the first: the
	// server reuses the processed prefix and says so, and answers n.
	many := req
	many.Messages = append([]llm.Message{{Role: "system", Content: "Answer briefly."}}, req.Messages...)
	many.N, many.Temperature = 3, 0.7
	if _, err := c.NewAction(0).Complete(ctx, many); err != nil {
		t.Fatal(err)
	}
	many.Messages = append(many.Messages[:len(many.Messages):len(many.Messages)], llm.Message{Role: "assistant", Content: `{"ok": true}`}, llm.Message{Role: "user", Content: "Again."})
	r, err = c.NewAction(0).Complete(ctx, many)
	if err != nil || len(r.Texts) != 3 || r.CachedPromptTokens == 0 || r.CachedPromptTokens >= r.PromptTokens {
		t.Fatalf("n=3 answer %+v: %v", r, err)
	}
	t.Logf("n=3: %d prompt tokens, %d from the server's cache", r.PromptTokens, r.CachedPromptTokens)
	// The processed prompts outlive the server: a new one starts with them.
	s.Close()
	s = New(inst, opts)
	defer s.Close()
	cfg.Endpoint = s
	if c, err = llm.New(cfg); err != nil {
		t.Fatal(err)
	}
	many.Messages[len(many.Messages)-1].Content = "Once more."
	r, err = c.NewAction(0).Complete(ctx, many)
	if err != nil || r.CachedPromptTokens < r.PromptTokens/2 {
		t.Fatalf("after a restart: %+v: %v", r, err)
	}
	t.Logf("after a restart: %d prompt tokens, %d from the saved prompt cache", r.PromptTokens, r.CachedPromptTokens)
	// A crash (even one not yet noticed) costs a retry, not the call.
	pid := s.PID()
	kill(t, pid)
	req.Messages[0].Content += " "
	if _, err := c.NewAction(0).Complete(ctx, req); err != nil || s.PID() == pid {
		t.Fatalf("after a crash: %v, pid %d → %d", err, pid, s.PID())
	}
	pid = s.PID()
	s.Close()
	waitGone(t, pid)
}

// TestNoOrphan: the parent (this test binary re-run as a helper) starts the
// real server and is killed with SIGKILL; the server must exit too.
func TestNoOrphan(t *testing.T) {
	if os.Getenv("DRIFT_LOCAL_ORPHAN_HELPER") == "1" {
		orphanHelper()
		return
	}
	inst := installed(t)
	cmd, sc := proctest.Helper(t, "TestNoOrphan", "DRIFT_LOCAL_ORPHAN_HELPER=1", "DRIFT_LOCAL_LLM_DIR="+inst.Dir)
	pid := 0
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "server pid "); ok {
			pid, _ = strconv.Atoi(p)
			break
		}
	}
	if pid == 0 {
		t.Fatal("the helper did not start the server")
	}
	if !alive(pid) {
		t.Fatalf("server %d not running before the kill", pid)
	}
	cmd.Process.Kill()
	waitGone(t, pid)
}

func orphanHelper() {
	inst, err := Find(settings.FromEnv(os.Getenv).Paths.LocalLLM)
	if err != nil {
		fmt.Println("helper:", err)
		os.Exit(1)
	}
	s := New(inst, Options{})
	if err := s.Start(context.Background(), nil); err != nil {
		fmt.Println("helper:", err)
		os.Exit(1)
	}
	fmt.Printf("server pid %d\n", s.PID())
	// Wait to be killed.
	http.ListenAndServe("127.0.0.1:0", nil)
	select {}
}

// kill kills process pid (SIGKILL on Unix).
func kill(t *testing.T, pid int) {
	t.Helper()
	p, err := os.FindProcess(pid)
	if err == nil {
		err = p.Kill()
	}
	if err != nil {
		t.Fatalf("killing %d: %v", pid, err)
	}
}

func TestDefaultThreads(t *testing.T) {
	for _, tc := range []struct{ cpus, want int }{{0, 1}, {1, 1}, {2, 2}, {4, 4}, {6, 3}, {8, 4}, {12, 6}, {32, 8}} {
		if got := DefaultThreads(tc.cpus); got != tc.want {
			t.Errorf("DefaultThreads(%d) = %d, want %d", tc.cpus, got, tc.want)
		}
	}
}
