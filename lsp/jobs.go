package lsp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/drift-lsp/drift-lsp/internal/progress"
)

// runJob runs one background action to its end.
func (s *server) runJob(ctx context.Context, cmd string, a actionArgs, token protocol.ProgressToken) (any, error) {
	doc := s.snapshot(a.URI)
	var t Target
	var ok bool
	if doc == nil {
		s.showMessage(protocol.MessageTypeWarning, "DRIFT: the document is not open.")
		return nil, nil
	}
	if cmd == cmdCheck {
		var start, end int
		start, end, ok = findDecl(doc, a.Range.span().Start.Line)
		if ok {
			t = Target{Kind: "declaration", Start: start, End: end, Raw: doc.Text[start:end]}
		}
	} else {
		t, ok = resolveTarget(doc, a)
	}
	title := map[string]string{cmdFormalize: titleFormalize, cmdPremises: titlePremises, cmdCheck: titleCheck}[cmd]
	if !ok {
		s.showMessage(protocol.MessageTypeWarning, "DRIFT: "+title+": no comment, selection or theorem here.")
		return nil, nil
	}
	key := cmd + "\x00" + a.URI + "\x00" + t.Raw
	j, jctx := s.jobs.start(ctx, key)
	defer s.jobs.finish(j)
	prog := s.newProgress(jctx, token, "DRIFT: "+title, true)
	if prog.key != "" {
		s.jobs.setToken(j, prog.key)
	}
	if !s.jobs.acquire(jctx, func(n int) { prog.report(fmt.Sprintf("Queued behind %d running job(s)…", n), -1) }) {
		return s.jobStopped(ctx, j, prog, title)
	}
	defer s.jobs.release()
	b, err := s.waitBackend(jctx, prog)
	if err == nil {
		var summary string
		switch cmd {
		case cmdFormalize:
			summary, err = s.formalize(jctx, b, doc, t, prog)
		case cmdPremises:
			summary, err = s.findPremises(jctx, b, doc, t, prog)
		case cmdCheck:
			summary, err = s.check(jctx, b, doc, t, prog)
		}
		if err == nil {
			prog.end(summary)
			return nil, nil
		}
	}
	if jctx.Err() != nil {
		return s.jobStopped(ctx, j, prog, title)
	}
	if errors.Is(err, errRefused) {
		prog.end("Not applied: the text changed")
		return nil, nil
	}
	prog.end("Failed: " + firstLine(err.Error()))
	s.log.Errorf("drift: %s failed: %v", title, err)
	s.showMessage(protocol.MessageTypeError, "DRIFT: "+title+" failed: "+firstLine(err.Error()))
	return nil, nil
}

// jobStopped ends a cancelled or replaced job.
func (s *server) jobStopped(ctx context.Context, j *job, prog *workDone, title string) (any, error) {
	if s.jobs.isReplaced(j) {
		prog.end("Replaced by a newer request")
		return nil, nil
	}
	prog.end("Cancelled")
	s.log.Infof("drift: %s cancelled", title)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, nil
}

