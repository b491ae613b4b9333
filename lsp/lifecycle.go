package lsp

import (
	"context"
	"fmt"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/proc"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Initialize implements protocol.Server.
func (s *server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	caps := clientCaps{}
	if w := p.Capabilities.Window; w != nil && w.WorkDoneProgress != nil {
		caps.workDoneProgress = *w.WorkDoneProgress
	}
	if ws := p.Capabilities.Workspace; ws != nil {
		caps.applyEdit = ws.ApplyEdit != nil && *ws.ApplyEdit
		caps.configuration = ws.Configuration != nil && *ws.Configuration
		if ws.WorkspaceEdit != nil && ws.WorkspaceEdit.DocumentChanges != nil {
			caps.documentChanges = *ws.WorkspaceEdit.DocumentChanges
		}
		if dc := ws.DidChangeConfiguration; dc != nil && dc.DynamicRegistration != nil {
			caps.configDynamic = *dc.DynamicRegistration
		}
	}
	if td := p.Capabilities.TextDocument; td != nil && td.CodeAction != nil {
		caps.codeActionLit = len(td.CodeAction.CodeActionLiteralSupport.CodeActionKind.ValueSet) > 0
	}
	root := ""
	if folders, ok := p.WorkspaceFolders.Get(); ok && len(folders) > 0 {
		root = uriToPath(folders[0].URI)
	}
	//lint:ignore SA1019 clients without workspace folders (Neovim 0.7) send only rootUri
	if root == "" && p.RootURI != nil {
		//lint:ignore SA1019 as above
		root = uriToPath(*p.RootURI)
	}
	if root == "" {
		//lint:ignore SA1019 the oldest clients send only rootPath
		if rp, ok := p.RootPath.Get(); ok {
			root = rp
		}
	}
	settings, err := s.settings.Overlay(p.InitializationOptions)
	if err != nil {
		s.log.Warnf("drift: ignoring initializationOptions: %v", err)
	}
	s.mu.Lock()
	s.state = stateRunning
	s.caps = caps
	s.root = root
	s.initOpts = append([]byte(nil), p.InitializationOptions...)
	s.settings = settings
	s.mu.Unlock()
	s.log.configure(settings, s.opts.Secrets)
	s.jobs.setLimit(settings.MaxJobs)
	if p.ProcessID != nil && *p.ProcessID > 0 {
		pid := int(*p.ProcessID)
		s.spawn(func() { s.watchClient(pid) })
	}

	var actions protocol.CodeActionProvider = protocol.Boolean(true)
	if caps.codeActionLit {
		actions = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindRefactorRewrite}}
	}
	change := protocol.TextDocumentSyncKindIncremental
	yes := true
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding:        protocol.PositionEncodingKindUTF16,
			TextDocumentSync:        &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &change},
			CodeActionProvider:      actions,
			ExecuteCommandProvider:  protocol.ExecuteCommandOptions{Commands: []string{cmdFormalize, cmdPremises, cmdCheck, cmdReindex, cmdFixReference, cmdBlueprint}},
			WorkspaceSymbolProvider: protocol.Boolean(true),
			HoverProvider:           protocol.Boolean(true),
			DefinitionProvider:      protocol.Boolean(true),
			CompletionProvider:      &protocol.CompletionOptions{TriggerCharacters: []string{"`", "."}},
		},
		ServerInfo: protocol.ServerInfo{Name: "drift-lsp", Version: protocol.NewOptional(s.opts.Version)},
	}, nil
}

// Initialized implements protocol.Server: it registers for configuration
// changes, pulls the configuration and asks the owner to open the backend,
// on a goroutine (the client's answers are read by the connection).
func (s *server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.spawn(func() {
		s.mu.Lock()
		caps := s.caps
		s.mu.Unlock()
		if caps.configDynamic {
			ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
			err := s.client.RegisterCapability(ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{
				{ID: "drift-configuration", Method: protocol.MethodWorkspaceDidChangeConfiguration}}})
			cancel()
			if err != nil {
				s.log.Debugf("drift: client/registerCapability: %v", err)
			}
		}
		if caps.configuration {
			s.pullConfiguration()
		}
		s.owner.request(ownerOpen)
	})
	return nil
}

// Shutdown implements protocol.Server: it refuses further requests, cancels
// the running jobs and answers once they ended (10 s at most), releasing
// the read loop meanwhile.
func (s *server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	jsonrpc2.Async(ctx)
	s.jobs.cancelAll()
	s.jobs.wait(10 * time.Second)
	return nil
}

// Exit implements protocol.Server: Serve returns at once, whatever the
// client does with the server's stdin.
func (s *server) Exit(ctx context.Context) error {
	s.mu.Lock()
	if s.state == stateShutdown {
		s.exitCode = 0
	}
	s.mu.Unlock()
	s.exit()
	return nil
}

// watchClient ends the session when the client's process dies (LSP's
// processId rule), checking every ProcessPoll.
func (s *server) watchClient(pid int) {
	tick := time.NewTicker(s.opts.ProcessPoll)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		}
		if !proc.Alive(pid) {
			s.log.Infof("drift: the client process %d is gone; exiting", pid)
			s.exit()
			return
		}
	}
}

