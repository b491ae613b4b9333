package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// envSettings returns the settings of the process environment
// (settings.FromEnv, the one reading of it for the commands), printing
// their warnings on stderr.
func envSettings(stderr io.Writer) settings.Settings {
	s := settings.FromEnv(os.Getenv)
	for _, w := range s.Warnings {
		fmt.Fprintln(stderr, "drift-lsp: warning:", w)
	}
	return s
}

// commandSettings lays the command line over s and returns the roots to
// index, the first the workspace: the --root flags (else the current
// directory's workspace with the extra roots of s, unless only corpora are
// given), the --corpus flags and --cache ("" keeps the index in memory).
func commandSettings(s settings.Settings, idx *indexFlags, corpora []string) (settings.Settings, []string) {
	var roots []string
	switch {
	case len(idx.roots) > 0:
		roots = idx.roots
	case len(corpora) == 0:
		roots = append([]string{"."}, s.Roots...)
	default:
		roots = s.Roots
	}
	if len(roots) > 0 {
		s.Roots = roots[1:]
	}
	s.Corpus = corpora
	return s.WithCache(idx.cache), roots
}

// waitEngine waits until e is ready and, with an embedder, has embedded
// the library: a command then ranks as the editor does.
func waitEngine(ctx context.Context, e *retrieval.Engine) error {
	if err := e.WaitReady(ctx); err != nil {
		return err
	}
	return e.WaitEmbedded(ctx)
}

// commandLog returns the log of a command's engine: its lines on stderr
// when DRIFT_VERBOSE is set, else nowhere.
func commandLog(stderr io.Writer) func(string, ...any) {
	if os.Getenv("DRIFT_VERBOSE") == "" {
		return func(string, ...any) {}
	}
	return func(format string, args ...any) { fmt.Fprintf(stderr, "drift-lsp: "+format+"\n", args...) }
}

// openEngine opens the retrieval engine of a command under s over roots
// as serve does (app.OpenEngine: the same cache, embedder and ranking) and
// waits until it is ready and, with an embedder, embedded.
func openEngine(ctx context.Context, s settings.Settings, roots []string, stderr io.Writer) (*retrieval.Engine, error) {
	e, err := app.OpenEngine(ctx, s, roots, false, commandLog(stderr))
	if err != nil {
		return nil, err
	}
	if err := waitEngine(ctx, e); err != nil {
		e.Close()
		return nil, err
	}
	if w := e.Status().Warning; w != "" {
		fmt.Fprintln(stderr, "drift-lsp: note:", w)
	}
	return e, nil
}
