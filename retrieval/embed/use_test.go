package embed

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

type useGolden struct {
	Source string `json:"source"`
	Cases  []struct {
		Text   string    `json:"text"`
		IDs    []int64   `json:"ids"`
		Vector []float32 `json:"vector"`
	} `json:"cases"`
}

func loadUSEGolden(t *testing.T) useGolden {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "use_lite_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g useGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// needModel skips the test unless setup has placed the named model directory
// and the ONNX Runtime library under ModelsDir().
func needModel(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(ModelsDir(), name)
	if _, err := os.Stat(filepath.Join(dir, "model.onnx")); err != nil {
		t.Skipf("model %s not installed in %s (run scripts/setup-models.sh)", name, ModelsDir())
	}
	needRuntime(t)
	return dir
}

func needRuntime(t testing.TB) {
	t.Helper()
	lib := filepath.Join(ModelsDir(), "lib", ORTLibraryName)
	if _, err := os.Stat(lib); err != nil {
		t.Skipf("ONNX Runtime not installed at %s (run scripts/setup-models.sh)", lib)
	}
	if err := InitRuntime(lib); err != nil {
		t.Fatal(err)
	}
}

func TestSentencePieceMatchesTFJS(t *testing.T) {
	dir := filepath.Join(ModelsDir(), "use-lite")
	sp, err := LoadSentencePiece(filepath.Join(dir, "vocab.json"))
	if err != nil {
		t.Skipf("USE vocabulary not installed: %v", err)
	}
	for _, c := range loadUSEGolden(t).Cases {
		got := sp.Encode(c.Text, 0)
		if len(got) != len(c.IDs) {
			t.Errorf("%q: %d ids %v, reference %d ids %v", c.Text, len(got), got, len(c.IDs), c.IDs)
			continue
		}
		for i := range got {
			if got[i] != c.IDs[i] {
				t.Errorf("%q: id %d = %d, reference %d", c.Text, i, got[i], c.IDs[i])
				break
			}
		}
	}
}

func TestUSELiteMatchesTFJS(t *testing.T) {
	// The float model must reproduce TF.js; the int8 variant trades a little
	// fidelity for speed.
	for _, tc := range []struct {
		model string
		min   float64
	}{{"use-lite", 0.9999}, {"use-lite-int8", 0.99}} {
		t.Run(tc.model, func(t *testing.T) {
			dir := needModel(t, tc.model)
			e, err := NewUSELite(dir, LocalOptions{Library: ortLibrary()})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if e.Name() != tc.model {
				t.Errorf("Name() = %q, want %q", e.Name(), tc.model)
			}
			g := loadUSEGolden(t)
			texts := make([]string, len(g.Cases))
			for i, c := range g.Cases {
				texts[i] = c.Text
			}
			// One batch with all texts (padding exercised) and each text alone.
			all, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			worst := 1.0
			for i, c := range g.Cases {
				one, err := e.Embed(context.Background(), []string{c.Text})
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range [][]float32{all[i], one[0]} {
					cos := Cosine(v, c.Vector)
					if cos < tc.min {
						t.Errorf("%q: cosine to TF.js %.6f < %g", c.Text, cos, tc.min)
					}
					worst = min(worst, cos)
				}
			}
			t.Logf("lowest cosine to TF.js over %d texts: %.9f (1-cos = %.1e)", len(g.Cases), worst, 1-worst)
		})
	}
}
