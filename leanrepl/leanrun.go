package leanrepl

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/proc"
)

// The names of the two ways Lean runs, as reports give them.
const (
	// BackendREPL is the Lean REPL (leanprover-community/repl) of a Pool.
	BackendREPL = "repl"
	// BackendLean is `lean --json` on a temporary file, run by a LeanRunner.
	BackendLean = "lean"
)

// DefaultLeanCacheSize is the number of `lean --json` results a LeanRunner
// keeps.
const DefaultLeanCacheSize = 256

// LeanRunner checks commands by writing header and command to a temporary
// file and running the toolchain's `lean --json` on it: the backend used when
// no Lean REPL is available. Each run imports the header again (seconds to
// minutes for `import Mathlib`), so results are cached by (toolchain,
// header, command) and at most Config.Size runs happen at once. Runs get the
// pool's deadlines, memory limit, process-group kill and cancellation.
type LeanRunner struct {
	tc    *Toolchain
	cfg   Config
	sem   chan struct{}
	salt  string // the toolchain's identity, part of every cache key
	mu    sync.Mutex
	cache map[string]*leanResult
	order []string // cache keys, oldest first
}

// leanResult is a cached run: its messages, or the header's errors.
type leanResult struct {
	resp      *Response
	headerErr *HeaderError
}

// NewLeanRunner returns a runner for tc with cfg's Size (concurrent runs,
// default 1), Timeout, ImportTimeout, MemoryLimit and Logf; cfg.Command and
// cfg.Root are not used (tc says what to run, and where).
func NewLeanRunner(tc *Toolchain, cfg Config) *LeanRunner {
	cfg = cfg.withDefaults()
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", strings.Join(tc.Command, "\x01"), strings.Join(tc.Env, "\x01"), tc.Dir)
	hashToolchainFiles(h, tc.Dir)
	return &LeanRunner{tc: tc, cfg: cfg, sem: make(chan struct{}, cfg.Size), salt: string(h.Sum(nil)), cache: map[string]*leanResult{}}
}

// Toolchain returns what the runner runs.
func (r *LeanRunner) Toolchain() *Toolchain { return r.tc }

func (r *LeanRunner) logf(format string, args ...any) {
	if r.cfg.Logf != nil {
		r.cfg.Logf(format, args...)
	}
}

// Deadline is how long one run may take: ImportTimeout plus Timeout, since
// each run imports the header again before it checks the command.
func (r *LeanRunner) Deadline() time.Duration {
	return r.cfg.ImportTimeout + r.cfg.Timeout
}

// Run elaborates cmd after header and returns Lean's messages about cmd, in
// a Response whose positions are relative to cmd (as the REPL gives them).
// Errors in the header give a *HeaderError. A run that passes its deadline
// fails with ErrTimeout, one that crashes or prints no verdict with ErrDied
// (ErrOutOfMemory when it ran out of memory), output over MaxResponse with
// ErrGarbage; each kills lean's process group. When ctx ends the run is
// killed and ctx.Err() returned.
func (r *LeanRunner) Run(ctx context.Context, header, cmd string) (*Response, error) {
	return r.run(ctx, header, cmd, nil)
}