// waitBackend waits until the backend's index is ready, reporting
// "indexing, N%" meanwhile.
func (s *server) waitBackend(ctx context.Context, prog *workDone) (Backend, error) {
	if s.opts.Open == nil {
		return nil, errors.New("no library index is configured in this server")
	}
	last := ""
	for {
		b := s.currentBackend()
		if b != nil {
			st := b.Status()
			if st.Ready {
				return b, nil
			}
			if st.Err != nil {
				return nil, fmt.Errorf("library index failed: %w", st.Err)
			}
			if msg := fmt.Sprintf("Waiting for the library index: indexing, %d%%", st.Percent()); msg != last {
				prog.report(msg, -1)
				last = msg
			}
		} else if last == "" {
			last = "Waiting for the library index…"
			prog.report(last, -1)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// progressFunc turns pipeline and checker events into progress reports.
func progressFunc(prog *workDone) progress.Func {
	return func(ev progress.Event) {
		msg := ev.Message
		if msg == "" {
			msg = ev.Stage
		}
		prog.report(msg, ev.Percent())
	}
}

// job is one background action (formalize, find premises, check).
type job struct {
	key    string
	cancel context.CancelFunc
	done   chan struct{}
	token  string
	// replaced is set when a newer request for the same comment took over.
	replaced bool
}

// jobManager runs background jobs: one per key (a newer job for the same
// comment cancels the older one), at most limit at once, each cancellable by
// its progress token.
type jobManager struct {
	mu      sync.Mutex
	limit   int
	running int
	wake    chan struct{}
	byKey   map[string]*job
	byToken map[string]*job
	all     map[*job]bool
}

func newJobManager(limit int) *jobManager {
	if limit < 1 {
		limit = 1
	}
	return &jobManager{limit: limit, wake: make(chan struct{}), byKey: map[string]*job{}, byToken: map[string]*job{}, all: map[*job]bool{}}
}

func (m *jobManager) setLimit(n int) {
	if n < 1 {
		n = 1
	}
	m.mu.Lock()
	m.limit = n
	close(m.wake)
	m.wake = make(chan struct{})
	m.mu.Unlock()
}

// start registers a job under key, cancelling the job that held the key
// before. The returned context is cancelled by cancel, by a newer job for
// the same key, or by cancelAll.
func (m *jobManager) start(ctx context.Context, key string) (*job, context.Context) {
	jctx, cancel := context.WithCancel(ctx)
	j := &job{key: key, cancel: cancel, done: make(chan struct{})}
	m.mu.Lock()
	if old := m.byKey[key]; old != nil {
		old.replaced = true
		old.cancel()
	}
	m.byKey[key] = j
	m.all[j] = true
	m.mu.Unlock()
	return j, jctx
}

// setToken makes the job cancellable through its progress token.
func (m *jobManager) setToken(j *job, token string) {
	m.mu.Lock()
	j.token = token
	m.byToken[token] = j
	m.mu.Unlock()
}

// acquire waits for a free slot; it returns false when ctx ends first.
func (m *jobManager) acquire(ctx context.Context, waiting func(running int)) bool {
	told := false
	for {
		m.mu.Lock()
		if m.running < m.limit {
			m.running++
			m.mu.Unlock()
			return true
		}
		wake, running := m.wake, m.running
		m.mu.Unlock()
		if !told && waiting != nil {
			waiting(running)
			told = true
		}
		select {
		case <-ctx.Done():
			return false
		case <-wake:
		}
	}
}

// release frees a slot taken by acquire.
func (m *jobManager) release() {
	m.mu.Lock()
	m.running--
	close(m.wake)
	m.wake = make(chan struct{})
	m.mu.Unlock()
}

// finish unregisters j.
func (m *jobManager) finish(j *job) {
	m.mu.Lock()
	if m.byKey[j.key] == j {
		delete(m.byKey, j.key)
	}
	if j.token != "" && m.byToken[j.token] == j {
		delete(m.byToken, j.token)
	}
	delete(m.all, j)
	m.mu.Unlock()
	j.cancel()
	close(j.done)
}

// isReplaced reports whether a newer job took j's key.
func (m *jobManager) isReplaced(j *job) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return j.replaced
}

func (m *jobManager) cancelToken(token string) {
	m.mu.Lock()
	j := m.byToken[token]
	m.mu.Unlock()
	if j != nil {
		j.cancel()
	}
}

func (m *jobManager) cancelAll() {
	m.mu.Lock()
	for j := range m.all {
		j.cancel()
	}
	m.mu.Unlock()
}

// wait waits up to d for all jobs to finish.
func (m *jobManager) wait(d time.Duration) {
	deadline := time.After(d)
	for {
		m.mu.Lock()
		var j *job
		for x := range m.all {
			j = x
			break
		}
		m.mu.Unlock()
		if j == nil {
			return
		}
		select {
		case <-j.done:
		case <-deadline:
			return
		}
	}
}
