package library

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/drift-lsp/drift-lsp/internal/varcode"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/mapfile"
)

// The snapshot file holds a whole built library (declarations with their
// resolved edges and twins, problems, per-file table entries and reference
// filters) with each file's size, modification time and content hash, so
// that a warm start whose files are unchanged opens it without parsing or
// resolving anything. It is one file per workspace:
//
//	magic "DRIFTLIB" · version uvarint · CRC-32C of the body (4 bytes LE) ·
//	body length (8 bytes LE) · body
//
// The body starts with the workspace's roots, then a blob of every distinct
// string, then the files; strings are (offset, length) pairs into the blob
// and decode without copying: the file is memory-mapped and the strings
// point into the mapping (which, once served, is never unmapped: the
// strings may live as long as the process; a snapshot that is not served
// is unmapped at once). Files are replaced atomically (temporary file and
// rename), so a reader never sees a partial file and a writer killed at any
// point leaves the previous snapshot or none; a corrupt or foreign-version
// snapshot is reported and rebuilt, never served.

// snapVersion must be bumped whenever the encoding or the output of the
// library's build (resolution, twins, tables, counting rule) changes: a
// snapshot holds that output, and the parser's version alone does not cover
// it.
const (
	snapMagic   = "DRIFTLIB"
	snapVersion = 11
)

// SnapshotPath is the snapshot file of a workspace and its set of roots: two
// processes on one directory with different extra roots keep two files.
func SnapshotPath(cacheDir string, ws *Workspace) string {
	h := sha256.New()
	fmt.Fprintf(h, "workspace %s\n", ws.Dir)
	for _, r := range ws.Roots {
		fmt.Fprintf(h, "root %q %q %t\n", r.Dir, r.Package, r.User)
	}
	return filepath.Join(cacheDir, fmt.Sprintf("library-%x.lib", h.Sum(nil)[:8]))
}

// snapFormat identifies the encoding and the parser whose output it holds.
func snapFormat() uint64 { return snapVersion*1000 + leansrc.Version }

// errStale reports a snapshot that no longer matches the workspace (not an
// error worth logging).
var errStale = errors.New("stale snapshot")

// snapEncoder writes the snapshot body.
type snapEncoder struct {
	strs map[string][2]uint64
	blob []byte
	varcode.Encoder
}

func (e *snapEncoder) str(s string) {
	r, ok := e.strs[s]
	if !ok {
		r = [2]uint64{uint64(len(e.blob)), uint64(len(s))}
		e.strs[s] = r
		e.blob = append(e.blob, s...)
	}
	e.Uint(r[0])
	e.Uint(r[1])
}

func (e *snapEncoder) strList(ss []string) {
	e.Uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *snapEncoder) pairs(ps [][2]string) {
	e.Uint(uint64(len(ps)))
	for _, p := range ps {
		e.str(p[0])
		e.str(p[1])
	}
}

func (e *snapEncoder) decl(d *Decl) {
	e.str(d.Name)
	e.str(string(d.Kind))
	e.str(d.Module)
	e.str(d.File)
	e.Uint(uint64(d.Range.Start.Line))
	e.Uint(uint64(d.Range.Start.Character))
	e.Uint(uint64(d.Range.End.Line))
	e.Uint(uint64(d.Range.End.Character))
	e.str(d.Signature)
	e.str(d.Doc)
	e.strList(d.Attrs)
	e.strList(d.StatementDeps)
	e.strList(d.ProofDeps)
	var fl uint64
	for i, b := range []bool{d.Private, d.Protected, d.Anonymous, d.Generated, d.User, d.Main} {
		if b {
			fl |= 1 << i
		}
	}
	e.Uint(fl)
	e.str(d.Informal)
	e.str(d.Parent)
	e.str(d.Twin)
	e.str(d.Symbol)
	e.str(d.Package)
	e.str(d.MainDoc)
	e.str(d.Value)
}

