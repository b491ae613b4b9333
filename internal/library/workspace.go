package library

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/lake"
)

// Root is one directory tree of Lean sources: the workspace itself, a Lake
// package, Lean's own sources, or an extra root given by the user.
type Root struct {
	// Dir is the absolute directory whose relative paths give module names.
	Dir string
	// Package is "" for the workspace, the package name under .lake/packages,
	// "lean4" for Lean's sources, or the directory name of an extra root.
	Package string
	// User marks roots holding the user's own files.
	User bool
}

// Workspace is a discovered Lake workspace and the roots to index.
type Workspace struct {
	// Dir is the workspace root (where lakefile or lean-toolchain lives).
	Dir string
	// Toolchain is the content of lean-toolchain ("" when absent).
	Toolchain string
	// Roots are the trees to index, the workspace first.
	Roots []Root

	realOnce sync.Once
	realDirs []string // Roots[i].Dir with symbolic links resolved
}

// skipDirs are directory names never descended into.
var skipDirs = map[string]bool{
	".lake": true, "lake-packages": true, "build": true, ".git": true, "node_modules": true,
	".cache": true, "_build": true, ".github": true,
}

// Discover is DiscoverWith without elan's directory: Lean's own sources
// are not among the roots.
func Discover(dir string, extra []string) (*Workspace, error) { return DiscoverWith(dir, extra, "") }

// DiscoverWith finds the Lake workspace containing dir (walking up to the first
// directory with lakefile.lean, lakefile.toml or lean-toolchain; dir itself
// when none is found) and lists its roots: the workspace, every package
// under .lake/packages (or the older lake-packages), Lean's sources from the
// elan toolchain named by lean-toolchain when installed, and the extra
// directories. Lean's sources are looked for in elanHome (elan's directory;
// "" leaves them out).
func DiscoverWith(dir string, extra []string, elanHome string) (*Workspace, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("workspace %s: not a directory", dir)
	}
	root := abs
	for d := abs; ; {
		if lake.IsRoot(d) {
			root = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	ws := &Workspace{Dir: root}
	if b, err := os.ReadFile(filepath.Join(root, "lean-toolchain")); err == nil {
		ws.Toolchain = strings.TrimSpace(string(b))
	}
	ws.Roots = append(ws.Roots, Root{Dir: root, User: true})
	for _, pk := range []string{filepath.Join(root, ".lake", "packages"), filepath.Join(root, "lake-packages")} {
		ents, err := os.ReadDir(pk)
		if err != nil {
			continue
		}
		for _, e := range ents {
			p := filepath.Join(pk, e.Name())
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				ws.Roots = append(ws.Roots, Root{Dir: p, Package: e.Name()})
			}
		}
	}
	if src := toolchainSources(elanHome, ws.Toolchain); src != "" {
		ws.Roots = append(ws.Roots, Root{Dir: src, Package: "lean4"})
	}
	seen := map[string]bool{}
	for _, r := range ws.Roots {
		seen[r.Dir] = true
	}
	for _, e := range extra {
		p, err := filepath.Abs(e)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", e, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("root %s: not a directory", e)
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		ws.Roots = append(ws.Roots, Root{Dir: p, Package: filepath.Base(p), User: true})
	}
	return ws, nil
}

// toolchainSources returns elanHome/toolchains/<name>/src/lean for a
// toolchain spec like "leanprover/lean4:v4.17.0", or "" when not installed
// (or elanHome is "").
func toolchainSources(elanHome, tc string) string {
	if tc == "" || elanHome == "" {
		return ""
	}
	p := filepath.Join(lake.ToolchainDir(elanHome, tc), "src", "lean")
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return p
	}
	return ""
}

// sourceFile is one .lean file found under a root.
type sourceFile struct {
	abs  string
	rel  string // slash-separated, relative to the root
	root int    // index into Workspace.Roots
}

// listing is the result of walking every root: the .lean files, the
// directories descended into and how many files each root yielded.
type listing struct {
	files   []sourceFile
	dirs    []string
	perRoot []int
}

// Dirs returns every directory the indexer reads .lean files from, by the
// path under its root (symbolic links followed, each real directory once):
// the directories a file watcher must watch.
func (ws *Workspace) Dirs() ([]string, error) {
	ls, err := ws.walk()
	if err != nil {
		return nil, err
	}
	return ls.dirs, nil
}

