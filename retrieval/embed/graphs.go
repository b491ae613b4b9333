package embed

import (
	og "github.com/drift-lsp/drift-lsp/retrieval/embed/onnxgraph"
)

// maskBias turns an int64 attention mask [B,T] into an additive attention
// bias [B,1,1,T] (0 for tokens, big negative for padding) and also returns
// the float mask [B,T].
func maskBias(g *og.Graph, mask string, negative float32) (bias, maskF string) {
	maskF = g.Op("Cast", []string{mask}, og.AttrInt("to", og.Float))
	inv := g.Op("Sub", []string{g.Scalar("one", 1), maskF})
	b := g.Op("Mul", []string{inv, g.Scalar("neg", negative)})
	return g.Op("Unsqueeze", []string{b, g.Vec("axes", 1, 2)}), maskF
}

// attention is multi-head scaled dot-product attention over q, k, v of shape
// [B,T,heads*dh]; the queries are scaled before the product, as in the
// Universal Sentence Encoder graph (for BERT the order is immaterial).
func attention(g *og.Graph, q, k, v string, heads, dh int, scale float32, bias string) string {
	shape := g.Vec("heads_shape", 0, 0, int64(heads), int64(dh))
	split := func(x string, perm ...int64) string {
		return g.Op("Transpose", []string{g.Op("Reshape", []string{x, shape})}, og.AttrInts("perm", perm...))
	}
	qh := g.Op("Mul", []string{split(q, 0, 2, 1, 3), g.Scalar("scale", scale)})
	kh := split(k, 0, 2, 3, 1)
	vh := split(v, 0, 2, 1, 3)
	scores := g.Op("Add", []string{g.Op("MatMul", []string{qh, kh}), bias})
	probs := g.Op("Softmax", []string{scores}, og.AttrInt("axis", -1))
	ctx := g.Op("Transpose", []string{g.Op("MatMul", []string{probs, vh})}, og.AttrInts("perm", 0, 2, 1, 3))
	return g.Op("Reshape", []string{ctx, g.Vec("merge_shape", 0, 0, int64(heads*dh))})
}

// seqLen returns the sequence length of a [B,T] input as a 1-element int64 tensor.
func seqLen(g *og.Graph, x string) string {
	return g.Op("Slice", []string{g.Op("Shape", []string{x}), g.Vec("s", 1), g.Vec("e", 2), g.Vec("a", 0)})
}

// gelu is the exact (erf) GELU used by BERT: 0.5·x·(1+erf(x/√2)).
func gelu(g *og.Graph, x string) string {
	e := g.Op("Erf", []string{g.Op("Mul", []string{x, g.Scalar("rsqrt2", 0.70710678118654752)})})
	return g.Op("Mul", []string{g.Op("Mul", []string{x, g.Scalar("half", 0.5)}), g.Op("Add", []string{e, g.Scalar("one", 1)})})
}
