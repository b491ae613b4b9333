//go:build cgo

package embed

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// errNoLocal is nil: this build can run local models.
var errNoLocal error

var ortState struct {
	sync.Mutex
	lib string
	err error
}

// InitRuntime loads the ONNX Runtime shared library at libPath once per
// process. Later calls return the first outcome; asking for a different
// library after one was loaded is an error.
func InitRuntime(libPath string) error {
	ortState.Lock()
	defer ortState.Unlock()
	if ortState.lib != "" {
		if ortState.err == nil && ortState.lib != libPath {
			return fmt.Errorf("embed: ONNX Runtime already loaded from %s, cannot load %s", ortState.lib, libPath)
		}
		if ortState.lib == libPath {
			return ortState.err
		}
	}
	if _, err := os.Stat(libPath); err != nil {
		return fmt.Errorf("%w: ONNX Runtime library not found at %s (run scripts/setup-models.sh)", ErrUnavailable, libPath)
	}
	ortState.lib = libPath
	ort.SetSharedLibraryPath(libPath)
	if err := ort.InitializeEnvironment(); err != nil {
		ortState.err = fmt.Errorf("%w: loading ONNX Runtime from %s: %v", ErrUnavailable, libPath, err)
		return ortState.err
	}
	ortState.err = nil
	return nil
}

// onnxModel is a loaded ONNX sentence model: a session plus the names and
// kinds of its inputs.
type onnxModel struct {
	sess      *ort.DynamicAdvancedSession
	inputs    []string // subset of input_ids, attention_mask, token_type_ids
	output    string
	outRank   int
	batchSize int
}

// openONNX creates a session for modelPath with the given intra-op thread count.
func openONNX(modelPath string, threads, batch int) (*onnxModel, error) {
	if _, err := os.Stat(modelPath); err != nil {
		return nil, fmt.Errorf("%w: model not found at %s", ErrUnavailable, modelPath)
	}
	ins, outs, err := ort.GetInputOutputInfo(modelPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", modelPath, err)
	}
	m := &onnxModel{batchSize: batch}
	for _, in := range ins {
		switch in.Name {
		case "input_ids", "attention_mask", "token_type_ids":
			if in.DataType != ort.TensorElementDataTypeInt64 {
				return nil, fmt.Errorf("%s: input %s has type %v, want int64", modelPath, in.Name, in.DataType)
			}
			m.inputs = append(m.inputs, in.Name)
		default:
			return nil, fmt.Errorf("%s: unsupported model input %q (want input_ids, attention_mask, token_type_ids)", modelPath, in.Name)
		}
	}
	if len(outs) == 0 {
		return nil, fmt.Errorf("%s: model has no outputs", modelPath)
	}
	pick := outs[0]
	for _, o := range outs {
		if o.Name == "sentence_embedding" || o.Name == "embedding" {
			pick = o
			break
		}
		if o.Name == "last_hidden_state" || o.Name == "token_embeddings" {
			pick = o
		}
	}
	m.output, m.outRank = pick.Name, len(pick.Dimensions)
	if m.outRank != 2 && m.outRank != 3 {
		return nil, fmt.Errorf("%s: output %s has rank %d, want 2 (pooled) or 3 (per token)", modelPath, pick.Name, m.outRank)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	if threads <= 0 {
		threads = 2
	}
	if err := opts.SetIntraOpNumThreads(threads); err != nil {
		return nil, err
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, err
	}
	// Activations of these models underflow into denormals, which x86 handles
	// in microcode: flushing them to zero made USE-lite 4.6× faster here with
	// no measurable change in the vectors.
	if err := opts.AddSessionConfigEntry("session.set_denormal_as_zero", "1"); err != nil {
		return nil, err
	}
	// Embedding runs in the background next to the editor and Lean: idle
	// worker threads sleep instead of spinning on the shared cores.
	if err := opts.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"); err != nil {
		return nil, err
	}
	m.sess, err = ort.NewDynamicAdvancedSession(modelPath, m.inputs, []string{m.output}, opts)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", modelPath, err)
	}
	return m, nil
}

// run embeds pre-tokenised sequences, batching sequences of similar length
// together; per-token outputs are pooled. Results are L2-normalised.
func (m *onnxModel) run(ctx context.Context, seqs [][]int64, pool pooling) ([][]float32, error) {
	order := make([]int, len(seqs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(seqs[order[a]]) < len(seqs[order[b]]) })
	out := make([][]float32, len(seqs))
	for lo := 0; lo < len(order); lo += m.batchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+m.batchSize, len(order))
		batch := order[lo:hi]
		vecs, err := m.runBatch(batch, seqs, pool)
		if err != nil {
			return nil, err
		}
		for i, idx := range batch {
			out[idx] = vecs[i]
		}
	}
	return out, nil
}

func (m *onnxModel) runBatch(batch []int, seqs [][]int64, pool pooling) ([][]float32, error) {
	b, t := len(batch), 1
	for _, idx := range batch {
		t = max(t, len(seqs[idx]))
	}
	ids := make([]int64, b*t)
	mask := make([]int64, b*t)
	for i, idx := range batch {
		copy(ids[i*t:], seqs[idx])
		for j := range seqs[idx] {
			mask[i*t+j] = 1
		}
	}
	shape := ort.NewShape(int64(b), int64(t))
	var inputs []ort.Value
	defer func() {
		for _, v := range inputs {
			v.Destroy()
		}
	}()
	for _, name := range m.inputs {
		data := ids
		switch name {
		case "attention_mask":
			data = mask
		case "token_type_ids":
			data = make([]int64, b*t)
		}
		tensor, err := ort.NewTensor(shape, data)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, tensor)
	}
	outputs := []ort.Value{nil}
	if err := m.sess.Run(inputs, outputs); err != nil {
		return nil, fmt.Errorf("onnxruntime: %w", err)
	}
	defer outputs[0].Destroy()
	res, ok := outputs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, fmt.Errorf("onnxruntime: output %s is not float32", m.output)
	}
	data, dims := res.GetData(), res.GetShape()
	vecs := make([][]float32, b)
	switch {
	case len(dims) == 2 && dims[0] == int64(b):
		d := int(dims[1])
		for i := range vecs {
			vecs[i] = append([]float32(nil), data[i*d:(i+1)*d]...)
		}
	case len(dims) == 3 && dims[0] == int64(b) && dims[1] == int64(t):
		d := int(dims[2])
		for i := range vecs {
			v := make([]float32, d)
			if pool == poolCLS {
				copy(v, data[i*t*d:i*t*d+d])
			} else {
				n := 0
				for j := 0; j < t; j++ {
					if mask[i*t+j] == 0 {
						continue
					}
					n++
					row := data[(i*t+j)*d : (i*t+j+1)*d]
					for k, x := range row {
						v[k] += x
					}
				}
				for k := range v {
					v[k] /= float32(max(n, 1))
				}
			}
			vecs[i] = v
		}
	default:
		return nil, fmt.Errorf("onnxruntime: unexpected output shape %v for batch %dx%d", dims, b, t)
	}
	for _, v := range vecs {
		Normalize(v)
	}
	return vecs, nil
}

// close releases the session.
func (m *onnxModel) close() error {
	if m.sess == nil {
		return nil
	}
	err := m.sess.Destroy()
	m.sess = nil
	return err
}
