// Package app wires drift-lsp together for `serve` and the command-line
// commands: it resolves the configuration once, at the top (editor
// settings, then the environment, then the defaults), and builds from it the
// retrieval engine over the workspace, the model client, the DRIFT pipeline
// and the checker with its REPL pool. Nothing below it reads the
// environment: llm, embed and retrieval get what they need injected. Its
// Backend implements lsp.Backend, so that lsp stays the protocol edge.
package app

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/drift-lsp/drift-lsp/internal/cachedir"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/local"
	"github.com/drift-lsp/drift-lsp/lsp"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

// CacheDir is the index cache of settings s: the setting (or
// DRIFT_CACHE_DIR, which EnvSettings folds in), else the one default
// cache directory.
func CacheDir(s lsp.Settings, getenv func(string) string) string {
	if s.CacheDir != "" {
		return s.CacheDir
	}
	return cachedir.Dir(getenv)
}

// ModelConfig resolves the model client's configuration: the DRIFT_LLM_*
// environment and defaults for what the settings do not cover (timeouts,
// retries, per-stage models, cache, …), and the settings' llm.* fields as
// they are: s already holds the environment's DRIFT_LLM_BASE_URL, _MODEL
// and _API_KEY_ENV under the editor's values (EnvSettings, Overlay), so
// an editor that sets baseUrl to "" turns the model off even when the
// environment names one. The API key is read from the variable the result
// names.
func ModelConfig(s lsp.Settings, getenv func(string) string) (llm.Config, error) {
	cfg, err := llm.ConfigFrom(getenv, filepath.Join(cachedir.Dir(getenv), "llm"))
	cfg.BaseURL, cfg.Model = s.LLM.BaseURL, s.LLM.Model
	if s.LLM.APIKeyEnv != "" {
		cfg.APIKeyEnv = s.LLM.APIKeyEnv
	}
	cfg.APIKey = getenv(cfg.APIKeyEnv)
	return cfg, err
}

// NewModel builds the model client of s: its endpoint, else the bundled
// local model unless s.LLM.Local is "off" (LocalModel; srv, when not nil,
// is reused), or explains
// (wrapping lsp.ErrNoModel) why there is none. It returns the local model's
// server when the client uses it (the caller closes it at exit).
func NewModel(s lsp.Settings, getenv func(string) string, logf func(string, ...any), srv *local.Server) (*llm.Client, *local.Server, error) {
	cfg, err := ModelConfig(s, getenv)
	if err != nil && logf != nil {
		logf("drift: %v", err)
	}
	cfg.Logf = logf
	if !cfg.Configured() && srv != nil && s.LLM.Local != local.ModeOff {
		cfg = srv.Apply(cfg)
	} else if !cfg.Configured() {
		cfg, srv, err = LocalModel(cfg, s.LLM.Local, getenv, logf)
		if err != nil && !errors.Is(err, local.ErrNotInstalled) && logf != nil {
			logf("drift: %v", err)
		}
	}
	switch {
	case !cfg.Configured() && s.LLM.Local == local.ModeOff:
		return nil, nil, fmt.Errorf("%w: %s (the bundled local model is turned off: llm.local is off)", lsp.ErrNoModel, llm.HowToConfigure)
	case !cfg.Configured():
		return nil, nil, fmt.Errorf("%w: %s (or install the local model: drift-lsp setup model)", lsp.ErrNoModel, llm.HowToConfigure)
	}
	if cfg.Endpoint == nil {
		srv = nil
	}
	c, err := llm.New(cfg)
	return c, srv, err
}

// LocalModel points cfg, when it names no endpoint, at the bundled local
// model (llm/local) unless mode (the llm.local setting) is "off":
// installed in local.DirFrom(getenv), started on the
// first request. It returns the server (the caller closes it), or
// local.ErrNotInstalled (wrapped) with cfg unchanged.
func LocalModel(cfg llm.Config, mode string, getenv func(string) string, logf func(string, ...any)) (llm.Config, *local.Server, error) {
	return local.Configure(cfg, mode, local.DirFrom(getenv), local.Options{Logf: logf})
}

// EmbedConfig resolves the dense retrieval model's configuration: the
// DRIFT_EMBED_* environment for what the settings do not cover (pooling,
// threads, the ONNX Runtime library, …) and the settings' embedding.* fields
// as they are (they already hold the environment's values under the
// editor's, as in ModelConfig).
func EmbedConfig(s lsp.Settings, getenv func(string) string) embed.Config {
	cfg := embed.ConfigFrom(getenv)
	cfg.Provider, cfg.ModelDir = s.Embedding.Provider, s.Embedding.ModelDir
	cfg.BaseURL, cfg.Model = s.Embedding.BaseURL, s.Embedding.Model
	return cfg
}

// NewEmbedder builds the embedder cfg asks for; nil when dense retrieval is
// off or unavailable (logf says why).
func NewEmbedder(cfg embed.Config, logf func(string, ...any)) embed.Embedder {
	if cfg.Provider == embed.ProviderNone {
		return nil
	}
	emb, warn := embed.Default(cfg)
	if warn != "" && logf != nil {
		logf("drift: %s", warn)
	}
	return emb
}
