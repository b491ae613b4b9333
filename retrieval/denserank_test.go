package retrieval

import (
	"context"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

// TestDenseRerankDev measures, on dev halves only, whether fusing the
// lexical search ranking's top K with the cosine of a sentence encoder pays
// (docs/retrieval.md, "A sentence encoder over every declaration"). It is
// opt-in: DRIFT_DENSE_EXP=SET[@CORPUS][,SET[@CORPUS]...] names the dev sets
// (each over the library at DRIFT_MATHLIB, or over the declaration dump
// CORPUS), DRIFT_DENSE_MODEL the model directory (BERT family),
// DRIFT_DENSE_CACHE a file keeping the vectors between runs, and
// DRIFT_DENSE_K the depth (default 50). DRIFT_DENSE_QPREFIX and
// DRIFT_DENSE_DPREFIX are prepended to queries and declarations (e5:
// "query: ", "passage: "), DRIFT_DENSE_POOL overrides the pooling and
// DRIFT_DENSE_MAXLEN the tokens per text. It prints R@1 / R@10 / MRR@10 of each fusion.
func TestDenseRerankDev(t *testing.T) {
	spec, root, dir := os.Getenv("DRIFT_DENSE_EXP"), os.Getenv("DRIFT_MATHLIB"), os.Getenv("DRIFT_DENSE_MODEL")
	if spec == "" || root == "" || dir == "" {
		t.Skip("set DRIFT_DENSE_EXP, DRIFT_MATHLIB and DRIFT_DENSE_MODEL to measure dense fusion")
	}
	k := 50
	if v, err := strconv.Atoi(os.Getenv("DRIFT_DENSE_K")); err == nil && v > 0 {
		k = v
	}
	qpre, dpre := os.Getenv("DRIFT_DENSE_QPREFIX"), os.Getenv("DRIFT_DENSE_DPREFIX")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Hour)
	defer cancel()
	opts, err := embed.BERTOptionsFromDir(dir)
	if err != nil {
		t.Skip(err)
	}
	if p := os.Getenv("DRIFT_DENSE_POOL"); p != "" {
		opts.Pooling = p
	}
	if v, err := strconv.Atoi(os.Getenv("DRIFT_DENSE_MAXLEN")); err == nil && v > 0 {
		opts.MaxLength = v
	}
	models := embed.ConfigOf(settings.FromEnv(os.Getenv)).ModelsDir
	emb, err := embed.NewBERT(opts, embed.LocalOptions{Library: filepath.Join(models, "lib", "libonnxruntime.so.1")})
	if errors.Is(err, embed.ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	cache := newVecCache(os.Getenv("DRIFT_DENSE_CACHE"))
	defer cache.save()

	type set struct {
		name  string
		items []BenchItem
		lists [][]*library.Decl
		lex   [][]float64
		q     []string
	}
	var sets []*set
	engines := map[string]*Engine{}
	for _, s := range strings.Split(spec, ",") {
		path, corpus, _ := strings.Cut(s, "@")
		e := engines[corpus]
		if e == nil {
			cfg := Config{Roots: []string{root}, CacheDir: os.Getenv("DRIFT_BENCH_CACHE"), Logf: t.Logf}
			if corpus != "" {
				cfg.Roots, cfg.Corpus = nil, []string{corpus}
			}
			if e, err = Open(ctx, cfg); err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if err := e.WaitReady(ctx); err != nil {
				t.Fatal(err)
			}
			engines[corpus] = e
		}
		r := DefaultSearch
		if corpus != "" {
			r, _ = r.Toggle("main") // the undocumented set's circular signal
		}
		st := &set{name: filepath.Base(path), items: readBenchFile(t, path)}
		for _, it := range st.items {
			hits, err := e.SearchWith(ctx, Query{Text: it.Query, K: k}, r)
			if err != nil && err != ErrEmptyQuery {
				t.Fatal(err)
			}
			var ds []*library.Decl
			var ls []float64
			for _, h := range hits {
				ds = append(ds, h.Decl)
				ls = append(ls, h.Score)
			}
			st.lists, st.lex = append(st.lists, ds), append(st.lex, ls)
			st.q = append(st.q, qpre+it.Query)
		}
		sets = append(sets, st)
	}
	// Embed what is missing, queries and declarations alike, in batches.
	var todo []string
	seen := map[string]bool{}
	want := func(text string) {
		if !seen[text] && !cache.has(emb.Name(), text) {
			seen[text] = true
			todo = append(todo, text)
		}
	}
	for _, st := range sets {
		for i := range st.items {
			want(st.q[i])
			for _, d := range st.lists[i] {
				want(dpre + declSentence(d))
			}
		}
	}
	t.Logf("embedding %d texts with %s", len(todo), emb.Name())
	start, cpu0 := time.Now(), processCPU()
	for i := 0; i < len(todo); i += 256 {
		batch := todo[i:min(i+256, len(todo))]
		vecs, err := emb.Embed(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		for j, v := range vecs {
			cache.put(emb.Name(), batch[j], v)
		}
		if (i/256)%20 == 19 {
			cache.save()
			t.Logf("%d / %d texts, %.1f texts/s", i+len(batch), len(todo), float64(i+len(batch))/time.Since(start).Seconds())
		}
	}
	cache.save()
	if len(todo) > 0 {
		t.Logf("%d texts in %.0f CPU-s: %.0f texts per CPU-second", len(todo), (processCPU() - cpu0).Seconds(), float64(len(todo))/(processCPU()-cpu0).Seconds())
	}
	// One query at a time, as search would embed it.
	cpu1, nq := processCPU(), 0
	for _, st := range sets {
		for _, q := range st.q[:min(30, len(st.q))] {
			if _, err := emb.Embed(ctx, []string{q}); err != nil {
				t.Fatal(err)
			}
			nq++
		}
	}
	t.Logf("one query at a time: %.2f ms CPU per query", float64((processCPU()-cpu1).Microseconds())/1000/float64(nq))
	// The ceiling of a rerank: the gold within the lexical top K.
	for _, depth := range []int{10, 20, 30, 50, 100} {
		if depth > k {
			break
		}
		line := fmt.Sprintf("DRIFT_DENSE\tK=%d\tgold within top K", depth)
		for _, st := range sets {
			in := 0
			for i, it := range st.items {
				for j, d := range st.lists[i] {
					if j < depth && slices.Contains(it.Gold, d.Name) {
						in++
						break
					}
				}
			}
			line += fmt.Sprintf("\t%s %.2f", st.name, 100*float64(in)/float64(len(st.items)))
		}
		fmt.Println(line)
	}
	// Fusions, each evaluated at several depths.
	type fusion struct {
		name string
		f    func(lex, cos []float64) []float64
	}
	minmax := func(xs []float64) []float64 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range xs {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		out := make([]float64, len(xs))
		for i, x := range xs {
			if hi > lo {
				out[i] = (x - lo) / (hi - lo)
			}
		}
		return out
	}
	ranks := func(xs []float64) []float64 {
		idx := make([]int, len(xs))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] > xs[idx[b]] })
		r := make([]float64, len(xs))
		for n, i := range idx {
			r[i] = float64(n + 1)
		}
		return r
	}
	var fusions []fusion
	for _, w := range []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1} {
		fusions = append(fusions, fusion{fmt.Sprintf("linear w=%.1f", w), func(lex, cos []float64) []float64 {
			l, c := minmax(lex), minmax(cos)
			out := make([]float64, len(l))
			for i := range l {
				out[i] = (1-w)*l[i] + w*c[i]
			}
			return out
		}})
	}
	for _, w := range []float64{0.5, 1, 2} {
		for _, k0 := range []float64{5, 20, 60} {
			fusions = append(fusions, fusion{fmt.Sprintf("rrf k=%.0f w=%.1f", k0, w), func(lex, cos []float64) []float64 {
				lr, cr := ranks(lex), ranks(cos)
				out := make([]float64, len(lex))
				for i := range lex {
					out[i] = 1/(k0+lr[i]) + w/(k0+cr[i])
				}
				return out
			}})
		}
	}
	for _, depth := range []int{10, 20, 30, 50, 100} {
		if depth > k {
			break
		}
		for _, fu := range fusions {
			line := fmt.Sprintf("DRIFT_DENSE\tK=%d\t%-16s", depth, fu.name)
			for _, st := range sets {
				var r1, r10, mrr float64
				for i, it := range st.items {
					ds := st.lists[i]
					if len(ds) > depth {
						ds = ds[:depth]
					}
					if len(ds) == 0 {
						continue
					}
					qv := cache.get(emb.Name(), st.q[i])
					cos := make([]float64, len(ds))
					for j, d := range ds {
						cos[j] = embed.Cosine(qv, cache.get(emb.Name(), dpre+declSentence(d)))
					}
					sc := fu.f(st.lex[i][:len(ds)], cos)
					rk := ranks(sc)
					best := math.Inf(1)
					for j, d := range ds {
						for _, g := range it.Gold {
							if d.Name == g {
								best = math.Min(best, rk[j])
							}
						}
					}
					if best <= 1 {
						r1++
					}
					if best <= 10 {
						r10++
						mrr += 1 / best
					}
				}
				n := float64(len(st.items)) / 100
				line += fmt.Sprintf("\t%s %.2f / %.2f / %.2f", st.name, r1/n, r10/n, mrr/n)
			}
			fmt.Println(line)
		}
	}
}

