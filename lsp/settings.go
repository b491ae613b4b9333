package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/protocol"
)

// Settings are the server's settings (section "drift"). They come from
// Options.Base (the defaults, then the environment, resolved by
// internal/app), then initializationOptions, then workspace/configuration;
// each later source overrides the fields it sets.
type Settings struct {
	LLM       LLMSettings       `json:"llm"`
	Embedding EmbeddingSettings `json:"embedding"`
	// Roots are extra library roots indexed besides the workspace.
	Roots []string `json:"roots"`
	// Corpus lists declaration dumps (decls JSONL) to search as well.
	Corpus []string `json:"corpus"`
	// CacheDir holds the index and response caches.
	CacheDir string           `json:"cacheDir"`
	REPL     REPLSettings     `json:"repl"`
	Lean     LeanSettings     `json:"lean"`
	Pipeline PipelineSettings `json:"pipeline"`
	// MaxJobs bounds the number of background jobs that run at once.
	MaxJobs int         `json:"maxJobs"`
	Log     LogSettings `json:"log"`
	// Comments configure the checks of names in comments.
	Comments CommentSettings `json:"comments"`
}

// CommentSettings configure the features for names in comments.
type CommentSettings struct {
	// Enable turns every feature for names in comments (hover, definition,
	// completion, diagnostics, quick fixes) on (the default) or off.
	Enable bool `json:"enable"`
	// Severity of a name that does not resolve: "information" (default),
	// "hint", "warning", "error" or "off". Deprecated names are hints.
	Severity string `json:"severity"`
}

// LLMSettings configure the OpenAI-compatible model endpoint.
type LLMSettings struct {
	BaseURL string `json:"baseUrl"`
	Model   string `json:"model"`
	// APIKeyEnv names the environment variable that holds the API key; the
	// key itself is never a setting.
	APIKeyEnv string `json:"apiKeyEnv"`
	// Local is "auto" (start the bundled local model when no endpoint is
	// set and it is installed; the default) or "off" (never).
	Local string `json:"local"`
}

// EmbeddingSettings choose the dense retrieval model.
type EmbeddingSettings struct {
	// Provider is "auto" (best installed local model), "use-lite", "bert",
	// "openai" or "none".
	Provider string `json:"provider"`
	// ModelDir is a BERT-family ONNX model directory (provider "bert").
	ModelDir string `json:"modelDir"`
	// BaseURL and Model select an OpenAI-compatible embeddings endpoint
	// (provider "openai").
	BaseURL string `json:"baseUrl"`
	Model   string `json:"model"`
}

// REPLSettings configure the Lean REPL used by the checker.
type REPLSettings struct {
	// Command starts a REPL (for example "lake env repl"); empty means look
	// for one in the workspace.
	Command        string `json:"command"`
	TimeoutSeconds int    `json:"timeoutSeconds"`
	PoolSize       int    `json:"poolSize"`
	MemoryMB       int    `json:"memoryMB"`
}

// LeanSettings configure `lean --json`, which checks stubs when there is no
// REPL (with the REPL's deadlines, pool size and memory limit).
type LeanSettings struct {
	// Command runs lean, split at spaces (for example "lake env lean");
	// empty means lake env lean in a Lake workspace, else the lean of its
	// lean-toolchain, else lean on PATH.
	Command string `json:"command"`
}

// PipelineSettings are DRIFT's parameters.
type PipelineSettings struct {
	// SubQueries is "top1" (one premise per sub-query, DRIFT's default) or
	// "topk" (the top K premises per sub-query).
	SubQueries string `json:"subQueries"`
	// K is the number of premises retrieved for a statement; M the number of
	// illustrative theorems.
	K int `json:"k"`
	M int `json:"m"`
	// Samples is the number of formalization candidates drawn.
	Samples int `json:"samples"`
	// RepairBudget is the number of repair attempts per candidate.
	RepairBudget int `json:"repairBudget"`
}

// LogSettings configure logging.
type LogSettings struct {
	// Level is "error", "warn", "info" or "debug".
	Level string `json:"level"`
	// File, when set, receives a copy of the log.
	File string `json:"file"`
}

// DefaultSettings returns the built-in defaults.
func DefaultSettings() Settings {
	return Settings{
		LLM:       LLMSettings{APIKeyEnv: "OPENAI_API_KEY", Local: "auto"},
		Embedding: EmbeddingSettings{Provider: "auto"},
		REPL:      REPLSettings{TimeoutSeconds: 60, PoolSize: 1, MemoryMB: 8192},
		Pipeline:  PipelineSettings{SubQueries: "top1", K: 5, M: 3, Samples: 4, RepairBudget: 4},
		MaxJobs:   2,
		Log:       LogSettings{Level: "info"},
		Comments:  CommentSettings{Enable: true},
	}
}

