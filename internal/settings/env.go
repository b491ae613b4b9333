package settings

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/cachedir"
	"github.com/drift-lsp/drift-lsp/internal/lake"
)

// Var is one environment variable drift-lsp reads.
type Var struct {
	// Name is the variable, e.g. DRIFT_LLM_MODEL.
	Name string
	// Setting is the editor's setting the variable is the fallback of ("":
	// the environment only).
	Setting string
	// Doc says what it sets, its form and its default, in one sentence.
	Doc string
	// set parses v into s; nil for the variables only cmd/ or the tests
	// read (Doc says which).
	set func(s *Settings, v string) error
}

// Vars lists every environment variable drift-lsp reads, in the order of
// the documentation's table (docs/settings.md, which a test keeps equal).
var Vars = []Var{
	{"DRIFT_LLM_BASE_URL", "llm.baseUrl", "OpenAI-compatible endpoint base, e.g. `http://127.0.0.1:8080/v1`; unset: the bundled local model when installed, else no model.", str(func(s *Settings) *string { return &s.LLM.BaseURL })},
	{"DRIFT_LLM_MODEL", "llm.model", "Model name sent with every request.", str(func(s *Settings) *string { return &s.LLM.Model })},
	{"DRIFT_LLM_API_KEY_ENV", "llm.apiKeyEnv", "NAME of the variable holding the API key (default `OPENAI_API_KEY`); the key is never a setting, never logged.", str(func(s *Settings) *string { return &s.LLM.APIKeyEnv })},
	{"DRIFT_LLM_GRAMMAR", "llm.grammar", "How Formalize constrains the model to the grammar of a Lean statement (no LaTeX, names from the retrieved vocabulary): `auto` (default: the bundled local model, through llama.cpp's `grammar`; no endpoint), `llama.cpp`, `vllm` (`structured_outputs`) or `off`.", str(func(s *Settings) *string { return &s.LLM.Grammar })},
	{"DRIFT_LLM_LOCAL", "llm.local", "`auto` (default) or `off`: the bundled local model when no endpoint is set.", str(func(s *Settings) *string { return &s.LLM.Local })},
	{"DRIFT_LLM_MODEL_DECOMPOSE", "", "Model of the decompose stage (default DRIFT_LLM_MODEL); likewise the next five.", stage("decompose")},
	{"DRIFT_LLM_MODEL_PROPOSE", "", "Model of the propose stage.", stage("propose")},
	{"DRIFT_LLM_MODEL_FORMALIZE", "", "Model of the formalize stage.", stage("formalize")},
	{"DRIFT_LLM_MODEL_INFORMALIZE", "", "Model of the informalize stage.", stage("informalize")},
	{"DRIFT_LLM_MODEL_REPAIR", "", "Model of the repair stage.", stage("repair")},
	{"DRIFT_LLM_MODEL_BACKTRANSLATE", "", "Model of the back-translation stage.", stage("backtranslate")},
	{"DRIFT_LLM_TIMEOUT", "", "Per-call deadline, retries included: a Go duration such as `90s` (default `120s`; 15 min with the local model).", func(s *Settings, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("a positive duration such as 90s")
		}
		s.LLM.Timeout = d
		return nil
	}},
	{"DRIFT_LLM_RETRIES", "", "Retries after a 429, a 5xx or a connection error (default 3; 0: none).", count(func(s *Settings) *int { return &s.LLM.Retries })},
	{"DRIFT_LLM_CONCURRENCY", "", "Model calls in flight at once (default 4; 1 with the local model).", count(func(s *Settings) *int { return &s.LLM.Concurrency })},
	{"DRIFT_LLM_BUDGET", "", "Default call budget of one action (default 12).", count(func(s *Settings) *int { return &s.LLM.CallBudget })},
	{"DRIFT_LLM_MAX_TOKENS", "", "max_tokens of every request (default 2048; 512 with the local model).", count(func(s *Settings) *int { return &s.LLM.MaxTokens })},
	{"DRIFT_LLM_STREAM", "", "`1`/`true`/`yes`/`on`: streamed answers (default off).", func(s *Settings, v string) error {
		switch strings.ToLower(v) {
		case "1", "true", "yes", "on":
			s.LLM.Stream = true
		case "0", "false", "no", "off":
			s.LLM.Stream = false
		default:
			return fmt.Errorf("one of 1, true, yes, on, 0, false, no, off")
		}
		return nil
	}},
	{"DRIFT_LLM_CACHE", "", "Response cache directory, or `off` (default: `llm` in the cache directory).", func(s *Settings, v string) error {
		switch v {
		case "off", "none", "0":
			s.LLM.CacheDir = ""
		default:
			s.LLM.CacheDir = v
		}
		return nil
	}},
	{"DRIFT_LOCAL_LLM_DIR", "", "Where the bundled local model is installed (default: `local-llm` in the cache directory).", str(func(s *Settings) *string { return &s.Paths.LocalLLM })},
	{"DRIFT_EMBED_PROVIDER", "embedding.provider", "`auto` (default: the first installed of `use-lite-int8`, `use-lite`, `all-minilm-l6-v2`), `use-lite`, `bert`, `openai` or `none`; a provider that fails falls back to the bundled models with a warning.", str(func(s *Settings) *string { return &s.Embedding.Provider })},
	{"DRIFT_EMBED_MODEL_DIR", "embedding.modelDir", "`bert`: a directory with `model.onnx` (or `onnx/model.onnx`) and `vocab.txt`/`tokenizer.json` (a sentence-transformers export works as is).", str(func(s *Settings) *string { return &s.Embedding.ModelDir })},
	{"DRIFT_EMBED_BASE_URL", "embedding.baseUrl", "`openai`: the embeddings endpoint, e.g. `http://localhost:11434/v1` (`/v1` is added to a bare host).", str(func(s *Settings) *string { return &s.Embedding.BaseURL })},
	{"DRIFT_EMBED_MODEL", "embedding.model", "`openai`: the embedding model name.", str(func(s *Settings) *string { return &s.Embedding.Model })},
	{"DRIFT_EMBED_API_KEY_ENV", "", "Name of the variable holding the embeddings endpoint's key (default OPENAI_API_KEY).", str(func(s *Settings) *string { return &s.Embedding.APIKeyEnv })},
	{"DRIFT_EMBED_DIM", "", "`openai`: the dimensions requested.", count(func(s *Settings) *int { return &s.Embedding.Dim })},
	{"DRIFT_EMBED_POOLING", "", "`bert`: `mean` or `cls` (default from `1_Pooling/config.json`, else mean).", func(s *Settings, v string) error {
		if v != "mean" && v != "cls" {
			return fmt.Errorf("mean or cls")
		}
		s.Embedding.Pooling = v
		return nil
	}},
	{"DRIFT_EMBED_MAX_LENGTH", "", "`bert`: tokens per text (default from `sentence_bert_config.json`, else 256).", count(func(s *Settings) *int { return &s.Embedding.MaxLength })},
	{"DRIFT_EMBED_THREADS", "", "ONNX Runtime intra-op threads (default 2).", count(func(s *Settings) *int { return &s.Embedding.Threads })},
	{"DRIFT_ORT_LIBRARY", "", "Path of `libonnxruntime.so.1` (default: the one `setup embeddings` installs under the models directory).", str(func(s *Settings) *string { return &s.Embedding.ORTLibrary })},
	{"DRIFT_MODELS", "", "Where `setup embeddings` installs models (default: `models` in the cache directory).", str(func(s *Settings) *string { return &s.Paths.Models })},
	{"DRIFT_ROOTS", "roots", "Extra library roots, separated as in PATH.", func(s *Settings, v string) error {
		s.Roots = filepath.SplitList(v)
		return nil
	}},
	{"DRIFT_CACHE_DIR", "cacheDir", "Index cache, shared by the server and the commands (default: the cache directory).", str(func(s *Settings) *string { return &s.CacheDir })},
	{"DRIFT_REPL", "repl.command", "Command starting a Lean REPL, e.g. `lake env repl`, run by the shell (`/bin/sh -c`; `cmd /C` on Windows).", str(func(s *Settings) *string { return &s.REPL.Command })},
	{"DRIFT_REPL_TIMEOUT", "repl.timeoutSeconds", "Per-request REPL deadline in seconds (1 to 3600, default 60).", setting("repl.timeoutSeconds")},
	{"DRIFT_LEAN", "lean.command", "Command running `lean` when there is no REPL, split at spaces, e.g. `lake env lean` (default: `lake env lean` in a Lake workspace, else the `lean` of its `lean-toolchain`, else `lean` on PATH).", str(func(s *Settings) *string { return &s.Lean.Command })},
	{"DRIFT_SAMPLES", "pipeline.samples", "Formalization candidates drawn with retrieved context (1 to 16, default 4); `formalize --samples` overrides it.", setting("pipeline.samples")},
	{"DRIFT_REPAIR_BUDGET", "pipeline.repairBudget", "Model repair attempts on the chosen candidate when it fails a check (0 to 16, default 4; 0: off); `formalize --repair` overrides it.", setting("pipeline.repairBudget")},
	{"DRIFT_TIME_BUDGET", "pipeline.timeBudgetSeconds", "Seconds one formalize action may take before it skips what the choice can do without: the back-translation and further model repairs; a failed candidate's first repair still starts while the budget lasts (0 to 3600, default 45; 0: no bound). Decompose and the candidates always run.", setting("pipeline.timeBudgetSeconds")},
	{"DRIFT_PIPELINE_CONCURRENCY", "pipeline.concurrency", "Statements a batch (`drift-lsp blueprint`, *Formalize the blueprint*) formalizes at once (1 to 64, default 1).", setting("pipeline.concurrency")},
	{"DRIFT_LEAN_SERVER", "lean.server", "Base URL of a Kimina Lean Server (`POST /verify`, github.com/project-numina/kimina-lean-server) that checks stubs instead of the local REPL pool, e.g. `http://10.0.0.5:8000`.", str(func(s *Settings) *string { return &s.Lean.Server })},
	{"DRIFT_MAX_JOBS", "maxJobs", "Background jobs at once (1 to 16, default 2).", setting("maxJobs")},
	{"DRIFT_LOG_LEVEL", "log.level", "`error`, `warn`, `info` (default) or `debug`.", str(func(s *Settings) *string { return &s.Log.Level })},
	{"DRIFT_LOG_FILE", "log.file", "Copy of the log in a file (never secrets).", str(func(s *Settings) *string { return &s.Log.File })},
	{"XDG_CACHE_HOME", "", "The cache directory is `drift-lsp` in it, else `~/.cache/drift-lsp` (HOME, or USERPROFILE on Windows).", nil},
	{"ELAN_HOME", "", "elan's directory, whose toolchains give Lean's sources and `lean` (default `~/.elan`).", nil},
	{"LEAN_PATH", "", "Extended, not replaced, when `lean` runs without Lake.", nil},
	{"DRIFT_VERBOSE", "", "Any value: the commands print the index's progress (read by cmd/).", nil},
	{"DRIFT_LOCAL_MODEL", "", "The model `setup model` installs: `0.5b` or `1.5b` (read by cmd/).", nil},
	{"DRIFT_LEAN_HOME", "", "Where `setup lean-test` installs Lean (read by cmd/ and the tests).", nil},
	{"DRIFT_MATHLIB", "", "The workspace of `drift-bench lsp` and `make bench-lsp` (read by cmd/drift-bench).", nil},
	{"DRIFT_REQUIRE_LEAN", "", "Tests that need Lean fail instead of skipping (`make test`, CI).", nil},
	{"DRIFT_REQUIRE_MCP_PY", "", "Tests that need the MCP Python SDK fail instead of skipping.", nil},
}

