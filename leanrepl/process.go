package leanrepl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/proc"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// Failure kinds of a REPL process; errors returned by Process.Send and the
// pool wrap one of them (test with errors.Is).
var (
	// ErrNotFound means the REPL command could not be started at all.
	ErrNotFound = errors.New("Lean REPL not found")
	// ErrTimeout means a request passed its deadline.
	ErrTimeout = errors.New("Lean did not answer in time")
	// ErrDied means the REPL process exited or crashed.
	ErrDied = errors.New("Lean REPL died")
	// ErrGarbage means the REPL printed output that is not a response.
	ErrGarbage = errors.New("Lean REPL printed non-JSON output")
	// ErrOutOfMemory means the REPL process ran out of its memory limit.
	ErrOutOfMemory = errors.New("Lean REPL ran out of memory")
	// ErrClosed means the process or pool was closed.
	ErrClosed = errors.New("Lean REPL closed")
)

// ProcessConfig says how to start one REPL process.
type ProcessConfig struct {
	// Command is the argument vector, for example ["lake", "env", "repl"].
	Command []string
	// Dir is the working directory, normally the Lake workspace root.
	Dir string
	// Env holds extra environment variables ("K=V") added to the current
	// environment.
	Env []string
	// MemoryLimit caps the address space of the process and its children
	// (RLIMIT_AS) in bytes; 0 means no limit.
	MemoryLimit uint64
	// MaxResponse bounds one response in bytes (DefaultMaxResponse if 0).
	MaxResponse int
	// MaxNoise bounds the non-JSON output tolerated while waiting for one
	// response, in bytes (64 KiB if 0).
	MaxNoise int
	// Logf, if set, receives the process's non-JSON output and lifecycle
	// events.
	Logf func(format string, args ...any)
}

// Process is one running REPL. It serves one request at a time; Send is safe
// to call from several goroutines but serialises them.
type Process struct {
	cfg      ProcessConfig
	cmd      *exec.Cmd
	child    *proc.Child
	stdin    *os.File
	stdout   *os.File
	frames   chan frameResult
	exited   chan struct{}
	killed   chan struct{}
	killOnce sync.Once
	stderr   *tailBuffer
	waitErr  error
	// stderrDone is closed when stderr has been read to its end.
	stderrDone chan struct{}

	mu       sync.Mutex // serialises Send
	answered bool       // a response has been read
	stale    int        // responses owed to abandoned (cancelled) requests
	dead     error      // set when the process is unusable
	deadMu   sync.Mutex
}

type frameResult struct {
	f   Frame
	err error
}

// StartProcess starts a REPL process. It does not wait for the REPL to be
// ready; a process that exits at once is reported by the first Send.
func StartProcess(cfg ProcessConfig) (*Process, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, fmt.Errorf("%w: no REPL command configured", ErrNotFound)
	}
	if cfg.MaxResponse <= 0 {
		cfg.MaxResponse = DefaultMaxResponse
	}
	if cfg.MaxNoise <= 0 {
		cfg.MaxNoise = 64 << 10
	}
	path, err := exec.LookPath(cfg.Command[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrNotFound, cfg.Command[0], err)
	}
	cmd := childCommand(path, cfg.Command[1:], cfg.Dir, cfg.Env)

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("leanrepl: pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("leanrepl: pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("leanrepl: pipe: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	child, err := proc.Start(cmd, cfg.MemoryLimit, cfg.Logf)
	if err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return nil, fmt.Errorf("%w: starting %s: %v", ErrNotFound, strings.Join(cfg.Command, " "), err)
	}
	inR.Close()
	outW.Close()
	errW.Close()
	p := &Process{
		cfg:    cfg,
		cmd:    cmd,
		child:  child,
		stdin:  inW,
		stdout: outR,
		frames: make(chan frameResult, 16),
		exited: make(chan struct{}),
		killed: make(chan struct{}),
		stderr: &tailBuffer{max: 8 << 10},

		stderrDone: make(chan struct{}),
	}
	go p.readLoop()
	go func() {
		_, _ = io.Copy(p.stderr, errR)
		errR.Close()
		close(p.stderrDone)
	}()
	go func() {
		p.waitErr = child.Wait()
		close(p.exited)
	}()
	p.logf("leanrepl: started %s (pid %d)", strings.Join(cfg.Command, " "), cmd.Process.Pid)
	return p, nil
}

