package retrieval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// manifest records which files the persistent lexical index holds and the
// hash of their documents. A file is added to it only after its batch is
// committed and removed before its documents change, so a crash at any point
// leaves every listed file complete; unlisted files are re-indexed.
type manifest struct {
	Schema int               `json:"schema"`
	Files  map[string]string `json:"files"`
}

const manifestName = "lexical-manifest.json"

func readManifest(dir string) manifest {
	m := manifest{Schema: lexical.Schema, Files: map[string]string{}}
	if dir == "" {
		return m
	}
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return m
	}
	var got manifest
	if json.Unmarshal(b, &got) != nil || got.Schema != lexical.Schema || got.Files == nil {
		return m
	}
	return got
}

func writeManifest(dir string, m manifest) error {
	if dir == "" {
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, manifestName+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("retrieval: writing manifest: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, manifestName))
}

// fileDocs returns the lexical documents of one file and their hash.
func fileDocs(s *snapshot, key string) (map[string]lexical.Doc, string) {
	ids := s.files[key]
	docs := make(map[string]lexical.Doc, len(ids))
	for _, id := range ids {
		docs[id] = lexDoc(s.decls[id])
	}
	return docs, fileHash(s, key)
}

// fileHash hashes everything the lexical documents of one file are made
// of, without building them.
func fileHash(s *snapshot, key string) string {
	ids := append([]string(nil), s.files[key]...)
	sort.Strings(ids)
	h := sha256.New()
	var b []byte
	for _, id := range ids {
		d := s.decls[id]
		b = b[:0]
		for _, f := range []string{id, d.Doc, d.Informal, d.Symbol, d.Signature, d.Module, string(d.Kind)} {
			b = append(b, f...)
			b = append(b, 0)
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// syncLexical brings the lexical index in line with the snapshot, touching
// only files whose documents changed since the manifest was written.
func syncLexical(ctx context.Context, lex *lexical.Index, s *snapshot, cacheDir string, progress func(done, total int)) error {
	m := readManifest(cacheDir)
	n, err := lex.Count()
	if err != nil {
		return fmt.Errorf("retrieval: %w", err)
	}
	empty := n == 0
	if empty {
		m.Files = map[string]string{} // index was recreated: the manifest is stale
	}
	keys := make([]string, 0, len(s.files))
	for k := range s.files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	type job struct {
		key  string
		docs map[string]lexical.Doc
		hash string
	}
	var jobs []job
	for _, k := range keys {
		if h := fileHash(s, k); m.Files[k] != h {
			docs, _ := fileDocs(s, k)
			jobs = append(jobs, job{k, docs, h})
		}
	}
	var gone []string
	for k := range m.Files {
		if _, ok := s.files[k]; !ok {
			gone = append(gone, k)
		}
	}
	sort.Strings(gone)
	for _, k := range gone {
		ids, err := lex.IDsOfFile(ctx, k)
		if err != nil {
			return err
		}
		if err := lex.Apply(ids, nil); err != nil {
			return err
		}
		delete(m.Files, k)
	}
	const batchDocs = 4000
	total := len(jobs)
	for i := 0; i < len(jobs); {
		if err := ctx.Err(); err != nil {
			return err
		}
		var del []string
		docs := map[string]lexical.Doc{}
		j := i
		for ; j < len(jobs) && len(docs) < batchDocs; j++ {
			if !empty {
				old, err := lex.IDsOfFile(ctx, jobs[j].key)
				if err != nil {
					return err
				}
				del = append(del, old...)
			}
			delete(m.Files, jobs[j].key)
			for id, d := range jobs[j].docs {
				docs[id] = d
			}
		}
		if err := writeManifest(cacheDir, m); err != nil {
			return err
		}
		if err := lex.Apply(del, docs); err != nil {
			return err
		}
		for ; i < j; i++ {
			m.Files[jobs[i].key] = jobs[i].hash
		}
		if err := writeManifest(cacheDir, m); err != nil {
			return err
		}
		progress(i, total)
	}
	return nil
}
