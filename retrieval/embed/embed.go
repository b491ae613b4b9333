// Package embed turns text into dense, L2-normalised vectors for the dense
// retrieval channel: Universal Sentence Encoder lite and BERT-family sentence
// models run locally through ONNX Runtime, or a remote OpenAI-compatible
// /v1/embeddings endpoint.
package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Embedder maps texts to unit-length vectors of a fixed dimension.
type Embedder interface {
	// Name identifies the model; vectors from different names are not comparable.
	Name() string
	// Dim is the vector length (0 while unknown, for a remote model not yet called).
	Dim() int
	// Embed returns one L2-normalised vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ErrUnavailable marks a local model or runtime that is not installed.
var ErrUnavailable = errors.New("embedding model unavailable")

// Normalize scales v to unit L2 length in place; a zero vector stays zero.
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// Cosine returns the cosine similarity of a and b (their dot product when both
// are unit length); vectors of different lengths give 0.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// checkVectors verifies that a backend returned n finite vectors of length dim.
func checkVectors(vecs [][]float32, n, dim int) error {
	if len(vecs) != n {
		return fmt.Errorf("embed: got %d vectors for %d texts", len(vecs), n)
	}
	for i, v := range vecs {
		if dim > 0 && len(v) != dim {
			return fmt.Errorf("embed: vector %d has length %d, want %d", i, len(v), dim)
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("embed: vector %d is not finite", i)
			}
		}
	}
	return nil
}
