package retrieval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// source is where the engine's declarations come from and how one file's
// declarations are re-read after a change.
type source interface {
	// update re-parses the file of u (from disk unless u is a buffer
	// update; a missing file has no declarations) and records in changed
	// the new declarations of every file key it touches (none for keys
	// whose declarations are gone), and in buffered the keys now served
	// from unsaved text. A disk change of a file with an open buffer is
	// ignored.
	// The files that may use names the update added or removed are only
	// resolved again by settle.
	update(u fileUpdate, changed map[string][]*library.Decl, buffered map[string]bool) error
	// settle resolves again up to max of the files that updates left,
	// records their declarations as update does, and reports whether
	// some are left.
	settle(max int, changed map[string][]*library.Decl, buffered map[string]bool) bool
	// dirs returns the directories to watch.
	dirs() ([]string, error)
}

// libSource serves a workspace loaded by the indexer plus fixed corpora.
type libSource struct {
	mu  sync.Mutex
	lib *library.Library // nil when only corpora are served
	// buffers are the files (absolute paths) with open editor buffers.
	buffers map[string]bool
	// paths maps file keys to absolute paths (see keyPath).
	paths map[string]string
}

// files returns the absolute paths of the indexed source files.
func (s *libSource) files() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lib == nil {
		return nil
	}
	return s.lib.Files()
}

// dirs returns the directories the library reads files from (symbolic
// links followed, each real directory once).
func (s *libSource) dirs() ([]string, error) {
	s.mu.Lock()
	lib := s.lib
	s.mu.Unlock()
	if lib == nil {
		return nil, nil
	}
	return lib.Workspace().Dirs()
}

func (s *libSource) update(u fileUpdate, changed map[string][]*library.Decl, buffered map[string]bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lib == nil || !strings.HasSuffix(u.path, ".lean") {
		return nil
	}
	abs, err := filepath.Abs(u.path)
	if err != nil {
		return fmt.Errorf("retrieval: %w", err)
	}
	switch u.kind {
	case fromDisk:
		if s.buffers[abs] {
			return nil
		}
	case fromBuffer:
		s.buffers[abs] = true
	case closed:
		delete(s.buffers, abs)
	}
	// Every file key whose declarations may change: this file's old and
	// new ones.
	touched := map[string]string{} // file key -> absolute path
	for _, d := range s.lib.FileDecls(abs) {
		touched[fileKey(d)] = abs
	}
	content := u.content
	var delta library.Delta
	if u.kind != fromBuffer {
		b, err := os.ReadFile(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.lib, delta = s.lib.RemoveFileDeferred(abs)
		case err != nil:
			return fmt.Errorf("retrieval: %w", err)
		default:
			content = b
		}
	}
	if content != nil {
		s.lib, delta = s.lib.UpdateFileDeferred(abs, content)
	}
	for _, d := range s.lib.FileDecls(abs) {
		touched[fileKey(d)] = abs
		s.keyPath()[fileKey(d)] = abs
	}
	s.record(delta, touched, changed, buffered)
	return nil
}

func (s *libSource) settle(max int, changed map[string][]*library.Decl, buffered map[string]bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lib == nil {
		return false
	}
	var delta library.Delta
	s.lib, delta = s.lib.ResolvePending(max)
	s.record(delta, map[string]string{}, changed, buffered)
	return s.lib.Pending()
}

// record adds to touched the file keys of delta's declarations and stores
// in changed and buffered the current declarations of every touched key.
func (s *libSource) record(delta library.Delta, touched map[string]string, changed map[string][]*library.Decl, buffered map[string]bool) {
	for _, ds := range [][]*library.Decl{delta.Added, delta.Removed, delta.Changed} {
		for _, d := range ds {
			k := fileKey(d)
			if p, ok := s.keyPath()[k]; ok && touched[k] == "" {
				touched[k] = p
			}
		}
	}
	for k, p := range touched {
		ds := []*library.Decl{}
		for _, d := range s.lib.FileDecls(p) {
			if fileKey(d) == k {
				ds = append(ds, d)
			}
		}
		changed[k] = ds
		buffered[k] = s.buffers[p]
	}
}

// keyPath returns the map from file keys to absolute paths, built on first
// use from the library's files.
func (s *libSource) keyPath() map[string]string {
	if s.paths == nil {
		s.paths = map[string]string{}
		for _, p := range s.lib.Files() {
			if ds := s.lib.FileDecls(p); len(ds) > 0 {
				s.paths[fileKey(ds[0])] = p
			}
		}
	}
	return s.paths
}

// loadSource loads every configured root (through the indexer, with its
// on-disk parse cache) and corpus.
func loadSource(ctx context.Context, cfg Config, progress func(done, total int)) (*libSource, []*library.Decl, error) {
	src := &libSource{buffers: map[string]bool{}}
	var all []*library.Decl
	if len(cfg.Roots) > 0 {
		ws, err := library.DiscoverWith(cfg.Roots[0], cfg.Roots[1:], cfg.ElanHome)
		if err != nil {
			return nil, nil, err
		}
		opts := library.Options{Progress: progress, Logf: cfg.Logf}
		if cfg.CacheDir != "" {
			opts.CacheDir = cfg.CacheDir
		}
		lib, err := library.Load(ctx, ws, opts)
		if err != nil {
			return nil, nil, err
		}
		src.lib = lib
		all = append(all, lib.Decls()...)
	}
	for _, path := range cfg.Corpus {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("retrieval: corpus: %w", err)
		}
		ds, err := library.ReadCorpus(f, filepath.Base(path))
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("retrieval: corpus %s: %w", path, err)
		}
		all = append(all, ds...)
	}
	return src, all, nil
}
