package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/lsp"
)

func init() {
	register("serve", "speak LSP on stdin/stdout (the default command)", runServe)
}

// runServe serves one LSP session on stdin/stdout. Settings come from the
// client (initializationOptions, workspace/configuration section "drift") and
// fall back to the DRIFT_* environment variables, read here, at the top. The
// process exits when Serve returns, even if a read of stdin is pending.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", stderr)
	fs.Bool("stdio", true, "use stdin/stdout (the only transport; accepted for editors that pass it)")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The environment's warnings go to stderr, the editor's server log,
	// and again to the log once the session starts.
	opts := app.ServerOptions(envSettings(stderr))
	opts.Version = buildVersion()
	return lsp.Serve(ctx, serverStdin(), stdout, opts)
}
