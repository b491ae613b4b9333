package lsp

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

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

// progress is one work-done progress session; without client support it
// only logs.
type progress struct {
	s     *server
	token protocol.ProgressToken
	key   string
	live  bool
	ended bool
	mu    sync.Mutex
}

// tokenKey is the job manager's key of a progress token, "" for none.
func tokenKey(t protocol.ProgressToken) string {
	switch t := t.(type) {
	case protocol.String:
		return "s:" + string(t)
	case protocol.Integer:
		return fmt.Sprintf("n:%d", int64(t))
	}
	return ""
}

// WorkDoneProgressCancel implements protocol.Server: it cancels the job
// reporting on the token.
func (s *server) WorkDoneProgressCancel(ctx context.Context, p *protocol.WorkDoneProgressCancelParams) error {
	if k := tokenKey(p.Token); k != "" {
		s.jobs.cancelToken(k)
	}
	return nil
}

// newProgress starts work-done progress: on the client's token when the
// request carried one, else on a token the server creates.
func (s *server) newProgress(ctx context.Context, clientToken protocol.ProgressToken, title string, cancellable bool) *progress {
	p := &progress{s: s}
	s.mu.Lock()
	supported := s.caps.workDoneProgress
	s.tokens++
	n := s.tokens
	s.mu.Unlock()
	if k := tokenKey(clientToken); k != "" {
		p.token, p.key, p.live = clientToken, k, true
	} else {
		if supported {
			tok := protocol.String(fmt.Sprintf("drift/%d", n))
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := s.client.WorkDoneProgressCreate(cctx, &protocol.WorkDoneProgressCreateParams{Token: tok})
			cancel()
			if err == nil {
				p.token, p.key, p.live = tok, "s:"+string(tok), true
			} else {
				s.log.Debugf("drift: window/workDoneProgress/create: %v", err)
			}
		}
	}
	s.log.Infof("drift: %s", title)
	if p.live {
		p.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: title, Cancellable: &cancellable, Message: ptr("Starting…")})
	}
	return p
}

func ptr[T any](v T) *T { return &v }

func (p *progress) send(v any) {
	b, err := protocol.Marshal(v)
	if err != nil {
		return
	}
	_ = p.s.client.Progress(context.Background(), &protocol.ProgressParams{Token: p.token, Value: b})
}

// report sends a progress message; pct < 0 leaves the percentage out.
func (p *progress) report(msg string, pct int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.s.log.Debugf("drift: progress: %s", msg)
	if !p.live {
		return
	}
	r := &protocol.WorkDoneProgressReport{Kind: "report", Message: &msg}
	if pct >= 0 {
		u := uint32(pct)
		r.Percentage = &u
	}
	p.send(r)
}

// end finishes the progress with a final message.
func (p *progress) end(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	p.s.log.Infof("drift: done: %s", msg)
	if p.live {
		p.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: &msg})
	}
}