// childCommand returns the command that runs path with args in dir, with
// env added to the environment, for proc.Start. The child inherits
// drift-lsp's whole environment (PATH, the toolchain's variables): that is
// inheritance, not a setting, which internal/settings alone reads.
func childCommand(path string, args []string, dir string, env []string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

func (p *Process) logf(format string, args ...any) {
	if p.cfg.Logf != nil {
		p.cfg.Logf(format, args...)
	}
}

func (p *Process) readLoop() {
	defer p.stdout.Close()
	dec := NewDecoder(p.stdout)
	dec.MaxResponse = p.cfg.MaxResponse
	for {
		f, err := dec.Next()
		select {
		case p.frames <- frameResult{f, err}:
		case <-p.killed:
			return
		}
		if err != nil {
			return
		}
	}
}

// Pid returns the process id (also the process group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Err returns why the process is unusable, or nil while it is healthy.
func (p *Process) Err() error {
	p.deadMu.Lock()
	defer p.deadMu.Unlock()
	return p.dead
}

func (p *Process) setDead(err error) {
	p.deadMu.Lock()
	if p.dead == nil {
		p.dead = err
	}
	p.deadMu.Unlock()
}

// Kill kills the process and its process group and waits for it to exit.
// It is safe to call more than once.
func (p *Process) Kill() {
	p.setDead(ErrClosed)
	p.killOnce.Do(func() {
		close(p.killed)
		p.child.Kill()
		p.stdin.Close()
		p.stdout.Close()
	})
	<-p.exited
}

// Close is Kill: the REPL holds no state worth a graceful shutdown.
func (p *Process) Close() error {
	p.Kill()
	return nil
}

// Send writes req and waits for its response, at most timeout (no limit if
// timeout <= 0). A `{"message": …}` answer returns the response together
// with a *ReplError. A timeout, crash, garbage output or memory exhaustion
// kills the process (Err then reports why) and returns an error wrapping
// ErrTimeout, ErrDied, ErrGarbage or ErrOutOfMemory. When ctx is cancelled
// Send returns at once; the process stays usable and the abandoned answer is
// skipped by the next Send.
func (p *Process) Send(ctx context.Context, req Request, timeout time.Duration) (*Response, error) {
	data, err := EncodeRequest(req)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.Err(); err != nil {
		return nil, err
	}
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	written := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(data)
		written <- err
	}()
	noise := 0
	var lastNoise []string
	for {
		select {
		case err := <-written:
			written = nil
			if err != nil {
				// A closed input almost always means the REPL exited (for
				// example a command that was not found): report its exit
				// status and stderr, as when its output ends.
				return nil, p.fail(p.streamError(io.EOF))
			}
		case fr := <-p.frames:
			if fr.err != nil {
				return nil, p.fail(p.streamError(fr.err))
			}
			if fr.f.JSON == nil {
				p.logf("leanrepl: non-JSON output: %s", fr.f.Noise)
				noise += len(fr.f.Noise) + 1
				lastNoise = append(lastNoise, fr.f.Noise)
				if len(lastNoise) > 3 {
					lastNoise = lastNoise[1:]
				}
				if noise > p.cfg.MaxNoise {
					return nil, p.fail(fmt.Errorf("%w: %q", ErrGarbage, strings.Join(lastNoise, "\n")))
				}
				continue
			}
			p.answered = true
			if p.stale > 0 {
				p.stale--
				continue
			}
			var resp Response
			if err := json.Unmarshal(fr.f.JSON, &resp); err != nil {
				return nil, p.fail(fmt.Errorf("%w: the response does not fit the protocol: %v: %q", ErrGarbage, err, textcut.CutBytes(string(fr.f.JSON), 200)))
			}
			if resp.Message != "" && resp.Env == nil && resp.ProofState == nil {
				return &resp, &ReplError{Message: resp.Message}
			}
			return &resp, nil
		case <-p.killed:
			return nil, p.Err()
		case <-deadline:
			msg := fmt.Sprintf("Lean did not answer in %s", humanDuration(timeout))
			if len(lastNoise) > 0 {
				msg += fmt.Sprintf(" (it printed non-JSON output: %q)", strings.Join(lastNoise, "\n"))
			}
			return nil, p.fail(&wrapped{msg: msg, err: ErrTimeout})
		case <-ctx.Done():
			// The REPL cannot be interrupted; leave it working and skip its
			// answer later rather than pay for a restart.
			p.stale++
			if written != nil {
				// The request may be half-written; the stream is unusable.
				return nil, p.fail(fmt.Errorf("%w: cancelled while sending: %v", ErrClosed, ctx.Err()))
			}
			return nil, ctx.Err()
		}
	}
}