// FromEnv returns the defaults with the environment that getenv reads laid
// over them (the variables of Vars), validated: an invalid value keeps the
// default and is described in Warnings. The settings keep getenv for the
// secrets they name (APIKey); nothing else reads the environment.
func FromEnv(getenv func(string) string) Settings {
	s := Default()
	s.lookup = getenv
	s.Paths = Paths{Cache: cachedir.Dir(getenv), Elan: lake.ElanHome(getenv), LeanPath: getenv("LEAN_PATH")}
	s.Paths.Models = filepath.Join(s.Paths.Cache, "models")
	s.Paths.LocalLLM = filepath.Join(s.Paths.Cache, "local-llm")
	s.LLM.CacheDir = cacheSub(s.Paths.Cache, "llm")
	for _, v := range Vars {
		raw := strings.TrimSpace(getenv(v.Name))
		if v.set == nil || raw == "" {
			continue
		}
		if err := v.set(&s, raw); err != nil {
			s.warn(v.Name, fmt.Sprintf("%q", raw), err.Error(), "the default")
		}
	}
	// A variable's invalid word or range is named by the variable.
	n := len(s.Warnings)
	s = s.Normalized()
	for i := n; i < len(s.Warnings); i++ {
		for _, v := range Vars {
			if v.Setting != "" && strings.HasPrefix(s.Warnings[i], v.Setting+"=") {
				s.Warnings[i] = v.Name + strings.TrimPrefix(s.Warnings[i], v.Setting)
			}
		}
	}
	return s
}

// str sets a string field.
func str(field func(*Settings) *string) func(*Settings, string) error {
	return func(s *Settings, v string) error {
		*field(s) = v
		return nil
	}
}

// count sets a non-negative whole number.
func count(field func(*Settings) *int) func(*Settings, string) error {
	return func(s *Settings, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("a non-negative whole number")
		}
		*field(s) = n
		return nil
	}
}

// setting sets the whole-number setting name, within its range.
func setting(name string) func(*Settings, string) error {
	for _, r := range intRules {
		if r.setting == name {
			return func(s *Settings, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < r.lo || n > r.hi {
					return fmt.Errorf("%s", r.want())
				}
				*r.field(s) = n
				return nil
			}
		}
	}
	panic("settings: no range for " + name)
}

// stage sets the model of one pipeline stage.
func stage(name string) func(*Settings, string) error {
	return func(s *Settings, v string) error {
		if s.LLM.StageModels == nil {
			s.LLM.StageModels = map[string]string{}
		}
		s.LLM.StageModels[name] = v
		return nil
	}
}
