// Package settings holds drift-lsp's one settings type: its defaults, the
// environment variables that set it (Vars, read by FromEnv, the only reader
// of the environment below cmd/), the editor's JSON laid over it (Overlay)
// and its validation, which reports every invalid value it replaces.
package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Settings are drift-lsp's settings. The fields with a JSON name are the
// editor's (section "drift"); the others come from the environment only.
type Settings struct {
	LLM       LLM       `json:"llm"`
	Embedding Embedding `json:"embedding"`
	// Roots are extra library roots indexed besides the workspace.
	Roots []string `json:"roots"`
	// Corpus lists declaration dumps (decls JSONL) to search as well.
	Corpus []string `json:"corpus"`
	// CacheDir holds the index and response caches ("": Paths.Cache).
	CacheDir string   `json:"cacheDir"`
	REPL     REPL     `json:"repl"`
	Lean     Lean     `json:"lean"`
	Pipeline Pipeline `json:"pipeline"`
	// MaxJobs bounds the number of background jobs that run at once.
	MaxJobs int `json:"maxJobs"`
	Log     Log `json:"log"`
	// Comments configure the checks of names in comments.
	Comments Comments `json:"comments"`
	// Paths are where drift-lsp's caches and installed parts live.
	Paths Paths `json:"-"`
	// Warnings describe the invalid values found while reading the
	// settings, each naming the variable or setting, the value and what is
	// used instead.
	Warnings []string `json:"-"`
	// lookup is the environment the settings were read from, for the
	// secrets they name (APIKey); nil reads none.
	lookup func(string) string
}

// Comments configure the features for names in comments.
type Comments struct {
	// Enable turns every feature for names in comments (hover, definition,
	// completion, diagnostics, quick fixes) on (the default) or off.
	Enable bool `json:"enable"`
	// Severity of a name that does not resolve: "information" (default),
	// "hint", "warning", "error" or "off". Deprecated names are hints.
	Severity string `json:"severity"`
}

// LLM configure the OpenAI-compatible model endpoint and its client.
type LLM struct {
	BaseURL string `json:"baseUrl"`
	Model   string `json:"model"`
	// APIKeyEnv names the environment variable that holds the API key; the
	// key itself is never a setting.
	APIKeyEnv string `json:"apiKeyEnv"`
	// Local is "auto" (start the bundled local model when no endpoint is
	// set and it is installed; the default) or "off" (never).
	Local string `json:"local"`
	// Grammar is how Formalize's requests carry the grammar of a Lean
	// statement (internal/stmtgrammar): "auto" (llama.cpp's `grammar` with
	// the bundled local model, none with an endpoint; the default),
	// "llama.cpp" (an endpoint that is llama.cpp's server), "vllm"
	// (vLLM's structured_outputs) or "off" (the JSON schema only).
	Grammar string `json:"grammar"`
	// StageModels overrides Model per pipeline stage.
	StageModels map[string]string `json:"-"`
	// Timeout bounds one call (0: the client's default).
	Timeout time.Duration `json:"-"`
	// Retries after a failed call (-1: the client's default).
	Retries int `json:"-"`
	// Concurrency, CallBudget and MaxTokens are the client's limits (0: its
	// defaults).
	Concurrency int `json:"-"`
	CallBudget  int `json:"-"`
	MaxTokens   int `json:"-"`
	// Stream requests streamed answers.
	Stream bool `json:"-"`
	// CacheDir holds the response cache ("": no cache).
	CacheDir string `json:"-"`
}

// Embedding choose the dense retrieval model.
type Embedding struct {
	// Provider is "auto" (best installed local model), "use-lite", "bert",
	// "openai" or "none".
	Provider string `json:"provider"`
	// ModelDir is a BERT-family ONNX model directory (provider "bert").
	ModelDir string `json:"modelDir"`
	// BaseURL and Model select an OpenAI-compatible embeddings endpoint
	// (provider "openai").
	BaseURL string `json:"baseUrl"`
	Model   string `json:"model"`
	// Pooling ("mean" or "cls") and MaxLength override a BERT model's own.
	Pooling   string `json:"-"`
	MaxLength int    `json:"-"`
	// ORTLibrary is the ONNX Runtime library ("": the one setup installs).
	ORTLibrary string `json:"-"`
	// Threads is ONNX Runtime's intra-op thread count (0: its default).
	Threads int `json:"-"`
	// APIKeyEnv names the variable holding the endpoint's key ("":
	// OPENAI_API_KEY); Dim the dimensions requested from it.
	APIKeyEnv string `json:"-"`
	Dim       int    `json:"-"`
}

// REPL configure the Lean REPL used by the checker.
type REPL struct {
	// Command starts a REPL (for example "lake env repl"); empty means look
	// for one in the workspace.
	Command        string `json:"command"`
	TimeoutSeconds int    `json:"timeoutSeconds"`
	PoolSize       int    `json:"poolSize"`
	MemoryMB       int    `json:"memoryMB"`
}

