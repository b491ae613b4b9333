package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/lsp"
)

// fakeLocalInstall lays out a local-model installation whose "python"
// writes its process id to the file "started" in the installation's
// directory and serves, as llama.cpp's server would on its port, /health
// (200) and nothing else (a chat completion fails). NewModel only
// configures the client: nothing starts before a request.
func fakeLocalInstall(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "venv", "bin"), 0o755)
	os.MkdirAll(filepath.Join(dir, "models"), 0o755)
	os.WriteFile(filepath.Join(dir, "venv", "bin", "python"), []byte(fakeLocalServer), 0o755)
	os.WriteFile(filepath.Join(dir, "models", "tiny-q4.gguf"), []byte("GGUF"), 0o644)
	os.WriteFile(filepath.Join(dir, "model"), []byte("tiny-q4.gguf\n"), 0o644)
	return dir
}

// fakeLocalServer is the "python" of fakeLocalInstall; llm/local runs it
// as python -c SCRIPT MODEL PORT CONTEXT THREADS NAME.
const fakeLocalServer = `#!/bin/sh
echo $$ > started
exec python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" else 404); self.end_headers()
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
' "$4"
`

// TestNewModelLocal resolves llm.local through the sources, in order
// (editor settings → DRIFT_LLM_LOCAL → default "auto"), and builds the
// model client of the result.
func TestNewModelLocal(t *testing.T) {
	installed := fakeLocalInstall(t)
	tests := []struct {
		name      string
		env       map[string]string
		editor    string // the editor's settings, laid over the environment's
		wantMode  string
		wantLocal bool
		wantErr   string // part of the error, "" for none
	}{
		{"no endpoint, installed: the local model", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed}, `{}`, "auto", true, ""},
		{"an endpoint in the settings wins", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed}, `{"llm": {"baseUrl": "http://127.0.0.1:1/v1", "model": "m"}}`, "auto", false, ""},
		{"turned off in the environment", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed, "DRIFT_LLM_LOCAL": "off"}, `{}`, "off", false, "llm.local is off"},
		{"turned off in the editor", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed}, `{"llm": {"local": "off"}}`, "off", false, "llm.local is off"},
		{"the editor turns it back on", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed, "DRIFT_LLM_LOCAL": "off"}, `{"llm": {"local": "auto"}}`, "auto", true, ""},
		{"case and spaces", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed}, `{"llm": {"local": " OFF "}}`, "off", false, "llm.local is off"},
		{"an unknown word is the default", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed, "DRIFT_LLM_LOCAL": "sometimes"}, `{}`, "auto", true, ""},
		{"not installed", map[string]string{"DRIFT_LOCAL_LLM_DIR": t.TempDir()}, `{}`, "auto", false, "drift-lsp setup model"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string { return tc.env[k] }
			s, err := settings.FromEnv(getenv).Overlay([]byte(tc.editor))
			if err != nil {
				t.Fatal(err)
			}
			if s.LLM.Local != tc.wantMode {
				t.Fatalf("llm.local = %q, want %q", s.LLM.Local, tc.wantMode)
			}
			c, srv, err := NewModel(s, nil, nil)
			if tc.wantErr != "" {
				if !errors.Is(err, lsp.ErrNoModel) || !strings.Contains(err.Error(), tc.wantErr) || c != nil || srv != nil {
					t.Fatalf("got %v %v %v, want %v …%s", c, srv, err, lsp.ErrNoModel, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (srv != nil) != tc.wantLocal {
				t.Fatalf("local server %v, want %v", srv, tc.wantLocal)
			}
			if !tc.wantLocal {
				return
			}
			defer srv.Close()
			if cfg := c.Config(); cfg.Model != "tiny-q4" || cfg.Endpoint != srv || cfg.Concurrency != 1 {
				t.Fatalf("config %+v", cfg)
			}
			// A later configuration reuses the same server.
			c2, srv2, err := NewModel(s, nil, srv)
			if err != nil || srv2 != srv || c2.Config().Endpoint != srv {
				t.Fatalf("reconfigure: %v, server %p → %p", err, srv, srv2)
			}
			// Turned off, the server is not reused.
			off := s
			off.LLM.Local = "off"
			if c3, srv3, err := NewModel(off, nil, srv); !errors.Is(err, lsp.ErrNoModel) || c3 != nil || srv3 != nil {
				t.Fatalf("turned off: %v %v %v", c3, srv3, err)
			}
		})
	}
}

// TestGrammarSetting resolves llm.grammar (editor → DRIFT_LLM_GRAMMAR →
// auto) into the client's dialect: auto is llama.cpp's grammar with the
// local model and none with an endpoint; a named dialect holds for both.
func TestGrammarSetting(t *testing.T) {
	installed := fakeLocalInstall(t)
	endpoint := `{"llm": {"baseUrl": "http://127.0.0.1:1/v1", "model": "m"}}`
	tests := []struct {
		name   string
		env    string // DRIFT_LLM_GRAMMAR
		editor string
		want   string
	}{
		{"local model, default", "", `{}`, llm.GrammarLlamaCpp},
		{"endpoint, default", "", endpoint, ""},
		{"endpoint named vllm in the environment", "vllm", endpoint, llm.GrammarVLLM},
		{"endpoint named llama.cpp in the editor", "", `{"llm": {"baseUrl": "http://127.0.0.1:1/v1", "model": "m", "grammar": "llama.cpp"}}`, llm.GrammarLlamaCpp},
		{"local model, off in the editor", "vllm", `{"llm": {"grammar": "off"}}`, ""},
		{"an unknown word is auto", "gbnf", `{}`, llm.GrammarLlamaCpp},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"DRIFT_LOCAL_LLM_DIR": installed, "DRIFT_LLM_GRAMMAR": tc.env}
			s, err := settings.FromEnv(func(k string) string { return env[k] }).Overlay([]byte(tc.editor))
			if err != nil {
				t.Fatal(err)
			}
			c, srv, err := NewModel(s, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if srv != nil {
				defer srv.Close()
			}
			if got := c.Config().Grammar; got != tc.want {
				t.Errorf("grammar dialect %q, want %q", got, tc.want)
			}
		})
	}
}
