package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/cmd/internal/mcpserver"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

func init() {
	register("mcp", "serve the library, the name check and the checks to coding agents over MCP (stdio; --http ADDR too)", runMCP)
}

// runMCP serves MCP on stdin/stdout, and on streamable HTTP with --http,
// over the workspace around --root (default: the current directory's),
// wired as serve wires an editor's workspace (app.Open, the settings of the
// DRIFT_* environment). Everything it started (the index watcher, the REPL
// pool, the local model) is stopped when stdin ends, on SIGINT or SIGTERM.
func runMCP(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("mcp", stderr, "usage: drift-lsp mcp [--root DIR]... [--cache DIR] [--http ADDR [--allow-remote] [--stdio=false]]")
	var roots multiFlag
	fs.Var(&roots, "root", "workspace root (repeatable; default: the current directory's workspace)")
	cache := fs.String("cache", "", "index cache directory (default: the one serve and the commands use)")
	httpAddr := fs.String("http", "", "also serve streamable HTTP at host:port (loopback only unless --allow-remote)")
	allowRemote := fs.Bool("allow-remote", false, "let --http listen on an address that is not loopback")
	stdio := fs.Bool("stdio", true, "serve stdin/stdout (with --http, --stdio=false serves HTTP only, until a signal)")
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
	}
	if !*stdio && *httpAddr == "" {
		fmt.Fprintln(stderr, "drift-lsp mcp: --stdio=false needs --http ADDR")
		return 2
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// The address is checked before anything is loaded.
	var l net.Listener
	if *httpAddr != "" {
		var err error
		if l, err = mcpserver.Listen(*httpAddr, *allowRemote); err != nil {
			fmt.Fprintf(stderr, "drift-lsp mcp: %v\n", err)
			return 2
		}
		defer l.Close()
	}
	first := "."
	if len(roots) > 0 {
		first = roots[0]
	}
	s := envSettings(stderr)
	ws, err := library.DiscoverWith(first, nil, s.Paths.Elan)
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp mcp: %v\n", err)
		return 2
	}
	if *cache != "" {
		s.CacheDir = *cache
	}
	if len(roots) > 1 {
		s.Roots = append(s.Roots, roots[1:]...)
	}
	w, err := app.Open(ctx, s, ws.Dir, logf)
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp mcp: %v\n", err)
		return 2
	}
	defer w.Close()
	srv := mcpserver.New(app.MCP(w), mcpserver.Options{Logf: logf})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	if l != nil {
		logf("drift-lsp mcp: streamable HTTP at http://%s", l.Addr())
		go func() { errc <- mcpserver.ServeHTTP(ctx, srv, l) }()
	}
	if *stdio {
		go func() { errc <- mcpserver.ServeStdio(ctx, srv, serverStdin(), nopCloser{stdout}) }()
	}
	// The first transport to end (stdin closed, a signal) ends them all.
	err = <-errc
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp mcp: %v\n", err)
		return 1
	}
	return 0
}

// nopCloser is a writer whose Close does nothing: stdout stays open for
// the process's last writes.
type nopCloser struct{ io.Writer }

// Close does nothing.
func (nopCloser) Close() error { return nil }
