package app

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/drift-lsp/drift-lsp/lsp"
)

// fakeLocalInstall lays out a local-model installation (nothing is started:
// NewModel only configures the client).
func fakeLocalInstall(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "venv", "bin"), 0o755)
	os.MkdirAll(filepath.Join(dir, "models"), 0o755)
	os.WriteFile(filepath.Join(dir, "venv", "bin", "python"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "models", "tiny-q4.gguf"), []byte("GGUF"), 0o644)
	os.WriteFile(filepath.Join(dir, "model"), []byte("tiny-q4.gguf\n"), 0o644)
	return dir
}

func TestNewModelLocal(t *testing.T) {
	installed := fakeLocalInstall(t)
	tests := []struct {
		name      string
		env       map[string]string
		settings  lsp.Settings
		wantLocal bool
		wantErr   error
	}{
		{"no endpoint, installed: the local model", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed}, lsp.Settings{}, true, nil},
		{"an endpoint in the settings wins", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed}, lsp.Settings{LLM: lsp.LLMSettings{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}}, false, nil},
		{"turned off", map[string]string{"DRIFT_LOCAL_LLM_DIR": installed, "DRIFT_LLM_LOCAL": "off"}, lsp.Settings{}, false, lsp.ErrNoModel},
		{"not installed", map[string]string{"DRIFT_LOCAL_LLM_DIR": t.TempDir()}, lsp.Settings{}, false, lsp.ErrNoModel},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string { return tc.env[k] }
			c, srv, err := NewModel(tc.settings, getenv, nil, nil)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || c != nil || srv != nil {
					t.Fatalf("got %v %v %v, want %v", c, srv, err, tc.wantErr)
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
			c2, srv2, err := NewModel(tc.settings, getenv, nil, srv)
			if err != nil || srv2 != srv || c2.Config().Endpoint != srv {
				t.Fatalf("reconfigure: %v, server %p → %p", err, srv, srv2)
			}
		})
	}
}
