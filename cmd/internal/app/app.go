// Package app is drift-lsp's composition root, shared by `serve`, `mcp` and
// every command: from one settings.Settings (the defaults, the environment
// read by cmd/ through internal/settings, the editor's values) it builds
// the retrieval engine over the workspace with its embedder, the model
// client (the bundled local model included), the checker with its REPL
// pool or `lean`, and the DRIFT pipeline (Open). Nothing in it or below it
// reads the environment: everything is handed down from the settings. Its
// backend implements lsp.Backend, so that lsp stays the protocol edge.
package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/proc"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/local"
	"github.com/drift-lsp/drift-lsp/lsp"
	"github.com/drift-lsp/drift-lsp/retrieval"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

// ModelConfig is the model client's configuration under settings s: the
// llm.* settings as they are (the environment's values under the editor's,
// so an editor that sets baseUrl to "" turns the model off even when the
// environment names one) and the key from the variable s names.
func ModelConfig(s settings.Settings) llm.Config {
	return llm.Config{
		BaseURL: s.LLM.BaseURL, Model: s.LLM.Model, APIKeyEnv: s.LLM.APIKeyEnv, APIKey: s.APIKey(),
		StageModels: s.LLM.StageModels, Timeout: s.LLM.Timeout, MaxRetries: s.LLM.Retries,
		Concurrency: s.LLM.Concurrency, CallBudget: s.LLM.CallBudget, MaxTokens: s.LLM.MaxTokens,
		Stream: s.LLM.Stream, CacheDir: s.LLM.CacheDir,
	}
}

// NewModel builds the model client of s (ModelSetup's).
func NewModel(s settings.Settings, logf func(string, ...any), srv *local.Server) (*llm.Client, *local.Server, error) {
	cfg, srv, err := ModelSetup(s, logf, srv)
	if err != nil {
		return nil, nil, err
	}
	c, err := llm.New(cfg)
	return c, srv, err
}

// ModelSetup is the configuration of the model client of s: its endpoint,
// else the bundled local model unless s.LLM.Local is "off" (localModel;
// srv, when not nil, is reused), or why there is none (wrapping
// lsp.ErrNoModel). It returns the local model's server when the
// configuration uses it (the caller closes it at exit).
func ModelSetup(s settings.Settings, logf func(string, ...any), srv *local.Server) (llm.Config, *local.Server, error) {
	cfg := ModelConfig(s)
	cfg.Logf = logf
	var err error
	if !cfg.Configured() && srv != nil && s.LLM.Local != local.ModeOff {
		cfg = srv.Apply(cfg)
	} else if !cfg.Configured() {
		cfg, srv, err = localModel(cfg, s, logf)
		if err != nil && !errors.Is(err, local.ErrNotInstalled) && logf != nil {
			logf("drift: %v", err)
		}
	}
	switch {
	case !cfg.Configured() && s.LLM.Local == local.ModeOff:
		return cfg, nil, fmt.Errorf("%w: %s (the bundled local model is turned off: llm.local is off)", lsp.ErrNoModel, llm.HowToConfigure)
	case !cfg.Configured():
		return cfg, nil, fmt.Errorf("%w: %s (or install the local model: drift-lsp setup model)", lsp.ErrNoModel, llm.HowToConfigure)
	}
	if cfg.Endpoint == nil {
		srv = nil
	}
	cfg.Grammar = grammarDialect(s.LLM.Grammar, cfg.Endpoint != nil)
	return cfg, srv, nil
}

// grammarDialect resolves the llm.grammar setting: auto sends the grammar
// to the bundled local model (llama.cpp's server, always able to) and to
// no endpoint (whether one takes a grammar, and in which field, is not
// something a client can ask).
func grammarDialect(setting string, localModel bool) string {
	switch setting {
	case llm.GrammarLlamaCpp, llm.GrammarVLLM:
		return setting
	case "", "auto":
		if localModel {
			return llm.GrammarLlamaCpp
		}
	}
	return ""
}

// localModel points cfg, when it names no endpoint, at the bundled local
// model (llm/local) unless s.LLM.Local is "off": installed in
// s.Paths.LocalLLM, started on the first request. It returns the server
// (the caller closes it), or local.ErrNotInstalled (wrapped) with cfg
// unchanged.
func localModel(cfg llm.Config, s settings.Settings, logf func(string, ...any)) (llm.Config, *local.Server, error) {
	return local.Configure(cfg, s.LLM.Local, s.Paths.LocalLLM, local.Options{Logf: logf})
}

// newEmbedder builds the embedder cfg asks for; nil when dense retrieval is
// off or unavailable (logf says why).
func newEmbedder(cfg embed.Config, logf func(string, ...any)) embed.Embedder {
	if cfg.Provider == embed.ProviderNone {
		return nil
	}
	emb, warn := embed.Default(cfg)
	if warn != "" && logf != nil {
		logf("drift: %s", warn)
	}
	return emb
}