// The kinds of owner requests.
const (
	// ownerOpen (re)opens the backend from the current settings.
	ownerOpen = 1 << iota
	// ownerSettings applies the current settings: a new backend when the
	// index settings changed, Configure otherwise.
	ownerSettings
)

// owner is the one goroutine that opens, swaps, configures and closes the
// backend. Everything else asks it (request) and reads the current backend
// (current); requests that arrive while it works are merged, so a burst of
// reindex and settings changes opens one backend, and a backend is closed
// exactly once, by its owner.
type owner struct {
	s       *server
	wake    chan struct{}
	pending int // ownerOpen|ownerSettings bits, under s.mu
	backend Backend
}

func (s *server) startOwner() {
	s.owner = &owner{s: s, wake: make(chan struct{}, 1)}
	s.spawn(s.owner.run)
}

// request asks the owner for an open or a settings change; it never blocks.
func (o *owner) request(kind int) {
	o.s.mu.Lock()
	o.pending |= kind
	o.s.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// current returns the backend, or nil before it is open.
func (o *owner) current() Backend {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	return o.backend
}

// run is the owner goroutine: it serves requests until the session ends,
// then closes the backend.
func (o *owner) run() {
	s := o.s
	var (
		key         string
		opened      bool
		stopWatch   context.CancelFunc
		watcherDone chan struct{}
	)
	swap := func(b Backend, k string) {
		if stopWatch != nil {
			stopWatch()
			<-watcherDone
			stopWatch = nil
		}
		s.mu.Lock()
		old := o.backend
		o.backend = b
		s.mu.Unlock()
		if old != nil {
			if err := old.Close(); err != nil {
				s.log.Warnf("drift: closing the library index: %v", err)
			}
		}
		key = k
		if b != nil {
			wctx, cancel := context.WithCancel(s.ctx)
			stopWatch, watcherDone = cancel, make(chan struct{})
			done := watcherDone
			go func() {
				defer close(done)
				s.watchIndex(wctx, b)
			}()
		}
	}
	defer swap(nil, "")
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-o.wake:
		}
		s.mu.Lock()
		kind := o.pending
		o.pending = 0
		settings, root := s.settings, s.root
		s.mu.Unlock()
		if s.opts.Open == nil {
			continue
		}
		if kind&ownerOpen != 0 {
			opened = true
		}
		if !opened {
			// Settings before the first open are read by it.
			continue
		}
		if b := o.current(); b != nil && kind&ownerOpen == 0 && key == settings.IndexKey() {
			b.Configure(settings)
			continue
		}
		// Close the old backend before opening the new one: it holds the
		// index lock the new one takes.
		swap(nil, "")
		b, err := s.opts.Open(s.ctx, root, settings, func(format string, args ...any) { s.log.Infof(format, args...) })
		if err != nil {
			s.log.Errorf("drift: cannot open the library index: %v", err)
			s.showMessage(protocol.MessageTypeError, "drift: cannot open the library index: "+firstLine(err.Error()))
			continue
		}
		if s.ctx.Err() != nil {
			_ = b.Close()
			return
		}
		s.mu.Lock()
		docs := make([]*Document, 0, len(s.docs))
		for _, d := range s.docs {
			docs = append(docs, d.doc.clone())
		}
		s.mu.Unlock()
		for _, d := range docs {
			if p := uriToPath(uri.URI(d.URI)); p != "" {
				b.UpdateBuffer(p, []byte(d.Text))
			}
		}
		swap(b, settings.IndexKey())
	}
}

// watchIndex reports index loading as work-done progress until it is
// ready, ctx ends (the session ends or the owner swaps the backend).
func (s *server) watchIndex(ctx context.Context, b Backend) {
	st := b.Status()
	if st.Ready || st.Err != nil {
		s.reportIndexDone(st)
		if st.Err == nil {
			s.commentsWhenReady(ctx, b)
		}
		return
	}
	p := s.newProgress(ctx, nil, "DRIFT: indexing library", false)
	last := ""
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		st = b.Status()
		if st.Ready || st.Err != nil {
			break
		}
		msg := fmt.Sprintf("%s %d/%d", st.Phase, st.Done, st.Total)
		if msg != last {
			p.report(msg, st.Percent())
			last = msg
		}
		select {
		case <-ctx.Done():
			if s.ctx.Err() != nil {
				p.end("stopped")
			} else {
				p.end("restarted")
			}
			return
		case <-tick.C:
		}
	}
	p.end(indexSummary(st))
	s.reportIndexDone(st)
	if st.Err == nil {
		s.commentsWhenReady(ctx, b)
	}
}

func indexSummary(st IndexStatus) string {
	if st.Err != nil {
		return "failed: " + firstLine(st.Err.Error())
	}
	return fmt.Sprintf("%d declarations", st.Decls)
}

func (s *server) reportIndexDone(st IndexStatus) {
	if st.Err != nil {
		s.log.Errorf("drift: library index failed: %v", st.Err)
		s.showMessage(protocol.MessageTypeError, "drift: library index failed: "+firstLine(st.Err.Error()))
		return
	}
	s.log.Infof("drift: library index ready (%d declarations)", st.Decls)
	if st.Warning != "" {
		s.log.Warnf("drift: %s", st.Warning)
	}
}

// currentBackend returns the backend or nil.
func (s *server) currentBackend() Backend { return s.owner.current() }
