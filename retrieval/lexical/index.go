package lexical

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// AnalyzerName is the name under which the Lean-aware analyzer is registered
// with bleve.
const AnalyzerName = "drift-lean"

// Schema is the version of the index layout; a directory built with another
// version is rebuilt.
const Schema = 1

func init() {
	if err := registry.RegisterAnalyzer(AnalyzerName, func(map[string]interface{}, *registry.Cache) (analysis.Analyzer, error) {
		return leanAnalyzer{}, nil
	}); err != nil {
		panic(err)
	}
}

// leanAnalyzer adapts Terms to bleve's analyzer interface.
type leanAnalyzer struct{}

// Analyze implements analysis.Analyzer.
func (leanAnalyzer) Analyze(b []byte) analysis.TokenStream {
	terms := Terms(string(b))
	ts := make(analysis.TokenStream, len(terms))
	for i, t := range terms {
		ts[i] = &analysis.Token{Term: []byte(t), Position: i + 1, Start: 0, End: len(b), Type: analysis.AlphaNumeric}
	}
	return ts
}

// Field names of an indexed declaration and their default boosts.
const (
	FieldName      = "name"      // pieces of the last name component
	FieldNamespace = "namespace" // pieces of the namespace
	FieldDoc       = "doc"       // docstring and informal description
	FieldSignature = "signature" // signature text
	FieldModule    = "module"    // module name
	FieldKind      = "kind"      // declaration kind (keyword)
	FieldFile      = "file"      // source file (keyword), for per-file deletion
)

// DefaultBoosts weights the analyzed fields of a query. The signature and
// module fields are indexed (for callers that boost them) but not queried by
// default: their long posting lists cost more latency than they add.
var DefaultBoosts = map[string]float64{
	FieldName: 3, FieldNamespace: 1, FieldDoc: 1.2,
}

// Doc is one declaration as the lexical index sees it.
type Doc struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Doc       string `json:"doc"`
	Signature string `json:"signature"`
	Module    string `json:"module"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
}

// Result is one lexical hit: the document ID and its BM25 score.
type Result struct {
	ID    string
	Score float64
}

// Index is a persistent bleve index of declarations.
type Index struct {
	idx bleve.Index
	dir string
}

func newMapping() mapping.IndexMapping {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.DefaultAnalyzer = AnalyzerName
	dm := bleve.NewDocumentMapping()
	for _, f := range []string{FieldName, FieldNamespace, FieldDoc, FieldSignature, FieldModule} {
		fm := bleve.NewTextFieldMapping()
		fm.Analyzer = AnalyzerName
		fm.Store = false
		fm.IncludeTermVectors = false
		fm.IncludeInAll = false
		dm.AddFieldMappingsAt(f, fm)
	}
	for _, f := range []string{FieldKind, FieldFile} {
		fm := bleve.NewKeywordFieldMapping()
		fm.Analyzer = keyword.Name
		fm.Store = false
		fm.IncludeInAll = false
		dm.AddFieldMappingsAt(f, fm)
	}
	im.DefaultMapping = dm
	im.StoreDynamic = false
	im.IndexDynamic = false
	return im
}

// Open opens the index in dir, creating it when absent. An index that cannot
// be opened (for example one left half-written by a crash) or that was built
// with another Schema is deleted and created afresh; fresh reports that.
func Open(dir string) (ix *Index, fresh bool, err error) {
	path := filepath.Join(dir, fmt.Sprintf("bleve-v%d", Schema))
	if _, statErr := os.Stat(path); statErr == nil {
		b, err := bleve.Open(path)
		if err == nil {
			return &Index{idx: b, dir: path}, false, nil
		}
		if err := os.RemoveAll(path); err != nil {
			return nil, false, fmt.Errorf("lexical: removing unreadable index: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, false, fmt.Errorf("lexical: %w", err)
	}
	b, err := bleve.New(path, newMapping())
	if err != nil {
		return nil, false, fmt.Errorf("lexical: creating index: %w", err)
	}
	return &Index{idx: b, dir: path}, true, nil
}

// OpenMemory creates an in-memory index, for tests and for throwaway
// corpora.
func OpenMemory() (*Index, error) {
	b, err := bleve.NewMemOnly(newMapping())
	if err != nil {
		return nil, fmt.Errorf("lexical: %w", err)
	}
	return &Index{idx: b}, nil
}

// Apply deletes the documents of the given IDs and indexes docs, as one
// batch.
func (x *Index) Apply(del []string, docs map[string]Doc) error {
	b := x.idx.NewBatch()
	for _, id := range del {
		b.Delete(id)
	}
	for id, d := range docs {
		if err := b.Index(id, d); err != nil {
			return fmt.Errorf("lexical: %w", err)
		}
	}
	if err := x.idx.Batch(b); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	return nil
}

// IDsOfFile returns the IDs of every document indexed from file.
func (x *Index) IDsOfFile(ctx context.Context, file string) ([]string, error) {
	q := bleve.NewTermQuery(file)
	q.SetField(FieldFile)
	req := bleve.NewSearchRequestOptions(q, 1<<30, 0, false)
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("lexical: %w", err)
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	return ids, nil
}

// Count returns the number of indexed documents.
func (x *Index) Count() (uint64, error) { return x.idx.DocCount() }

// Search scores documents against already analyzed query terms over the
// boosted fields and returns the best n; kinds, when non-empty, restricts
// hits to those declaration kinds.
func (x *Index) Search(ctx context.Context, terms []string, boosts map[string]float64, kinds []string, n int) ([]Result, error) {
	if len(terms) == 0 || n <= 0 {
		return nil, nil
	}
	seen := map[string]bool{}
	dis := bleve.NewDisjunctionQuery()
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		for f, b := range boosts {
			if b == 0 {
				continue
			}
			tq := bleve.NewTermQuery(t)
			tq.SetField(f)
			tq.SetBoost(b)
			dis.AddQuery(tq)
		}
	}
	var q query.Query = dis
	if len(kinds) > 0 {
		kd := bleve.NewDisjunctionQuery()
		for _, k := range kinds {
			kq := bleve.NewTermQuery(k)
			kq.SetField(FieldKind)
			kd.AddQuery(kq)
		}
		q = bleve.NewConjunctionQuery(dis, kd)
	}
	req := bleve.NewSearchRequestOptions(q, n, 0, false)
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, fmt.Errorf("lexical: %w", err)
	}
	out := make([]Result, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = Result{ID: h.ID, Score: h.Score}
	}
	return out, nil
}

// Close closes the index.
func (x *Index) Close() error { return x.idx.Close() }
