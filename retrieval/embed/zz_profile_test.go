package embed

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	ort "github.com/yalue/onnxruntime_go"
)

func TestZZProfile(t *testing.T) {
	name := os.Getenv("PROF_MODEL")
	if name == "" {
		t.Skip()
	}
	dir := needModel(t, name)
	opts, _ := ort.NewSessionOptions()
	opts.SetIntraOpNumThreads(2)
	opts.EnableProfiling("/tmp/embedwork/prof_" + name)
	sp, _ := LoadSentencePiece(filepath.Join(ModelsDir(), "use-lite", "vocab.json"))
	wp, _ := LoadWordPiece(filepath.Join(ModelsDir(), "all-minilm-l6-v2", "vocab.txt"), WordPieceOptions{Lowercase: true})
	m := &onnxModel{batchSize: 64}
	if name == "use-lite" {
		m.inputs = []string{"input_ids", "attention_mask"}
		m.output = "embedding"
	} else {
		m.inputs = []string{"input_ids", "attention_mask", "token_type_ids"}
		m.output = "last_hidden_state"
	}
	var err error
	m.sess, err = ort.NewDynamicAdvancedSession(filepath.Join(dir, "model.onnx"), m.inputs, []string{m.output}, opts)
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, 512)
	for i := range texts {
		texts[i] = Humanize(sampleDecls[i%len(sampleDecls)])
	}
	seqs := make([][]int64, len(texts))
	for i, x := range texts {
		if name == "use-lite" {
			seqs[i] = sp.Encode(x, 128)
		} else {
			seqs[i] = wp.Encode(x, 256)
		}
	}
	for i := 0; i < 3; i++ {
		if _, err := m.run(context.Background(), seqs, poolMean); err != nil {
			t.Fatal(err)
		}
	}
	m.sess.Destroy()
}
