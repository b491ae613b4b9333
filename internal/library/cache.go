package library

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/drift-lsp/drift-lsp/internal/varcode"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// The on-disk cache holds one parse result per file content hash, in a
// compact binary pack with a shared string table so that a warm start decodes
// every file without reparsing and with few allocations.

// cacheMagic identifies pack files; bump cacheVersion whenever the parser's
// output or the encoding changes.
const (
	cacheMagic   = "DRIFTIDX"
	cacheVersion = 5
)

// contentHash is the cache key of a file: SHA-256 of its bytes.
type contentHash [32]byte

func hashContent(b []byte) contentHash { return sha256.Sum256(b) }

// cachePath is the pack file for a workspace directory.
func cachePath(cacheDir, wsDir string) string {
	h := sha256.Sum256([]byte(wsDir))
	return filepath.Join(cacheDir, fmt.Sprintf("index-%x.pack", h[:8]))
}

// encoder writes the pack format.
type encoder struct {
	strs  map[string]uint32
	table []string
	varcode.Encoder
}

func (e *encoder) str(s string) {
	id, ok := e.strs[s]
	if !ok {
		id = uint32(len(e.table))
		e.strs[s] = id
		e.table = append(e.table, s)
	}
	e.Uint(uint64(id))
}

func (e *encoder) strs_(ss []string) {
	e.Uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

// aliases writes a map as its sorted keys and their values.
func (e *encoder) aliases(m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.strs_(keys)
	for _, k := range keys {
		e.str(m[k])
	}
}

func (e *encoder) additive(a *leansrc.Additive) {
	if a == nil {
		e.Uint(0)
		return
	}
	if a.Existing {
		e.Uint(2)
	} else {
		e.Uint(1)
	}
	e.str(a.Name)
	e.str(a.Doc)
}

func (e *encoder) file(f *leansrc.File) {
	e.strs_(f.ModuleDocs)
	e.Uint(uint64(len(f.Decls)))
	for i := range f.Decls {
		d := &f.Decls[i]
		e.str(d.Name)
		e.str(d.Kind)
		e.Uint(uint64(d.Range.Start.Line))
		e.Uint(uint64(d.Range.Start.Character))
		e.Uint(uint64(d.Range.End.Line))
		e.Uint(uint64(d.Range.End.Character))
		e.str(d.Signature)
		e.str(d.Doc)
		e.strs_(d.Attrs)
		e.strs_(d.StmtRefs)
		e.strs_(d.ProofRefs)
		e.strs_(d.StmtOps)
		e.str(d.Value)
		e.Uint(uint64(d.Scope))
		var fl uint64
		if d.Private {
			fl |= 1
		}
		if d.Protected {
			fl |= 2
		}
		if d.Anonymous {
			fl |= 4
		}
		if d.Local {
			fl |= 8
		}
		if d.Scoped {
			fl |= 16
		}
		e.Uint(fl)
		e.str(d.Parent)
		e.str(d.Symbol)
		e.strs_(d.Atoms)
		e.additive(d.Additive)
	}
	e.Uint(uint64(len(f.Scopes)))
	for _, s := range f.Scopes {
		e.str(s.Namespace)
		e.strs_(s.Opens)
		e.strs_(s.Restricted)
		e.aliases(s.Aliases)
	}
	e.Uint(uint64(len(f.Marks)))
	for _, m := range f.Marks {
		e.Uint(uint64(m.Offset))
		e.Uint(uint64(m.Scope))
		e.strs_(m.Vars)
	}
	e.Uint(uint64(len(f.AttrCmds)))
	for _, a := range f.AttrCmds {
		e.strs_(a.Names)
		e.strs_(a.Attrs)
		e.additive(a.Additive)
		e.Uint(uint64(a.Scope))
	}
	e.Uint(uint64(len(f.Exports)))
	for _, x := range f.Exports {
		e.str(x.Namespace)
		e.str(x.From)
		e.strs_(x.Names)
	}
	e.Uint(uint64(len(f.Diags)))
	for _, d := range f.Diags {
		e.Uint(uint64(d.Line))
		e.str(d.Msg)
	}
	e.strs_(f.Warnings)
}

// writeCache writes the parse results keyed by content hash to path
// atomically (temporary file and rename).
func writeCache(path string, entries map[contentHash]*leansrc.File) error {
	e := &encoder{strs: map[string]uint32{}}
	e.Uint(uint64(len(entries)))
	for h, f := range entries {
		e.Buf = append(e.Buf, h[:]...)
		e.file(f)
	}
	var head []byte
	head = append(head, cacheMagic...)
	head = binary.AppendUvarint(head, cacheVersion*1000+leansrc.Version)
	head = binary.AppendUvarint(head, uint64(len(e.table)))
	for _, s := range e.table {
		head = binary.AppendUvarint(head, uint64(len(s)))
	}
	var blob bytes.Buffer
	for _, s := range e.table {
		blob.WriteString(s)
	}
	head = binary.AppendUvarint(head, uint64(blob.Len()))
	return writeAtomic(path, head, blob.Bytes(), e.Buf)
}

// errCorrupt reports a pack file that cannot be decoded.
var errCorrupt = errors.New("corrupt index cache")

// decoder reads the pack format.
type decoder struct {
	varcode.Decoder
	table []string
}

func (d *decoder) str() string {
	id := d.Uint()
	if id >= uint64(len(d.table)) {
		d.Err = errCorrupt
		return ""
	}
	return d.table[id]
}

func (d *decoder) strs() []string {
	n := d.Uint()
	if n == 0 || d.Err != nil {
		return nil
	}
	if n > uint64(len(d.Buf)) {
		d.Err = errCorrupt
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) aliases() map[string]string {
	keys := d.strs()
	if len(keys) == 0 {
		return nil
	}
	m := make(map[string]string, len(keys))
	for _, k := range keys {
		m[k] = d.str()
	}
	return m
}

func (d *decoder) additive() *leansrc.Additive {
	k := d.Uint()
	if k == 0 {
		return nil
	}
	return &leansrc.Additive{Existing: k == 2, Name: d.str(), Doc: d.str()}
}

func (d *decoder) file() *leansrc.File {
	f := &leansrc.File{ModuleDocs: d.strs()}
	n := d.Count()
	f.Decls = make([]leansrc.Decl, n)
	for i := 0; i < n && d.Err == nil; i++ {
		x := &f.Decls[i]
		x.Name = d.str()
		x.Kind = d.str()
		x.Range.Start.Line = int(d.Uint())
		x.Range.Start.Character = int(d.Uint())
		x.Range.End.Line = int(d.Uint())
		x.Range.End.Character = int(d.Uint())
		x.Signature = d.str()
		x.Doc = d.str()
		x.Attrs = d.strs()
		x.StmtRefs = d.strs()
		x.ProofRefs = d.strs()
		x.StmtOps = d.strs()
		x.Value = d.str()
		x.Scope = int(d.Uint())
		fl := d.Uint()
		x.Private, x.Protected, x.Anonymous, x.Local, x.Scoped = fl&1 != 0, fl&2 != 0, fl&4 != 0, fl&8 != 0, fl&16 != 0
		x.Parent = d.str()
		x.Symbol = d.str()
		x.Atoms = d.strs()
		x.Additive = d.additive()
	}
	n = d.Count()
	f.Scopes = make([]leansrc.Scope, n)
	for i := 0; i < n && d.Err == nil; i++ {
		f.Scopes[i] = leansrc.Scope{Namespace: d.str(), Opens: d.strs(), Restricted: d.strs(), Aliases: d.aliases()}
	}
	n = d.Count()
	for i := 0; i < n && d.Err == nil; i++ {
		m := leansrc.Mark{Offset: int(d.Uint()), Scope: int(d.Uint()), Vars: d.strs()}
		if m.Scope >= len(f.Scopes) {
			d.Err = errCorrupt
		}
		f.Marks = append(f.Marks, m)
	}
	n = d.Count()
	for i := 0; i < n && d.Err == nil; i++ {
		f.AttrCmds = append(f.AttrCmds, leansrc.AttrCmd{Names: d.strs(), Attrs: d.strs(), Additive: d.additive(), Scope: int(d.Uint())})
	}
	n = d.Count()
	for i := 0; i < n && d.Err == nil; i++ {
		f.Exports = append(f.Exports, leansrc.Export{Namespace: d.str(), From: d.str(), Names: d.strs()})
	}
	n = d.Count()
	for i := 0; i < n && d.Err == nil; i++ {
		f.Diags = append(f.Diags, leansrc.Diag{Line: int(d.Uint()), Msg: d.str()})
	}
	f.Warnings = d.strs()
	for i := range f.Decls {
		if f.Decls[i].Scope >= len(f.Scopes) {
			d.Err = errCorrupt
		}
	}
	return f
}

// readCache loads a pack file; a missing file yields an empty map.
func readCache(path string) (map[contentHash]*leansrc.File, error) {
	buf, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[contentHash]*leansrc.File{}, nil
	}
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(buf, []byte(cacheMagic)) {
		return nil, errCorrupt
	}
	d := &decoder{Decoder: varcode.Decoder{Buf: buf, Pos: len(cacheMagic)}}
	if v := d.Uint(); v != cacheVersion*1000+leansrc.Version {
		return map[contentHash]*leansrc.File{}, nil // stale format: rebuild
	}
	n := d.Count()
	lens := make([]int, n)
	for i := range lens {
		lens[i] = int(d.Uint())
	}
	blobLen := int(d.Uint())
	if d.Err != nil || d.Pos+blobLen > len(buf) {
		return nil, errCorrupt
	}
	blob := string(buf[d.Pos : d.Pos+blobLen]) // one copy; all strings share it
	d.Pos += blobLen
	d.table = make([]string, n)
	off := 0
	for i, l := range lens {
		if off+l > len(blob) {
			return nil, errCorrupt
		}
		d.table[i] = blob[off : off+l]
		off += l
	}
	nf := d.Count()
	out := make(map[contentHash]*leansrc.File, nf)
	for i := 0; i < nf && d.Err == nil; i++ {
		if d.Pos+32 > len(buf) {
			return nil, errCorrupt
		}
		var h contentHash
		copy(h[:], buf[d.Pos:d.Pos+32])
		d.Pos += 32
		out[h] = d.file()
	}
	if d.Err != nil {
		return nil, errCorrupt
	}
	return out, nil
}

// Parser returns a function that parses file content for ws, reusing the
// parse results cached under cacheDir by earlier loads (matched by content
// hash) and parsing the rest. It is safe for concurrent use; with no cache
// ("" or unreadable) it parses everything.
func Parser(cacheDir string, ws *Workspace) func(content []byte) *leansrc.File {
	var cached map[contentHash]*leansrc.File
	if cacheDir != "" {
		cached, _ = readCache(cachePath(cacheDir, ws.Dir))
	}
	return func(content []byte) *leansrc.File {
		if f, ok := cached[hashContent(content)]; ok {
			return f
		}
		return leansrc.Parse(content)
	}
}