// Lean configure `lean --json`, which checks stubs when there is no REPL
// (with the REPL's deadlines, pool size and memory limit).
type Lean struct {
	// Command runs lean, split at spaces (for example "lake env lean");
	// empty means lake env lean in a Lake workspace, else the lean of its
	// lean-toolchain, else lean on PATH.
	Command string `json:"command"`
	// Server is the base URL of a Kimina Lean Server (POST /verify) that
	// checks stubs instead of the local REPL pool; "" for none.
	Server string `json:"server"`
}

// Pipeline are DRIFT's parameters.
type Pipeline struct {
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
	// TimeBudgetSeconds bounds one formalize action's wall time for the
	// calls it can do without (back-translation, model repairs); 0: none.
	TimeBudgetSeconds int `json:"timeBudgetSeconds"`
	// Concurrency is the number of statements formalized at once by a
	// batch (the blueprint's nodes); with an endpoint that serves several
	// requests (vLLM) more than 1 pays.
	Concurrency int `json:"concurrency"`
}

// Log configure logging.
type Log struct {
	// Level is "error", "warn", "info" or "debug".
	Level string `json:"level"`
	// File, when set, receives a copy of the log.
	File string `json:"file"`
}

// Paths are the directories drift-lsp reads its installed parts from.
type Paths struct {
	// Cache is drift-lsp's cache directory (internal/cachedir's rule).
	Cache string
	// Models holds the embedding models setup installs; LocalLLM the
	// bundled local model.
	Models   string
	LocalLLM string
	// Elan is elan's directory (its toolchains); LeanPath the LEAN_PATH a
	// lean child's own extends.
	Elan     string
	LeanPath string
}

// The pipeline's defaults, which drift's zero Params take too.
const (
	DefaultK       = 5
	DefaultM       = 3
	DefaultSamples = 4
	// DefaultTimeBudgetSeconds is pipeline.timeBudgetSeconds' default:
	// issue 28's target for one action on a 2-core laptop with the bundled
	// model.
	DefaultTimeBudgetSeconds = 45
)

// DefaultREPLMemoryMB is the memory limit of a REPL process or a lean run,
// in MiB, which leanrepl's zero Config takes too (leanrepl.DefaultMemoryLimit).
const DefaultREPLMemoryMB = 8192

// DefaultAPIKeyEnv is the variable that holds the API key unless a setting
// names another.
const DefaultAPIKeyEnv = "OPENAI_API_KEY"

// Default returns the built-in defaults.
func Default() Settings {
	return Settings{
		LLM:       LLM{APIKeyEnv: DefaultAPIKeyEnv, Local: "auto", Grammar: "auto", Retries: -1},
		Embedding: Embedding{Provider: "auto"},
		REPL:      REPL{TimeoutSeconds: 60, PoolSize: 1, MemoryMB: DefaultREPLMemoryMB},
		Pipeline:  Pipeline{SubQueries: "top1", K: DefaultK, M: DefaultM, Samples: DefaultSamples, RepairBudget: 4, TimeBudgetSeconds: DefaultTimeBudgetSeconds, Concurrency: 1},
		MaxJobs:   2,
		Log:       Log{Level: "info"},
		Comments:  Comments{Enable: true},
	}
}

// Overlay returns s with the fields present in the JSON object raw replaced.
// raw may be the section itself or an object with a "drift" member; null or
// empty input leaves s unchanged. Malformed JSON is an error (s is
// returned); an invalid value is replaced by the default and described in
// Warnings.
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
	out.Warnings = slices.Clone(s.Warnings)
	if err := json.Unmarshal(raw, &out); err != nil {
		return s, fmt.Errorf("settings: %w", err)
	}
	return out.Normalized(), nil
}

// Normalized returns s with every value outside its range, and every word
// not among its choices, replaced by the default; each replacement is
// added to Warnings, named by its setting.
func (s Settings) Normalized() Settings {
	s.Warnings = slices.Clone(s.Warnings)
	for _, r := range intRules {
		if v := r.field(&s); *v < r.lo || *v > r.hi {
			s.warn(r.setting, fmt.Sprint(*v), r.want(), fmt.Sprint(*r.field(&defaults)))
			*v = *r.field(&defaults)
		}
	}
	for _, r := range wordRules {
		v := r.field(&s)
		w := strings.ToLower(strings.TrimSpace(*v))
		if r.empty && w == "" {
			w = *r.field(&defaults)
		}
		if !slices.Contains(r.words, w) {
			s.warn(r.setting, fmt.Sprintf("%q", *v), "one of "+strings.Join(r.words, ", "), *r.field(&defaults))
			w = *r.field(&defaults)
		}
		*v = w
	}
	if s.LLM.APIKeyEnv == "" {
		s.LLM.APIKeyEnv = DefaultAPIKeyEnv
	}
	return s
}