// run is Run telling say (when not nil) when it waits for a free run and
// when lean starts.
func (r *LeanRunner) run(ctx context.Context, header, cmd string, say func(string)) (*Response, error) {
	if say == nil {
		say = func(string) {}
	}
	key := r.key(header, cmd)
	if res, ok := r.cached(key); ok {
		r.logf("leanrepl: lean result from the cache")
		say("Lean's result from the cache (same toolchain, header and stub)")
		return res.unpack()
	}
	select {
	case r.sem <- struct{}{}:
	default:
		say("Waiting for a running lean check to finish…")
		select {
		case r.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	defer func() { <-r.sem }()
	if res, ok := r.cached(key); ok {
		// An identical check finished while this one waited.
		return res.unpack()
	}
	say("Running lean --json (each run imports the header again: seconds to minutes with Mathlib)…")
	msgs, err := r.runLean(ctx, header, cmd)
	if err != nil {
		return nil, err
	}
	res := splitHeader(header, msgs)
	r.store(key, res)
	return res.unpack()
}

// unpack returns the run's messages, or the header's errors.
func (res *leanResult) unpack() (*Response, error) {
	if res.headerErr != nil {
		return nil, res.headerErr
	}
	return res.resp, nil
}

func (r *LeanRunner) key(header, cmd string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", r.salt, header, cmd)
	return hex.EncodeToString(h.Sum(nil))
}

func (r *LeanRunner) cached(key string) (*leanResult, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res, ok := r.cache[key]
	return res, ok
}

func (r *LeanRunner) store(key string, res *leanResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.cache[key]; ok {
		return
	}
	r.cache[key] = res
	r.order = append(r.order, key)
	for len(r.order) > DefaultLeanCacheSize {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
}

// leanFile is the text lean checks: the header, a line break, the command.
func leanFile(header, cmd string) string {
	if header == "" {
		return cmd
	}
	return header + "\n" + cmd
}

// headerLines is the number of lines the header takes in leanFile.
func headerLines(header string) int {
	if header == "" {
		return 0
	}
	return strings.Count(header, "\n") + 1
}

// splitHeader turns file positions into command positions, and errors in
// the header into a *HeaderError (its warnings are dropped).
func splitHeader(header string, msgs []Message) *leanResult {
	n := headerLines(header)
	resp := &Response{}
	var herr []Message
	for _, m := range msgs {
		if m.Pos.Line <= n {
			if m.Severity == "error" {
				herr = append(herr, m)
			}
			continue
		}
		resp.Messages = append(resp.Messages, shiftPos(m, n))
	}
	if len(herr) > 0 {
		return &leanResult{headerErr: &HeaderError{Messages: herr}}
	}
	return &leanResult{resp: resp}
}

// leanJSONMessage is one line of `lean --json`: positions have a 1-based
// line and a 0-based column in code points; endPos may be null.
// (fileName, kind, caption and the flags are not used.)
type leanJSONMessage struct {
	Pos      *Pos   `json:"pos"`
	EndPos   *Pos   `json:"endPos"`
	Severity string `json:"severity"`
	Data     string `json:"data"`
}

// decodeLeanLine decodes one line of `lean --json` output; ok is false for
// lines that are not messages (lake's progress lines, for instance).
func decodeLeanLine(line []byte) (Message, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return Message{}, false
	}
	var jm leanJSONMessage
	if err := json.Unmarshal(line, &jm); err != nil || jm.Pos == nil || jm.Severity == "" {
		return Message{}, false
	}
	sev := jm.Severity
	if sev == "information" {
		sev = "info" // the REPL's word
	}
	return Message{Severity: sev, Pos: *jm.Pos, EndPos: jm.EndPos, Data: jm.Data}, true
}

// runLean writes the file, runs lean on it and returns its messages (file
// positions).
func (r *LeanRunner) runLean(ctx context.Context, header, cmd string) ([]Message, error) {
	f, err := os.CreateTemp("", "drift-check-*.lean")
	if err != nil {
		return nil, fmt.Errorf("leanrepl: temporary file: %w", err)
	}
	defer os.Remove(f.Name())
	_, werr := f.WriteString(leanFile(header, cmd))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("leanrepl: writing %s: %w", f.Name(), werr)
	}
	path, err := exec.LookPath(r.tc.Command[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrLeanNotFound, r.tc.Command[0], err)
	}
	args := append(append([]string(nil), r.tc.Command[1:]...), "--json", f.Name())
	c := childCommand(path, args, r.tc.Dir, r.tc.Env)
	stdout, err := c.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("leanrepl: pipe: %w", err)
	}
	stderr := &tailBuffer{max: 8 << 10}
	c.Stderr = stderr
	// A grandchild that escaped the kill must not keep Wait waiting for
	// the end of its output.
	c.WaitDelay = 2 * time.Second
	start := time.Now()
	var lim uint64
	if r.cfg.MemoryLimit > 0 {
		lim = uint64(r.cfg.MemoryLimit)
	}
	line := strings.Join(c.Args, " ")
	child, err := proc.Start(c, lim, r.logf)
	if err != nil {
		return nil, fmt.Errorf("%w: starting %s: %v", ErrLeanNotFound, r.tc, err)
	}
	r.logf("leanrepl: started %s (pid %d)", line, child.Pid())

	type output struct {
		msgs  []Message
		noise []string
		err   error
	}
	done := make(chan output, 1)
	go func() {
		var o output
		// The limit keeps one endless line from taking all memory.
		br := bufio.NewReaderSize(io.LimitReader(stdout, DefaultMaxResponse+1), 64<<10)
		total := 0
		for {
			line, err := br.ReadBytes('\n')
			total += len(line)
			if total > DefaultMaxResponse {
				// Stop reading: lean blocks on its output until it is killed.
				o.err = fmt.Errorf("%w: lean printed more than %s", ErrGarbage, humanBytes(DefaultMaxResponse))
				break
			}
			if m, ok := decodeLeanLine(line); ok {
				o.msgs = append(o.msgs, m)
			} else if t := strings.TrimSpace(string(line)); t != "" {
				o.noise = append(o.noise, t)
				if len(o.noise) > 3 {
					o.noise = o.noise[1:]
				}
			}
			if err != nil {
				break
			}
		}
		done <- o
	}()
	deadline := r.Deadline()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	var out output
	select {
	case out = <-done:
	case <-timer.C:
		child.Kill()
		_ = child.Wait()
		<-done
		return nil, &wrapped{msg: fmt.Sprintf("Lean (lean --json) did not finish in %s", humanDuration(deadline)), err: ErrTimeout}
	case <-ctx.Done():
		child.Kill()
		_ = child.Wait()
		<-done
		return nil, ctx.Err()
	}
	if out.err != nil {
		child.Kill()
		_ = child.Wait()
		return nil, out.err
	}
	waitErr := child.Wait()
	r.logf("leanrepl: lean finished in %s: %v", time.Since(start).Round(time.Millisecond), waitErr)
	if err := leanExit(c, waitErr, out.msgs, out.noise, stderr.String(), lim); err != nil {
		return nil, err
	}
	return out.msgs, nil
}

