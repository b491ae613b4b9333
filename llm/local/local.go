// Package local runs drift-lsp's bundled local model: llama.cpp's
// OpenAI-compatible server (the xllamacpp wheel) over a small GGUF model
// installed by `drift-lsp setup model`. A Server is started on a free loopback
// port when a request first needs it, reused across jobs, started again
// after a crash or a hang, and stopped by Close; the server process never
// outlives drift-lsp (internal/proc's rules, and it exits when its standard
// input, held by drift-lsp, closes).
package local

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/proc"
)

//go:embed serve.py
var serveScript string

// Defaults of Options.
const (
	DefaultContextSize  = 8192
	DefaultStartTimeout = 3 * time.Minute
)

// Installation is an installed local model: the venv's Python (with
// xllamacpp) and the GGUF file.
type Installation struct {
	Dir    string
	Python string
	Model  string
}

// ErrNotInstalled means the local model is not installed; its message says
// how to install it.
var ErrNotInstalled = errors.New("the local model is not installed (run `drift-lsp setup model`)")

// Find returns the installation in dir (settings.Paths.LocalLLM, where
// `drift-lsp setup model` installs it): the model named by dir/model, under
// dir/models, and dir/venv/bin/python.
func Find(dir string) (Installation, error) {
	if dir == "" {
		return Installation{}, fmt.Errorf("%w: no directory given", ErrNotInstalled)
	}
	inst := Installation{Dir: dir, Python: filepath.Join(dir, "venv", "bin", "python")}
	name, err := os.ReadFile(filepath.Join(dir, "model"))
	if err != nil {
		return inst, fmt.Errorf("%w: no %s", ErrNotInstalled, filepath.Join(dir, "model"))
	}
	inst.Model = filepath.Join(dir, "models", filepath.Base(strings.TrimSpace(string(name))))
	for _, f := range []string{inst.Model, inst.Python} {
		if _, err := os.Stat(f); err != nil {
			return inst, fmt.Errorf("%w: %v", ErrNotInstalled, err)
		}
	}
	return inst, nil
}

// ModelName is the model's name as requests carry it: the GGUF file's base
// name without the extension (e.g. qwen2.5-coder-1.5b-instruct-q4_k_m).
func (i Installation) ModelName() string {
	return strings.TrimSuffix(filepath.Base(i.Model), filepath.Ext(i.Model))
}

// Options configures a Server; zero values take the defaults.
type Options struct {
	// Threads for prompt processing and generation (DefaultThreads).
	Threads int
	// ContextSize is the model's context in tokens, shared by the slots
	// (DefaultContextSize).
	ContextSize int
	// Slots is the number of sequences decoded side by side (DefaultSlots).
	Slots int
	// PromptCacheDir holds the slots' saved states between runs (default:
	// prompt-cache in the installation's directory).
	PromptCacheDir string
	// StartTimeout bounds loading the model (DefaultStartTimeout).
	StartTimeout time.Duration
	// Logf receives the server's start and stop lines; nil discards.
	Logf func(format string, args ...any)
}

// DefaultThreads is the model's threads on a machine with cpus logical
// CPUs: every CPU of a small machine (up to 4: a 2-core laptop waits for
// the model with both cores; measured on 2 quiet CPUs, a formalization took
// 28–34 s with 2 threads against 62–74 s with 1), else half of them, about
// the physical or performance cores, at most 8 (llama.cpp's threads wait
// for each other at every step, so threads beyond the fast cores slow it).
// The server does not busy-wait (serve.py), so on a loaded machine the
// threads yield their CPUs.
func DefaultThreads(cpus int) int {
	if cpus <= 4 {
		return max(cpus, 1)
	}
	return min(cpus/2, 8)
}

// Server is the local model server, started on demand. It implements
// llm.Endpoint. It is safe for concurrent use.
type Server struct {
	inst Installation
	opts Options

	mu     sync.Mutex
	proc   *process
	closed bool
}

