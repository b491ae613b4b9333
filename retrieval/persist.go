package retrieval

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"unsafe"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/mapfile"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// The base index file (CACHE/retrieval/<workspace>/base-v<N>.idx) holds
// everything built once over the library: the lexical postings and
// statistics, the graph tables and the name channel's suffix array. Layout:
// a 64-byte header (magic, format version, byte-order mark, the fingerprint
// of the declarations it indexes, the analyzer version), 8-byte-aligned sections (length, bytes),
// and a CRC-32C of everything before it. It is written to a temporary file
// and renamed into place, so readers (any number of processes) see a
// complete old or new file; it is memory-mapped read-only and its arrays are
// used in place.

// baseVersion is the format version; bump it whenever the layout or what a
// part holds changes. A file of another version is rebuilt.
const baseVersion = 30

const baseMagic = "DRIFTIDX"

// byteOrderMark is written in native order: a file from a machine of the
// other byte order is rebuilt.
const byteOrderMark = 0x01020304

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// testHookBeforeRename, when set (by the kill test's child process), runs
// after the temporary base file is written and before it is renamed.
var testHookBeforeRename func()

func basePath(dir string) string {
	return filepath.Join(dir, "base-v"+strconv.Itoa(baseVersion)+".idx")
}

// fingerprint hashes everything the base part is computed from, in order:
// a stored base serves the declarations only when the fingerprints match.
func fingerprint(decls []*library.Decl) [32]byte {
	h := sha256.New()
	var b []byte
	for _, d := range decls {
		b = b[:0]
		for _, s := range []string{d.Package, d.File, d.Name, string(d.Kind), d.Doc, d.Informal, d.Symbol, d.Twin} {
			b = append(b, s...)
			b = append(b, 0)
		}
		for _, s := range d.StatementDeps {
			b = append(b, s...)
			b = append(b, 1)
		}
		h.Write(b)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// encoder writes the sections of a base file.
type encoder struct {
	buf bytes.Buffer
}

func (e *encoder) section(b []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	e.buf.Write(n[:])
	e.buf.Write(b)
	if pad := (8 - len(b)%8) % 8; pad > 0 {
		e.buf.Write(make([]byte, pad))
	}
}

// raw returns the bytes of a slice of fixed-size values in native order.
func raw[T any](xs []T) []byte {
	if len(xs) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs)*int(unsafe.Sizeof(xs[0])))
}

func (e *encoder) strings(xs []string) {
	offs := make([]uint32, len(xs)+1)
	var blob []byte
	for i, s := range xs {
		blob = append(blob, s...)
		offs[i+1] = uint32(len(blob))
	}
	e.section(raw(offs))
	e.section(blob)
}

func (e *encoder) csr(c csr) {
	e.section(raw(c.start))
	e.section(raw(c.vals))
}

// saveBase writes the base part and name index of fp atomically.
func saveBase(dir string, b *part, nm *names.Index, fp [32]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("retrieval: %w", err)
	}
	e := &encoder{}
	hdr := make([]byte, 64)
	copy(hdr, baseMagic)
	binary.NativeEndian.PutUint32(hdr[8:], baseVersion)
	binary.NativeEndian.PutUint32(hdr[12:], byteOrderMark)
	binary.NativeEndian.PutUint32(hdr[48:], lexical.Version)
	copy(hdr[16:], fp[:])
	e.buf.Write(hdr)
	e.section(raw([]int64{int64(len(b.decls))}))
	for f := range nFields {
		p := &b.fields[f]
		e.strings(p.terms)
		e.section(raw(p.start))
		e.section(raw(p.post))
		e.section(raw(p.df))
		e.section(raw(b.length[f]))
	}
	e.csr(b.nameT)
	e.section(b.coll)
	var st []int64
	for c := range nColl {
		st = append(st, b.stats[c].docs)
		st = append(st, b.stats[c].sumLen[:]...)
	}
	e.section(raw(st))
	e.strings(b.keys)
	e.csr(b.byName)
	e.csr(b.usedBy)
	e.section(raw(b.indeg))
	e.section(raw(b.notes))
	e.strings(b.files)
	e.csr(b.fileOf)
	var syn []string
	var synW []float64
	for _, p := range b.synPairs {
		syn = append(syn, p.part, p.words)
		synW = append(synW, p.weight)
	}
	e.strings(syn)
	e.section(raw(synW))
	var nb bytes.Buffer
	if err := nm.Encode(&nb); err != nil {
		return fmt.Errorf("retrieval: %w", err)
	}
	e.section(nb.Bytes())
	var sum [8]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(e.buf.Bytes(), castagnoli))
	e.buf.Write(sum[:])
	err := atomicfile.WriteFunc(basePath(dir), 0o600, func(w io.Writer) error {
		if _, err := w.Write(e.buf.Bytes()); err != nil {
			return err
		}
		if testHookBeforeRename != nil {
			testHookBeforeRename()
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("retrieval: writing the base index: %w", err)
	}
	return nil
}

// decoder reads the sections of a mapped base file in place.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) section() []byte {
	if d.err != nil {
		return nil
	}
	if len(d.b) < 8 {
		d.err = errors.New("truncated")
		return nil
	}
	n := binary.LittleEndian.Uint64(d.b)
	padded := n + (8-n%8)%8
	if n > uint64(len(d.b)-8) || padded > uint64(len(d.b)-8) {
		d.err = errors.New("bad section length")
		return nil
	}
	out := d.b[8 : 8+n : 8+n]
	d.b = d.b[8+padded:]
	return out
}

