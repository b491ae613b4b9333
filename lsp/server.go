// Package lsp is drift-lsp's language server: it speaks LSP over stdio next
// to the Lean server, offers "Formalize with DRIFT", "Find premises and
// examples" and "Check this theorem" code actions on comments and
// declarations, runs them as cancellable background jobs with work-done
// progress, applies their results with workspace/applyEdit, and answers
// workspace/symbol from the library index. It is the protocol edge: the only
// package that uses the go.lsp.dev wire types, on the library's typed
// protocol.Server (this package implements it) and protocol.Client (the
// outbound calls). What the server acts on is behind the Backend interface,
// which cmd/internal/app implements.
//
// The files follow the features: server.go (connection and dispatch
// guard), lifecycle.go (initialize … exit, the backend's owner goroutine,
// the client's process), textsync.go (document sync), docstate.go (what is
// kept per document), text.go (a document's text), target.go (the comment,
// selection or theorem an action works on), settings.go, hover.go,
// definition.go, completion.go, codeaction.go, commands.go (the drift.*
// commands), jobs.go (running them in the background), edits.go (applying
// their results), symbols.go, diagnostics.go and progress.go.
package lsp

import (
	"context"
	"errors"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Options configure Serve.
type Options struct {
	// Open builds the backend after initialize; nil runs the server without
	// one (code actions then explain that the pipeline is unavailable).
	Open OpenFunc
	// Base are the settings the editor's are laid over: the defaults and
	// the environment, resolved once by cmd/internal/app (nil:
	// DefaultSettings). The server never reads the environment.
	Base *Settings
	// Secrets returns the values the log must redact under settings s (the
	// API key); nil: none.
	Secrets func(s Settings) []string
	// Debounce delays refreshing diagnostics after edits (default 300 ms).
	Debounce time.Duration
	// IndexDebounce is the shortest time between two feeds of a buffer's
	// text to the index: an edit after a quiet spell is fed at once, edits
	// closer together once they pause this long (default 40 ms: an update
	// costs about the file, off the handlers).
	IndexDebounce time.Duration
	// Version is reported in serverInfo.
	Version string
	// MaxMessageBytes bounds the size of one message (default
	// DefaultMaxMessageBytes).
	MaxMessageBytes int
	// ProcessPoll is how often the client's processId is checked (default
	// 500 ms).
	ProcessPoll time.Duration
}

// server lifecycle states.
const (
	stateNew = iota
	stateRunning
	stateShutdown
)

// server is one LSP session; it implements protocol.Server.
type server struct {
	protocol.UnimplementedServer

	opts   Options
	client protocol.Client
	log    *logger
	ctx    context.Context
	stop   context.CancelFunc

	mu       sync.Mutex
	state    int
	closing  bool
	caps     clientCaps
	root     string
	initOpts []byte
	settings Settings
	// docs holds each open document's state, by URI.
	docs map[string]*docState
	// feedMu orders the feeds of buffer text to the index: a feed that
	// read older text never lands after one that read newer text.
	feedMu   sync.Mutex
	exitCode int
	exitCh   chan struct{}
	exitOnce sync.Once
	tokens   int

	owner *owner
	jobs  *jobManager
	// wg counts the server's own goroutines (owner, watchers, debounced
	// refreshes); teardown waits for them.
	wg sync.WaitGroup
}

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	workDoneProgress bool
	applyEdit        bool
	documentChanges  bool
	configuration    bool
	configDynamic    bool
	codeActionLit    bool
}

// Serve runs an LSP session over r and w until the client sends exit, its
// process dies, r ends or ctx is cancelled, and returns the process exit
// status (0 after a proper shutdown, 1 otherwise). It returns without
// waiting for a read of r that cannot be interrupted (stdin): the caller
// exits the process.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) int {
	s := newServer(ctx, opts)
	var closer io.Closer
	if c, ok := r.(io.Closer); ok {
		closer = c
	}
	st := newStream(r, w, closer, opts.MaxMessageBytes, func(err error) { s.log.Warnf("drift: skipped bad input: %v", err) })
	conn := jsonrpc2.NewConn(st, jsonrpc2.WithCodec(codec{}))
	s.client = protocol.ClientDispatcher(conn)
	s.startOwner()
	conn.Go(s.ctx, s.guard(protocol.CancelHandler(protocol.ServerHandler(s, nil))))
	select {
	case <-conn.Done():
	case <-s.exitCh:
	case <-ctx.Done():
	}
	s.teardown()
	// Unblock the reader when it can be (a pipe); an os.Stdin read cannot,
	// and the process exit ends it.
	_ = st.Close()
	select {
	case <-conn.Done():
	case <-time.After(200 * time.Millisecond):
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitCode
}

