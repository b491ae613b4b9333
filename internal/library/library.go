package library

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

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

// Delta describes what an UpdateFile or RemoveFile changed: applying it to
// the previous snapshot's declarations (keyed by package, file and name)
// gives the new snapshot's, so a consumer can update itself from it alone.
type Delta struct {
	// File is the absolute path of the file that was updated or removed.
	File string
	// Added are declarations new in the snapshot, Removed those gone from
	// it, Changed those whose text, range, edges or twin changed (the new
	// versions). They belong to File and to the other files that were
	// resolved again because File started or stopped declaring names they
	// may use; each Decl names its file.
	Added, Removed, Changed []*Decl
}

// fileData is one indexed file of a snapshot.
type fileData struct {
	abs      string
	root     int
	rel      string
	hash     contentHash
	size     int64 // size and modification time (ns) when read from disk
	mtime    int64
	decls    []*Decl
	problems []Problem
	// tabs are the file's entries in the library-wide tables.
	tabs fileTables
	// refs holds the last components of the identifiers the file uses.
	refs refFilter
	// pf is the parse result of files built by UpdateFile (nil for files
	// from Load, which are re-read from disk when needed).
	pf *leansrc.File
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
	base  *baseIndex
	// over indexes the files changed since base was built; shadow lists
	// their paths (base entries from those paths are hidden).
	over   *index
	shadow map[string]bool
	// Global tables from the full build.
	trans     map[string]string     // to_additive: multiplicative → additive name
	notations map[string][]operator // identifier-like notations (ℕ, π) by symbol
	operators map[string][]operator // operator notations by first atom
	aliases   map[string]string     // export aliases: alias name → target

	empty []Root // roots that yielded no file at Load
	// touched marks a snapshot served although some files' modification
	// times changed (same content): Load rewrites it with the new times.
	touched bool

	// stale are the last components of names that deferred updates made
	// appear or disappear; queue the files (sorted) found to use some of
	// them. Both wait for ResolvePending.
	stale []string
	queue []string

	allOnce sync.Once
	all     []*Decl
}

// Load reads and parses every file of ws in parallel (reusing the on-disk
// cache for unchanged content), resolves references across the library and
// returns the snapshot.
func Load(ctx context.Context, ws *Workspace, opts Options) (*Library, error) {
	ls, err := ws.walk()
	if err != nil {
		return nil, err
	}
	srcs := ls.files
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	var empty []Root
	for i, n := range ls.perRoot {
		if n == 0 {
			r := ws.Roots[i]
			empty = append(empty, r)
			logf("warning: root %s yields no Lean files", r.Dir)
		}
	}
	var cached map[contentHash]*leansrc.File
	cpath, spath := "", ""
	if opts.CacheDir != "" {
		spath = SnapshotPath(opts.CacheDir, ws)
		lib, err := readSnapshot(spath, ws, ls)
		if err == nil {
			lib.empty = empty
			if lib.touched {
				if err := writeSnapshot(spath, lib); err != nil {
					logf("writing library snapshot: %v", err)
				}
			}
			if opts.Progress != nil {
				opts.Progress(len(srcs), len(srcs))
			}
			return lib, nil
		}
		if !errors.Is(err, errStale) {
			logf("library snapshot %s unusable (%v): rebuilding", spath, err)
		}
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
	var done atomic.Int64
	var progMu sync.Mutex
	var g errgroup.Group
	g.SetLimit(workers)
	for i, s := range srcs {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			fd := &fileData{abs: s.abs, root: s.root, rel: s.rel}
			content, st, err := readSourceStat(s.abs)
			var pf *leansrc.File
			fresh := false
			if st != nil {
				fd.size, fd.mtime = st.Size(), st.ModTime().UnixNano()
			}
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
			return nil
		})
	}
	_ = g.Wait()
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
	lib := b.build(workers)
	lib.empty = empty
	if spath != "" {
		if err := writeSnapshot(spath, lib); err != nil {
			logf("writing library snapshot: %v", err)
		} else if light, err := readSnapshot(spath, ws, ls); err == nil {
			// Serve the mapped copy: its strings live in the shared mapping
			// instead of pinning every parsed file's text on the heap.
			light.empty = empty
			return light, nil
		}
	}
	return lib, nil
}

// EmptyRoots returns the roots in which Load found no .lean file (a wrong
// --root, an unfetched package): the library silently lacks their names.
func (l *Library) EmptyRoots() []Root { return l.empty }

