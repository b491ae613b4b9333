package local

import (
	"fmt"
	"time"

	"github.com/drift-lsp/drift-lsp/llm"
)

// Modes of the llm.local setting (DRIFT_LLM_LOCAL).
const (
	// ModeAuto uses the local model when no endpoint is configured and it
	// is installed (the default).
	ModeAuto = "auto"
	// ModeOff never starts it.
	ModeOff = "off"
)

// Limits for a small model on a CPU, applied when the configuration keeps
// the client's defaults: one call at a time (the requests share the same
// cores, and one after another each reuses the prompt prefix the one
// before left in the server's cache; a request for several answers still
// decodes them side by side in the server's slots), a long per-call
// timeout (a loaded 2-core machine generates 1–3 tokens/s), and short
// answers. (Tried: as many calls as slots. The draw without context and
// the back-translations then took slots that did not hold their prefix:
// 12 prompt tokens from the cache instead of 287 and 70.)
const (
	Timeout   = 15 * time.Minute
	MaxTokens = 512
)

// Configure returns cfg unchanged when it names an endpoint or mode is
// ModeOff; else, when the local model is installed in dir, a configuration whose Endpoint is a new Server over it, with
// the model's name and limits suited to it, and that server (the caller
// closes it). When the model is not installed, the error is ErrNotInstalled
// (wrapped) and cfg is returned unchanged.
func Configure(cfg llm.Config, mode, dir string, opts Options) (llm.Config, *Server, error) {
	switch mode {
	case "", ModeAuto:
	case ModeOff:
		return cfg, nil, nil
	default:
		return cfg, nil, fmt.Errorf("llm.local: %q is neither %q nor %q", mode, ModeAuto, ModeOff)
	}
	if cfg.Configured() {
		return cfg, nil, nil
	}
	inst, err := Find(dir)
	if err != nil {
		return cfg, nil, err
	}
	srv := New(inst, opts)
	return srv.Apply(cfg), srv, nil
}

// Apply returns cfg with s as its endpoint, the model's name when cfg names
// none, and the limits for a small local model where cfg keeps the
// client's defaults.
func (s *Server) Apply(cfg llm.Config) llm.Config {
	cfg.BaseURL, cfg.Endpoint = "", s
	if cfg.Model == "" {
		cfg.Model = s.inst.ModelName()
	}
	if cfg.Timeout == 0 || cfg.Timeout == llm.DefaultTimeout {
		cfg.Timeout = Timeout
	}
	if cfg.MaxTokens == 0 || cfg.MaxTokens == llm.DefaultMaxTokens {
		cfg.MaxTokens = MaxTokens
	}
	if cfg.Concurrency == 0 || cfg.Concurrency == llm.DefaultConcurrency {
		cfg.Concurrency = 1
	}
	return cfg
}
