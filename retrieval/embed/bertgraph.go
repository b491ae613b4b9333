package embed

import (
	"fmt"
	"math"

	og "github.com/drift-lsp/drift-lsp/retrieval/embed/onnxgraph"
)

// BERTConfig is the architecture of a BERT encoder (Hugging Face config.json).
type BERTConfig struct {
	HiddenSize        int     `json:"hidden_size"`
	Layers            int     `json:"num_hidden_layers"`
	Heads             int     `json:"num_attention_heads"`
	Intermediate      int     `json:"intermediate_size"`
	MaxPositions      int     `json:"max_position_embeddings"`
	TypeVocab         int     `json:"type_vocab_size"`
	VocabSize         int     `json:"vocab_size"`
	LayerNormEps      float64 `json:"layer_norm_eps"`
	HiddenAct         string  `json:"hidden_act"`
	PositionEmbedding string  `json:"position_embedding_type"`
}

// BERTWeights holds a BERT encoder's parameters; every dense kernel is
// [in,out] row-major (already transposed from PyTorch's [out,in]).
type BERTWeights struct {
	Word, Position, Type  []float32 // [vocab,H], [maxPos,H], [types,H]
	EmbLNScale, EmbLNBias []float32
	Layers                []BERTLayer
}

// BERTLayer is one transformer block of a BERT encoder.
type BERTLayer struct {
	Q, K, V, O              []float32 // [H,H]
	QB, KB, VB, OB          []float32
	AttnLNScale, AttnLNBias []float32
	In, Out                 []float32 // [H,I], [I,H]
	InB, OutB               []float32
	OutLNScale, OutLNBias   []float32
}

func (c BERTConfig) validate() error {
	if c.HiddenSize <= 0 || c.Layers <= 0 || c.Heads <= 0 || c.Intermediate <= 0 || c.MaxPositions <= 0 || c.VocabSize <= 0 {
		return fmt.Errorf("bert config: sizes must be positive: %+v", c)
	}
	if c.HiddenSize%c.Heads != 0 {
		return fmt.Errorf("bert config: hidden size %d not divisible by %d heads", c.HiddenSize, c.Heads)
	}
	if c.HiddenAct != "" && c.HiddenAct != "gelu" {
		return fmt.Errorf("bert config: activation %q not supported (want gelu)", c.HiddenAct)
	}
	if c.PositionEmbedding != "" && c.PositionEmbedding != "absolute" {
		return fmt.Errorf("bert config: position embedding %q not supported", c.PositionEmbedding)
	}
	return nil
}

// BuildBERT writes an ONNX model for a BERT encoder with inputs input_ids,
// attention_mask, token_type_ids (int64 [batch,seq]) and output
// last_hidden_state (float [batch,seq,hidden]).
func BuildBERT(c BERTConfig, w *BERTWeights) ([]byte, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if len(w.Layers) != c.Layers {
		return nil, fmt.Errorf("bert: %d layers of weights for %d in config", len(w.Layers), c.Layers)
	}
	types := max(c.TypeVocab, 1)
	eps := float32(c.LayerNormEps)
	if eps == 0 {
		eps = 1e-12
	}
	h, inter := int64(c.HiddenSize), c.Intermediate
	g := og.New("bert")
	batch, seq := og.Dim{Param: "batch"}, og.Dim{Param: "sequence"}
	ids := g.Input("input_ids", og.Int64, batch, seq)
	mask := g.Input("attention_mask", og.Int64, batch, seq)
	tt := g.Input("token_type_ids", og.Int64, batch, seq)

	x := g.Op("Gather", []string{g.Floats("word", []int64{int64(c.VocabSize), h}, w.Word), ids})
	pos := g.Op("Slice", []string{g.Floats("position", []int64{int64(c.MaxPositions), h}, w.Position), g.Vec("s", 0), seqLen(g, ids), g.Vec("a", 0)})
	x = g.Op("Add", []string{x, pos})
	x = g.Op("Add", []string{x, g.Op("Gather", []string{g.Floats("type", []int64{int64(types), h}, w.Type), tt})})
	x = g.LayerNorm("emb_ln", x, w.EmbLNScale, w.EmbLNBias, eps)
	bias, _ := maskBias(g, mask, -10000)
	dh := c.HiddenSize / c.Heads
	scale := float32(1 / math.Sqrt(float64(dh)))
	for i, l := range w.Layers {
		p := fmt.Sprintf("l%d", i)
		q := g.Linear(p+"_q", x, c.HiddenSize, c.HiddenSize, l.Q, l.QB)
		k := g.Linear(p+"_k", x, c.HiddenSize, c.HiddenSize, l.K, l.KB)
		v := g.Linear(p+"_v", x, c.HiddenSize, c.HiddenSize, l.V, l.VB)
		a := attention(g, q, k, v, c.Heads, dh, scale, bias)
		a = g.Linear(p+"_o", a, c.HiddenSize, c.HiddenSize, l.O, l.OB)
		x = g.LayerNorm(p+"_attn_ln", g.Op("Add", []string{a, x}), l.AttnLNScale, l.AttnLNBias, eps)
		f := gelu(g, g.Linear(p+"_in", x, c.HiddenSize, inter, l.In, l.InB))
		f = g.Linear(p+"_out", f, inter, c.HiddenSize, l.Out, l.OutB)
		x = g.LayerNorm(p+"_out_ln", g.Op("Add", []string{f, x}), l.OutLNScale, l.OutLNBias, eps)
	}
	g.Output(x, "last_hidden_state", og.Float, batch, seq, og.Dim{Size: h})
	return g.Marshal("drift-lsp bert converter")
}
