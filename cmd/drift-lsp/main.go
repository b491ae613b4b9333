// Command drift-lsp is a language-server sidecar for Lean 4 that turns
// informal statements in comments into checked `theorem … := by sorry` stubs.
// With no arguments (or `serve`) it speaks LSP on stdio; the other
// subcommands expose each pipeline stage on the command line.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand of drift-lsp.
type command struct {
	summary string
	// run executes the subcommand with the arguments after its name and
	// returns the process exit status.
	run func(args []string, stdout, stderr io.Writer) int
}

// commands maps subcommand names to their implementations; each subcommand
// registers itself from an init function in its own file.
var commands = map[string]command{}

func register(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	if _, dup := commands[name]; dup {
		panic("drift-lsp: duplicate command " + name)
	}
	commands[name] = command{summary: summary, run: run}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	name := "serve"
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	switch name {
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	case "-version", "--version":
		name = "version"
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "drift-lsp: unknown command %q (see the commands below)\n\n", name)
		usage(stderr)
		return 2
	}
	if asksHelp(args) {
		// The usage a command prints for -h is its answer: to stdout.
		stderr = stdout
	}
	return cmd.run(args, stdout, stderr)
}

// asksHelp reports whether the flags in args, before a "--", ask for help.
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: drift-lsp [command] [flags] [args]")
	fmt.Fprintln(w, "\nWith no command, drift-lsp serves LSP on stdin/stdout. `drift-lsp COMMAND --help`\nshows a command's flags; `drift-lsp doctor` what drift-lsp found on this machine.\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}
