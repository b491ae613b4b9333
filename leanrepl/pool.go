package leanrepl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/lake"
	"github.com/drift-lsp/drift-lsp/internal/settings"
)

// Defaults for Config.
const (
	DefaultTimeout       = 60 * time.Second
	DefaultImportTimeout = 10 * time.Minute
	DefaultMemoryLimit   = settings.DefaultREPLMemoryMB << 20 // the setting repl.memoryMB's default: one default
	DefaultRecycleAfter  = 1000
)

// Config configures a Pool of REPL processes.
type Config struct {
	// Command starts one REPL, for example ["lake", "env", "repl"]; empty
	// means FindREPL(Root).
	Command []string
	// Root is the Lake workspace the processes run in.
	Root string
	// LeanCommand runs `lean` for the `lean --json` backend that
	// OpenChecker uses when no REPL is configured or found (the lean.command
	// setting); empty means FindLean(Root).
	LeanCommand []string
	// Env is what FindLean takes from drift-lsp's environment (the zero
	// value: none of it).
	Env Env
	// CacheDir, if set, holds pickled header environments so that a restart
	// unpickles instead of importing again.
	CacheDir string
	// Size is the number of processes (default 1).
	Size int
	// Timeout is the deadline of one request (default 60 s).
	Timeout time.Duration
	// ImportTimeout is the deadline for elaborating a header (default 10 min;
	// `import Mathlib` takes minutes).
	ImportTimeout time.Duration
	// MemoryLimit caps each process's address space in bytes (default
	// DefaultMemoryLimit, 8 GiB; negative disables the limit).
	MemoryLimit int64
	// RecycleAfter restarts a process after this many requests, since the
	// REPL keeps every environment it created (default 1000).
	RecycleAfter int
	// Logf receives lifecycle events; nil discards them.
	Logf func(format string, args ...any)
}

// Pool runs up to Size REPL processes, starts them lazily, restarts dead
// ones, and keeps per process the environment of every header it has seen.
type Pool struct {
	cfg       Config
	slots     chan *worker
	closed    chan struct{}
	closeOnce sync.Once
	mu        sync.Mutex
	workers   []*worker
	// noUnpickle is set once the REPL has refused to unpickle.
	noUnpickle atomic.Bool
}

type worker struct {
	proc     atomic.Pointer[Process]
	headers  map[string]int
	failed   map[string]error
	requests int
}

// HeaderError means the header (imports and opens) did not elaborate, so no
// stub can be checked against it.
type HeaderError struct {
	Messages []Message
}

// Error implements error.
func (e *HeaderError) Error() string {
	var parts []string
	for _, m := range e.Messages {
		parts = append(parts, fmt.Sprintf("%d:%d: %s", m.Pos.Line, m.Pos.Column, firstLine(m.Data)))
	}
	return "the header does not elaborate: " + strings.Join(parts, "; ")
}

// NewPool validates cfg and returns a pool; processes start on first use.
func NewPool(cfg Config) (*Pool, error) {
	if len(cfg.Command) == 0 {
		cmd, err := FindREPL(cfg.Root)
		if err != nil {
			return nil, err
		}
		cfg.Command = cmd
	}
	cfg = cfg.withDefaults()
	p := &Pool{cfg: cfg, slots: make(chan *worker, cfg.Size), closed: make(chan struct{})}
	for i := 0; i < cfg.Size; i++ {
		w := &worker{}
		p.workers = append(p.workers, w)
		p.slots <- w
	}
	return p, nil
}