// wrapped is an error with its own text that still matches err.
type wrapped struct {
	msg string
	err error
}

// Error implements error.
func (w *wrapped) Error() string { return w.msg }

// Unwrap returns the failure kind.
func (w *wrapped) Unwrap() error { return w.err }

// fail kills the process, records err as the reason it is unusable and
// returns err.
func (p *Process) fail(err error) error {
	p.setDead(err)
	p.Kill()
	p.logf("leanrepl: killed pid %d: %v", p.Pid(), err)
	return err
}

// streamError turns an end or corruption of stdout into an error that says
// what happened to the process.
func (p *Process) streamError(err error) error {
	switch {
	case errors.Is(err, ErrMalformed), errors.Is(err, ErrTooLarge):
		return fmt.Errorf("%w: %v", ErrGarbage, err)
	}
	// stdout ended: wait briefly for the exit status.
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
		p.child.Kill()
		<-p.exited
	}
	// All of stderr, unless a child that outlived the process holds it open.
	select {
	case <-p.stderrDone:
	case <-time.After(time.Second):
	}
	status := "closed its output"
	if p.waitErr != nil {
		status = p.waitErr.Error()
	} else if p.cmd.ProcessState != nil {
		status = p.cmd.ProcessState.String()
	}
	tail := strings.TrimSpace(p.stderr.String())
	if isOOM(tail) {
		lim := ""
		if p.cfg.MemoryLimit > 0 {
			lim = fmt.Sprintf(" (limit %s)", humanBytes(p.cfg.MemoryLimit))
		}
		return fmt.Errorf("%w%s: %s: %s", ErrOutOfMemory, lim, status, oomLine(tail))
	}
	what := "exited"
	switch {
	case errors.Is(err, ErrTruncated):
		what = "crashed in the middle of a response"
	case !p.answered:
		what = "exited at start"
	}
	msg := fmt.Sprintf("%s: %s (%s)", ErrDied.Error(), what, status)
	if !errors.Is(err, io.EOF) && !errors.Is(err, ErrTruncated) {
		msg += fmt.Sprintf(": %v", err)
	}
	if tail != "" {
		msg += "; stderr: " + lastLines(tail, 5)
	}
	return &wrapped{msg: msg, err: ErrDied}
}

func isOOM(stderr string) bool {
	s := strings.ToLower(stderr)
	for _, k := range []string{"out of memory", "bad_alloc", "cannot allocate memory", "memory exhausted"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// oomLine returns the first line of stderr that reports memory exhaustion.
func oomLine(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if isOOM(l) {
			return strings.TrimSpace(l)
		}
	}
	return lastLines(stderr, 1)
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

func humanDuration(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", int(d/time.Minute))
	}
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", int(d/time.Second))
	}
	return d.String()
}

func humanBytes(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tailBuffer keeps the first and the last max bytes written to it.
type tailBuffer struct {
	mu   sync.Mutex
	head []byte
	buf  []byte
	max  int
}

// Write implements io.Writer.
func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if room := t.max - len(t.head); room > 0 {
		k := min(room, len(b))
		t.head = append(t.head, b[:k]...)
		b = b[k:]
	}
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return n, nil
}

// String returns the kept output, valid UTF-8.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(bytes.ToValidUTF8(t.head, []byte("?")))
	if len(t.buf) > 0 {
		s += "\n…\n" + string(bytes.ToValidUTF8(t.buf, []byte("?")))
	}
	return s
}
