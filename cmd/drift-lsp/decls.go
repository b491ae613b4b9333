package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/drift-lsp/drift-lsp/retrieval/library"
)

func init() {
	register("decls", "print every declaration of the workspace as JSONL", runDecls)
}

func runDecls(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decls", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := addIndexFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: drift-lsp decls [--root DIR]... [--cache DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	lib, err := f.load(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp decls: %v\n", err)
		return 1
	}
	if err := library.WriteDecls(stdout, lib.Decls()); err != nil {
		fmt.Fprintf(stderr, "drift-lsp decls: %v\n", err)
		return 1
	}
	return 0
}
