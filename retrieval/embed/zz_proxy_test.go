package embed

import (
	"bufio"
	"context"
	"encoding/json"
	"math/rand"
	"os"
	"sort"
	"testing"
)

func TestZZProxy(t *testing.T) {
	declsPath, benchPath := os.Getenv("PX_DECLS"), os.Getenv("PX_BENCH")
	if declsPath == "" {
		t.Skip()
	}
	type decl struct{ Name, Kind, Doc, Informal string }
	f, _ := os.Open(declsPath)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	byName := map[string]decl{}
	var premiseNames []string
	for sc.Scan() {
		var d decl
		json.Unmarshal(sc.Bytes(), &d)
		byName[d.Name] = d
		switch d.Kind {
		case "def", "abbrev", "structure", "class", "inductive":
			premiseNames = append(premiseNames, d.Name)
		}
	}
	type item struct {
		Q    string   `json:"informal_stmt"`
		Gold []string `json:"mathlib_dependencies"`
	}
	bf, _ := os.Open(benchPath)
	bs := bufio.NewScanner(bf)
	bs.Buffer(make([]byte, 1<<20), 1<<24)
	var items []item
	goldSet := map[string]bool{}
	for bs.Scan() {
		var it item
		json.Unmarshal(bs.Bytes(), &it)
		var g []string
		for _, n := range it.Gold {
			if _, ok := byName[n]; ok {
				g = append(g, n)
				goldSet[n] = true
			}
		}
		if len(g) > 0 {
			it.Gold = g
			items = append(items, it)
		}
	}
	r := rand.New(rand.NewSource(1))
	r.Shuffle(len(premiseNames), func(i, j int) { premiseNames[i], premiseNames[j] = premiseNames[j], premiseNames[i] })
	pool := []string{}
	for n := range goldSet {
		pool = append(pool, n)
	}
	sort.Strings(pool)
	for _, n := range premiseNames {
		if len(pool) >= 3000+len(goldSet) {
			break
		}
		if !goldSet[n] {
			pool = append(pool, n)
		}
	}
	texts := make([]string, len(pool))
	for i, n := range pool {
		d := byName[n]
		doc := d.Informal
		if doc == "" {
			doc = d.Doc
		}
		if len(doc) > 400 {
			doc = doc[:400]
		}
		texts[i] = Humanize(n)
		if os.Getenv("PX_NODOC") != "" {
			doc = ""
		}
		if doc != "" {
			texts[i] += ": " + doc
		}
	}
	t.Logf("pool %d (gold %d), queries %d", len(pool), len(goldSet), len(items))
	models := BundledModels
	if m := os.Getenv("PX_MODEL"); m != "" {
		models = []string{m}
	}
	for _, model := range models {
		e, warn := Default(Config{Provider: map[bool]string{true: "use-lite", false: "bert"}[model != "all-minilm-l6-v2"], ModelDir: ModelsDir() + "/" + model})
		if model == "use-lite-int8" {
			e, _ = NewUSELite(ModelsDir()+"/use-lite-int8", LocalOptions{})
		}
		if e == nil {
			t.Fatal(warn)
		}
		dv, err := e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		qs := make([]string, len(items))
		for i, it := range items {
			qs[i] = it.Q
			if os.Getenv("PX_HQ") != "" {
				qs[i] = Humanize(it.Q)
			}
		}
		qv, _ := e.Embed(context.Background(), qs)
		rec := map[int]float64{1: 0, 5: 0, 10: 0, 50: 0}
		for i, it := range items {
			idx := make([]int, len(pool))
			sc := make([]float64, len(pool))
			for j := range pool {
				idx[j] = j
				sc[j] = Cosine(qv[i], dv[j])
			}
			sort.Slice(idx, func(a, b int) bool { return sc[idx[a]] > sc[idx[b]] })
			for k := range rec {
				hit := 0
				for _, j := range idx[:k] {
					for _, g := range it.Gold {
						if pool[j] == g {
							hit++
						}
					}
				}
				rec[k] += float64(hit) / float64(len(it.Gold))
			}
		}
		n := float64(len(items))
		t.Logf("%-18s R@1 %.1f R@5 %.1f R@10 %.1f R@50 %.1f", e.Name(), 100*rec[1]/n, 100*rec[5]/n, 100*rec[10]/n, 100*rec[50]/n)
	}
}
