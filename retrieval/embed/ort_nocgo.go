//go:build !cgo

package embed

import (
	"context"
	"fmt"
)

// errNoCgo says why a cgo-free build has no local embedder.
var errNoCgo = fmt.Errorf("%w: this drift-lsp was built without cgo (CGO_ENABLED=0), so ONNX Runtime and the local sentence encoders are not available; searching with lexical and name channels only (build with cgo, e.g. `make build`, for dense retrieval, or set embedding.provider to openai)", ErrUnavailable)

// errNoLocal is errNoCgo: local models cannot run in this build.
var errNoLocal = errNoCgo

// InitRuntime reports that ONNX Runtime needs a cgo build.
func InitRuntime(libPath string) error { return errNoCgo }

// onnxModel is absent from cgo-free builds.
type onnxModel struct{ outRank int }

// openONNX reports that ONNX Runtime needs a cgo build.
func openONNX(modelPath string, threads, batch int) (*onnxModel, error) { return nil, errNoCgo }

func (m *onnxModel) run(ctx context.Context, seqs [][]int64, pool pooling) ([][]float32, error) {
	return nil, errNoCgo
}

func (m *onnxModel) close() error { return nil }
