// Command drift-bench holds the benchmarks that need test doubles — a fake
// editor (internal/fakeeditor) and a fake model endpoint (llm/llmtest) — so
// that neither is linked into drift-lsp. `drift-bench lsp` replays a scripted
// editor session against the real language server.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: drift-bench lsp [flags]\n\nBenchmarks:\n  lsp        replay a scripted editor session against the language server (latency, soak RSS)")
		return 2
	}
	switch args[0] {
	case "lsp":
		return runBenchLSP(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "drift-bench: unknown benchmark %q\n", args[0])
	return 2
}
