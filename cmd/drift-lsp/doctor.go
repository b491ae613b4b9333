package main

import (
	"fmt"
	"io"
	"os"

	"github.com/drift-lsp/drift-lsp/cmd/internal/doctor"
	"github.com/drift-lsp/drift-lsp/internal/settings"
)

func init() {
	register("doctor", "say what drift-lsp finds here: workspace, index, model, Lean, embeddings (exit 1 when something is missing)", runDoctor)
}

// runDoctor reports on the workspace around the current directory.
func runDoctor(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("doctor", stderr, "usage: drift-lsp doctor [--json] [--settings JSON]")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	editor := fs.String("settings", "", "the editor's drift settings as a JSON object, as the server receives them")
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp doctor: %v (run it from an existing directory)\n", err)
		return 2
	}
	r := doctor.Run(dir, buildVersion(), settings.FromEnv(os.Getenv), []byte(*editor))
	if *asJSON {
		err = r.WriteJSON(stdout)
	} else {
		err = r.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp doctor: %v\n", err)
		return 2
	}
	if len(r.Missing()) > 0 {
		return 1
	}
	return 0
}
