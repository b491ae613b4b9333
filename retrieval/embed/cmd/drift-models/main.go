// Command drift-models converts downloaded model files into the ONNX models
// that drift-lsp's dense retrieval channel loads (used by scripts/setup-models.sh).
//
//	drift-models use-lite --src DIR --out DIR [--int8]  # TF.js USE lite → ONNX
//	drift-models bert --src DIR --out DIR --name N [--source S --license L]  # sentence-transformers BERT (safetensors) → ONNX
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: drift-models use-lite|bert --src DIR --out DIR [--name NAME]")
		return 2
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	src := fs.String("src", "", "directory with the downloaded model files")
	out := fs.String("out", "", "directory to write model.onnx, the vocabulary and drift-model.json to")
	name := fs.String("name", "", "model name (bert)")
	source := fs.String("source", "", "where the weights came from, recorded in drift-model.json (bert)")
	int8 := fs.Bool("int8", false, "quantise the dense layers to 8 bits (use-lite)")
	license := fs.String("license", "", "licence of the weights, recorded in drift-model.json (bert)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if *src == "" || *out == "" {
		fmt.Fprintln(stderr, "drift-models: --src and --out are required")
		return 2
	}
	var man *embed.ModelManifest
	var err error
	switch args[0] {
	case "use-lite":
		man, err = embed.ConvertUSELite(*src, *out, *int8)
	case "bert":
		if *name == "" {
			fmt.Fprintln(stderr, "drift-models bert: --name is required")
			return 2
		}
		man, err = embed.ConvertSentenceTransformer(*src, *out, embed.ModelManifest{Name: *name, Source: *source, License: *license})
	default:
		fmt.Fprintf(stderr, "drift-models: unknown converter %q\n", args[0])
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "drift-models %s: %v\n", args[0], err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s model %s (dim %d, max length %d) to %s\n", man.Kind, man.Name, man.Dim, man.MaxLength, *out)
	return 0
}