func newServer(ctx context.Context, opts Options) *server {
	if opts.Base == nil {
		d := DefaultSettings()
		opts.Base = &d
	}
	if opts.Debounce <= 0 {
		opts.Debounce = 300 * time.Millisecond
	}
	if opts.IndexDebounce <= 0 {
		opts.IndexDebounce = 40 * time.Millisecond
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.ProcessPoll <= 0 {
		opts.ProcessPoll = 500 * time.Millisecond
	}
	s := &server{
		opts:     opts,
		docs:     map[string]*docState{},
		exitCode: 1,
		exitCh:   make(chan struct{}),
	}
	s.ctx, s.stop = context.WithCancel(ctx)
	s.settings = opts.Base.Normalized()
	s.log = newLogger(s.sendLog)
	s.log.configure(s.settings, opts.Secrets)
	s.jobs = newJobManager(s.settings.MaxJobs)
	return s
}

// exit ends the session with the given status (kept when already ending).
func (s *server) exit() {
	s.exitOnce.Do(func() { close(s.exitCh) })
}

// spawn runs f on a goroutine the server owns, unless the server is
// shutting down; teardown waits for it.
func (s *server) spawn(f func()) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// teardown cancels jobs, requests and timers, waits for the jobs (5 s at
// most: they run in request handlers), stops the owner (which closes the
// backend) and waits for every goroutine the server started.
func (s *server) teardown() {
	s.mu.Lock()
	s.closing = true
	for _, d := range s.docs {
		d.stopTimers()
	}
	s.mu.Unlock()
	s.stop()
	s.jobs.cancelAll()
	s.jobs.wait(5 * time.Second)
	s.wg.Wait()
	s.log.close()
}

// codec marshals payloads with the protocol package's union-aware
// Marshal/Unmarshal. protocol.NewServer installs the same codec but also
// makes every request concurrent (protocol.Handlers' AsyncHandler), which
// would let a code action overtake the didChange before it; the library does
// not export the codec on its own, so this is its ten-line twin.
type codec struct{}

// Marshal implements jsonrpc2.Codec.
func (codec) Marshal(v any) ([]byte, error) {
	if m, ok := v.(jsonrpc2.RawMessage); ok {
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

// Unmarshal implements jsonrpc2.Codec.
func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// errCodeRequestFailed is LSP's RequestFailed code.
const errCodeRequestFailed jsonrpc2.Code = -32803

// guard wraps the typed dispatcher with what the library leaves to the
// server and the current tests check: the lifecycle rules (nothing but
// initialize before it, nothing but exit after shutdown), a panic answered
// with an internal error instead of failing the connection, a bad
// notification logged instead of ending the connection (jsonrpc2 ends it on
// a notification error), and a cancelled call answered with
// RequestCancelled.
func (s *server) guard(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		method := strings.Clone(req.Method())
		call := req.IsCall()
		defer func() {
			if r := recover(); r != nil {
				s.log.Errorf("drift: internal error in %s: %v\n%s", method, r, debug.Stack())
				result, err = nil, nil
				if call {
					err = jsonrpc2.Errorf(jsonrpc2.InternalError, "drift: internal error in %s", method)
				}
			}
		}()
		s.mu.Lock()
		state := s.state
		s.mu.Unlock()
		switch {
		case method == protocol.MethodInitialize && state != stateNew:
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "drift: initialize sent twice")
		case method == protocol.MethodExit || method == protocol.MethodCancelRequest || method == protocol.MethodInitialize:
		case state == stateNew:
			if call {
				return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "drift: server not initialized")
			}
			return nil, nil
		case state == stateShutdown:
			if call {
				return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "drift: server is shut down")
			}
			return nil, nil
		}
		rctx := requestContext{Context: s.ctx, req: ctx}
		result, err = next(rctx, req)
		if !call {
			if err != nil {
				s.log.Warnf("drift: ignored %s: %v", method, err)
			}
			return nil, nil
		}
		if errors.Is(err, context.Canceled) {
			return nil, protocol.ErrRequestCancelled
		}
		return result, err
	}
}

// requestContext is the context handlers see: cancelled with the session,
// with the request's values (jsonrpc2.Async's release token). jsonrpc2 pools
// its request contexts and recycles them when the handler returns, while a
// context.WithCancel child of one (protocol.CancelHandler makes one per call)
// may still be starting its propagation goroutine, which then reads a
// recycled request; deriving cancellation from the session avoids that.
// Per-call cancellation stays with protocol.CancelHandler.
type requestContext struct {
	context.Context
	req context.Context
}

// Value implements context.Context.
func (c requestContext) Value(key any) any { return c.req.Value(key) }

// Request answers methods the protocol does not define.
func (s *server) Request(ctx context.Context, method string, params any) (any, error) {
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "drift: method not found: %s", method)
}

func (s *server) sendLog(lvl level, msg string) {
	if s.client == nil {
		return
	}
	t := protocol.MessageTypeLog
	switch lvl {
	case levelError:
		t = protocol.MessageTypeError
	case levelWarn:
		t = protocol.MessageTypeWarning
	case levelInfo:
		t = protocol.MessageTypeInfo
	}
	_ = s.client.LogMessage(context.Background(), &protocol.LogMessageParams{Type: t, Message: msg})
}

func (s *server) showMessage(t protocol.MessageType, msg string) {
	_ = s.client.ShowMessage(context.Background(), &protocol.ShowMessageParams{Type: t, Message: s.log.redact(msg)})
}

func fromRange(r protocol.Range) Span {
	return Span{Start: Pos{Line: int(r.Start.Line), Character: int(r.Start.Character)}, End: Pos{Line: int(r.End.Line), Character: int(r.End.Character)}}
}

func toRange(r Span) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(r.Start.Line), Character: uint32(r.Start.Character)},
		End:   protocol.Position{Line: uint32(r.End.Line), Character: uint32(r.End.Character)},
	}
}

// uriToPath returns the file system path of a file: URI on this platform
// (Windows drive letters included), or "" for any other scheme.
func uriToPath(u uri.URI) string {
	if !u.IsFile() {
		return ""
	}
	return u.FsPath()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
