package retrieval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/drift-lsp/drift-lsp/retrieval/library"
)

// source is where the engine's declarations come from and how one file's
// declarations are re-read after a change.
type source interface {
	// update re-parses the file at path from content (from disk when content
	// is nil; a missing file has no declarations) and returns the file keys
	// whose declarations it replaces and the new declarations.
	update(path string, content []byte) (oldKeys []string, decls []*library.Decl, err error)
	// dirs returns the directories to watch.
	dirs() []string
}

// corpusSource serves declaration dumps, which do not change.
type corpusSource struct{}

func (corpusSource) update(string, []byte) ([]string, []*library.Decl, error) { return nil, nil, nil }
func (corpusSource) dirs() []string                                           { return nil }

// loadSource loads every configured root and corpus.
func loadSource(ctx context.Context, cfg Config, progress func(done, total int)) (source, []*library.Decl, error) {
	var all []*library.Decl
	for i, path := range cfg.Corpus {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		ds, err := readCorpusFile(path)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, ds...)
		progress(i+1, len(cfg.Corpus))
	}
	return corpusSource{}, all, nil
}

func readCorpusFile(path string) ([]*library.Decl, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("retrieval: corpus: %w", err)
	}
	defer f.Close()
	pkg := filepath.Base(path)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []*library.Decl
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		d := &library.Decl{}
		if err := json.Unmarshal(sc.Bytes(), d); err != nil {
			return nil, fmt.Errorf("retrieval: corpus %s:%d: %w", path, line, err)
		}
		if d.Package == "" {
			d.Package = pkg
		}
		out = append(out, d)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("retrieval: corpus %s: %w", path, err)
	}
	return out, nil
}
