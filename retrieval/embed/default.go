package embed

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/settings"
)

// Providers accepted in Config.Provider.
const (
	ProviderAuto    = "auto"     // best local model installed (also the empty string)
	ProviderUSELite = "use-lite" // Universal Sentence Encoder lite (ONNX)
	ProviderBERT    = "bert"     // a BERT-family ONNX model in Config.ModelDir
	ProviderOpenAI  = "openai"   // an OpenAI-compatible /v1/embeddings endpoint
	ProviderNone    = "none"     // dense search off
)

// BundledModels lists the local models setup installs, in the order Default
// tries them: USE-lite's 8-bit variant first (the only one fast enough to
// embed all of Mathlib in minutes on two cores, and the one that measured
// best on the ProofNet hybrid benchmark, see docs/retrieval.md), then USE-lite
// (verified against TF.js), then all-MiniLM-L6-v2 (strongest alone on a
// dense-only proxy, but several times slower; choose it with provider "bert").
var BundledModels = []string{"use-lite-int8", "use-lite", "all-minilm-l6-v2"}

// Config selects and configures the embedder (LSP settings and environment).
type Config struct {
	Provider  string // see the Provider constants
	ModelsDir string // where setup put models (settings.Paths.Models)
	ModelDir  string // bert: a model directory (model.onnx + vocab.txt/tokenizer.json)
	Pooling   string // bert: "mean" or "cls" (overrides the directory's setting)
	MaxLength int    // bert: tokens per text (overrides)
	Library   string // path of libonnxruntime.so.1 (default ModelsDir/lib/libonnxruntime.so.1)
	Threads   int    // ONNX Runtime intra-op threads (default 2)
	BaseURL   string // openai: endpoint
	Model     string // openai: model name
	APIKeyEnv string // openai: name of the env var holding the key (default OPENAI_API_KEY)
	APIKey    string // openai: the key (resolved from APIKeyEnv by the caller)
	Dim       int    // openai: requested dimensions
}

// ConfigOf is the configuration settings s ask for.
func ConfigOf(s settings.Settings) Config {
	e := s.Embedding
	return Config{Provider: e.Provider, ModelsDir: s.Paths.Models, ModelDir: e.ModelDir, Pooling: e.Pooling,
		MaxLength: e.MaxLength, Library: e.ORTLibrary, Threads: e.Threads, BaseURL: e.BaseURL, Model: e.Model,
		APIKeyEnv: e.APIKeyEnv, APIKey: s.EmbedAPIKey(), Dim: e.Dim}
}

// Default builds the embedder cfg asks for. With no provider (or "auto") it
// takes the first of BundledModels that is installed. When the configured
// provider fails it falls back to the bundled models and says so in the
// warning. When nothing works it returns (nil, warning): the caller then
// searches with the lexical and name channels only. The warning is one
// sentence for the user's log, empty when all went as configured.
func Default(cfg Config) (Embedder, string) {
	modelsDir := cfg.ModelsDir
	opts := LocalOptions{Library: cfg.Library, Threads: cfg.Threads}
	if opts.Library == "" {
		opts.Library = filepath.Join(modelsDir, "lib", ORTLibraryName)
	}
	var failed string
	switch p := strings.ToLower(strings.TrimSpace(cfg.Provider)); p {
	case "", ProviderAuto:
	case ProviderNone:
		return nil, ""
	case ProviderOpenAI:
		e, err := NewOpenAI(OpenAIOptions{BaseURL: cfg.BaseURL, Model: cfg.Model, APIKey: cfg.APIKey, Dim: cfg.Dim})
		if err == nil {
			return e, ""
		}
		failed = err.Error()
	case ProviderUSELite:
		e, err := NewUSELite(filepath.Join(modelsDir, "use-lite"), opts)
		if err == nil {
			return e, ""
		}
		failed = err.Error()
	case ProviderBERT:
		e, err := newBERTFromConfig(cfg, opts)
		if err == nil {
			return e, ""
		}
		failed = err.Error()
	default:
		failed = fmt.Sprintf("unknown embedding provider %q (want auto, use-lite, bert, openai or none)", cfg.Provider)
	}
	if errNoLocal != nil {
		// A cgo-free build: say so once, not once per bundled model.
		if failed != "" {
			return nil, fmt.Sprintf("dense search disabled: %s; %v", failed, errNoLocal)
		}
		return nil, fmt.Sprintf("dense search disabled: %v", errNoLocal)
	}
	e, err := bundled(modelsDir, opts)
	switch {
	case e != nil && failed != "":
		return e, fmt.Sprintf("embeddings: %s; using bundled model %s instead", failed, e.Name())
	case e != nil:
		return e, ""
	case failed != "":
		return nil, fmt.Sprintf("dense search disabled: %s; bundled models unavailable too (%v); searching with lexical and name channels only", failed, err)
	}
	return nil, fmt.Sprintf("dense search disabled: %v; searching with lexical and name channels only (run `make setup` to install the models)", err)
}

func newBERTFromConfig(cfg Config, opts LocalOptions) (*Local, error) {
	if cfg.ModelDir == "" {
		return nil, fmt.Errorf("bert embeddings: no model directory configured")
	}
	o, err := BERTOptionsFromDir(cfg.ModelDir)
	if err != nil {
		return nil, err
	}
	if cfg.Pooling != "" {
		o.Pooling = cfg.Pooling
	}
	if cfg.MaxLength > 0 {
		o.MaxLength = cfg.MaxLength
	}
	return NewBERT(o, opts)
}

// bundled loads the first installed bundled model.
func bundled(modelsDir string, opts LocalOptions) (*Local, error) {
	if _, err := os.Stat(opts.Library); err != nil {
		return nil, fmt.Errorf("%w: ONNX Runtime library not found at %s", ErrUnavailable, opts.Library)
	}
	var errs []string
	for _, name := range BundledModels {
		dir := filepath.Join(modelsDir, name)
		if _, err := os.Stat(filepath.Join(dir, "model.onnx")); err != nil {
			continue
		}
		var e *Local
		var err error
		if strings.HasPrefix(name, "use-lite") {
			e, err = NewUSELite(dir, opts)
		} else {
			var o BERTOptions
			if o, err = BERTOptionsFromDir(dir); err == nil {
				e, err = NewBERT(o, opts)
			}
		}
		if err == nil {
			return e, nil
		}
		errs = append(errs, fmt.Sprintf("%s: %v", name, err))
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("%w: no model installed in %s", ErrUnavailable, modelsDir)
	}
	return nil, fmt.Errorf("%w: %s", ErrUnavailable, strings.Join(errs, "; "))
}