// warn records that setting (a variable or a setting's name) held value,
// which is not want, and that use is used instead.
func (s *Settings) warn(setting, value, want, use string) {
	s.Warnings = append(s.Warnings, fmt.Sprintf("%s=%s is not %s; using %s", setting, value, want, use))
}

// defaults are Default(), for the rules.
var defaults = Default()

// intRule is the range of a whole-number setting.
type intRule struct {
	setting string
	field   func(*Settings) *int
	lo, hi  int
}

// want describes the range.
func (r intRule) want() string { return fmt.Sprintf("a whole number from %d to %d", r.lo, r.hi) }

// intRules are the ranges of the whole-number settings.
var intRules = []intRule{
	{"maxJobs", func(s *Settings) *int { return &s.MaxJobs }, 1, 16},
	{"pipeline.k", func(s *Settings) *int { return &s.Pipeline.K }, 1, 100},
	{"pipeline.m", func(s *Settings) *int { return &s.Pipeline.M }, 0, 20},
	{"pipeline.samples", func(s *Settings) *int { return &s.Pipeline.Samples }, 1, 16},
	{"pipeline.repairBudget", func(s *Settings) *int { return &s.Pipeline.RepairBudget }, 0, 16},
	{"pipeline.timeBudgetSeconds", func(s *Settings) *int { return &s.Pipeline.TimeBudgetSeconds }, 0, 3600},
	{"pipeline.concurrency", func(s *Settings) *int { return &s.Pipeline.Concurrency }, 1, 64},
	{"repl.timeoutSeconds", func(s *Settings) *int { return &s.REPL.TimeoutSeconds }, 1, 3600},
	{"repl.poolSize", func(s *Settings) *int { return &s.REPL.PoolSize }, 1, 16},
	{"repl.memoryMB", func(s *Settings) *int { return &s.REPL.MemoryMB }, 256, 1 << 20},
}

// wordRule is the choices of a setting that is one of a few words (matched
// without case; empty means the default when empty is set).
type wordRule struct {
	setting string
	field   func(*Settings) *string
	words   []string
	empty   bool
}

// wordRules are the choices of the settings that are one of a few words.
var wordRules = []wordRule{
	{"llm.local", func(s *Settings) *string { return &s.LLM.Local }, []string{"auto", "off"}, true},
	{"llm.grammar", func(s *Settings) *string { return &s.LLM.Grammar }, []string{"auto", "llama.cpp", "vllm", "off"}, true},
	{"embedding.provider", func(s *Settings) *string { return &s.Embedding.Provider }, []string{"auto", "use-lite", "bert", "openai", "none"}, true},
	{"pipeline.subQueries", func(s *Settings) *string { return &s.Pipeline.SubQueries }, []string{"top1", "topk"}, true},
	{"log.level", func(s *Settings) *string { return &s.Log.Level }, []string{"error", "warn", "info", "debug"}, true},
}

// IndexKey identifies the settings that need a new index when they change.
func (s Settings) IndexKey() string {
	return strings.Join([]string{strings.Join(s.Roots, "\x00"), strings.Join(s.Corpus, "\x00"),
		s.CacheDir, s.Embedding.Provider, s.Embedding.ModelDir, s.Embedding.BaseURL, s.Embedding.Model}, "\x01")
}

// String describes the editor's settings for the log. It holds no secret:
// the API key is only ever named, never read into settings.
func (s Settings) String() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Cache is the index cache: the cacheDir setting (DRIFT_CACHE_DIR), else
// drift-lsp's cache directory.
func (s Settings) Cache() string {
	if s.CacheDir != "" {
		return s.CacheDir
	}
	return s.Paths.Cache
}

// WithCache returns s with the index cache dir ("" keeps the index in
// memory: a command's --cache "").
func (s Settings) WithCache(dir string) Settings {
	s.CacheDir, s.Paths.Cache = dir, dir
	return s
}

// APIKey is the model endpoint's key: the value of the variable
// LLM.APIKeyEnv names in the environment the settings were read from.
func (s Settings) APIKey() string { return s.env(s.LLM.APIKeyEnv) }

// EmbedAPIKey is the embeddings endpoint's key, likewise
// (Embedding.APIKeyEnv, else OPENAI_API_KEY).
func (s Settings) EmbedAPIKey() string {
	if s.Embedding.APIKeyEnv != "" {
		return s.env(s.Embedding.APIKeyEnv)
	}
	return s.env(DefaultAPIKeyEnv)
}

// Secrets are the values a log must never show under s: the key in the
// variable s names and the one in OPENAI_API_KEY.
func (s Settings) Secrets() []string {
	return []string{s.APIKey(), s.env(DefaultAPIKeyEnv)}
}

// env reads name from the environment the settings were read from.
func (s Settings) env(name string) string {
	if s.lookup == nil || name == "" {
		return ""
	}
	return s.lookup(name)
}

// cacheSub is dir joined with name, or "" when dir is.
func cacheSub(dir, name string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, name)
}