// readSource reads a file, refusing ones larger than leansrc.MaxFileSize.
func readSource(path string) ([]byte, error) {
	b, _, err := readSourceStat(path)
	return b, err
}

// readSourceStat is readSource that also returns the file's status, taken
// before reading (a later change shows in the modification time).
func readSourceStat(path string) ([]byte, os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if st.Size() > leansrc.MaxFileSize {
		return nil, st, fmt.Errorf("file too large (%d MB): skipped", st.Size()>>20)
	}
	b, err := os.ReadFile(path)
	return b, st, err
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

// DeclPath returns the absolute path of the indexed file that declares d:
// its file relative to the root of its package (a File that is absolute
// already, as a declaration dump's may be, is returned as it is). It is the
// one resolver of a declaration's file, for both edges and the commands;
// ok is false when no indexed file declares d (nil l included).
func (l *Library) DeclPath(d *Decl) (string, bool) {
	if filepath.IsAbs(d.File) {
		return d.File, true
	}
	if l == nil {
		return "", false
	}
	for _, root := range l.ws.Roots {
		if root.Package != d.Package {
			continue
		}
		if p := filepath.Join(root.Dir, filepath.FromSlash(d.File)); l.FileDecls(p) != nil {
			return p, true
		}
	}
	return "", false
}

// Syntax returns the parse result (scopes and the marks that locate them)
// of an indexed file (absolute path) when the snapshot holds it, as it does
// for files given to UpdateFile; nil otherwise (see Parser).
func (l *Library) Syntax(path string) *leansrc.File {
	if fd, ok := l.files[path]; ok {
		return fd.pf
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
	r.lasts = []map[string]bool{l.base.get().lasts}
	if l.over != nil {
		r.lasts = append(r.lasts, l.over.lasts)
	}
	return r.resolveExact(id, sc, self)
}

// ExportAlias returns the constant an `export` command makes name stand
// for (`dist` for Mathlib's `export Dist (dist)`, whose alias is at the root;
// `Foo.x` for an export inside `namespace Foo`); ok is false when none does.
func (l *Library) ExportAlias(name string) (string, bool) {
	t, ok := l.aliases[name]
	return t, ok
}

// BracketArrow returns the constant that every notation of the library
// opening with atom and a bracket stands for: LinearEquiv for `≃ₗ` of
// `notation M " ≃ₗ[" R "] " M₂ => LinearEquiv (RingHom.id R) M M₂`; ok is
// false when there is none or more than one.
func (l *Library) BracketArrow(atom string) (string, bool) {
	return l.onlyTarget(atom+"[", func(*operator) bool { return true })
}

// NotationToken returns the constant a notation of one token stands for
// ("NNReal" for Mathlib's `notation "ℝ≥0" => NNReal`): a notation whose only
// atom is tok, with no operands, whose right side is a constant. Scoped
// notations count wherever their namespace is open or not (a statement that
// writes the token means it), local ones never (the library's tables leave
// them out); ok is false when there is none, or when two stand for different
// constants, or when tok also starts a notation with operands (Mathlib's
// `∂` is Finset.shadow alone and Coheyting.boundary's prefix).
func (l *Library) NotationToken(tok string) (string, bool) {
	for _, o := range l.operators[tok] {
		if !o.alone {
			return "", false
		}
	}
	return l.onlyTarget(tok, func(o *operator) bool { return o.alone })
}

// onlyTarget returns the constant that every notation keyed by atom of
// which kind holds stands for; ok is false when there is none or more
// than one.
func (l *Library) onlyTarget(atom string, kind func(*operator) bool) (string, bool) {
	target := ""
	for i := range l.operators[atom] {
		o := &l.operators[atom][i]
		switch {
		case !kind(o):
		case target == "":
			target = o.target
		case o.target != target:
			return "", false
		}
	}
	return target, target != ""
}

// NotationTargets returns the constants the library's notations whose
// first atom is atom stand for (`ℍ[` of `notation "ℍ[" R "]" => Quaternion
// R` and of `notation "ℍ[" R "," a "," b "]" => QuaternionAlgebra R a 0
// b`), each once.
func (l *Library) NotationTargets(atom string) []string {
	var out []string
	for _, o := range l.operators[atom] {
		if !slices.Contains(out, o.target) {
			out = append(out, o.target)
		}
	}
	return out
}

// PostfixNotation returns the constant that the library's notation of an
// operand followed by atom applies to that operand (`Polynomial` for
// Mathlib's `notation:9000 R "[X]" => Polynomial R`, so `ℚ[X]` is
// `Polynomial ℚ`); ok is false when there is none, or when two stand for
// different constants. Scoped notations count as NotationToken says.
func (l *Library) PostfixNotation(atom string) (string, bool) {
	return l.onlyTarget(atom, func(o *operator) bool { return o.postfix })
}

// InfixNotation returns the constant that the library's infix notation of
// atom applies to its two operands (`AddMonoidHom` for Mathlib's `infixr:25
// " →+ " => AddMonoidHom`, so `G →+ H` is `AddMonoidHom G H`); ok is false
// when there is none, or when two stand for different constants. Scoped
// notations count as NotationToken says.
func (l *Library) InfixNotation(atom string) (string, bool) {
	return l.onlyTarget(atom, func(o *operator) bool { return o.infix.Fixity != 0 })
}

// InfixOperator returns the constant, fixity and precedence of the
// library's infix notation atom in scope sc (`Set.image`, infixl 80 for
// Mathlib's image of a set, an infixl:80 command): ok only when every notation keyed
// by atom that is in force is such an infix command, all agree, and the
// precedence is a number.
func (l *Library) InfixOperator(atom string, sc *leansrc.Scope) (target string, op leansrc.Operator, ok bool) {
	for i := range l.operators[atom] {
		o := &l.operators[atom][i]
		switch {
		case !o.active(sc):
		case o.infix.Fixity == 0 || o.infix.Prec == 0:
			return "", leansrc.Operator{}, false
		case target == "":
			target, op = o.target, o.infix
		case o.target != target || o.infix != op:
			return "", leansrc.Operator{}, false
		}
	}
	return target, op, target != ""
}

// HasModule reports whether the library indexes the source of module mod
// (`Mathlib.Data.Nat.Basic`) in one of its roots.
func (l *Library) HasModule(mod string) bool {
	if l.ws == nil {
		return false
	}
	rel := filepath.FromSlash(strings.ReplaceAll(mod, ".", "/")) + ".lean"
	for _, r := range l.ws.Roots {
		if _, ok := l.files[filepath.Join(r.Dir, rel)]; ok {
			return true
		}
	}
	return false
}

// InactiveNotation reports whether every notation of the library whose
// first atom (or identifier-like symbol) is atom is scoped to a namespace
// that scope sc neither is in nor opens, so that Lean reads none of them
// there (Mathlib's `n !` and `π` without `open Nat` and `open Real`), and
// no notation in force can read it: it returns their targets and
// namespaces, each pair once, in the library's order; none otherwise.
func (l *Library) InactiveNotation(atom string, sc *leansrc.Scope) (targets, namespaces []string) {
	ops := l.operators[atom]
	if leansrc.IsIdentifier(atom) {
		ops = l.notations[atom] // `π`, `𝓝`: read as identifiers
	}
	for i := range ops {
		if ops[i].active(sc) {
			return nil, nil
		}
		if !slices.Contains(targets, ops[i].target) {
			targets, namespaces = append(targets, ops[i].target), append(namespaces, ops[i].ns)
		}
	}
	if len(targets) > 0 {
		// a notation in force may write atom after its first one (`∂` of
		// `∫ x, f x ∂μ`), or start with a piece of it (`μ[X]`, the
		// integral of `P "[" X "]"` under `open ProbabilityTheory`, where
		// `[X]` is Polynomial's postfix)
		if l.PieceInForce(atom, sc) {
			return nil, nil
		}
		for _, os := range l.operators {
			for i := range os {
				if len(os[i].atoms) > 1 && slices.Contains(os[i].atoms[1:], atom) && os[i].active(sc) {
					return nil, nil
				}
			}
		}
	}
	return targets, namespaces
}

// PieceInForce reports whether a notation in force in scope sc starts
// with a proper prefix of atom, so that Lean may read atom's text with it
// instead (`P "[" X "]"`, ProbabilityTheory's integral, reads `μ[X]`).
func (l *Library) PieceInForce(atom string, sc *leansrc.Scope) bool {
	for key, os := range l.operators {
		if key == atom || key == "" || !strings.HasPrefix(atom, key) {
			continue
		}
		for i := range os {
			if os[i].active(sc) {
				return true
			}
		}
	}
	return false
}

// OneAtom reports whether the library declares tok as the only atom of a
// notation that is not a token standing for a constant: an operator
// (`infixr:25 " →+* " => RingHom`, `prefix:max "√" => Real.sqrt`) or a
// fixed expansion (`notation "ℤ[i]" => GaussianInt`).
func (l *Library) OneAtom(tok string) bool {
	for _, o := range l.operators[tok] {
		if !o.alone && len(o.atoms) == 1 {
			return true
		}
	}
	return false
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
	e, ok := l.lookupExcept(name, "")
	return e.d, ok
}

// lookupExcept is Lookup ignoring the file at skip.
func (l *Library) lookupExcept(name, skip string) (entry, bool) {
	var best entry
	found := false
	consider := func(e entry) {
		if e.f.abs != skip && (!found || e.f.abs < best.f.abs) {
			best, found = e, true
		}
	}
	if l.over != nil {
		for _, e := range l.over.byName[name] {
			consider(e)
		}
	}
	for _, e := range l.base.get().byName[name] {
		if !l.shadow[e.f.abs] {
			consider(e)
			break // base entries are in path order
		}
	}
	return best, found
}

// UsedBy returns the declarations whose statement uses name.
func (l *Library) UsedBy(name string) []*Decl {
	var out []*Decl
	for _, e := range l.base.get().usedBy[name] {
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

// Prepare builds the name index now (otherwise built by the first lookup
// or update): a server calls it in the background so that the first edit
// does not pay for it.
func (l *Library) Prepare() { l.base.get() }

// baseIndex is the index of a snapshot's base files, built on first use
// (a warm start that only lists declarations never pays for it) and shared
// by the snapshots derived from it.
type baseIndex struct {
	once  sync.Once
	files []*fileData
	ix    *index
}

func newBase(files []*fileData) *baseIndex { return &baseIndex{files: files} }

// get returns the index, building it once.
func (b *baseIndex) get() *index {
	b.once.Do(func() {
		b.ix = newIndex(b.files)
		b.files = nil
	})
	return b.ix
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
// changed. When the file declares other names than before, the other files
// that may refer to those names are resolved again, so that the snapshot
// equals a fresh Load of the same files. The receiver is not modified.
func (l *Library) UpdateFile(path string, content []byte) (*Library, Delta) {
	return settleAll(l.UpdateFileDeferred(path, content))
}

// RemoveFile returns a snapshot without the file at path (absolute); files
// that referred to its names are resolved again.
func (l *Library) RemoveFile(path string) (*Library, Delta) {
	return settleAll(l.RemoveFileDeferred(path))
}

// UpdateFileDeferred is UpdateFile at a cost proportional to the file: the
// other files that may use names the file started or stopped declaring
// (which changes only their dependency edges) are left for ResolvePending.
// The Delta describes the file alone.
func (l *Library) UpdateFileDeferred(path string, content []byte) (*Library, Delta) {
	abs := l.path(path)
	nl := l.derive()
	fd := nl.rebuild(abs, leansrc.Parse(content), hashContent(content))
	nl.stale = append(nl.stale, changedLasts(l.files[abs], fd)...)
	return nl, diff(abs, l.files[abs], fd)
}

// RemoveFileDeferred is RemoveFile leaving the files that referred to the
// file's names for ResolvePending.
func (l *Library) RemoveFileDeferred(path string) (*Library, Delta) {
	abs := l.path(path)
	old := l.files[abs]
	if old == nil {
		return l, Delta{File: abs}
	}
	nl := l.derive()
	delete(nl.files, abs)
	nl.shadow[abs] = true
	if !old.tabs.equal(&fileTables{}) {
		nl.retable()
	}
	nl.finish()
	nl.stale = append(nl.stale, changedLasts(old, nil)...)
	return nl, diff(abs, old, nil)
}

// Pending reports whether deferred updates left files to resolve again.
func (l *Library) Pending() bool { return len(l.stale) > 0 || len(l.queue) > 0 }

// ResolvePending resolves again up to max of the files that deferred
// updates left (in path order) and returns the new snapshot, with a Delta
// (File empty) of what changed in them. When Pending is false afterwards,
// the snapshot equals what the non-deferred updates would have given.
func (l *Library) ResolvePending(max int) (*Library, Delta) {
	if !l.Pending() || max <= 0 {
		return l, Delta{}
	}
	nl := l.derive()
	if len(nl.stale) > 0 {
		queued := map[string]bool{}
		for _, p := range nl.queue {
			queued[p] = true
		}
		for p, f := range nl.files {
			if !queued[p] && f.refs.mayHaveAny(nl.stale) {
				nl.queue = append(nl.queue, p)
			}
		}
		sort.Strings(nl.queue) // resolve in path order, as Load does
		nl.stale = nil
	}
	n := min(max, len(nl.queue))
	batch := nl.queue[:n]
	nl.queue = nl.queue[n:len(nl.queue):len(nl.queue)]
	var d Delta
	for _, p := range batch {
		f := nl.files[p]
		if f == nil {
			continue // removed since
		}
		pf := f.pf
		if pf == nil {
			content, err := readSource(p)
			if err != nil || hashContent(content) != f.hash {
				continue // changed on disk: its own update follows
			}
			pf = leansrc.Parse(content)
		}
		nf := nl.rebuild(p, pf, f.hash)
		fd := diff(p, f, nf)
		d.Added = append(d.Added, fd.Added...)
		d.Removed = append(d.Removed, fd.Removed...)
		d.Changed = append(d.Changed, fd.Changed...)
	}
	return nl, d
}

// settleAll resolves every pending file of nl, the snapshot a deferred
// update gave with Delta d, and adds what changed to d.
func settleAll(nl *Library, d Delta) (*Library, Delta) {
	for nl.Pending() {
		var more Delta
		nl, more = nl.ResolvePending(len(nl.files) + 1)
		d.Added = append(d.Added, more.Added...)
		d.Removed = append(d.Removed, more.Removed...)
		d.Changed = append(d.Changed, more.Changed...)
	}
	return nl, d
}

// path is the absolute path under which the library knows the file at p
// (which may name it through the real directory of a linked root).
func (l *Library) path(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	if _, ok := l.files[abs]; ok {
		return abs
	}
	return l.ws.logical(abs)
}

// rebuild replaces the file at abs in l (a snapshot being derived) by the
// parse result pf and resolves it against the rest of l.
func (l *Library) rebuild(abs string, pf *leansrc.File, hash contentHash) *fileData {
	root, rel := l.ws.locate(abs)
	fd := &fileData{abs: abs, root: root, rel: rel, hash: hash, pf: pf, refs: refFilterOf(pf)}
	old := l.files[abs]
	if old == nil {
		old = &fileData{}
	}
	l.files[abs] = fd
	l.shadow[abs] = true
	b := &builder{ws: l.ws, files: []builtFile{{fd: fd, pf: pf}}, lib: l, old: old}
	b.buildIncremental()
	l.finish()
	return fd
}

// changedLasts returns the last components of the names declared by
// exactly one of old and new (either may be nil).
func changedLasts(old, new *fileData) []string {
	var out []string
	if old != nil && new != nil && !old.tabs.equal(&new.tabs) {
		out = append(append(out, old.tabs.keys()...), new.tabs.keys()...)
	} else if f := cmp.Or(old, new); f != nil {
		out = append(out, f.tabs.keys()...) // added or removed
	}
	count := map[string]int{}
	for i, f := range []*fileData{old, new} {
		if f == nil {
			continue
		}
		for _, d := range f.decls {
			count[d.Name] |= 1 << i
		}
	}
	seen := map[string]bool{}
	for n, c := range count {
		if c == 3 {
			continue
		}
		if _, last := leansrc.SplitLast(n); !seen[last] {
			seen[last] = true
			out = append(out, last)
		}
	}
	return out
}

// derive copies the snapshot's file map and overlay bookkeeping so that
// files can change.
func (l *Library) derive() *Library {
	nl := &Library{ws: l.ws, empty: l.empty, base: l.base, trans: l.trans, notations: l.notations, operators: l.operators, aliases: l.aliases}
	nl.files = make(map[string]*fileData, len(l.files)+1)
	for k, v := range l.files {
		nl.files[k] = v
	}
	nl.shadow = make(map[string]bool, len(l.shadow)+1)
	for k := range l.shadow {
		nl.shadow[k] = true
	}
	nl.over = l.over
	nl.stale = slices.Clip(l.stale)
	nl.queue = slices.Clip(l.queue)
	return nl
}

// maxOverlay is the number of changed files after which the base index is
// rebuilt instead of growing the overlay.
const maxOverlay = 256

// finish rebuilds the overlay index (or the base, when the overlay is big).
func (l *Library) finish() {
	if len(l.shadow) > maxOverlay {
		files := make([]*fileData, 0, len(l.files))
		for _, p := range l.Files() {
			files = append(files, l.files[p])
		}
		l.base = newBase(files)
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
	return a.Kind == b.Kind && a.Range == b.Range && a.Signature == b.Signature && a.Doc == b.Doc && a.Value == b.Value &&
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