// OpenEngine opens the retrieval engine over roots (the first is the
// workspace) and the corpora of settings s, with the index cache, elan's
// directory and the embedder of s, as serve, mcp and every command do: the
// index is built or loaded in the background. live keeps it up to date
// with the files on disk (serve and mcp).
func OpenEngine(ctx context.Context, s settings.Settings, roots []string, live bool, logf func(string, ...any)) (*retrieval.Engine, error) {
	emb := newEmbedder(embed.ConfigOf(s), logf)
	return retrieval.Open(ctx, retrieval.Config{Roots: roots, Corpus: s.Corpus, CacheDir: s.Cache(), ElanHome: s.Paths.Elan, Embedder: emb, Watch: live, Logf: logf})
}

// LoadLibrary loads the library of roots (the first is the workspace) under
// settings s as the engine does (OpenEngine): Lean's sources from elan's
// directory, the index cache of s. The commands that need the library
// without the engine (index, decls, lint-docs) use it.
func LoadLibrary(ctx context.Context, s settings.Settings, roots []string, logf func(string, ...any)) (*library.Library, error) {
	if len(roots) == 0 {
		return nil, errors.New("no workspace root")
	}
	ws, err := library.DiscoverWith(roots[0], roots[1:], s.Paths.Elan)
	if err != nil {
		return nil, err
	}
	return library.Load(ctx, ws, library.Options{CacheDir: s.Cache(), Logf: logf})
}

// CheckOptions are what a command sets of the checker besides the
// settings.
type CheckOptions struct {
	// Timeout and ImportTimeout override repl.timeoutSeconds and the
	// header's default deadline when positive.
	Timeout, ImportTimeout time.Duration
	// CacheDir holds pickled header environments ("": none).
	CacheDir string
	// NoLean, when set, is why Lean is not run.
	NoLean string
}

// OpenChecker builds the checker of the workspace at root over engine eng
// under settings s: the gate, the names and kinds of eng's library, and
// Lean through the REPL of repl.command (run by the platform's shell),
// else one found in the workspace, else `lean --json` (lean.command, else
// the workspace's toolchain), or a Kimina Lean Server when lean.server
// names one. Without Lean the checker's reports say why,
// and err is why (the pool is nil then).
func OpenChecker(eng *retrieval.Engine, s settings.Settings, root string, o CheckOptions, logf func(string, ...any)) (*leanrepl.Checker, *leanrepl.Pool, error) {
	cfg := leanrepl.CheckerConfig{Names: drift.LiveNames(eng), Kinds: leanrepl.LibraryKinds(eng.Lookup, eng.ExportAlias), Library: eng.Library, NoLean: o.NoLean}
	if s.Lean.Server != "" && o.NoLean == "" {
		cfg.Kimina = &leanrepl.Kimina{URL: s.Lean.Server, Timeout: time.Duration(s.REPL.TimeoutSeconds) * time.Second}
	}
	var cmd []string
	if s.REPL.Command != "" {
		cmd = proc.Shell(s.REPL.Command)
	}
	timeout := time.Duration(s.REPL.TimeoutSeconds) * time.Second
	if o.Timeout > 0 {
		timeout = o.Timeout
	}
	return leanrepl.OpenChecker(cfg, leanrepl.Config{Command: cmd, Root: root, Size: s.REPL.PoolSize, Timeout: timeout,
		ImportTimeout: o.ImportTimeout, CacheDir: o.CacheDir, MemoryLimit: int64(s.REPL.MemoryMB) << 20, Logf: logf,
		LeanCommand: strings.Fields(s.Lean.Command), Env: LeanEnv(s.Paths)})
}

// LeanEnv is what leanrepl's toolchain lookup takes from the environment,
// from the settings' paths.
func LeanEnv(p settings.Paths) leanrepl.Env {
	return leanrepl.Env{ElanHome: p.Elan, LeanPath: p.LeanPath}
}

// PipelineParams are the pipeline's parameters under settings s: the one
// set that serve, mcp, `formalize` and `bench formalize` start from (a
// command's flags, a benchmark configuration's subject, override them).
func PipelineParams(s settings.Settings) drift.Params {
	p := drift.Params{K: s.Pipeline.K, M: s.Pipeline.M, Samples: s.Pipeline.Samples, RepairBudget: s.Pipeline.RepairBudget,
		TimeBudget: time.Duration(s.Pipeline.TimeBudgetSeconds) * time.Second}
	if s.Pipeline.SubQueries == "topk" {
		p.PerSubQuery = s.Pipeline.K
	}
	return p
}
