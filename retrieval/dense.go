package retrieval

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// embedBatch is how many declarations are embedded per model call.
const embedBatch = 64

type hashKey [32]byte

// denseIndex holds the vectors of one embedding model, keyed by the hash of
// the text embedded (so a declaration that did not change is never embedded
// again), persisted as an append-only file of fixed-size records.
type denseIndex struct {
	model embed.Embedder
	dim   int
	path  string

	mu   sync.RWMutex
	vecs map[hashKey][]float32
	tab  *denseTable
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// openDense loads the stored vectors of model from cacheDir ("" keeps them
// in memory). A truncated last record (a crash mid-write) is cut off.
func openDense(cacheDir string, model embed.Embedder) (*denseIndex, error) {
	x := &denseIndex{model: model, dim: model.Dim(), vecs: map[hashKey][]float32{}}
	if cacheDir == "" || x.dim <= 0 {
		return x, nil
	}
	x.path = filepath.Join(cacheDir, "dense-"+unsafeName.ReplaceAllString(model.Name(), "_")+fmt.Sprintf("-%d.bin", x.dim))
	f, err := os.Open(x.path)
	if errors.Is(err, os.ErrNotExist) {
		return x, nil
	}
	if err != nil {
		return nil, fmt.Errorf("retrieval: %w", err)
	}
	defer f.Close()
	rec := 32 + 4*x.dim
	r := bufio.NewReaderSize(f, 1<<20)
	buf := make([]byte, rec)
	good := int64(0)
	for {
		if _, err := io.ReadFull(r, buf); err != nil {
			break
		}
		var k hashKey
		copy(k[:], buf[:32])
		v := make([]float32, x.dim)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[32+4*i:]))
		}
		x.vecs[k] = v
		good += int64(rec)
	}
	if st, err := f.Stat(); err == nil && st.Size() != good {
		if err := os.Truncate(x.path, good); err != nil {
			return nil, fmt.Errorf("retrieval: repairing %s: %w", x.path, err)
		}
	}
	return x, nil
}

// embedText rewrites a declaration into words an English sentence model
// understands: its name split into words, then its docstring or informal
// description.
func embedText(d *library.Decl) string {
	var b strings.Builder
	b.WriteString(strings.Join(lexical.SplitIdent(d.Name), " "))
	doc := d.Informal
	if doc == "" {
		doc = d.Doc
	}
	if doc != "" {
		b.WriteString(": ")
		if len(doc) > 400 {
			doc = doc[:400]
		}
		b.WriteString(strings.ToValidUTF8(doc, ""))
	}
	return b.String()
}

func textKey(model, text string) hashKey {
	return sha256.Sum256([]byte(model + "\x00" + text))
}

// wantsVector reports whether a declaration gets a dense vector: the
// premise-like ones (about 42k of Mathlib's 222k), which bounds embedding
// time, disk and memory.
func wantsVector(d *library.Decl) bool {
	return premiseKind(d.Kind) > 0
}