func (e *snapEncoder) file(f *fileData) {
	e.str(f.abs)
	e.Uint(uint64(f.root))
	e.str(f.rel)
	e.Uint(uint64(f.size))
	e.Uint(uint64(f.mtime))
	e.Buf = append(e.Buf, f.hash[:]...)
	e.Uint(uint64(len(f.problems)))
	for _, p := range f.problems {
		e.str(p.Msg)
		e.Flag(p.Error)
	}
	e.Uint(uint64(len(f.refs)))
	for _, w := range f.refs {
		e.Buf = binary.LittleEndian.AppendUint64(e.Buf, w)
	}
	e.pairs(f.tabs.trans)
	e.pairs(f.tabs.aliases)
	e.Uint(uint64(len(f.tabs.notes)))
	for _, n := range f.tabs.notes {
		e.str(n.key)
		e.Flag(n.ident)
		e.strList(n.op.atoms)
		e.str(n.op.target)
		e.str(n.op.ns)
		e.Flag(n.op.scoped)
		e.Flag(n.op.alone)
		e.Flag(n.op.postfix)
		e.Uint(uint64(n.op.infix.Fixity))
		e.Uint(uint64(n.op.infix.Prec))
	}
	e.Uint(uint64(len(f.decls)))
	for _, d := range f.decls {
		e.decl(d)
	}
}

// writeSnapshot stores lib at path atomically.
func writeSnapshot(path string, lib *Library) error {
	e := &snapEncoder{strs: map[string][2]uint64{}}
	ws := lib.ws
	e.str(ws.Dir)
	e.Uint(uint64(len(ws.Roots)))
	for _, r := range ws.Roots {
		e.str(r.Dir)
		e.str(r.Package)
		e.Flag(r.User)
	}
	paths := lib.Files()
	e.Uint(uint64(len(paths)))
	for _, p := range paths {
		e.file(lib.files[p])
	}
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(e.blob)))
	body = append(body, e.blob...)
	body = append(body, e.Buf...)
	head := append([]byte(snapMagic), binary.AppendUvarint(nil, snapFormat())...)
	head = binary.LittleEndian.AppendUint32(head, crc32.Checksum(body, castagnoli))
	head = binary.LittleEndian.AppendUint64(head, uint64(len(body)))
	return writeAtomic(path, head, body)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// writeAtomic writes the parts to path (internal/atomicfile), making its
// directory first.
func writeAtomic(path string, parts ...[]byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, 0o600, parts...)
}

// snapDecoder reads a snapshot body whose strings point into blob.
type snapDecoder struct {
	varcode.Decoder
	blob []byte
	// arena hands out the string slices of declarations.
	arena []string
}

func (d *snapDecoder) str() string {
	off, n := d.Uint(), d.Uint()
	if d.Err != nil || off > uint64(len(d.blob)) || n > uint64(len(d.blob))-off {
		d.Err = errCorrupt
		return ""
	}
	if n == 0 {
		return ""
	}
	return unsafe.String(&d.blob[off], int(n))
}

// strList decodes a list into the arena; an empty list is non-nil (the
// decls schema prints it as []).
func (d *snapDecoder) strList() []string {
	n := d.Count()
	if len(d.arena) < n {
		d.arena = make([]string, max(n, 1<<16))
	}
	out := d.arena[:n:n]
	d.arena = d.arena[n:]
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *snapDecoder) pairs() [][2]string {
	n := d.Count()
	if n == 0 {
		return nil
	}
	out := make([][2]string, n)
	for i := range out {
		out[i] = [2]string{d.str(), d.str()}
	}
	return out
}

func (d *snapDecoder) file() *fileData {
	f := &fileData{abs: d.str(), root: int(d.Uint()), rel: d.str(), size: int64(d.Uint()), mtime: int64(d.Uint())}
	copy(f.hash[:], d.Raw(len(f.hash)))
	if n := d.Count(); n > 0 {
		f.problems = make([]Problem, n)
		for i := range f.problems {
			f.problems[i] = Problem{File: f.abs, Msg: d.str(), Error: d.Flag()}
		}
	}
	nw := d.Count()
	refs := d.Raw(nw * 8)
	if d.Err != nil {
		return f
	}
	f.refs = make(refFilter, nw)
	for i := range f.refs {
		f.refs[i] = binary.LittleEndian.Uint64(refs[i*8:])
	}
	f.tabs.trans = d.pairs()
	f.tabs.aliases = d.pairs()
	if n := d.Count(); n > 0 {
		f.tabs.notes = make([]note, n)
		for i := range f.tabs.notes {
			f.tabs.notes[i] = note{key: d.str(), ident: d.Flag(),
				op: operator{atoms: d.strList(), target: d.str(), ns: d.str(), scoped: d.Flag(), alone: d.Flag(), postfix: d.Flag(), infix: leansrc.Operator{Fixity: leansrc.Fixity(d.Uint()), Prec: int(d.Uint())}}}
		}
	}
	n := d.Count()
	store := make([]Decl, n)
	f.decls = make([]*Decl, n)
	for i := range store {
		x := &store[i]
		x.Name, x.Kind, x.Module, x.File = d.str(), Kind(d.str()), d.str(), d.str()
		x.Range = Range{Start: Position{Line: int(d.Uint()), Character: int(d.Uint())}, End: Position{Line: int(d.Uint()), Character: int(d.Uint())}}
		x.Signature, x.Doc = d.str(), d.str()
		x.Attrs, x.StatementDeps, x.ProofDeps = d.strList(), d.strList(), d.strList()
		fl := d.Uint()
		x.Private, x.Protected, x.Anonymous, x.Generated, x.User, x.Main = fl&1 != 0, fl&2 != 0, fl&4 != 0, fl&8 != 0, fl&16 != 0, fl&32 != 0
		x.Informal, x.Parent, x.Twin, x.Symbol, x.Package, x.MainDoc = d.str(), d.str(), d.str(), d.str(), d.str(), d.str()
		x.Value = d.str()
		f.decls[i] = x
	}
	return f
}

