package embed

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"
)

// ModelManifest describes a local model directory prepared by setup; it is
// stored as drift-model.json next to model.onnx.
type ModelManifest struct {
	Kind      string `json:"kind"` // "bert" or "use-lite"
	Name      string `json:"name"`
	Pooling   string `json:"pooling,omitempty"` // "mean" or "cls" (bert)
	MaxLength int    `json:"max_length"`
	Lowercase bool   `json:"lowercase,omitempty"`
	Dim       int    `json:"dim"`
	Vocab     string `json:"vocab"` // file name inside the directory
	Source    string `json:"source,omitempty"`
	License   string `json:"license,omitempty"`
}

// ManifestName is the file name of a model directory's manifest.
const ManifestName = "drift-model.json"

// ConvertSentenceTransformer converts a sentence-transformers BERT model
// directory (config.json, model.safetensors, vocab.txt or tokenizer.json,
// optional 1_Pooling/config.json and sentence_bert_config.json) into outDir:
// model.onnx, the vocabulary, and drift-model.json. info supplies the
// manifest's Name, Source and License; the rest is read from srcDir.
func ConvertSentenceTransformer(srcDir, outDir string, info ModelManifest) (*ModelManifest, error) {
	if info.Name == "" {
		return nil, fmt.Errorf("convert %s: model name required", srcDir)
	}
	var cfg BERTConfig
	if err := readJSON(filepath.Join(srcDir, "config.json"), &cfg); err != nil {
		return nil, err
	}
	st, err := readSafetensors(filepath.Join(srcDir, "model.safetensors"))
	if err != nil {
		return nil, err
	}
	w, err := bertWeightsFromTensors(cfg, st)
	if err != nil {
		return nil, err
	}
	onnx, err := BuildBERT(cfg, w)
	if err != nil {
		return nil, err
	}
	man := &ModelManifest{Kind: "bert", Name: info.Name, Pooling: "mean", MaxLength: 512, Dim: cfg.HiddenSize, Lowercase: true,
		Source: info.Source, License: info.License}
	var pool struct {
		CLS  bool `json:"pooling_mode_cls_token"`
		Mean bool `json:"pooling_mode_mean_tokens"`
	}
	if readJSON(filepath.Join(srcDir, "1_Pooling", "config.json"), &pool) == nil && pool.CLS && !pool.Mean {
		man.Pooling = "cls"
	}
	var sb struct {
		MaxSeq int `json:"max_seq_length"`
	}
	if readJSON(filepath.Join(srcDir, "sentence_bert_config.json"), &sb) == nil && sb.MaxSeq > 0 {
		man.MaxLength = sb.MaxSeq
	}
	man.MaxLength = min(man.MaxLength, cfg.MaxPositions)
	var tc struct {
		Lower *bool `json:"do_lower_case"`
	}
	if readJSON(filepath.Join(srcDir, "tokenizer_config.json"), &tc) == nil && tc.Lower != nil {
		man.Lowercase = *tc.Lower
	}
	vocab := "vocab.txt"
	if _, err := os.Stat(filepath.Join(srcDir, vocab)); err != nil {
		vocab = "tokenizer.json"
	}
	vdata, err := os.ReadFile(filepath.Join(srcDir, vocab))
	if err != nil {
		return nil, fmt.Errorf("%s has neither vocab.txt nor tokenizer.json: %w", srcDir, err)
	}
	man.Vocab = vocab
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(outDir, vocab), 0o644, vdata); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(outDir, "model.onnx"), 0o644, onnx); err != nil {
		return nil, err
	}
	mj, _ := json.MarshalIndent(man, "", "  ")
	return man, atomicfile.Write(filepath.Join(outDir, ManifestName), 0o644, append(mj, '\n'))
}

func bertWeightsFromTensors(c BERTConfig, st safeTensors) (*BERTWeights, error) {
	prefix := ""
	if _, ok := st["bert.embeddings.word_embeddings.weight"]; ok {
		prefix = "bert."
	}
	var missing []string
	get := func(name string, shape ...int) []float32 {
		t, ok := st[prefix+name]
		if !ok && strings.HasSuffix(name, ".weight") && strings.Contains(name, "LayerNorm") {
			t, ok = st[prefix+strings.TrimSuffix(name, ".weight")+".gamma"]
		}
		if !ok && strings.HasSuffix(name, ".bias") && strings.Contains(name, "LayerNorm") {
			t, ok = st[prefix+strings.TrimSuffix(name, ".bias")+".beta"]
		}
		if !ok || !slices.Equal(t.shape, shape) {
			missing = append(missing, fmt.Sprintf("%s%v", name, shape))
			return nil
		}
		return t.data
	}
	// linear returns a PyTorch Linear's [out,in] weight transposed to [in,out].
	linear := func(name string, in, out int) []float32 {
		d := get(name, out, in)
		if d == nil {
			return nil
		}
		t := make([]float32, in*out)
		for o := 0; o < out; o++ {
			for i := 0; i < in; i++ {
				t[i*out+o] = d[o*in+i]
			}
		}
		return t
	}
	h, in := c.HiddenSize, c.Intermediate
	types := max(c.TypeVocab, 1)
	w := &BERTWeights{
		Word:       get("embeddings.word_embeddings.weight", c.VocabSize, h),
		Position:   get("embeddings.position_embeddings.weight", c.MaxPositions, h),
		Type:       get("embeddings.token_type_embeddings.weight", types, h),
		EmbLNScale: get("embeddings.LayerNorm.weight", h),
		EmbLNBias:  get("embeddings.LayerNorm.bias", h),
	}
	for i := 0; i < c.Layers; i++ {
		p := fmt.Sprintf("encoder.layer.%d.", i)
		w.Layers = append(w.Layers, BERTLayer{
			Q: linear(p+"attention.self.query.weight", h, h), QB: get(p+"attention.self.query.bias", h),
			K: linear(p+"attention.self.key.weight", h, h), KB: get(p+"attention.self.key.bias", h),
			V: linear(p+"attention.self.value.weight", h, h), VB: get(p+"attention.self.value.bias", h),
			O: linear(p+"attention.output.dense.weight", h, h), OB: get(p+"attention.output.dense.bias", h),
			AttnLNScale: get(p+"attention.output.LayerNorm.weight", h), AttnLNBias: get(p+"attention.output.LayerNorm.bias", h),
			In: linear(p+"intermediate.dense.weight", h, in), InB: get(p+"intermediate.dense.bias", in),
			Out: linear(p+"output.dense.weight", in, h), OutB: get(p+"output.dense.bias", h),
			OutLNScale: get(p+"output.LayerNorm.weight", h), OutLNBias: get(p+"output.LayerNorm.bias", h),
		})
	}
	if len(missing) > 0 {
		if len(missing) > 5 {
			missing = append(missing[:5], fmt.Sprintf("… %d more", len(missing)-5))
		}
		return nil, fmt.Errorf("bert weights: missing or misshapen tensors: %s", strings.Join(missing, ", "))
	}
	return w, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
