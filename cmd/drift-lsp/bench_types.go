package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

func init() {
	registerBench("types", "light elaborator (type findings) on reference statements: every flag is a false alarm", runBenchTypes)
}

func runBenchTypes(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench types", stderr, "usage: drift-lsp bench types [--root DIR]... [--proofnet FILE.jsonl] [--minif2f LEAN_DIR,...]",
		"Runs the light elaborator (the checker's `type` findings) on reference statements, which Lean",
		"accepts: every finding is a false alarm and is printed. Prints, per set, the statements read, those",
		"the gate passed, those flagged, and the median and p95 time per stub (library loaded), twice: cold",
		"(the library files' `variable` commands read on first use), then warm.",
		"miniF2F statements are LEAN_DIR/*.lean, from their first `theorem`, under the lines before it.")
	idx := addIndexFlags(fs)
	proofnet := fs.String("proofnet", "", "ProofNet-format JSONL (formal_stmt, header)")
	minif2f := fs.String("minif2f", "", "miniF2F Lean 4 statement directories, comma-separated")
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
	}
	if *proofnet == "" && *minif2f == "" {
		fs.Usage()
		return 2
	}
	type set struct {
		name     string
		problems []coverageProblem // Formal is the stub, Header its header
	}
	var sets []set
	if *proofnet != "" {
		ps, err := readProofNetPairs(*proofnet)
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench types:", err)
			return 2
		}
		sets = append(sets, set{"proofnet", ps})
	}
	for _, dir := range strings.Split(*minif2f, ",") {
		if dir == "" {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.lean"))
		if err != nil || len(files) == 0 {
			fmt.Fprintln(stderr, "drift-lsp bench types: no .lean files in", dir)
			return 2
		}
		var tp []coverageProblem
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				fmt.Fprintln(stderr, "drift-lsp bench types:", err)
				return 2
			}
			text, header := string(src), ""
			if i := strings.Index(text, "theorem "); i >= 0 {
				text, header = text[i:], strings.TrimSpace(text[:i])
			}
			tp = append(tp, coverageProblem{ID: strings.TrimSuffix(filepath.Base(f), ".lean"), Formal: text, Header: header})
		}
		sets = append(sets, set{"minif2f:" + filepath.Base(dir), tp})
	}
	lib, err := idx.load(context.Background(), stderr)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench types:", err)
		return 2
	}
	ix := names.New(lib.Decls())
	kinds := leanrepl.LibraryKinds(lib.Lookup, lib.ExportAlias)
	// two passes: the first reads the library files whose `variable`
	// commands the elaborator needs (cold), the second finds them cached
	for pass, label := range []string{"cold", "warm"} {
		for _, s := range sets {
			var ds []time.Duration
			gated, flagged := 0, 0
			for _, p := range s.problems {
				start := time.Now()
				stub, err := leanrepl.Gate(p.Formal)
				if err != nil {
					continue
				}
				fs := elab.Check(stub, leanrepl.TypeEnv(stub, p.Header, lib, ix, kinds, false))
				ds = append(ds, time.Since(start))
				gated++
				if len(fs) > 0 {
					flagged++
					for _, f := range fs {
						if pass == 0 {
							fmt.Fprintf(stdout, "FLAG %s %s: %s  [%s]\n", s.name, p.ID, f.Message, stub.Text[f.Start:f.End])
						}
					}
				}
			}
			sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
			med, p95 := time.Duration(0), time.Duration(0)
			if len(ds) > 0 {
				med, p95 = ds[len(ds)/2], ds[len(ds)*95/100]
			}
			fmt.Fprintf(stdout, "%s (%s): %d statements, %d passed the gate, %d flagged; per stub (gate + elaborator) median %s, p95 %s\n",
				s.name, label, len(s.problems), gated, flagged, med.Round(time.Microsecond), p95.Round(time.Microsecond))
		}
	}
	return 0
}
