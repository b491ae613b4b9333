package lsp

import (
	"context"
	"sync"
	"time"
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