// readSnapshot maps the snapshot at path and returns the library it holds
// when it was built from exactly the files of ls (same paths, roots and
// contents); errStale when it does not match, another error when it is
// unreadable or corrupt. A missing file is errStale.
func readSnapshot(path string, ws *Workspace, ls *listing) (*Library, error) {
	buf, err := mapfile.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errStale
	}
	if err != nil {
		return nil, err
	}
	lib, err := decodeSnapshot(buf, ws, ls)
	if err != nil {
		mapfile.Close(buf) // nothing decoded from it survives
	}
	return lib, err
}

// decodeSnapshot decodes a mapped snapshot file (see readSnapshot).
func decodeSnapshot(buf []byte, ws *Workspace, ls *listing) (*Library, error) {
	if !bytes.HasPrefix(buf, []byte(snapMagic)) {
		return nil, errCorrupt
	}
	pos := len(snapMagic)
	v, n := binary.Uvarint(buf[pos:])
	if n <= 0 {
		return nil, errCorrupt
	}
	if v != snapFormat() {
		return nil, fmt.Errorf("%w: format %d, this build reads %d", errStale, v, snapFormat())
	}
	pos += n
	if len(buf) < pos+12 {
		return nil, errCorrupt
	}
	sum, size := binary.LittleEndian.Uint32(buf[pos:]), binary.LittleEndian.Uint64(buf[pos+4:])
	body := buf[pos+12:]
	if uint64(len(body)) != size || crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w (checksum)", errCorrupt)
	}
	d := &snapDecoder{Decoder: varcode.Decoder{Buf: body}}
	blobLen := d.Count()
	d.blob = d.Raw(blobLen)
	if d.Err != nil {
		return nil, errCorrupt
	}
	if d.str() != ws.Dir || d.Count() != len(ws.Roots) {
		return nil, errStale
	}
	for _, r := range ws.Roots {
		if d.str() != r.Dir || d.str() != r.Package || d.Flag() != r.User {
			return nil, errStale
		}
	}
	nf := d.Count()
	if d.Err != nil || nf != len(ls.files) {
		return nil, errStale
	}
	lib := &Library{ws: ws, files: make(map[string]*fileData, nf), shadow: map[string]bool{}}
	fds := make([]*fileData, nf)
	for i := range fds {
		f := d.file()
		if d.Err != nil {
			return nil, errCorrupt
		}
		s := ls.files[i]
		if f.abs != s.abs || f.rel != s.rel || f.root != s.root || !unchanged(f, &lib.touched) {
			return nil, errStale
		}
		fds[i] = f
		lib.files[f.abs] = f
	}
	lib.base = newBase(fds)
	lib.retable()
	return lib, nil
}

// unchanged reports whether the file on disk still has the content the
// snapshot was built from: same size and modification time, or else the
// same content hash (then f takes the new time and touched is set, so that
// the snapshot is rewritten rather than hashed again at every start).
func unchanged(f *fileData, touched *bool) bool {
	st, err := os.Stat(f.abs)
	if err != nil || st.Size() != f.size {
		return false
	}
	if st.ModTime().UnixNano() == f.mtime {
		return true
	}
	b, err := readSource(f.abs)
	if err != nil || hashContent(b) != f.hash {
		return false
	}
	f.mtime, *touched = st.ModTime().UnixNano(), true
	return true
}
