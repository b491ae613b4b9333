package embed

import (
	"bufio"
	"context"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestDenseProxyProofNet compares the installed models on a dense-only
// retrieval proxy: ProofNet informal statements against a pool of all gold
// premises plus 3,000 random definitions, classes and structures, each
// embedded as name words (Humanize) and, unless DRIFT_PROXY_NODOC is set,
// its docstring. It reports macro recall at 1, 5, 10 and 50. It runs only
// with DRIFT_DECLS (a `drift-lsp decls` JSONL dump) and DRIFT_PROOFNET (the
// benchmark JSONL) set; it asserts nothing.
func TestDenseProxyProofNet(t *testing.T) {
	declsPath, benchPath := os.Getenv("DRIFT_DECLS"), os.Getenv("DRIFT_PROOFNET")
	if declsPath == "" || benchPath == "" {
		t.Skip("set DRIFT_DECLS and DRIFT_PROOFNET to run the dense retrieval proxy")
	}
	type decl struct{ Name, Kind, Doc, Informal string }
	byName := map[string]decl{}
	var premises []string
	readJSONL(t, declsPath, func(line []byte) {
		var d decl
		if json.Unmarshal(line, &d) == nil {
			byName[d.Name] = d
			switch d.Kind {
			case "def", "abbrev", "structure", "class", "inductive":
				premises = append(premises, d.Name)
			}
		}
	})
	type item struct {
		Query string   `json:"informal_stmt"`
		Gold  []string `json:"mathlib_dependencies"`
	}
	var items []item
	gold := map[string]bool{}
	readJSONL(t, benchPath, func(line []byte) {
		var it item
		if json.Unmarshal(line, &it) != nil {
			return
		}
		var g []string
		for _, n := range it.Gold {
			if _, ok := byName[n]; ok {
				g = append(g, n)
				gold[n] = true
			}
		}
		if len(g) > 0 {
			it.Gold = g
			items = append(items, it)
		}
	})
	pool := make([]string, 0, len(gold)+3000)
	for n := range gold {
		pool = append(pool, n)
	}
	sort.Strings(pool)
	sort.Strings(premises)
	rand.New(rand.NewSource(1)).Shuffle(len(premises), func(i, j int) { premises[i], premises[j] = premises[j], premises[i] })
	for _, n := range premises {
		if len(pool) >= len(gold)+3000 {
			break
		}
		if !gold[n] {
			pool = append(pool, n)
		}
	}
	texts := make([]string, len(pool))
	for i, n := range pool {
		texts[i] = Humanize(n)
		doc := byName[n].Informal
		if doc == "" {
			doc = byName[n].Doc
		}
		if doc != "" && os.Getenv("DRIFT_PROXY_NODOC") == "" {
			texts[i] += ": " + strings.ToValidUTF8(doc[:min(len(doc), 400)], "")
		}
	}
	queries := make([]string, len(items))
	for i, it := range items {
		queries[i] = it.Query
	}
	t.Logf("pool %d declarations (%d gold), %d queries", len(pool), len(gold), len(items))
	for _, model := range BundledModels {
		dir := filepath.Join(ModelsDir(), model)
		if _, err := os.Stat(filepath.Join(dir, "model.onnx")); err != nil {
			continue
		}
		needRuntime(t)
		var e *Local
		var err error
		if strings.HasPrefix(model, "use-lite") {
			e, err = NewUSELite(dir, LocalOptions{Library: ortLibrary()})
		} else {
			var o BERTOptions
			if o, err = BERTOptionsFromDir(dir); err == nil {
				e, err = NewBERT(o, LocalOptions{Library: ortLibrary()})
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		dv, err := e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		qv, err := e.Embed(context.Background(), queries)
		if err != nil {
			t.Fatal(err)
		}
		e.Close()
		ks := []int{1, 5, 10, 50}
		recall := make([]float64, len(ks))
		for i, it := range items {
			order := make([]int, len(pool))
			score := make([]float64, len(pool))
			for j := range pool {
				order[j], score[j] = j, Cosine(qv[i], dv[j])
			}
			sort.Slice(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
			for ki, k := range ks {
				hit := 0
				for _, j := range order[:k] {
					for _, g := range it.Gold {
						if pool[j] == g {
							hit++
						}
					}
				}
				recall[ki] += float64(hit) / float64(len(it.Gold))
			}
		}
		n := float64(len(items))
		t.Logf("%-18s R@1 %.1f  R@5 %.1f  R@10 %.1f  R@50 %.1f", e.Name(), 100*recall[0]/n, 100*recall[1]/n, 100*recall[2]/n, 100*recall[3]/n)
	}
}

func readJSONL(t *testing.T, path string, each func([]byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		each(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
