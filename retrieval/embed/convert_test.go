package embed

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadSafetensorsBadInput(t *testing.T) {
	header := func(h string, body int) []byte {
		b := make([]byte, 8, 8+len(h)+body)
		binary.LittleEndian.PutUint64(b, uint64(len(h)))
		return append(append(b, h...), make([]byte, body)...)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"short", []byte{1, 2}, "too short"},
		{"huge header", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, "header length"},
		{"bad json", header("{nope", 0), "header"},
		{"offsets out of range", header(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, 4), "out of range"},
		{"size mismatch", header(`{"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, 8), "bytes for 3"},
		{"negative dim", header(`{"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}}`, 0), "negative"},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		p := filepath.Join(dir, tc.name)
		os.WriteFile(p, tc.data, 0o644)
		if _, err := readSafetensors(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	ok := header(`{"__metadata__":{"format":"pt"},"w":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},"ids":{"dtype":"I64","shape":[1],"data_offsets":[4,12]}}`, 12)
	binary.LittleEndian.PutUint16(ok[len(ok)-12:], 0x3c00) // 1.0
	binary.LittleEndian.PutUint16(ok[len(ok)-10:], 0xc000) // -2.0
	p := filepath.Join(dir, "ok")
	os.WriteFile(p, ok, 0o644)
	st, err := readSafetensors(p)
	if err != nil {
		t.Fatal(err)
	}
	if w := st["w"].data; len(w) != 2 || w[0] != 1 || w[1] != -2 {
		t.Errorf("F16 decoded as %v", w)
	}
	if _, has := st["ids"]; has {
		t.Error("integer tensor kept as weights")
	}
}

func TestConvertBadInput(t *testing.T) {
	dir := t.TempDir()
	if _, err := ConvertUSELite(dir, t.TempDir(), false); err == nil {
		t.Error("USE conversion of an empty directory succeeded")
	}
	os.WriteFile(filepath.Join(dir, "model.json"), []byte(`{"modelTopology":{"node":[]},"weightsManifest":[{"paths":["../x"],"weights":[]}]}`), 0o644)
	if _, err := ConvertUSELite(dir, t.TempDir(), false); err == nil || !strings.Contains(err.Error(), "leaves the model directory") {
		t.Errorf("path escape: err = %v", err)
	}
	os.WriteFile(filepath.Join(dir, "model.json"), []byte(`{"modelTopology":{"node":[]},"weightsManifest":[]}`), 0o644)
	if _, err := ConvertUSELite(dir, t.TempDir(), false); err == nil || !strings.Contains(err.Error(), "unsupported model") {
		t.Errorf("empty graph: err = %v", err)
	}
	if _, err := ConvertSentenceTransformer(dir, t.TempDir(), ModelManifest{Name: "x"}); err == nil {
		t.Error("BERT conversion without config.json succeeded")
	}
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"hidden_size":8,"num_hidden_layers":1,"num_attention_heads":2,"intermediate_size":4,"max_position_embeddings":4,"vocab_size":5}`), 0o644)
	if _, err := ConvertSentenceTransformer(dir, t.TempDir(), ModelManifest{Name: "x"}); err == nil {
		t.Error("BERT conversion without model.safetensors succeeded")
	}
	c, w := tinyBERT(2)
	c.Heads = 3
	if _, err := BuildBERT(c, w); err == nil || !strings.Contains(err.Error(), "divisible") {
		t.Errorf("bad head count: err = %v", err)
	}
}
