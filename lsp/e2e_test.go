package lsp

import (
	"go.lsp.dev/uri"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// workspaceDir is the bundled example Lake workspace.
var workspaceDir, _ = filepath.Abs(filepath.Join("..", "testdata", "workspace"))

// startReal starts the server with the real backend (retrieval engine,
// model client, pipeline) over testdata/workspace, with the fake
// OpenAI-compatible model server of llm/llmtest behind it.
func startReal(t *testing.T, resp llmtest.Responder) (*editor, *llmtest.Server, string, string) {
	t.Helper()
	srv := llmtest.New(t, resp)
	t.Cleanup(srv.Close)
	t.Setenv("DRIFT_LLM_CACHE", "off")
	e := newEditor(t, editorOptions{
		open:    OpenDrift,
		rootURI: string(uri.File(workspaceDir)),
		initOptions: map[string]any{
			"llm":       map[string]any{"baseUrl": srv.URL, "model": "fake-model", "apiKeyEnv": "DRIFT_TEST_NO_KEY"},
			"embedding": map[string]any{"provider": "none"},
			"cacheDir":  t.TempDir(),
		},
	})
	path := filepath.Join(workspaceDir, "DriftExample", "Demo.lean")
	u := string(uri.File(path))
	text := readFile(t, path)
	e.open(u, text)
	e.waitEnds("DRIFT: indexing library", 1)
	return e, srv, u, text
}

// TestEndToEndFormalize runs "Formalize with DRIFT" through the real
// pipeline against the fake model, and "Find premises and examples" and
// workspace/symbol against the real index.
func TestEndToEndFormalize(t *testing.T) {
	e, srv, u, _ := startReal(t, llmtest.Workspace())
	a := e.action(u, collapse(e.rangeOf(u, "greater than 2 is odd")), titleFormalize)
	if err := <-e.run(a); err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleFormalize, 1)
	if !strings.HasPrefix(ends[0], "Inserted theorem") {
		t.Fatalf("formalize ended with %q; messages %q", ends[0], e.messages)
	}
	text := e.text(u)
	if !strings.Contains(text, "/-- Every prime number greater than 2 is odd. -/\ntheorem ") || !strings.Contains(text, "Mm.Odd p := by sorry") {
		t.Errorf("stub not inserted after the docstring:\n%s", text)
	}
	if len(srv.Requests()) == 0 {
		t.Errorf("the model was never called")
	}
	msgs := e.progressMessages("DRIFT: " + titleFormalize)
	if !contains(msgs, "Decomposing…") {
		t.Errorf("no per-stage progress: %q", msgs)
	}

	a = e.action(u, collapse(e.rangeOf(u, "divides one of the two factors")), titlePremises)
	if err := <-e.run(a); err != nil {
		t.Fatal(err)
	}
	e.waitEnds("DRIFT: "+titlePremises, 1)
	if !strings.Contains(e.text(u), premisesMarker) {
		t.Errorf("no premises block:\n%s", e.text(u))
	}

	t.Run("workspace/symbol", func(t *testing.T) {
		var syms []map[string]any
		if err := e.call("workspace/symbol", map[string]any{"query": "Prime"}, &syms); err != nil {
			t.Fatal(err)
		}
		if len(syms) == 0 {
			t.Skip("the retrieval engine returned no hits for \"Prime\" over testdata/workspace")
		}
		loc := syms[0]["location"].(map[string]any)
		if !strings.HasPrefix(loc["uri"].(string), "file:///") || !strings.HasSuffix(loc["uri"].(string), ".lean") {
			t.Errorf("symbol location %v", loc)
		}
	})
}

// TestEndToEndModelFails has the model answer 500 to every call.
func TestEndToEndModelFails(t *testing.T) {
	t.Setenv("DRIFT_LLM_RETRIES", "0")
	e, _, u, text := startReal(t, func(int, llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 500, Text: "upstream exploded"}
	})
	if err := <-e.run(e.action(u, collapse(e.rangeOf(u, "greater than 2 is odd")), titleFormalize)); err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleFormalize, 1)
	if !strings.HasPrefix(ends[0], "Failed: ") {
		t.Errorf("end = %q", ends[0])
	}
	e.waitFor("error message", func() bool { return len(e.messages) > 0 })
	if e.text(u) != text {
		t.Errorf("text changed after a model failure")
	}
}

// TestEndToEndLeanMissing checks a theorem with no Lean available: the
// result says Lean was not run.
func TestEndToEndLeanMissing(t *testing.T) {
	e, _, u, _ := startReal(t, llmtest.Workspace())
	acts := e.codeActions(u, collapse(e.rangeOf(u, "a ⊓ b ≤ a ⊔ b")))
	var check codeAction
	for _, a := range acts {
		if a.Title == titleCheck {
			check = a
		}
	}
	if check.Title == "" {
		t.Fatalf("no check action: %+v", acts)
	}
	if err := <-e.run(check); err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleCheck, 1)
	if !strings.Contains(ends[0], "Lean not run") {
		t.Errorf("end = %q", ends[0])
	}
}

func collapse(r Span) Span {
	r.End = r.Start
	return r
}

// TestEndToEndLiveBuffer types a declaration into an open buffer and finds
// it with workspace/symbol before the file is saved.
func TestEndToEndLiveBuffer(t *testing.T) {
	e, _, u, _ := startReal(t, llmtest.Workspace())
	e.edit(u, "end DriftExample.Demo", "theorem drift_typed_just_now (n : Nat) : n = n := rfl\n\nend DriftExample.Demo")
	deadline := time.Now().Add(5 * time.Second)
	for {
		var syms []map[string]any
		if err := e.call("workspace/symbol", map[string]any{"query": "drift_typed_just_now"}, &syms); err != nil {
			t.Fatal(err)
		}
		for _, s := range syms {
			if strings.HasSuffix(s["name"].(string), "drift_typed_just_now") {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("typed declaration not found; last answer %v", syms)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
