package embed

// ORTLibraryName is the file name of the ONNX Runtime shared library that
// setup places in the models directory's lib/ folder.
const ORTLibraryName = "libonnxruntime.so.1"

// pooling says how per-token outputs become one vector.
type pooling int

const (
	poolMean pooling = iota
	poolCLS
)
