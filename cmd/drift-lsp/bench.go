package main

import (
	"fmt"
	"io"
	"sort"
)

// benches maps `drift-lsp bench NAME` to its implementation; each benchmark
// registers itself from an init function in its own file.
var benches = map[string]command{}

func registerBench(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	if _, dup := benches[name]; dup {
		panic("drift-lsp: duplicate bench " + name)
	}
	benches[name] = command{summary: summary, run: run}
}

func init() {
	register("bench", "measure quality and speed (bench NAME --help)", func(args []string, stdout, stderr io.Writer) int {
		if len(args) == 0 || asksHelp(args[:1]) {
			w, code := stderr, 2
			if len(args) > 0 {
				w, code = stdout, 0
			}
			fmt.Fprintln(w, "usage: drift-lsp bench NAME [flags]\n\nBenchmarks:")
			names := make([]string, 0, len(benches))
			for n := range benches {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintf(w, "  %-10s %s\n", n, benches[n].summary)
			}
			return code
		}
		b, ok := benches[args[0]]
		if !ok {
			fmt.Fprintf(stderr, "drift-lsp bench: unknown benchmark %q (drift-lsp bench --help lists them)\n", args[0])
			return 2
		}
		return b.run(args[1:], stdout, stderr)
	})
}