// view reinterprets a section as a slice of fixed-size values.
func view[T any](d *decoder) []T {
	b := d.section()
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 {
		d.err = errors.New("bad section size")
		return nil
	}
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
}

func (d *decoder) strings() []string {
	offs := view[uint32](d)
	blob := d.section()
	if d.err != nil || len(offs) == 0 {
		return nil
	}
	out := make([]string, len(offs)-1)
	for i := range out {
		lo, hi := offs[i], offs[i+1]
		if lo > hi || int(hi) > len(blob) {
			d.err = errors.New("bad string table")
			return nil
		}
		if hi > lo {
			out[i] = unsafe.String(&blob[lo], hi-lo)
		}
	}
	return out
}

func (d *decoder) csr() csr {
	return csr{start: view[uint32](d), vals: view[int32](d)}
}

// openBase maps the stored base of dir when it indexes exactly decls
// (fingerprint fp); otherwise it returns nil and the reason, and the caller
// rebuilds. A corrupt, truncated or foreign file is never served.
func openBase(dir string, decls []*library.Decl, fp [32]byte) (*part, *names.Index, string) {
	if dir == "" {
		return nil, nil, "no cache directory"
	}
	data, err := mapfile.Open(basePath(dir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, "no stored index"
	}
	if err != nil {
		return nil, nil, "stored index not mappable: " + err.Error()
	}
	if len(data) < 72 || len(data) > 1<<34 {
		mapfile.Close(data)
		return nil, nil, "stored index unreadable"
	}
	p, nm, why := decodeBase(data, decls, fp)
	if p == nil {
		mapfile.Close(data)
	}
	// A served mapping stays for the life of the process: snapshots and
	// queries may still read it after the engine moves on.
	return p, nm, why
}

func decodeBase(data []byte, decls []*library.Decl, fp [32]byte) (*part, *names.Index, string) {
	if string(data[:8]) != baseMagic || binary.NativeEndian.Uint32(data[8:]) != baseVersion ||
		binary.NativeEndian.Uint32(data[12:]) != byteOrderMark || binary.NativeEndian.Uint32(data[48:]) != lexical.Version {
		return nil, nil, "stored index of another version"
	}
	if !bytes.Equal(data[16:48], fp[:]) {
		return nil, nil, "library changed since the index was stored"
	}
	body := data[:len(data)-8]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(data)-8:]) {
		return nil, nil, "stored index corrupt (checksum)"
	}
	d := &decoder{b: body[64:]}
	b := &part{decls: decls}
	if n := view[int64](d); d.err != nil || len(n) != 1 || n[0] != int64(len(decls)) {
		return nil, nil, "stored index corrupt (count)"
	}
	for f := range nFields {
		p := &b.fields[f]
		p.terms = d.strings()
		p.start = view[uint32](d)
		p.post = view[posting](d)
		p.df = view[int32](d)
		b.length[f] = view[uint16](d)
	}
	b.nameT = d.csr()
	b.coll = d.section()
	st := view[int64](d)
	if d.err == nil && len(st) != nColl*(1+int(nFields)) {
		d.err = errors.New("bad statistics")
	}
	for c := range nColl {
		if d.err != nil {
			break
		}
		row := st[c*(1+int(nFields)):]
		b.stats[c].docs = row[0]
		copy(b.stats[c].sumLen[:], row[1:1+nFields])
	}
	b.keys = d.strings()
	b.byName = d.csr()
	b.usedBy = d.csr()
	b.indeg = view[int32](d)
	b.notes = view[int32](d)
	b.files = d.strings()
	b.fileOf = d.csr()
	syn := d.strings()
	synW := view[float64](d)
	if d.err == nil && len(synW) != len(syn)/2 {
		d.err = errors.New("bad lexicon")
	}
	for i := 0; d.err == nil && i+1 < len(syn); i += 2 {
		b.synPairs = append(b.synPairs, lexPair{part: syn[i], words: syn[i+1], weight: synW[i/2]})
	}
	nb := d.section()
	if d.err != nil {
		return nil, nil, "stored index corrupt: " + d.err.Error()
	}
	if len(b.coll) != len(decls) || len(b.nameT.start) != len(decls)+1 || len(b.indeg) != len(b.keys) ||
		len(b.byName.start) != len(b.keys)+1 || len(b.fileOf.start) != len(b.files)+1 {
		return nil, nil, "stored index corrupt (tables)"
	}
	nm, err := names.Decode(nb)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, "stored index corrupt: " + err.Error()
	}
	if nm == nil {
		return nil, nil, "stored index corrupt: names"
	}
	return b, nm, ""
}
