package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// Options configures Load.
type Options struct {
	// CacheDir holds the on-disk parse cache ("" disables it).
	CacheDir string
	// Progress, when set, is called as files are read (done of total).
	Progress func(done, total int)
	// Logf, when set, receives warnings (unreadable files, cache problems).
	Logf func(format string, args ...any)
	// Workers bounds parallel parsing (0 means GOMAXPROCS).
	Workers int
}

// Problem is a warning or syntax problem found in one file.
type Problem struct {
	// File is the absolute path of the file.
	File string
	// Msg describes the problem ("line 3: unterminated block comment").
	Msg string
	// Error marks problems that lost declarations (unreadable files, syntax
	// errors); the rest are warnings such as a byte order mark.
	Error bool
}

// Delta describes what an UpdateFile or RemoveFile changed.
type Delta struct {
	// File is the absolute path of the file.
	File string
	// Added are declarations new in the file, Removed those gone from it,
	// Changed those whose text, range or edges changed (new versions).
	Added, Removed, Changed []*Decl
}

// fileData is one indexed file of a snapshot.
type fileData struct {
	abs      string
	root     int
	rel      string
	hash     contentHash
	decls    []*Decl
	problems []Problem
	// syntax holds the file's scopes and scope marks (the rest of the
	// parse result is not kept).
	syntax *leansrc.File
}

// entry is a declaration and the file holding it.
type entry struct {
	d *Decl
	f *fileData
}

// index maps names to declarations for a set of files.
type index struct {
	byName map[string][]entry
	usedBy map[string][]entry
	lasts  map[string]bool // last components of the names in byName
}

// Library is an immutable snapshot of every declaration of a workspace.
// UpdateFile and RemoveFile return new snapshots that share unchanged data.
type Library struct {
	ws    *Workspace
	files map[string]*fileData
	base  *index
	// over indexes the files changed since base was built; shadow lists
	// their paths (base entries from those paths are hidden).
	over   *index
	shadow map[string]bool
	// Global tables from the full build.
	trans     map[string]string     // to_additive: multiplicative → additive name
	notations map[string][]operator // identifier-like notations (ℕ, π) by symbol
	operators map[string][]operator // operator notations by first atom
	aliases   map[string]string     // export aliases: alias name → target

	allOnce sync.Once
	all     []*Decl
}