// declSentence is the text a sentence encoder reads for a declaration in
// this experiment: its name in words, its statement humanized and the first
// sentence of its docstring.
func declSentence(d *library.Decl) string {
	var b strings.Builder
	b.WriteString(embed.Humanize(d.Name))
	if sig := embed.Humanize(d.Signature); sig != "" {
		if len(sig) > 300 {
			sig = sig[:300]
		}
		b.WriteString(": ")
		b.WriteString(sig)
	}
	doc := d.Informal
	if doc == "" {
		doc = d.Doc
	}
	if ss := sentences(doc); len(ss) > 0 {
		b.WriteString(". ")
		b.WriteString(strings.ToValidUTF8(ss[0], ""))
	}
	return b.String()
}

// vecCache keeps vectors by the hash of model and text in a gob file.
type vecCache struct {
	path string
	m    map[[32]byte][]float32
}

func newVecCache(path string) *vecCache {
	c := &vecCache{path: path, m: map[[32]byte][]float32{}}
	if f, err := os.Open(path); err == nil {
		_ = gob.NewDecoder(f).Decode(&c.m)
		f.Close()
	}
	return c
}

func (c *vecCache) key(model, text string) [32]byte {
	return sha256.Sum256([]byte(model + "\x00" + text))
}
func (c *vecCache) has(model, text string) bool { _, ok := c.m[c.key(model, text)]; return ok }
func (c *vecCache) get(model, text string) []float32 {
	return c.m[c.key(model, text)]
}
func (c *vecCache) put(model, text string, v []float32) { c.m[c.key(model, text)] = v }
func (c *vecCache) save() {
	if c.path == "" {
		return
	}
	f, err := os.Create(c.path + ".tmp")
	if err != nil {
		return
	}
	if gob.NewEncoder(f).Encode(c.m) == nil && f.Close() == nil {
		_ = os.Rename(c.path+".tmp", c.path)
	}
}