// Overlay returns s with the fields present in the JSON object raw replaced.
// raw may be the section itself or an object with a "drift" member; null or
// empty input leaves s unchanged. Invalid values are reported and ignored.
func (s Settings) Overlay(raw []byte) (Settings, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return s, nil
	}
	var wrapper map[string]json.RawMessage
	if err := json.Unmarshal(raw, &wrapper); err != nil {
		return s, fmt.Errorf("settings: not a JSON object: %w", err)
	}
	if inner, ok := wrapper["drift"]; ok {
		raw = inner
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return s, nil
		}
	}
	out := s
	out.Roots = slices.Clone(s.Roots)
	out.Corpus = slices.Clone(s.Corpus)
	if err := json.Unmarshal(raw, &out); err != nil {
		return s, fmt.Errorf("settings: %w", err)
	}
	return out.Normalized(), nil
}

// Normalized returns s clamped to sane ranges, unknown words replaced by
// the defaults.
func (s Settings) Normalized() Settings {
	d := DefaultSettings()
	clamp := func(v *int, lo, hi, def int) {
		if *v < lo || *v > hi {
			*v = def
		}
	}
	clamp(&s.MaxJobs, 1, 16, d.MaxJobs)
	clamp(&s.Pipeline.K, 1, 100, d.Pipeline.K)
	clamp(&s.Pipeline.M, 0, 20, d.Pipeline.M)
	clamp(&s.Pipeline.Samples, 1, 16, d.Pipeline.Samples)
	clamp(&s.Pipeline.RepairBudget, 0, 16, d.Pipeline.RepairBudget)
	clamp(&s.REPL.TimeoutSeconds, 1, 3600, d.REPL.TimeoutSeconds)
	clamp(&s.REPL.PoolSize, 1, 16, d.REPL.PoolSize)
	clamp(&s.REPL.MemoryMB, 256, 1<<20, d.REPL.MemoryMB)
	if s.Pipeline.SubQueries != "top1" && s.Pipeline.SubQueries != "topk" {
		s.Pipeline.SubQueries = d.Pipeline.SubQueries
	}
	if s.LLM.APIKeyEnv == "" {
		s.LLM.APIKeyEnv = d.LLM.APIKeyEnv
	}
	if s.LLM.Local = strings.ToLower(strings.TrimSpace(s.LLM.Local)); s.LLM.Local != "auto" && s.LLM.Local != "off" {
		s.LLM.Local = d.LLM.Local
	}
	switch s.Log.Level {
	case "error", "warn", "info", "debug":
	default:
		s.Log.Level = d.Log.Level
	}
	return s
}

// IndexKey identifies the settings that need a new index when they change.
func (s Settings) IndexKey() string {
	return strings.Join([]string{strings.Join(s.Roots, "\x00"), strings.Join(s.Corpus, "\x00"),
		s.CacheDir, s.Embedding.Provider, s.Embedding.ModelDir, s.Embedding.BaseURL, s.Embedding.Model}, "\x01")
}

// String describes the settings for the log. It holds no secret: the API key
// is only ever named, never read into settings.
func (s Settings) String() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// DidChangeConfiguration implements protocol.Server: with pull support the
// server asks for section "drift" again; otherwise the pushed settings
// apply. Either way the owner applies them.
func (s *server) DidChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	pull := s.caps.configuration
	s.mu.Unlock()
	if pull {
		s.spawn(s.pullConfiguration)
		return nil
	}
	s.setSettings(p.Settings)
	return nil
}

// pullConfiguration asks the client for section "drift" and applies it.
func (s *server) pullConfiguration() {
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	section := "drift"
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: &section}}})
	if err != nil {
		s.log.Debugf("drift: workspace/configuration: %v", err)
		return
	}
	if len(res) == 0 {
		return
	}
	s.setSettings(res[0])
}

// setSettings resolves the settings once, in order (Options.Base: defaults
// and environment, initializationOptions, then raw from the client), and hands them to the
// logger, the job manager and the backend's owner.
func (s *server) setSettings(raw []byte) {
	s.mu.Lock()
	settings, err := s.opts.Base.Overlay(s.initOpts)
	if err == nil {
		settings, err = settings.Overlay(raw)
	}
	if err == nil {
		s.settings = settings
	}
	s.mu.Unlock()
	if err != nil {
		s.log.Warnf("drift: ignoring settings: %v", err)
		return
	}
	s.log.configure(settings, s.opts.Secrets)
	s.jobs.setLimit(settings.MaxJobs)
	s.log.Debugf("drift: settings %s", settings)
	s.owner.request(ownerSettings)
	// comments.enable and comments.severity apply to open documents now.
	s.spawn(s.refreshOpenComments)
}