// walk visits every root. Symbolic links to directories and files are
// followed; each real directory is read once (a link cycle or a second
// link to a tree already walked is skipped), and paths keep the name they
// have under their root so that module names follow the workspace layout.
func (ws *Workspace) walk() (*listing, error) {
	ls := &listing{perRoot: make([]int, len(ws.Roots))}
	rootDirs := map[string]bool{}
	for _, r := range ws.Roots {
		rootDirs[r.Dir] = true
		if real, err := filepath.EvalSymlinks(r.Dir); err == nil {
			rootDirs[real] = true
		}
	}
	visited := map[string]bool{} // real directories already walked
	seen := map[string]bool{}    // real files already listed
	for ri, r := range ws.Roots {
		real, err := filepath.EvalSymlinks(r.Dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, err
		}
		if visited[real] {
			continue
		}
		var visit func(dir, realDir string)
		visit = func(dir, realDir string) {
			visited[realDir] = true
			ls.dirs = append(ls.dirs, dir)
			ents, err := os.ReadDir(dir)
			if err != nil {
				return // unreadable subdirectory: skip it
			}
			// Real entries before links, so that a tree reachable both ways
			// keeps its own path.
			sort.SliceStable(ents, func(i, j int) bool {
				return ents[i].Type()&fs.ModeSymlink == 0 && ents[j].Type()&fs.ModeSymlink != 0
			})
			for _, e := range ents {
				p := filepath.Join(dir, e.Name())
				isDir, regular := e.IsDir(), e.Type().IsRegular()
				rp := filepath.Join(realDir, e.Name())
				if e.Type()&fs.ModeSymlink != 0 {
					st, err := os.Stat(p)
					if err != nil {
						continue // dangling link
					}
					isDir, regular = st.IsDir(), st.Mode().IsRegular()
					if rp, err = filepath.EvalSymlinks(p); err != nil {
						continue
					}
				}
				switch {
				case isDir:
					n := e.Name()
					if skipDirs[n] || strings.HasPrefix(n, ".") || rootDirs[p] || rootDirs[rp] || visited[rp] {
						continue
					}
					visit(p, rp)
				case regular && strings.HasSuffix(e.Name(), ".lean") && !seen[rp]:
					seen[rp] = true
					rel, err := filepath.Rel(r.Dir, p)
					if err != nil {
						continue
					}
					ls.files = append(ls.files, sourceFile{abs: p, rel: filepath.ToSlash(rel), root: ri})
					ls.perRoot[ri]++
				}
			}
		}
		visit(r.Dir, real)
	}
	sort.Slice(ls.files, func(i, j int) bool { return ls.files[i].abs < ls.files[j].abs })
	return ls, nil
}

// logical maps a path reached through a root's real directory (an editor
// that resolved the link of a symlinked package) to the path under the
// root that the library uses; other paths are returned unchanged.
func (ws *Workspace) logical(abs string) string {
	ws.realOnce.Do(func() {
		ws.realDirs = make([]string, len(ws.Roots))
		for i, r := range ws.Roots {
			if real, err := filepath.EvalSymlinks(r.Dir); err == nil && real != r.Dir {
				ws.realDirs[i] = real
			}
		}
	})
	for _, r := range ws.Roots {
		if strings.HasPrefix(abs, r.Dir+string(filepath.Separator)) {
			return abs
		}
	}
	for i, real := range ws.realDirs {
		if real != "" && strings.HasPrefix(abs, real+string(filepath.Separator)) {
			return filepath.Join(ws.Roots[i].Dir, abs[len(real)+1:])
		}
	}
	return abs
}

// locate maps an absolute file path to its root and relative path; files
// outside every root belong to the workspace root by their path relative to
// it (or their base name).
func (ws *Workspace) locate(abs string) (int, string) {
	best, bestLen := -1, -1
	for i, r := range ws.Roots {
		if strings.HasPrefix(abs, r.Dir+string(filepath.Separator)) && len(r.Dir) > bestLen {
			best, bestLen = i, len(r.Dir)
		}
	}
	if best >= 0 {
		rel, _ := filepath.Rel(ws.Roots[best].Dir, abs)
		return best, filepath.ToSlash(rel)
	}
	return 0, filepath.Base(abs)
}

// ModuleName derives a Lean module name from a root-relative path:
// "Mathlib/Data/Nat/Prime/Defs.lean" → "Mathlib.Data.Nat.Prime.Defs".
func ModuleName(rel string) string {
	rel = strings.TrimSuffix(filepath.ToSlash(rel), ".lean")
	rel = strings.TrimPrefix(rel, "./")
	return strings.ReplaceAll(rel, "/", ".")
}
