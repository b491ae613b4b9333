package lsp

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// workDone is one work-done progress session; without client support it
// only logs.
type workDone struct {
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
func (s *server) newProgress(ctx context.Context, clientToken protocol.ProgressToken, title string, cancellable bool) *workDone {
	p := &workDone{s: s}
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

func (p *workDone) send(v any) {
	b, err := protocol.Marshal(v)
	if err != nil {
		return
	}
	_ = p.s.client.Progress(context.Background(), &protocol.ProgressParams{Token: p.token, Value: b})
}

// report sends a progress message; pct < 0 leaves the percentage out.
func (p *workDone) report(msg string, pct int) {
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
func (p *workDone) end(msg string) {
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