// missing returns the declarations of s without a stored vector.
func (x *denseIndex) missing(s *snapshot) []*library.Decl {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []*library.Decl
	seen := map[hashKey]bool{}
	s.each(func(_ int32, d *library.Decl) {
		if !wantsVector(d) {
			return
		}
		k := textKey(x.model.Name(), embedText(d))
		if _, ok := x.vecs[k]; !ok && !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// fill embeds decls in batches, appending each batch to disk before the
// next (except the vectors of declarations from unsaved buffers, which stay
// in memory), and reports progress.
func (x *denseIndex) fill(ctx context.Context, decls []*library.Decl, buffered map[string]bool, progress func(done int)) error {
	var f *os.File
	if x.path != "" {
		if err := os.MkdirAll(filepath.Dir(x.path), 0o755); err != nil {
			return fmt.Errorf("retrieval: %w", err)
		}
		var err error
		if f, err = os.OpenFile(x.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			return fmt.Errorf("retrieval: %w", err)
		}
		defer f.Close()
	}
	for i := 0; i < len(decls); i += embedBatch {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := decls[i:min(i+embedBatch, len(decls))]
		texts := make([]string, len(batch))
		for j, d := range batch {
			texts[j] = embedText(d)
		}
		vecs, err := x.model.Embed(ctx, texts)
		if err != nil {
			return fmt.Errorf("retrieval: embedding: %w", err)
		}
		if len(vecs) != len(texts) {
			return fmt.Errorf("retrieval: embedder returned %d vectors for %d texts", len(vecs), len(texts))
		}
		if x.dim <= 0 && len(vecs) > 0 {
			x.dim = len(vecs[0])
		}
		var out []byte
		x.mu.Lock()
		for j, v := range vecs {
			if len(v) != x.dim {
				x.mu.Unlock()
				return fmt.Errorf("retrieval: embedder returned a %d-d vector, want %d", len(v), x.dim)
			}
			k := textKey(x.model.Name(), texts[j])
			x.vecs[k] = v
			if f != nil && !buffered[fileKey(batch[j])] {
				out = append(out, k[:]...)
				for _, c := range v {
					out = binary.LittleEndian.AppendUint32(out, math.Float32bits(c))
				}
			}
		}
		x.mu.Unlock()
		if f != nil {
			if _, err := f.Write(out); err != nil {
				return fmt.Errorf("retrieval: %w", err)
			}
		}
		progress(i + len(batch))
	}
	return nil
}

// denseTable holds the vectors of one base part's declarations as
// contiguous matrices (chunks). Base slots never change while the engine
// runs, so a table serves every snapshot over that base (hidden slots are
// skipped). A refresh appends one chunk with the vectors that arrived since
// and shares the older chunks, so it costs the new vectors, not the whole
// matrix; only the embedding loop refreshes, never a query.
type denseTable struct {
	base   *part
	keys   []hashKey // base slot -> key of its text (zero when it gets no vector)
	has    []uint64  // bit set of the base slots in some chunk
	chunks []denseChunk
}

// denseChunk is a matrix of vectors, one row per slot.
type denseChunk struct {
	slots []int32
	mat   []float32
}

// refresh adds to the table over base the stored vectors it lacks.
func (x *denseIndex) refresh(base *part) {
	x.mu.RLock()
	old := x.tab
	x.mu.RUnlock()
	t := &denseTable{base: base}
	if old != nil && old.base == base {
		t.keys, t.has, t.chunks = old.keys, slices.Clone(old.has), slices.Clone(old.chunks)
	} else {
		t.keys, t.has = make([]hashKey, len(base.decls)), make([]uint64, (len(base.decls)+63)/64)
		for i, d := range base.decls {
			if wantsVector(d) {
				t.keys[i] = textKey(x.model.Name(), embedText(d))
			}
		}
	}
	var c denseChunk
	x.mu.RLock()
	for i, k := range t.keys {
		if k == (hashKey{}) || t.has[i/64]&(1<<(i%64)) != 0 {
			continue
		}
		if v, ok := x.vecs[k]; ok {
			c.slots = append(c.slots, int32(i))
			c.mat = append(c.mat, v...)
			t.has[i/64] |= 1 << (i % 64)
		}
	}
	x.mu.RUnlock()
	if len(c.slots) > 0 {
		t.chunks = append(t.chunks, c)
	}
	x.mu.Lock()
	x.tab = t
	x.mu.Unlock()
}

// search returns the slots of the declarations of s whose vectors are
// closest to the query text, best first; nothing when the query cannot be
// embedded. It reads the table built by the embedding loop and looks up the
// overlay's few vectors, so it never waits for embedding.
func (x *denseIndex) search(ctx context.Context, s *snapshot, text string, n int) ([]int32, []float32) {
	vs, err := x.model.Embed(ctx, []string{text})
	if err != nil || len(vs) != 1 || len(vs[0]) != x.dim || x.dim == 0 {
		return nil, nil
	}
	q := vs[0]
	type sc struct {
		slot int32
		v    float32
	}
	var res []sc
	dot := func(row []float32) float32 {
		var v float32
		for j, c := range q {
			v += c * row[j]
		}
		return v
	}
	x.mu.RLock()
	t := x.tab
	for i, d := range s.over.decls {
		if wantsVector(d) {
			if v, ok := x.vecs[textKey(x.model.Name(), embedText(d))]; ok {
				res = append(res, sc{s.over.off + int32(i), dot(v)})
			}
		}
	}
	x.mu.RUnlock()
	if t != nil && t.base == s.base {
		for _, c := range t.chunks {
			for i, sl := range c.slots {
				if s.live(sl) {
					res = append(res, sc{sl, dot(c.mat[i*x.dim : (i+1)*x.dim])})
				}
			}
		}
	}
	sort.Slice(res, func(i, j int) bool {
		if res[i].v != res[j].v {
			return res[i].v > res[j].v
		}
		return docID(s.decl(res[i].slot)) < docID(s.decl(res[j].slot))
	})
	out := make([]int32, 0, n)
	sims := make([]float32, 0, n)
	for _, r := range res[:min(n, len(res))] {
		out = append(out, r.slot)
		sims = append(sims, r.v)
	}
	return out, sims
}

// similarities returns the cosine between the query text and each of the
// declarations at slots that has a stored vector (0 for the others), or nil
// when the query cannot be embedded: the dense feature of search.
func (x *denseIndex) similarities(ctx context.Context, s *snapshot, text string, slots []int32) []float32 {
	vs, err := x.model.Embed(ctx, []string{text})
	if err != nil || len(vs) != 1 || len(vs[0]) != x.dim || x.dim == 0 {
		return nil
	}
	q := vs[0]
	out := make([]float32, len(slots))
	x.mu.RLock()
	defer x.mu.RUnlock()
	for i, sl := range slots {
		d := s.decl(sl)
		if !wantsVector(d) {
			continue
		}
		if v, ok := x.vecs[textKey(x.model.Name(), embedText(d))]; ok {
			var dot float32
			for j, c := range q {
				dot += c * v[j]
			}
			out[i] = dot
		}
	}
	return out
}

// embedAll embeds every declaration that lacks a vector, in the background,
// and again after updates; the dense channel serves whatever is done. It
// never holds the engine's lock: queries go on at full speed.
func (e *Engine) embedAll() {
	defer e.finishEmbedding()
	x, err := openDense(e.dir, e.cfg.Embedder)
	if err != nil {
		e.cfg.Logf("retrieval: dense retrieval off: %v", err)
		e.setStatus(func(s *Status) { s.Warning = "dense retrieval off: " + err.Error() })
		return
	}
	s := e.snapshot()
	x.refresh(s.base)
	e.dense.Store(x)
	for {
		s = e.snapshot()
		x.mu.RLock()
		stale := x.tab == nil || x.tab.base != s.base
		x.mu.RUnlock()
		if stale { // a compaction brought a new base
			x.refresh(s.base)
		}
		todo := x.missing(s)
		if len(todo) > 0 {
			done0 := 0
			e.setStatus(func(st *Status) {
				st.Embed = Progress{Done: st.Embed.Done, Total: st.Embed.Done + len(todo)}
				done0 = st.Embed.Done
				st.Phase, st.Done, st.Total = "embedding", st.Embed.Done, st.Embed.Total
			})
			last := time.Now()
			err := x.fill(e.ctx, todo, s.buffered, func(done int) {
				e.setStatus(func(st *Status) { st.Embed.Done = done0 + done; st.Done = st.Embed.Done })
				if time.Since(last) > 5*time.Second {
					x.refresh(s.base)
					last = time.Now()
				}
			})
			x.refresh(s.base)
			if err != nil {
				if e.ctx.Err() == nil {
					e.cfg.Logf("retrieval: %v", err)
					e.setStatus(func(st *Status) {
						st.Phase, st.Done, st.Total = "ready", st.Index.Done, st.Index.Total
						st.Warning = "dense retrieval incomplete: " + err.Error()
					})
				}
				return
			}
		}
		e.setStatus(func(st *Status) { st.Phase, st.Done, st.Total = "ready", st.Index.Done, st.Index.Total })
		e.finishEmbedding()
		select {
		case <-e.ctx.Done():
			return
		case <-e.embedKick:
		}
	}
}
