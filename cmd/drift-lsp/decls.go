package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

func init() {
	register("decls", "print every declaration of the workspace as JSONL", runDecls)
}

func runDecls(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("decls", stderr, "usage: drift-lsp decls [--root DIR]... [--cache DIR]")
	f := addIndexFlags(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
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
