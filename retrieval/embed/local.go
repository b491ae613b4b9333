package embed

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// LocalOptions configures an ONNX embedder.
type LocalOptions struct {
	// Library is the path of libonnxruntime.so.1 (Default: the one in
	// Config.ModelsDir/lib).
	Library string
	// Threads is ONNX Runtime's intra-op thread count (default 2).
	Threads int
	// BatchSize is the number of texts per inference call (default 32).
	BatchSize int
}

func (o LocalOptions) withDefaults() LocalOptions {
	if o.Threads <= 0 {
		o.Threads = 2
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 32
	}
	return o
}

// Local is an Embedder backed by an ONNX model run in-process by ONNX
// Runtime; it is safe for concurrent use.
type Local struct {
	name     string
	dim      int
	maxLen   int
	pool     pooling
	model    *onnxModel
	tokenize func(text string, maxLen int) []int64
}

// Name implements Embedder.
func (l *Local) Name() string { return l.name }

// Dim implements Embedder.
func (l *Local) Dim() int { return l.dim }

// MaxLength is the number of tokens (including special tokens) kept per text.
func (l *Local) MaxLength() int { return l.maxLen }

// Embed implements Embedder. Texts are truncated to MaxLength tokens.
func (l *Local) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	seqs := make([][]int64, len(texts))
	for i, t := range texts {
		seqs[i] = l.tokenize(t, l.maxLen)
	}
	vecs, err := l.model.run(ctx, seqs, l.pool)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	return vecs, checkVectors(vecs, len(texts), l.dim)
}

// Close releases the ONNX Runtime session.
func (l *Local) Close() error { return l.model.close() }

// NewUSELite loads the converted Universal Sentence Encoder lite from dir
// (model.onnx and vocab.json, as written by ConvertUSELite).
func NewUSELite(dir string, opts LocalOptions) (*Local, error) {
	opts = opts.withDefaults()
	if err := InitRuntime(opts.Library); err != nil {
		return nil, err
	}
	sp, err := LoadSentencePiece(filepath.Join(dir, "vocab.json"))
	if err != nil {
		return nil, err
	}
	maxLen := 128
	var man ModelManifest
	if readJSON(filepath.Join(dir, ManifestName), &man) == nil && man.MaxLength > 0 {
		maxLen = man.MaxLength
	}
	m, err := openONNX(filepath.Join(dir, "model.onnx"), opts.Threads, opts.BatchSize)
	if err != nil {
		return nil, err
	}
	if m.outRank != 2 {
		m.close()
		return nil, fmt.Errorf("%s: not a USE-lite model (per-token output)", dir)
	}
	// An empty text has no pieces; like the reference, it embeds as the
	// tanh layer's bias (mean over zero tokens is zero).
	name := "use-lite"
	if man.Name != "" {
		name = man.Name
	}
	return &Local{name: name, dim: 512, maxLen: maxLen, model: m, tokenize: sp.Encode}, nil
}

// BERTOptions describes a BERT-family ONNX sentence model.
type BERTOptions struct {
	Name      string // model name reported by Name() (default: the directory name)
	Model     string // path of the .onnx file
	Vocab     string // path of vocab.txt or tokenizer.json
	Pooling   string // "mean" (default) or "cls"
	MaxLength int    // tokens per text including [CLS]/[SEP] (default 256)
	Lowercase bool   // for vocab.txt: lower-case and strip accents (uncased models)
	Dim       int    // vector length if known in advance (else measured by one probe inference)
}

// BERTOptionsFromDir reads a model directory: drift-model.json when present,
// otherwise model.onnx (or onnx/model.onnx) with vocab.txt or tokenizer.json
// and sentence-transformers' pooling and length settings.
func BERTOptionsFromDir(dir string) (BERTOptions, error) {
	o := BERTOptions{Name: filepath.Base(dir), Pooling: "mean", MaxLength: 256, Lowercase: true}
	var man ModelManifest
	if err := readJSON(filepath.Join(dir, ManifestName), &man); err == nil {
		if man.Kind != "bert" {
			return o, fmt.Errorf("%s: manifest kind %q is not bert", dir, man.Kind)
		}
		o.Name, o.Pooling, o.MaxLength, o.Lowercase, o.Dim = man.Name, man.Pooling, man.MaxLength, man.Lowercase, man.Dim
		o.Model, o.Vocab = filepath.Join(dir, "model.onnx"), filepath.Join(dir, man.Vocab)
		return o, nil
	}
	for _, p := range []string{"model.onnx", filepath.Join("onnx", "model.onnx")} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			o.Model = filepath.Join(dir, p)
			break
		}
	}
	for _, p := range []string{"tokenizer.json", "vocab.txt"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			o.Vocab = filepath.Join(dir, p)
			break
		}
	}
	if o.Model == "" || o.Vocab == "" {
		return o, fmt.Errorf("%w: %s lacks model.onnx or a vocabulary (vocab.txt, tokenizer.json)", ErrUnavailable, dir)
	}
	var pool struct {
		CLS  bool `json:"pooling_mode_cls_token"`
		Mean bool `json:"pooling_mode_mean_tokens"`
	}
	if readJSON(filepath.Join(dir, "1_Pooling", "config.json"), &pool) == nil && pool.CLS && !pool.Mean {
		o.Pooling = "cls"
	}
	var sb struct {
		MaxSeq int `json:"max_seq_length"`
	}
	if readJSON(filepath.Join(dir, "sentence_bert_config.json"), &sb) == nil && sb.MaxSeq > 0 {
		o.MaxLength = sb.MaxSeq
	}
	var tc struct {
		Lower *bool `json:"do_lower_case"`
	}
	if readJSON(filepath.Join(dir, "tokenizer_config.json"), &tc) == nil && tc.Lower != nil {
		o.Lowercase = *tc.Lower
	}
	return o, nil
}

// NewBERT loads a BERT-family ONNX sentence model. The model takes int64
// input_ids and attention_mask (and token_type_ids if it declares it) and
// returns per-token states [batch,seq,hidden], pooled here by o.Pooling, or
// already pooled vectors [batch,dim].
func NewBERT(o BERTOptions, opts LocalOptions) (*Local, error) {
	opts = opts.withDefaults()
	var pool pooling
	switch o.Pooling {
	case "", "mean":
		pool = poolMean
	case "cls":
		pool = poolCLS
	default:
		return nil, fmt.Errorf("bert: pooling %q (want mean or cls)", o.Pooling)
	}
	if o.MaxLength <= 0 {
		o.MaxLength = 256
	}
	if o.MaxLength < 2 {
		return nil, fmt.Errorf("bert: max length %d too small", o.MaxLength)
	}
	if err := InitRuntime(opts.Library); err != nil {
		return nil, err
	}
	wp, err := LoadWordPiece(o.Vocab, WordPieceOptions{Lowercase: o.Lowercase})
	if err != nil {
		return nil, err
	}
	m, err := openONNX(o.Model, opts.Threads, opts.BatchSize)
	if err != nil {
		return nil, err
	}
	name := o.Name
	if name == "" {
		name = filepath.Base(filepath.Dir(o.Model))
	}
	l := &Local{name: name, dim: o.Dim, maxLen: o.MaxLength, pool: pool, model: m, tokenize: wp.Encode}
	if l.dim == 0 {
		v, err := m.run(context.Background(), [][]int64{wp.Encode("dimension probe", o.MaxLength)}, pool)
		if err != nil {
			m.close()
			return nil, fmt.Errorf("%s: probe inference: %w", name, err)
		}
		l.dim = len(v[0])
	}
	return l, nil
}
