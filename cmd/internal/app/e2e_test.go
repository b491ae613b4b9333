package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
	"github.com/drift-lsp/drift-lsp/lsp"
)

// workspaceDir is the bundled example Lake workspace.
var workspaceDir, _ = filepath.Abs(filepath.Join("..", "..", "..", "testdata", "workspace"))

// The code action titles, as the editor shows them.
const (
	titleFormalize = "Formalize with DRIFT"
	titlePremises  = "Find premises and examples"
	titleCheck     = "Check this theorem"
)

// session is the real server (this package's backend over
// testdata/workspace, the fake OpenAI-compatible model of llm/llmtest behind
// it) driven by the shared fake editor.
type session struct {
	*fakeeditor.Editor
	t   *testing.T
	ctx context.Context
	srv *llmtest.Server
	u   string
}

// startReal starts the session with env as the whole environment (and
// the response cache off).
func startReal(t *testing.T, resp llmtest.Responder, env map[string]string) *session {
	t.Helper()
	return startIn(t, resp, env, workspaceDir, filepath.Join("DriftExample", "Demo.lean"))
}

// startIn starts the session on the workspace at root with the file rel
// (relative to root) open.
func startIn(t *testing.T, resp llmtest.Responder, env map[string]string, root, rel string) *session {
	t.Helper()
	return startWith(t, resp, env, root, rel, nil)
}

