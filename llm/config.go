// Package llm is drift-lsp's client for OpenAI-compatible chat-completion
// endpoints: per-stage models, timeouts, retries honouring Retry-After, a
// concurrency limit, per-action call budgets and usage, size caps, and an
// on-disk response cache.
package llm

import (
	"context"
	"time"
)

// The pipeline stages that may have their own model.
const (
	StageDecompose   = "decompose"
	StagePropose     = "propose"
	StageFormalize   = "formalize"
	StageInformalize = "informalize"
	StageRepair      = "repair"
	// StageBackTranslate restates a candidate in words (the semantic check).
	StageBackTranslate = "backtranslate"
)

// Stages lists every stage name that accepts a per-stage model override.
var Stages = []string{StageDecompose, StagePropose, StageFormalize, StageInformalize, StageRepair, StageBackTranslate}

// Defaults for the client's limits.
const (
	DefaultAPIKeyEnv        = "OPENAI_API_KEY"
	DefaultTimeout          = 120 * time.Second
	DefaultMaxRetries       = 3
	DefaultConcurrency      = 4
	DefaultCallBudget       = 12
	DefaultMaxResponseBytes = 256 << 10
	DefaultMaxTokens        = 2048
	DefaultMaxRetryWait     = 30 * time.Second
)

// Config configures a Client. The API key itself is never part of it: only the
// name of the environment variable that holds the key.
type Config struct {
	// BaseURL is the endpoint's base, e.g. "https://api.openai.com/v1" or
	// "http://127.0.0.1:8080/v1".
	BaseURL string
	// Model is the default model for every stage.
	Model string
	// APIKeyEnv names the environment variable holding the API key
	// (default OPENAI_API_KEY). An unset variable means no Authorization key.
	APIKeyEnv string
	// APIKey is the key itself, resolved from APIKeyEnv by whoever builds
	// the Config (cmd/internal/app, from the settings); never logged.
	APIKey string
	// StageModels overrides Model per stage (keys: the Stage* constants).
	StageModels map[string]string
	// Timeout bounds one call, its retries and their waits included.
	Timeout time.Duration
	// MaxRetries is the number of retries after a 429, a 5xx or a transport
	// error (0 disables retries; negative means the default).
	MaxRetries int
	// MaxRetryWait caps the wait between retries, including a server's
	// Retry-After.
	MaxRetryWait time.Duration
	// Concurrency limits the number of calls in flight across the client.
	Concurrency int
	// CallBudget is the number of model calls one action may make (cache hits
	// are free).
	CallBudget int
	// CacheDir holds the response cache; empty disables caching.
	CacheDir string
	// MaxResponseBytes caps the size of one HTTP response body.
	MaxResponseBytes int
	// MaxTokens is sent as max_tokens on every request (0 omits it).
	MaxTokens int
	// Stream requests server-sent-event streaming.
	Stream bool
	// NoStructured never sends response_format, even for requests with a
	// Schema (their prompts also describe the format in words).
	NoStructured bool
	// Grammar is how the server takes a request's Grammar:
	// GrammarLlamaCpp, GrammarVLLM, or "" (it does not: requests with a
	// Grammar are sent with their Schema as without one).
	Grammar string
	// Endpoint, used when BaseURL is empty, supplies the base URL at request
	// time: a server started on first use (the local model, llm/local).
	Endpoint Endpoint
	// ReplayFailures answers a request that failed before in this client
	// with the same error instead of asking again, as the response cache
	// does for answers: a benchmark comparing configurations that ask the
	// same questions then compares them on the same answers, failures
	// included (a local server's sampling is not exactly reproducible).
	ReplayFailures bool
	// Observe, when set, receives every answered request and its answer,
	// cache hits included (benchmarks record raw answers with it).
	Observe func(req Request, resp *Response)
	// Logf receives debug lines (never the key or full prompts); nil discards.
	Logf func(format string, args ...any)
}

// Endpoint is a model server that drift-lsp starts itself when a request
// first needs it (and again after it crashed), such as the local model.
type Endpoint interface {
	// Start makes the server ready, reporting progress lines; it returns at
	// once when the server is already up.
	Start(ctx context.Context, progress func(string)) error
	// BaseURL returns the server's base URL (".../v1"), starting it if
	// needed.
	BaseURL(ctx context.Context) (string, error)
}

// Configured reports whether an endpoint is set.
func (c Config) Configured() bool { return c.BaseURL != "" || c.Endpoint != nil }

// HowToConfigure is a one-line instruction for users without a configured
// model.
const HowToConfigure = "no language model configured: set DRIFT_LLM_BASE_URL (e.g. http://127.0.0.1:8080/v1) and DRIFT_LLM_MODEL, and put the API key in OPENAI_API_KEY (or in the variable named by DRIFT_LLM_API_KEY_ENV)"

// ModelFor returns the model used for stage.
func (c Config) ModelFor(stage string) string {
	if m := c.StageModels[stage]; m != "" {
		return m
	}
	return c.Model
}

func (c Config) withDefaults() Config {
	if c.APIKeyEnv == "" {
		c.APIKeyEnv = DefaultAPIKeyEnv
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxRetryWait <= 0 {
		c.MaxRetryWait = DefaultMaxRetryWait
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.CallBudget <= 0 {
		c.CallBudget = DefaultCallBudget
	}
	if c.MaxResponseBytes <= 0 {
		c.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	return c
}