// leanExit says whether lean's exit is a verdict: status 0, or 1 with at
// least one error message. Anything else (a signal, another status, status
// 1 without an error, which is how lean reports a file it cannot read or an
// import it cannot find on stderr) is a failure, never a success.
func leanExit(c *exec.Cmd, waitErr error, msgs []Message, noise []string, stderr string, limit uint64) error {
	code := -1
	if c.ProcessState != nil {
		code = c.ProcessState.ExitCode()
	}
	hasError := false
	for _, m := range msgs {
		if m.Severity == "error" {
			hasError = true
		}
	}
	if code == 0 || (code == 1 && hasError) {
		return nil
	}
	status := "exit status unknown"
	if waitErr != nil {
		status = waitErr.Error()
	} else if c.ProcessState != nil {
		status = c.ProcessState.String()
	}
	tail := strings.TrimSpace(stderr)
	// Under an address-space limit Lean's runtime fails to map thread
	// stacks before anything else: that is running out of memory too.
	if isOOM(tail) || limit > 0 && strings.Contains(tail, "failed to create thread") {
		lim := ""
		if limit > 0 {
			lim = fmt.Sprintf(" (limit %s)", humanBytes(limit))
		}
		return &wrapped{msg: fmt.Sprintf("Lean (lean --json) ran out of memory%s: %s: %s", lim, status, oomLine(tail)), err: ErrOutOfMemory}
	}
	what := "crashed"
	if code == 1 {
		what = "failed without reporting an error"
	}
	msg := fmt.Sprintf("Lean (lean --json) %s (%s)", what, status)
	if tail != "" {
		msg += "; stderr: " + lastLines(tail, 5)
	}
	if len(noise) > 0 {
		msg += "; output: " + strings.Join(noise, " | ")
	}
	return &wrapped{msg: msg, err: ErrDied}
}