// withDefaults fills in the defaults of the limits the pool and the
// LeanRunner share.
func (cfg Config) withDefaults() Config {
	if cfg.Size <= 0 {
		cfg.Size = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.ImportTimeout <= 0 {
		cfg.ImportTimeout = DefaultImportTimeout
	}
	if cfg.MemoryLimit == 0 {
		cfg.MemoryLimit = DefaultMemoryLimit
	}
	if cfg.RecycleAfter <= 0 {
		cfg.RecycleAfter = DefaultRecycleAfter
	}
	return cfg
}

// Command returns the command line the pool starts.
func (p *Pool) Command() []string { return append([]string(nil), p.cfg.Command...) }

func (p *Pool) logf(format string, args ...any) {
	if p.cfg.Logf != nil {
		p.cfg.Logf(format, args...)
	}
}

// Session is exclusive use of one process for the duration of a
// Pool.Session callback, with the header's environment in Env.
type Session struct {
	pool *Pool
	w    *worker
	// Env is the environment number of the session's header.
	Env int
}

// Session runs fn with a process whose header environment is ready. It waits
// for a free process (or ctx), starts or restarts it as needed and imports
// the header unless this process already has.
func (p *Pool) Session(ctx context.Context, header string, fn func(*Session) error) error {
	return p.session(ctx, header, nil, fn)
}

// session is Session telling say (when not nil) when it waits for a
// process, starts one, or imports the header.
func (p *Pool) session(ctx context.Context, header string, say func(string), fn func(*Session) error) error {
	if say == nil {
		say = func(string) {}
	}
	var w *worker
	select {
	case w = <-p.slots:
	default:
		say("Waiting for a free Lean REPL…")
	}
	if w == nil {
		select {
		case <-p.closed:
			return ErrClosed
		case <-ctx.Done():
			return ctx.Err()
		case w = <-p.slots:
		}
	}
	defer func() { p.slots <- w }()
	select {
	case <-p.closed:
		return ErrClosed
	default:
	}
	if err := p.ensure(w, say); err != nil {
		return err
	}
	env, err := p.headerEnv(ctx, w, header, say)
	if err != nil {
		return err
	}
	return fn(&Session{pool: p, w: w, Env: env})
}

// ensure gives w a live process.
func (p *Pool) ensure(w *worker, say func(string)) error {
	old := w.proc.Load()
	if old != nil && old.Err() == nil && w.requests < p.cfg.RecycleAfter {
		return nil
	}
	if old != nil {
		reason := old.Err()
		old.Kill()
		if reason == nil {
			reason = fmt.Errorf("recycled after %d requests", w.requests)
		}
		p.logf("leanrepl: restarting the REPL (%v)", reason)
	}
	w.proc.Store(nil)
	w.headers, w.failed, w.requests = map[string]int{}, map[string]error{}, 0
	var lim uint64
	if p.cfg.MemoryLimit > 0 {
		lim = uint64(p.cfg.MemoryLimit)
	}
	say("Starting the Lean REPL…")
	proc, err := StartProcess(ProcessConfig{Command: p.cfg.Command, Dir: p.cfg.Root, MemoryLimit: lim, Logf: p.cfg.Logf})
	if err != nil {
		return err
	}
	w.proc.Store(proc)
	return nil
}

// send runs one request on w with a deadline.
func (p *Pool) send(ctx context.Context, w *worker, req Request, timeout time.Duration) (*Response, error) {
	w.requests++
	return w.proc.Load().Send(ctx, req, timeout)
}

// headerEnv returns the environment of header in w's process, importing or
// unpickling it the first time.
func (p *Pool) headerEnv(ctx context.Context, w *worker, header string, say func(string)) (int, error) {
	if env, ok := w.headers[header]; ok {
		return env, nil
	}
	if err, ok := w.failed[header]; ok {
		return 0, err
	}
	pickle := p.picklePath(header)
	if pickle != "" && !p.noUnpickle.Load() {
		if _, err := os.Stat(pickle); err == nil {
			say("Loading the header's environment…")
			resp, err := p.send(ctx, w, UnpickleEnv{UnpickleEnvFrom: pickle}, p.cfg.ImportTimeout)
			var re *ReplError
			switch {
			case err == nil && resp.Env != nil:
				w.headers[header] = *resp.Env
				p.logf("leanrepl: unpickled the header environment from %s", pickle)
				return *resp.Env, nil
			case errors.As(err, &re):
				// This REPL cannot read its own pickles (an old version):
				// stop pickling rather than fail the same way on every start.
				p.logf("leanrepl: unpickling %s failed (%s); importing instead", pickle, re.Message)
				_ = os.Remove(pickle)
				p.noUnpickle.Store(true)
			case err != nil:
				return 0, p.importErr(err)
			}
		}
	}
	say("Importing the header (seconds to minutes with Mathlib)…")
	resp, err := p.send(ctx, w, Command{Cmd: header}, p.cfg.ImportTimeout)
	if err != nil {
		return 0, p.importErr(err)
	}
	if errs := resp.Errors(); len(errs) > 0 || resp.Env == nil {
		herr := &HeaderError{Messages: errs}
		w.failed[header] = herr
		return 0, herr
	}
	env := *resp.Env
	w.headers[header] = env
	if pickle != "" && !p.noUnpickle.Load() {
		p.pickle(ctx, w, env, pickle)
	}
	return env, nil
}

func (p *Pool) importErr(err error) error {
	if errors.Is(err, ErrTimeout) {
		return &wrapped{msg: fmt.Sprintf("Lean did not finish importing the header in %s", humanDuration(p.cfg.ImportTimeout)), err: ErrTimeout}
	}
	return err
}

// pickle writes env to path through a temporary file, best effort.
func (p *Pool) pickle(ctx context.Context, w *worker, env int, path string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.logf("leanrepl: cache dir: %v", err)
		return
	}
	tmp := fmt.Sprintf("%s.tmp%d.olean", strings.TrimSuffix(path, ".olean"), w.proc.Load().Pid())
	_, err := p.send(ctx, w, PickleEnv{PickleTo: tmp, Env: env}, p.cfg.ImportTimeout)
	if err != nil {
		_ = os.Remove(tmp)
		var re *ReplError
		if errors.As(err, &re) {
			p.noUnpickle.Store(true)
		}
		p.logf("leanrepl: pickling the header environment failed: %v", err)
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		p.logf("leanrepl: %v", err)
		_ = os.Remove(tmp)
	}
}

