package app

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/drift-lsp/drift-lsp/lsp"
)

// EnvSettings returns the defaults overridden by the environment variables
// of the LLM-stages issue and a few of drift-lsp's own (the table in
// README.md): the base the editor's settings are laid over.
func EnvSettings(getenv func(string) string) lsp.Settings {
	s := lsp.DefaultSettings()
	str := func(name string, dst *string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = v
		}
	}
	num := func(name string, dst *int) {
		if v, err := strconv.Atoi(strings.TrimSpace(getenv(name))); err == nil && v > 0 {
			*dst = v
		}
	}
	str("DRIFT_LLM_BASE_URL", &s.LLM.BaseURL)
	str("DRIFT_LLM_MODEL", &s.LLM.Model)
	str("DRIFT_LLM_API_KEY_ENV", &s.LLM.APIKeyEnv)
	str("DRIFT_LLM_LOCAL", &s.LLM.Local)
	str("DRIFT_EMBED_PROVIDER", &s.Embedding.Provider)
	str("DRIFT_EMBED_MODEL_DIR", &s.Embedding.ModelDir)
	str("DRIFT_EMBED_BASE_URL", &s.Embedding.BaseURL)
	str("DRIFT_EMBED_MODEL", &s.Embedding.Model)
	str("DRIFT_CACHE_DIR", &s.CacheDir)
	str("DRIFT_REPL", &s.REPL.Command)
	str("DRIFT_LEAN", &s.Lean.Command)
	num("DRIFT_REPL_TIMEOUT", &s.REPL.TimeoutSeconds)
	num("DRIFT_MAX_JOBS", &s.MaxJobs)
	str("DRIFT_LOG_LEVEL", &s.Log.Level)
	str("DRIFT_LOG_FILE", &s.Log.File)
	if v := getenv("DRIFT_ROOTS"); v != "" {
		s.Roots = filepath.SplitList(v)
	}
	return s.Normalized()
}

// Secrets returns the values the server's log redacts under settings s:
// the API key in the variable s names, and in OPENAI_API_KEY.
func Secrets(getenv func(string) string) func(lsp.Settings) []string {
	return func(s lsp.Settings) []string {
		return []string{getenv(s.LLM.APIKeyEnv), getenv(lsp.DefaultSettings().LLM.APIKeyEnv)}
	}
}

// ServerOptions returns the language server's options with the
// configuration resolved here, once: the backend opener, the environment's
// settings as the base of the editor's, and the secrets to redact. The
// caller sets the rest (Debounce, Version, …).
func ServerOptions(getenv func(string) string) lsp.Options {
	base := EnvSettings(getenv)
	return lsp.Options{Open: Opener(getenv), Base: &base, Secrets: Secrets(getenv)}
}
