package app

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

// TestConfigSources checks the order settings → environment → defaults, once:
// the environment fills what the editor does not set, an editor value wins,
// an editor's "" clears an environment value, and the key is read from the
// variable the resolved settings name.
func TestConfigSources(t *testing.T) {
	env := map[string]string{
		"DRIFT_LLM_BASE_URL": "http://env/v1", "DRIFT_LLM_MODEL": "env-model", "DRIFT_LLM_TIMEOUT": "7s",
		"DRIFT_LLM_API_KEY_ENV": "ENV_KEY", "ENV_KEY": "sk-env", "EDITOR_KEY": "sk-editor",
		"DRIFT_EMBED_PROVIDER": "bert", "DRIFT_EMBED_MODEL_DIR": "/env/model", "DRIFT_EMBED_THREADS": "3",
		"XDG_CACHE_HOME": "/xdg",
	}
	getenv := func(k string) string { return env[k] }
	cases := []struct {
		name, editor                            string
		baseURL, model, key, provider, modelDir string
	}{
		{"environment only", `{}`, "http://env/v1", "env-model", "sk-env", "bert", "/env/model"},
		{"editor wins", `{"llm": {"model": "editor-model", "apiKeyEnv": "EDITOR_KEY"}, "embedding": {"provider": "none"}}`,
			"http://env/v1", "editor-model", "sk-editor", "none", "/env/model"},
		{"editor clears", `{"llm": {"baseUrl": ""}, "embedding": {"modelDir": ""}}`, "", "env-model", "sk-env", "bert", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := settings.FromEnv(getenv).Overlay([]byte(c.editor))
			if err != nil {
				t.Fatal(err)
			}
			m := ModelConfig(s)
			if m.BaseURL != c.baseURL || m.Model != c.model || m.APIKey != c.key || m.Timeout.String() != "7s" || m.CacheDir != "/xdg/drift-lsp/llm" {
				t.Errorf("model config %+v", m)
			}
			e := embed.ConfigOf(s)
			if e.Provider != c.provider || e.ModelDir != c.modelDir || e.Threads != 3 || e.ModelsDir != "/xdg/drift-lsp/models" {
				t.Errorf("embed config %+v", e)
			}
		})
	}
	if got := settings.FromEnv(getenv).Cache(); got != "/xdg/drift-lsp" {
		t.Errorf("CacheDir = %q", got)
	}
}

// TestEnvSettings: the environment's settings (settings.FromEnv) are the
// defaults with the variables of docs/settings.md laid over, an
// out-of-range value replaced by the default (and reported); Secrets names
// the API keys of the settings; ServerOptions hands the server those
// settings.
func TestEnvSettings(t *testing.T) {
	env := map[string]string{"DRIFT_LLM_BASE_URL": "http://env/v1", "DRIFT_LLM_MODEL": "env-model", "DRIFT_MAX_JOBS": "3",
		"DRIFT_REPL_TIMEOUT": "99999", "DRIFT_ROOTS": "/a:/b", "DRIFT_LLM_API_KEY_ENV": "MY_KEY", "MY_KEY": "sk-mine", "OPENAI_API_KEY": "sk-openai"}
	getenv := func(k string) string { return env[k] }
	s := settings.FromEnv(getenv)
	if s.LLM.BaseURL != "http://env/v1" || s.LLM.Model != "env-model" || s.MaxJobs != 3 || s.Pipeline.M != 3 ||
		s.REPL.TimeoutSeconds != 60 || strings.Join(s.Roots, ",") != "/a,/b" || s.LLM.APIKeyEnv != "MY_KEY" {
		t.Fatalf("env settings %+v", s)
	}
	if got := s.Secrets(); strings.Join(got, ",") != "sk-mine,sk-openai" {
		t.Errorf("secrets %q", got)
	}
	opts := ServerOptions(settings.FromEnv(getenv))
	if opts.Open == nil || opts.Base == nil || opts.Base.LLM.Model != "env-model" || opts.Secrets == nil {
		t.Errorf("server options %+v", opts)
	}
}

// TestModelConfigFromEnv (llm's TestConfigFrom, moved with the reading of
// the DRIFT_LLM_* variables): the environment's model settings reach the
// client's configuration; an invalid number is reported naming the
// variable.
func TestModelConfigFromEnv(t *testing.T) {
	env := map[string]string{
		"DRIFT_LLM_BASE_URL": "http://127.0.0.1:9/v1", "DRIFT_LLM_MODEL": "m", "DRIFT_LLM_MODEL_FORMALIZE": "big",
		"DRIFT_LLM_API_KEY_ENV": "MY_KEY", "MY_KEY": "sk-test", "DRIFT_LLM_TIMEOUT": "7s", "DRIFT_LLM_RETRIES": "0", "DRIFT_LLM_CACHE": "off",
		"XDG_CACHE_HOME": "/cache",
	}
	getenv := func(k string) string { return env[k] }
	s := settings.FromEnv(getenv)
	if len(s.Warnings) != 0 {
		t.Fatal(s.Warnings)
	}
	cfg := ModelConfig(s)
	if !cfg.Configured() || cfg.ModelFor(llm.StageFormalize) != "big" || cfg.ModelFor(llm.StageDecompose) != "m" ||
		cfg.APIKeyEnv != "MY_KEY" || cfg.APIKey != "sk-test" || cfg.Timeout != 7*time.Second || cfg.MaxRetries != 0 || cfg.CacheDir != "" {
		t.Fatalf("config %+v", cfg)
	}
	delete(env, "DRIFT_LLM_CACHE")
	if cfg := ModelConfig(settings.FromEnv(getenv)); cfg.CacheDir != filepath.Join("/cache", "drift-lsp", "llm") {
		t.Errorf("default cache dir %q", cfg.CacheDir)
	}
	env["DRIFT_LLM_RETRIES"] = "many"
	if w := settings.FromEnv(getenv).Warnings; len(w) != 1 || !strings.Contains(w[0], "DRIFT_LLM_RETRIES") {
		t.Fatalf("want a settings warning, got %q", w)
	}
	env["DRIFT_LLM_BASE_URL"] = ""
	if _, err := llm.New(ModelConfig(settings.FromEnv(getenv))); !errors.Is(err, llm.ErrNotConfigured) {
		t.Fatalf("want ErrNotConfigured, got %v", err)
	}
}