// startWith starts the session as startIn, with llmSettings as the
// editor's llm settings (nil: the fake model's endpoint).
func startWith(t *testing.T, resp llmtest.Responder, env map[string]string, root, rel string, llmSettings map[string]any) *session {
	t.Helper()
	srv := llmtest.New(t, resp)
	t.Cleanup(srv.Close)
	if llmSettings == nil {
		llmSettings = map[string]any{"baseUrl": srv.URL, "model": "fake-model", "apiKeyEnv": "DRIFT_TEST_NO_KEY"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	// The model's responses are never cached: every test calls the model.
	getenv := func(k string) string {
		if k == "DRIFT_LLM_CACHE" {
			return "off"
		}
		return env[k]
	}
	opts := ServerOptions(settings.FromEnv(getenv))
	opts.Debounce = 20 * time.Millisecond
	cw, sw := fakeeditor.NewPipe(), fakeeditor.NewPipe()
	done := make(chan int, 1)
	go func() {
		done <- lsp.Serve(ctx, cw, sw, opts)
		_ = sw.Close()
	}()
	e := fakeeditor.Connect(ctx, fakeeditor.Duplex{Reader: sw, WriteCloser: cw})
	t.Cleanup(func() {
		_ = cw.Close()
		<-done
		_ = e.Close()
	})
	if _, err := e.Initialize(ctx, fakeeditor.Options{
		RootURI: string(uri.File(root)),
		InitOptions: map[string]any{
			"llm":       llmSettings,
			"embedding": map[string]any{"provider": "none"},
			"cacheDir":  t.TempDir(),
		},
	}); err != nil {
		t.Fatal(err)
	}
	s := &session{Editor: e, t: t, ctx: ctx, srv: srv}
	path := filepath.Join(root, rel)
	s.u = string(uri.File(path))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Open(ctx, s.u, string(b)); err != nil {
		t.Fatal(err)
	}
	s.waitEnd("DRIFT: indexing library")
	return s
}

// waitEnd waits for the end of the progress with title and returns its
// message.
func (s *session) waitEnd(title string) string {
	s.t.Helper()
	var end string
	err := s.Wait(s.ctx, func() bool {
		for _, p := range s.Progresses(title) {
			if p.Ended {
				end = p.End
				return true
			}
		}
		return false
	})
	if err != nil {
		s.t.Fatalf("no end of %q: %v; messages %q", title, err, s.Messages())
	}
	return end
}

// run executes the code action titled title at the start of the first
// occurrence of anchor.
func (s *session) run(anchor, title string) {
	s.t.Helper()
	r, err := s.RangeOf(s.u, anchor)
	if err != nil {
		s.t.Fatal(err)
	}
	r.End = r.Start
	acts, err := s.CodeActions(s.ctx, s.u, r)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, a := range acts {
		if a.Title == title {
			if err := s.Execute(s.ctx, a); err != nil {
				s.t.Fatal(err)
			}
			return
		}
	}
	s.t.Fatalf("no code action %q at %q: %+v", title, anchor, acts)
}

func (s *session) text() string {
	text, _ := s.Text(s.u)
	return text
}

// symbols answers workspace/symbol for query.
func (s *session) symbols(query string) []protocol.SymbolInformation {
	s.t.Helper()
	var syms []protocol.SymbolInformation
	if err := s.Call(s.ctx, "workspace/symbol", map[string]any{"query": query}, &syms); err != nil {
		s.t.Fatal(err)
	}
	return syms
}

// TestEndToEndFormalize runs "Formalize with DRIFT" through the real
// pipeline against the fake model, and "Find premises and examples" and
// workspace/symbol against the real index.
func TestEndToEndFormalize(t *testing.T) {
	s := startReal(t, llmtest.Workspace(), nil)
	s.run("greater than 2 is odd", titleFormalize)
	if end := s.waitEnd("DRIFT: " + titleFormalize); !strings.HasPrefix(end, "Inserted theorem") {
		t.Fatalf("formalize ended with %q; messages %q", end, s.Messages())
	}
	text := s.text()
	if !strings.Contains(text, "/-- Every prime number greater than 2 is odd. -/\ntheorem ") || !strings.Contains(text, "Mm.Odd p := by sorry") {
		t.Errorf("stub not inserted after the docstring:\n%s", text)
	}
	if len(s.srv.Requests()) == 0 {
		t.Errorf("the model was never called")
	}
	var msgs []string
	for _, p := range s.Progresses("DRIFT: " + titleFormalize) {
		msgs = append(msgs, p.Messages...)
	}
	// The real pipeline's stages reach the editor, in order.
	stage := 0
	for _, prefix := range []string{"Decomposing…", "Retriev", "Formalizing: drawing", "Checking candidate"} {
		i := slices.IndexFunc(msgs[stage:], func(m string) bool { return strings.HasPrefix(m, prefix) })
		if i < 0 {
			t.Errorf("no %q stage after %q in the progress: %q", prefix, msgs[:stage], msgs)
			break
		}
		stage += i + 1
	}

	s.run("divides one of the two factors", titlePremises)
	s.waitEnd("DRIFT: " + titlePremises)
	if !strings.Contains(s.text(), "/- DRIFT premises and examples") {
		t.Errorf("no premises block:\n%s", s.text())
	}

	t.Run("workspace/symbol", func(t *testing.T) {
		syms := s.symbols("Prime")
		if len(syms) == 0 {
			t.Fatal(`the library search returned no hits for "Prime" over testdata/workspace`)
		}
		loc := string(syms[0].Location.URI)
		if !strings.HasPrefix(loc, "file:///") || !strings.HasSuffix(loc, ".lean") {
			t.Errorf("symbol location %v", syms[0].Location)
		}
	})
}

// TestEndToEndModelFails has the model answer 500 to every call.
func TestEndToEndModelFails(t *testing.T) {
	s := startReal(t, func(int, llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 500, Text: "upstream exploded"}
	}, map[string]string{"DRIFT_LLM_RETRIES": "0"})
	before := s.text()
	s.run("greater than 2 is odd", titleFormalize)
	if end := s.waitEnd("DRIFT: " + titleFormalize); !strings.HasPrefix(end, "Failed: ") {
		t.Errorf("end = %q", end)
	}
	if err := s.Wait(s.ctx, func() bool { return len(s.Messages()) > 0 }); err != nil {
		t.Fatal("no error message")
	}
	if s.text() != before {
		t.Errorf("text changed after a model failure")
	}
}

// TestEndToEndLeanMissing checks a theorem with no Lean available: the
// result says Lean was not run.
func TestEndToEndLeanMissing(t *testing.T) {
	s := startReal(t, llmtest.Workspace(), nil)
	s.run("a ⊓ b ≤ a ⊔ b", titleCheck)
	if end := s.waitEnd("DRIFT: " + titleCheck); !strings.Contains(end, "Lean not run") {
		t.Errorf("end = %q", end)
	}
}

// TestEndToEndLiveBuffer types a declaration into an open buffer and finds
// it with workspace/symbol before the file is saved.
func TestEndToEndLiveBuffer(t *testing.T) {
	s := startReal(t, llmtest.Workspace(), nil)
	if err := s.Edit(s.ctx, s.u, "end DriftExample.Demo", "theorem drift_typed_just_now (n : Nat) : n = n := rfl\n\nend DriftExample.Demo"); err != nil {
		t.Fatal(err)
	}
	found := func() bool {
		for _, sym := range s.symbols("drift_typed_just_now") {
			if strings.HasSuffix(sym.Name, "drift_typed_just_now") {
				return true
			}
		}
		return false
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	if err := s.Wait(ctx, found); err != nil {
		t.Fatalf("typed declaration not found: %v", err)
	}
}