// Load reads and parses every file of ws in parallel (reusing the on-disk
// cache for unchanged content), resolves references across the library and
// returns the snapshot.
func Load(ctx context.Context, ws *Workspace, opts Options) (*Library, error) {
	srcs, err := ws.files()
	if err != nil {
		return nil, err
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	var cached map[contentHash]*leansrc.File
	cpath := ""
	if opts.CacheDir != "" {
		cpath = cachePath(opts.CacheDir, ws.Dir)
		cached, err = readCache(cpath)
		if err != nil {
			logf("index cache %s unreadable (%v): rebuilding", cpath, err)
			cached = nil
		}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type result struct {
		fd    *fileData
		pf    *leansrc.File
		fresh bool
	}
	results := make([]result, len(srcs))
	var next, done atomic.Int64
	var progMu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(srcs) || ctx.Err() != nil {
					return
				}
				s := srcs[i]
				fd := &fileData{abs: s.abs, root: s.root, rel: s.rel}
				content, err := readSource(s.abs)
				var pf *leansrc.File
				fresh := false
				if err != nil {
					fd.problems = append(fd.problems, Problem{File: s.abs, Msg: err.Error(), Error: true})
					pf = &leansrc.File{}
				} else {
					fd.hash = hashContent(content)
					if c, ok := cached[fd.hash]; ok {
						pf = c
					} else {
						pf = leansrc.Parse(content)
						fresh = true
					}
				}
				results[i] = result{fd: fd, pf: pf, fresh: fresh}
				n := int(done.Add(1))
				if opts.Progress != nil {
					progMu.Lock()
					opts.Progress(n, len(srcs))
					progMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cpath != "" {
		fresh := false
		keep := make(map[contentHash]*leansrc.File, len(results))
		for _, r := range results {
			if r.fd.hash != (contentHash{}) {
				keep[r.fd.hash] = r.pf
				fresh = fresh || r.fresh
			}
		}
		if fresh || len(keep) != len(cached) {
			if err := writeCache(cpath, keep); err != nil {
				logf("writing index cache: %v", err)
			}
		}
	}
	b := &builder{ws: ws, files: make([]builtFile, len(results))}
	for i, r := range results {
		b.files[i] = builtFile{fd: r.fd, pf: r.pf}
	}
	return b.build(workers), nil
}

// readSource reads a file, refusing ones larger than leansrc.MaxFileSize.
func readSource(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > leansrc.MaxFileSize {
		return nil, fmt.Errorf("file too large (%d MB): skipped", st.Size()>>20)
	}
	return os.ReadFile(path)
}

// Workspace returns the workspace the library was loaded from.
func (l *Library) Workspace() *Workspace { return l.ws }

// Decls returns every declaration, ordered by file path then position.
// The slice is shared: callers must not modify it.
func (l *Library) Decls() []*Decl {
	l.allOnce.Do(func() {
		paths := l.Files()
		n := 0
		for _, p := range paths {
			n += len(l.files[p].decls)
		}
		all := make([]*Decl, 0, n)
		for _, p := range paths {
			all = append(all, l.files[p].decls...)
		}
		l.all = all
	})
	return l.all
}

// Files returns the absolute paths of the indexed files, sorted.
func (l *Library) Files() []string {
	out := make([]string, 0, len(l.files))
	for p := range l.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// FileDecls returns the declarations of one file (absolute path), in order.
func (l *Library) FileDecls(path string) []*Decl {
	if fd, ok := l.files[path]; ok {
		return fd.decls
	}
	return nil
}

// Syntax returns the scopes of an indexed file (absolute path) and the
// marks that locate them in its text, or nil for an unknown file.
func (l *Library) Syntax(path string) *leansrc.File {
	if fd, ok := l.files[path]; ok {
		return fd.syntax
	}
	return nil
}

// Resolve returns the full name that identifier id denotes in scope sc,
// inside the declaration named self ("" outside declarations), the way Lean
// resolves it: self's namespaces, the current namespaces, the root, the
// opens, identifier-like notations and export aliases; "" when nothing
// matches. Unlike the resolution of code references it does not strip
// trailing components (projections).
func (l *Library) Resolve(id string, sc *leansrc.Scope, self string) string {
	r := resolver{fallback: l.Lookup, notations: l.notations, aliases: l.aliases}
	r.lasts = []map[string]bool{l.base.lasts}
	if l.over != nil {
		r.lasts = append(r.lasts, l.over.lasts)
	}
	return r.resolveExact(id, sc, self)
}

// Problems returns the warnings and errors of every file, ordered by file.
func (l *Library) Problems() []Problem {
	var out []Problem
	for _, p := range l.Files() {
		out = append(out, l.files[p].problems...)
	}
	return out
}

// Lookup finds a declaration by exact full name. When several files declare
// the name, the first in path order wins.
func (l *Library) Lookup(name string) (*Decl, bool) {
	if l.over != nil {
		if es := l.over.byName[name]; len(es) > 0 {
			return es[0].d, true
		}
	}
	for _, e := range l.base.byName[name] {
		if !l.shadow[e.f.abs] {
			return e.d, true
		}
	}
	return nil, false
}

// UsedBy returns the declarations whose statement uses name.
func (l *Library) UsedBy(name string) []*Decl {
	var out []*Decl
	for _, e := range l.base.usedBy[name] {
		if !l.shadow[e.f.abs] {
			out = append(out, e.d)
		}
	}
	if l.over != nil {
		for _, e := range l.over.usedBy[name] {
			out = append(out, e.d)
		}
	}
	return out
}

// newIndex builds name and used-by maps over files.
func newIndex(files []*fileData) *index {
	n := 0
	for _, f := range files {
		n += len(f.decls)
	}
	ix := &index{byName: make(map[string][]entry, n), usedBy: make(map[string][]entry, n/4)}
	for _, f := range files {
		for _, d := range f.decls {
			ix.byName[d.Name] = append(ix.byName[d.Name], entry{d, f})
			for _, dep := range d.StatementDeps {
				ix.usedBy[dep] = append(ix.usedBy[dep], entry{d, f})
			}
		}
	}
	ix.lasts = lastComponents(ix.byName)
	return ix
}

// UpdateFile parses new content for the file at path (absolute) and returns
// a new snapshot in which that file's declarations are replaced, plus what
// changed. The receiver is not modified.
func (l *Library) UpdateFile(path string, content []byte) (*Library, Delta) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	root, rel := l.ws.locate(abs)
	fd := &fileData{abs: abs, root: root, rel: rel, hash: hashContent(content)}
	pf := leansrc.Parse(content)
	nl := l.derive(abs)
	nl.files[abs] = fd
	b := &builder{ws: l.ws, files: []builtFile{{fd: fd, pf: pf}}, lib: nl}
	b.buildIncremental()
	nl.finish(abs)
	return nl, diff(abs, l.files[abs], fd)
}

// RemoveFile returns a snapshot without the file at path (absolute).
func (l *Library) RemoveFile(path string) (*Library, Delta) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	old := l.files[abs]
	if old == nil {
		return l, Delta{File: abs}
	}
	nl := l.derive(abs)
	delete(nl.files, abs)
	nl.finish(abs)
	return nl, diff(abs, old, nil)
}

// derive copies the snapshot's file map and overlay bookkeeping so that one
// file can change.
func (l *Library) derive(abs string) *Library {
	nl := &Library{ws: l.ws, base: l.base, trans: l.trans, notations: l.notations, operators: l.operators, aliases: l.aliases}
	nl.files = make(map[string]*fileData, len(l.files)+1)
	for k, v := range l.files {
		nl.files[k] = v
	}
	nl.shadow = make(map[string]bool, len(l.shadow)+1)
	for k := range l.shadow {
		nl.shadow[k] = true
	}
	nl.shadow[abs] = true
	nl.over = l.over
	return nl
}

// maxOverlay is the number of changed files after which the base index is
// rebuilt instead of growing the overlay.
const maxOverlay = 64

// finish rebuilds the overlay index (or the base, when the overlay is big).
func (l *Library) finish(abs string) {
	if len(l.shadow) > maxOverlay {
		files := make([]*fileData, 0, len(l.files))
		for _, p := range l.Files() {
			files = append(files, l.files[p])
		}
		l.base = newIndex(files)
		l.shadow = map[string]bool{}
		l.over = nil
		return
	}
	var files []*fileData
	paths := make([]string, 0, len(l.shadow))
	for p := range l.shadow {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if f := l.files[p]; f != nil {
			files = append(files, f)
		}
	}
	l.over = newIndex(files)
}

// diff compares two versions of a file's declarations.
func diff(abs string, old, new *fileData) Delta {
	d := Delta{File: abs}
	oldBy := map[string]*Decl{}
	if old != nil {
		for _, x := range old.decls {
			oldBy[x.Name] = x
		}
	}
	seen := map[string]bool{}
	if new != nil {
		for _, x := range new.decls {
			seen[x.Name] = true
			o, ok := oldBy[x.Name]
			switch {
			case !ok:
				d.Added = append(d.Added, x)
			case !sameDecl(o, x):
				d.Changed = append(d.Changed, x)
			}
		}
	}
	if old != nil {
		for _, x := range old.decls {
			if !seen[x.Name] {
				d.Removed = append(d.Removed, x)
				seen[x.Name] = true
			}
		}
	}
	return d
}

func sameDecl(a, b *Decl) bool {
	return a.Kind == b.Kind && a.Range == b.Range && a.Signature == b.Signature && a.Doc == b.Doc &&
		a.Twin == b.Twin && a.Parent == b.Parent && a.Private == b.Private && a.Protected == b.Protected &&
		slices.Equal(a.Attrs, b.Attrs) && slices.Equal(a.StatementDeps, b.StatementDeps) &&
		slices.Equal(a.ProofDeps, b.ProofDeps)
}

// problemsOf converts a parse result's warnings and diagnostics.
func problemsOf(abs string, pf *leansrc.File) []Problem {
	var out []Problem
	for _, w := range pf.Warnings {
		out = append(out, Problem{File: abs, Msg: w, Error: strings.HasPrefix(w, "file too large")})
	}
	for _, d := range pf.Diags {
		out = append(out, Problem{File: abs, Msg: d.String(), Error: true})
	}
	return out
}