// picklePath names the pickle of header's environment; it changes whenever
// the header, the REPL command or the workspace's toolchain or manifest
// changes. Empty when there is no cache directory.
func (p *Pool) picklePath(header string) string {
	if p.cfg.CacheDir == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", header, strings.Join(p.cfg.Command, "\x01"), p.cfg.Root)
	hashToolchainFiles(h, p.cfg.Root)
	abs, err := filepath.Abs(p.cfg.CacheDir)
	if err != nil {
		abs = p.cfg.CacheDir
	}
	return filepath.Join(abs, "leanrepl", hex.EncodeToString(h.Sum(nil))[:32]+".olean")
}

// hashToolchainFiles writes the workspace's lean-toolchain and
// lake-manifest.json to h: a cache key changes with either.
func hashToolchainFiles(h io.Writer, root string) {
	for _, f := range []string{"lean-toolchain", "lake-manifest.json"} {
		if b, err := os.ReadFile(filepath.Join(root, f)); err == nil {
			h.Write(b)
		}
		h.Write([]byte{0})
	}
}

// Send runs req in the session's process with the pool's request deadline.
func (s *Session) Send(ctx context.Context, req Request) (*Response, error) {
	return s.pool.send(ctx, s.w, req, s.pool.cfg.Timeout)
}

// Command elaborates cmd in the header's environment.
func (s *Session) Command(ctx context.Context, cmd string) (*Response, error) {
	return s.Send(ctx, Command{Cmd: cmd, Env: Int(s.Env)})
}

// Close kills every process. Sessions in progress fail with ErrClosed.
func (p *Pool) Close() error {
	p.closeOnce.Do(func() {
		close(p.closed)
		p.mu.Lock()
		ws := append([]*worker(nil), p.workers...)
		p.mu.Unlock()
		// Kill running sessions' processes so that they fail at once.
		for _, w := range ws {
			if proc := w.proc.Load(); proc != nil {
				proc.Kill()
			}
		}
		// Wait for every worker to come back, and kill what a session
		// started meanwhile.
		for range ws {
			w := <-p.slots
			if proc := w.proc.Load(); proc != nil {
				proc.Kill()
			}
		}
	})
	return nil
}

// FindREPL looks for a Lean REPL for the workspace at root: a `repl` binary
// built under root/.lake (the workspace itself or one of its packages), then
// `repl` on PATH. When `lake` is on PATH and root is a Lake workspace the
// binary runs under `lake env`, so that it sees the workspace's packages.
func FindREPL(root string) ([]string, error) {
	var bin string
	if root != "" {
		cands := []string{filepath.Join(root, ".lake", "build", "bin", "repl")}
		pkgs, _ := filepath.Glob(filepath.Join(root, ".lake", "packages", "*", ".lake", "build", "bin", "repl"))
		cands = append(cands, pkgs...)
		for _, c := range cands {
			if st, err := os.Stat(c); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
				bin = c
				break
			}
		}
	}
	if bin == "" {
		if path, err := exec.LookPath("repl"); err == nil {
			bin = path
		}
	}
	if bin == "" {
		return nil, fmt.Errorf("%w: no repl binary under %s/.lake or on PATH (build leanprover-community/repl or pass --repl)", ErrNotFound, orDot(root))
	}
	if lakeBin, err := exec.LookPath("lake"); err == nil && root != "" && lake.IsRoot(root) {
		return []string{lakeBin, "env", bin}, nil
	}
	return []string{bin}, nil
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