// New returns a server for inst; nothing starts until Start or BaseURL.
func New(inst Installation, opts Options) *Server {
	if opts.Threads <= 0 {
		opts.Threads = DefaultThreads(runtime.NumCPU())
	}
	if opts.ContextSize <= 0 {
		opts.ContextSize = DefaultContextSize
	}
	if opts.Slots <= 0 {
		opts.Slots = DefaultSlots
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	return &Server{inst: inst, opts: opts}
}

// Installation returns what the server runs.
func (s *Server) Installation() Installation { return s.inst }

// process is one run of the server.
type process struct {
	child *proc.Child
	stdin *os.File // drift-lsp's end of the server's standard input
	url   string
	done  chan struct{} // closed when the process has exited
	err   error         // its exit status, once done
	out   *tail
}

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// ErrClosed means the server was closed.
var ErrClosed = errors.New("local model: closed")

// Start makes the server ready: it returns at once when it runs and answers
// its health check, else (first use, after a crash or a hang) starts it and
// waits until the model is loaded, reporting progress lines.
func (s *Server) Start(ctx context.Context, progress func(string)) error {
	_, err := s.ensure(ctx, progress, true)
	return err
}

// BaseURL returns the server's base URL ("http://127.0.0.1:PORT/v1"),
// starting it when it is not running (first use, or after it exited).
func (s *Server) BaseURL(ctx context.Context) (string, error) {
	return s.ensure(ctx, nil, false)
}

func (s *Server) ensure(ctx context.Context, progress func(string), probe bool) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", ErrClosed
	}
	if p := s.proc; p != nil {
		switch {
		case p.exited():
			s.logf("local model: the server (pid %d) exited (%v); starting it again", p.child.Pid(), p.err)
			s.proc = nil
		case probe && !healthy(ctx, p.url, 10*time.Second):
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			s.logf("local model: the server (pid %d) does not answer its health check; restarting it", p.child.Pid())
			p.stop()
			s.proc = nil
		default:
			return p.url + "/v1", nil
		}
	}
	if progress == nil {
		progress = func(string) {}
	}
	progress(fmt.Sprintf("Starting the local model (%s)…", s.inst.ModelName()))
	start := time.Now()
	p, err := s.spawn()
	if err != nil {
		return "", err
	}
	if err := s.waitReady(ctx, p); err != nil {
		p.stop()
		return "", err
	}
	s.restoreSlots(ctx, p)
	s.proc = p
	msg := fmt.Sprintf("Local model ready in %.1fs", time.Since(start).Seconds())
	progress(msg)
	s.logf("local model: %s (pid %d, %s)", msg, p.child.Pid(), p.url)
	return p.url + "/v1", nil
}

// spawn starts the server process on a free loopback port.
func (s *Server) spawn() (*process, error) {
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("local model: no free port: %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(s.inst.Python, append([]string{"-c", serveScript}, s.serverArgs(port)...)...)
	cmd.Dir = s.inst.Dir
	cmd.Stdin = r
	out := &tail{max: 4096}
	cmd.Stdout, cmd.Stderr = out, out
	child, err := proc.Start(cmd, 0, s.opts.Logf)
	if err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("local model: starting %s: %v", s.inst.Python, err)
	}
	r.Close()
	p := &process{child: child, stdin: w, url: "http://127.0.0.1:" + strconv.Itoa(port), done: make(chan struct{}), out: out}
	go func() {
		p.err = child.Wait()
		close(p.done)
	}()
	return p, nil
}

// waitReady polls the health endpoint until the model is loaded, the
// process exits, the start-up deadline passes or ctx ends.
func (s *Server) waitReady(ctx context.Context, p *process) error {
	deadline := time.NewTimer(s.opts.StartTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if healthy(ctx, p.url, 2*time.Second) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.done:
			return fmt.Errorf("local model: the server exited during start-up (%v): %s", p.err, p.out.String())
		case <-deadline.C:
			return fmt.Errorf("local model: not ready after %s (model %s): %s", s.opts.StartTimeout, s.inst.Model, p.out.String())
		case <-tick.C:
		}
	}
}

// healthy reports whether the server answers GET /health with 200 (llama.cpp
// answers 503 while the model loads).
func healthy(ctx context.Context, url string, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/health", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// PID returns the running server's process id, 0 when none runs.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil || s.proc.exited() {
		return 0
	}
	return s.proc.child.Pid()
}

// Close stops the server (its whole process group) and waits for it; later
// calls fail with ErrClosed.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.proc != nil {
		if !s.proc.exited() {
			s.saveSlots(s.proc)
		}
		s.proc.stop()
		s.logf("local model: stopped the server (pid %d)", s.proc.child.Pid())
		s.proc = nil
	}
	return nil
}

// stop closes the server's input (it exits on EOF), then terminates its
// process group, killing it after a grace period.
func (p *process) stop() {
	p.stdin.Close()
	p.child.Terminate()
	select {
	case <-p.done:
	case <-time.After(3 * time.Second):
		p.child.Kill()
		<-p.done
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// tail keeps the last max bytes written to it (the server's log, for error
// messages).
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

// Write appends p, dropping the oldest bytes past max.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// String returns the last lines, on one line.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	s := strings.Join(lines, " | ")
	if s == "" {
		return "no output"
	}
	return s
}
