package docref

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"sync/atomic"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"

	"golang.org/x/sync/errgroup"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// FileReport holds the findings of one file.
type FileReport struct {
	// Path is the file's absolute path; Src the text the findings refer to
	// (after leansrc.Prepare).
	Path     string
	Src      []byte
	Findings []Finding
	// Refs counts the file's references (findings or not).
	Refs int
}

// parsedFile is a file read during Lint.
type parsedFile struct {
	path     string
	raw      []byte
	src      []byte
	comments []Comment
	known    Known
	err      error
}

// Lint checks the comments of every file of lib. It reads each file once,
// learns from all of them which names the code uses (see Known), then
// resolves every reference in the scopes that parse (library.Parser, or
// Library.Syntax when the snapshot holds them) gives; files are processed
// by workers goroutines (0: GOMAXPROCS). Reports are in path order and
// include only files with findings; refs counts all references.
func Lint(ctx context.Context, lib *library.Library, ix *names.Index, parse func([]byte) *leansrc.File, workers int) (reports []FileReport, refs int, err error) {
	files, known, err := readAll(ctx, lib.Files(), workers)
	if err != nil {
		return nil, 0, err
	}
	return New(lib, ix, known).lint(ctx, files, parse, workers)
}

// LintFiles is Lint on some files of the checker's library (absolute
// paths), with the names the checker knows the code uses.
func (c *Checker) LintFiles(ctx context.Context, paths []string, parse func([]byte) *leansrc.File, workers int) (reports []FileReport, refs int, err error) {
	files, _, err := readAll(ctx, paths, workers)
	if err != nil {
		return nil, 0, err
	}
	return c.lint(ctx, files, parse, workers)
}

// lint resolves the references of files read by readAll, as Lint says.
func (c *Checker) lint(ctx context.Context, files []parsedFile, parse func([]byte) *leansrc.File, workers int) (reports []FileReport, refs int, err error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]FileReport, len(files))
	var total atomic.Int64
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			pf := &files[i]
			syn := c.lib.Syntax(pf.path)
			if syn == nil && len(pf.comments) > 0 {
				syn = parse(pf.raw)
			}
			pf.raw = nil
			rs := c.Refs(pf.src, pf.comments, syn, c.lib.FileDecls(pf.path))
			total.Add(int64(len(rs)))
			out[i] = FileReport{Path: pf.path, Src: pf.src, Findings: c.Findings(rs), Refs: len(rs)}
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	for _, r := range out {
		if len(r.Findings) > 0 {
			reports = append(reports, r)
		}
	}
	return reports, int(total.Load()), nil
}

// LoadKnown reads every file of lib and returns the identifiers their code
// uses (see Known), for a Checker that serves an editor.
func LoadKnown(ctx context.Context, lib *library.Library, workers int) (Known, error) {
	_, known, err := readAll(ctx, lib.Files(), workers)
	return known, err
}

// readOne reads and scans the file at path into pf (nothing once ctx ends).
func readOne(ctx context.Context, pf *parsedFile, path string) {
	pf.path = path
	if ctx.Err() != nil {
		return
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		pf.err = err
		return
	}
	pf.raw = raw
	pf.src, _ = leansrc.Prepare(raw)
	var code []leansrc.Token
	pf.comments, code = Comments(pf.src)
	pf.known = Known{}
	pf.known.Add(pf.src, code)
}

// readAll reads and scans the files at paths on workers goroutines (0:
// GOMAXPROCS), returning them in the order of paths and the merged Known
// set.
func readAll(ctx context.Context, paths []string, workers int) ([]parsedFile, Known, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	files := make([]parsedFile, len(paths))
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range paths {
		g.Go(func() error {
			readOne(ctx, &files[i], paths[i])
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	known := Known{}
	for i := range files {
		if files[i].err != nil {
			return nil, nil, fmt.Errorf("%s: %w", files[i].path, files[i].err)
		}
		for k := range files[i].known {
			known[k] = true
		}
		files[i].known = nil
	}
	return files, known, nil
}

// Fix applies the sure first suggestion of each finding to src and returns
// the new text and the number of references rewritten. It fails, leaving
// src alone, if the result would differ from src anywhere outside comments.
func Fix(src []byte, findings []Finding) ([]byte, int, error) {
	var b bytes.Buffer
	last, n := 0, 0
	for _, f := range findings {
		if !f.Sure || len(f.Suggestions) == 0 || f.Start < last || f.End > len(src) {
			continue
		}
		if string(src[f.Start:f.End]) != f.Name {
			return nil, 0, fmt.Errorf("reference %q at byte %d is no longer in the text", f.Name, f.Start)
		}
		b.Write(src[last:f.Start])
		b.WriteString(f.Suggestions[0])
		last = f.End
		n++
	}
	b.Write(src[last:])
	out := b.Bytes()
	if !sameCode(src, out) {
		return nil, 0, fmt.Errorf("a rewrite would change code outside comments: nothing written")
	}
	return out, n, nil
}

// sameCode reports whether a and b have the same code tokens.
func sameCode(a, b []byte) bool {
	_, ca := Comments(a)
	_, cb := Comments(b)
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if !bytes.Equal(a[ca[i].Start:ca[i].End], b[cb[i].Start:cb[i].End]) {
			return false
		}
	}
	return true
}

// WriteAtomic replaces the file at path with data through a temporary file
// in the same directory and a rename, keeping its permissions.
func WriteAtomic(path string, data []byte) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, st.Mode().Perm(), data)
}
