package embed

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWordPieceBasic(t *testing.T) {
	vocab := "[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\n,\nworld\n!\ncafe\nun\n##aff\n##able\n中\n文\nnat\n.\nprime\n"
	path := filepath.Join(t.TempDir(), "vocab.txt")
	if err := os.WriteFile(path, []byte(vocab), 0o644); err != nil {
		t.Fatal(err)
	}
	wp, err := LoadWordPiece(path, WordPieceOptions{Lowercase: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   string
		want string
	}{
		{"Hello, World!", "hello , world !"},
		{"CAFÉ", "cafe"},
		{"unaffable", "un ##aff ##able"},
		{"中文", "中 文"},
		{"Nat.Prime", "nat . prime"},
		{"unknownword", "[UNK]"},
		{"\x00hello\u200b", "hello"},
		{"", ""},
		{strings.Repeat("a", 200), "[UNK]"},
		{"hello\xffworld", "[UNK]"}, // invalid UTF-8 decodes to U+FFFD, which is dropped: "helloworld"
	}
	for _, tc := range tests {
		if got := strings.Join(wp.Tokens(tc.in), " "); got != tc.want {
			t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	ids := wp.Encode("hello world hello world", 4)
	if want := []int64{2, 4, 6, 3}; !slices.Equal(ids, want) {
		t.Errorf("Encode truncated = %v, want %v", ids, want)
	}
}

func TestWordPieceBadInput(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadWordPiece(filepath.Join(dir, "missing.txt"), WordPieceOptions{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("missing vocabulary: err = %v, want ErrUnavailable", err)
	}
	bad := filepath.Join(dir, "tokenizer.json")
	os.WriteFile(bad, []byte(`{"model":{"type":"BPE","vocab":{}}}`), 0o644)
	if _, err := LoadWordPiece(bad, WordPieceOptions{}); err == nil {
		t.Error("BPE tokenizer.json accepted")
	}
	noSpecial := filepath.Join(dir, "vocab.txt")
	os.WriteFile(noSpecial, []byte("a\nb\n"), 0o644)
	if _, err := LoadWordPiece(noSpecial, WordPieceOptions{}); err == nil {
		t.Error("vocabulary without [CLS]/[SEP] accepted")
	}
}

type bertGolden struct {
	Cases []struct {
		Text   string    `json:"text"`
		IDs    []int64   `json:"ids"`
		Vector []float32 `json:"vector"`
	} `json:"cases"`
}

func loadBERTGolden(t *testing.T) bertGolden {
	data, err := os.ReadFile(filepath.Join("testdata", "minilm_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g bertGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestWordPieceMatchesHF compares with Hugging Face tokenizers on the
// all-MiniLM-L6-v2 vocabulary (ids recorded in the golden file).
func TestWordPieceMatchesHF(t *testing.T) {
	dir := filepath.Join(ModelsDir(), "all-minilm-l6-v2")
	wp, err := LoadWordPiece(filepath.Join(dir, "vocab.txt"), WordPieceOptions{Lowercase: true})
	if err != nil {
		t.Skipf("MiniLM vocabulary not installed: %v", err)
	}
	for _, c := range loadBERTGolden(t).Cases {
		if got := wp.Encode(c.Text, 256); !slices.Equal(got, c.IDs) {
			t.Errorf("%q:\n got  %v\n want %v", c.Text, got, c.IDs)
		}
	}
}

func TestMiniLMMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		model string
		min   float64
	}{{"all-minilm-l6-v2", 0.9999}} {
		t.Run(tc.model, func(t *testing.T) {
			dir := needModel(t, tc.model)
			o, err := BERTOptionsFromDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			e, err := NewBERT(o, LocalOptions{Library: ortLibrary()})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			g := loadBERTGolden(t)
			texts := make([]string, len(g.Cases))
			for i, c := range g.Cases {
				texts[i] = c.Text
			}
			vecs, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			worst := 1.0
			for i, c := range g.Cases {
				cos := Cosine(vecs[i], c.Vector)
				if cos < tc.min {
					t.Errorf("%q: cosine to reference %.6f < %g", c.Text, cos, tc.min)
				}
				worst = min(worst, cos)
			}
			t.Logf("lowest cosine to the float64 reference over %d texts: %.9f (1-cos = %.1e)", len(g.Cases), worst, 1-worst)
		})
	}
}

// tinyBERT makes a random BERT small enough to check against a float64
// reference forward pass written here.
func tinyBERT(seed int64) (BERTConfig, *BERTWeights) {
	c := BERTConfig{HiddenSize: 8, Layers: 2, Heads: 2, Intermediate: 16, MaxPositions: 16, TypeVocab: 2, VocabSize: 12, LayerNormEps: 1e-12, HiddenAct: "gelu"}
	r := rand.New(rand.NewSource(seed))
	v := func(n int, scale float64) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(r.NormFloat64() * scale)
		}
		return out
	}
	h, in := c.HiddenSize, c.Intermediate
	w := &BERTWeights{Word: v(c.VocabSize*h, 1), Position: v(c.MaxPositions*h, 0.5), Type: v(2*h, 0.5),
		EmbLNScale: v(h, 1), EmbLNBias: v(h, 0.1)}
	for i := 0; i < c.Layers; i++ {
		w.Layers = append(w.Layers, BERTLayer{
			Q: v(h*h, 0.5), QB: v(h, 0.1), K: v(h*h, 0.5), KB: v(h, 0.1), V: v(h*h, 0.5), VB: v(h, 0.1),
			O: v(h*h, 0.5), OB: v(h, 0.1), AttnLNScale: v(h, 1), AttnLNBias: v(h, 0.1),
			In: v(h*in, 0.5), InB: v(in, 0.1), Out: v(in*h, 0.5), OutB: v(h, 0.1), OutLNScale: v(h, 1), OutLNBias: v(h, 0.1),
		})
	}
	return c, w
}

// refBERT is a plain float64 BERT forward pass returning per-token states.
func refBERT(c BERTConfig, w *BERTWeights, ids []int64) [][]float64 {
	h := c.HiddenSize
	lin := func(x [][]float64, wt, b []float32, in, out int) [][]float64 {
		y := make([][]float64, len(x))
		for t := range x {
			y[t] = make([]float64, out)
			for o := 0; o < out; o++ {
				s := float64(b[o])
				for i := 0; i < in; i++ {
					s += x[t][i] * float64(wt[i*out+o])
				}
				y[t][o] = s
			}
		}
		return y
	}
	ln := func(x [][]float64, g, b []float32) [][]float64 {
		for _, row := range x {
			var m, v float64
			for _, a := range row {
				m += a
			}
			m /= float64(len(row))
			for _, a := range row {
				v += (a - m) * (a - m)
			}
			v /= float64(len(row))
			for i := range row {
				row[i] = (row[i]-m)/math.Sqrt(v+c.LayerNormEps)*float64(g[i]) + float64(b[i])
			}
		}
		return x
	}
	add := func(a, b [][]float64) [][]float64 {
		for t := range a {
			for i := range a[t] {
				a[t][i] += b[t][i]
			}
		}
		return a
	}
	x := make([][]float64, len(ids))
	for t, id := range ids {
		x[t] = make([]float64, h)
		for i := 0; i < h; i++ {
			x[t][i] = float64(w.Word[int(id)*h+i]) + float64(w.Position[t*h+i]) + float64(w.Type[i])
		}
	}
	x = ln(x, w.EmbLNScale, w.EmbLNBias)
	nh, dh := c.Heads, h/c.Heads
	for _, l := range w.Layers {
		q, k, v := lin(x, l.Q, l.QB, h, h), lin(x, l.K, l.KB, h, h), lin(x, l.V, l.VB, h, h)
		ctx := make([][]float64, len(ids))
		for t := range ctx {
			ctx[t] = make([]float64, h)
		}
		for hd := 0; hd < nh; hd++ {
			for t := range ids {
				s := make([]float64, len(ids))
				mx := math.Inf(-1)
				for u := range ids {
					for d := 0; d < dh; d++ {
						s[u] += q[t][hd*dh+d] * k[u][hd*dh+d]
					}
					s[u] /= math.Sqrt(float64(dh))
					mx = math.Max(mx, s[u])
				}
				var z float64
				for u := range s {
					s[u] = math.Exp(s[u] - mx)
					z += s[u]
				}
				for u := range s {
					for d := 0; d < dh; d++ {
						ctx[t][hd*dh+d] += s[u] / z * v[u][hd*dh+d]
					}
				}
			}
		}
		x = ln(add(lin(ctx, l.O, l.OB, h, h), x), l.AttnLNScale, l.AttnLNBias)
		f := lin(x, l.In, l.InB, h, c.Intermediate)
		for _, row := range f {
			for i, a := range row {
				row[i] = 0.5 * a * (1 + math.Erf(a/math.Sqrt2))
			}
		}
		x = ln(add(lin(f, l.Out, l.OutB, c.Intermediate, h), x), l.OutLNScale, l.OutLNBias)
	}
	return x
}

func TestTinyBERTEndToEnd(t *testing.T) {
	needRuntime(t)
	c, w := tinyBERT(1)
	onnx, err := BuildBERT(c, w)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := BuildBERT(c, w)
	if string(again) != string(onnx) {
		t.Fatal("BuildBERT is not deterministic")
	}
	dir := t.TempDir()
	vocab := "[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\nprime\nnumber\ngroup\nis\n##s\nabelian\n.\n"
	os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(vocab), 0o644)
	os.WriteFile(filepath.Join(dir, "model.onnx"), onnx, 0o644)
	texts := []string{"the prime number", "The group is abelian. primes", "", "groups is the the the the the the the the the the the the the"}
	for _, pool := range []string{"mean", "cls"} {
		e, err := NewBERT(BERTOptions{Model: filepath.Join(dir, "model.onnx"), Vocab: filepath.Join(dir, "vocab.txt"), Pooling: pool, MaxLength: 16, Lowercase: true}, LocalOptions{Library: ortLibrary(), BatchSize: 3})
		if err != nil {
			t.Fatal(err)
		}
		if e.Dim() != c.HiddenSize {
			t.Errorf("Dim() = %d, want %d (probed)", e.Dim(), c.HiddenSize)
		}
		wp, _ := LoadWordPiece(filepath.Join(dir, "vocab.txt"), WordPieceOptions{Lowercase: true})
		vecs, err := e.Embed(context.Background(), texts)
		e.Close()
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			states := refBERT(c, w, wp.Encode(text, 16))
			want := make([]float32, c.HiddenSize)
			for j := range want {
				if pool == "cls" {
					want[j] = float32(states[0][j])
					continue
				}
				var s float64
				for _, row := range states {
					s += row[j]
				}
				want[j] = float32(s / float64(len(states)))
			}
			Normalize(want)
			if cos := Cosine(vecs[i], want); cos < 0.99999 {
				t.Errorf("%s pooling, %q: cosine to reference %.7f", pool, text, cos)
			}
			for j := range want {
				if d := math.Abs(float64(vecs[i][j] - want[j])); d > 1e-4 {
					t.Errorf("%s pooling, %q: component %d = %g, want %g", pool, text, j, vecs[i][j], want[j])
					break
				}
			}
		}
	}
}
