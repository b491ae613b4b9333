package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/settings"
)

// multiFlag is a repeatable string flag: --root A --root B.
type multiFlag []string

// String joins the values with commas.
func (m *multiFlag) String() string { return strings.Join(*m, ",") }

// Set appends one value.
func (m *multiFlag) Set(v string) error {
	*m = append(*m, v)
	return nil
}

// indexFlags are the --root and --cache flags shared by commands that index
// a workspace.
type indexFlags struct {
	roots multiFlag
	cache string
	// elan is elan's directory (settings.Paths.Elan), where Lean's sources
	// are found.
	elan string
}

// addIndexFlags registers --root (repeatable) and --cache on fs.
func addIndexFlags(fs *flag.FlagSet) *indexFlags {
	s := settings.FromEnv(os.Getenv)
	f := &indexFlags{elan: s.Paths.Elan}
	fs.Var(&f.roots, "root", "workspace root to index (repeatable; default: the current directory's workspace)")
	// The one default of serve and mcp too: DRIFT_CACHE_DIR, else the cache
	// directory, so that the CLI and running servers share an index.
	fs.StringVar(&f.cache, "cache", s.Cache(), `index cache directory ("" disables the cache; default DRIFT_CACHE_DIR, else the user's cache)`)
	return f
}

// addCorpusFlag registers --corpus (repeatable) on fs.
func addCorpusFlag(fs *flag.FlagSet) *multiFlag {
	m := &multiFlag{}
	fs.Var(m, "corpus", "declaration dump in the decls JSONL schema (repeatable)")
	return m
}

// workspace discovers the workspace of the first root (the current
// directory when none was given), with the other roots as extra roots.
func (f *indexFlags) workspace() (*library.Workspace, error) {
	first, extra := ".", []string(nil)
	if len(f.roots) > 0 {
		first, extra = f.roots[0], f.roots[1:]
	}
	ws, err := library.DiscoverWith(first, extra, f.elan)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, workspaceHint)
	}
	return ws, nil
}

// workspaceHint says what to do when the workspace cannot be read.
const workspaceHint = "run from a Lean project or pass --root DIR; `drift-lsp doctor` shows what is found here"

// load loads the library of the flags' roots under the environment's
// settings as serve does (app.LoadLibrary), logging warnings to logw.
func (f *indexFlags) load(ctx context.Context, logw io.Writer) (*library.Library, error) {
	s, roots := commandSettings(envSettings(logw), f, nil)
	lib, err := app.LoadLibrary(ctx, s, roots, func(format string, args ...any) { fmt.Fprintf(logw, "drift-lsp: "+format+"\n", args...) })
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, workspaceHint)
	}
	return lib, nil
}

// newFlagSet returns a ContinueOnError flag set named name that writes to
// stderr; given usage lines, its usage prints them and then the flags.
func newFlagSet(name string, stderr io.Writer, usage ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if len(usage) > 0 {
		fs.Usage = func() {
			for _, line := range usage {
				fmt.Fprintln(stderr, line)
			}
			fs.PrintDefaults()
		}
	}
	return fs
}

// errUsage is a command line that does not fit a command's usage, which has
// been printed.
var errUsage = errors.New("usage")

// parseNoArgs parses args into fs and returns an error when they are not
// well formed or hold positional arguments, printing the usage then.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "drift-lsp %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return errUsage
	}
	return nil
}

// flagExit is the exit status after a failed parse of the command line: 0
// when it asked for help (the usage has been printed), else 2.
func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
