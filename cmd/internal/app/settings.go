package app

import (
	"context"

	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/lsp"
)

// ServerOptions returns the language server's options under base (the
// defaults and the environment, settings.FromEnv): the backend opener,
// base as the settings the editor's are laid over, and the secrets to
// redact. The caller sets the rest (Debounce, Version, …).
func ServerOptions(base settings.Settings) lsp.Options {
	return lsp.Options{Open: Opener(), Base: &base, Secrets: settings.Settings.Secrets}
}

// Opener returns the lsp.OpenFunc of drift-lsp: Open's backend for an
// editor's workspace folder.
func Opener() lsp.OpenFunc {
	return func(ctx context.Context, root string, s lsp.Settings, logf func(string, ...any)) (lsp.Backend, error) {
		b, err := open(ctx, root, s, logf)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return b, nil
	}
}
