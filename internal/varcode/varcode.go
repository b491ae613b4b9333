// Package varcode is the one binary codec of drift-lsp's cache files:
// unsigned varints (encoding/binary's), flags and length-prefixed bytes,
// appended to a buffer and read back with a sticky error. The formats built
// on it (internal/library's pack and snapshot, retrieval/names' index) add
// their own string tables and checksums.
package varcode

import (
	"encoding/binary"
	"errors"
)

// ErrCorrupt reports input that does not decode.
var ErrCorrupt = errors.New("corrupt encoding")

// Encoder appends values to Buf.
type Encoder struct {
	Buf []byte
}

// Uint appends v as a uvarint.
func (e *Encoder) Uint(v uint64) { e.Buf = binary.AppendUvarint(e.Buf, v) }

// Flag appends b as the uvarint 1 or 0.
func (e *Encoder) Flag(b bool) {
	if b {
		e.Uint(1)
	} else {
		e.Uint(0)
	}
}

// Bytes appends b with its length in front.
func (e *Encoder) Bytes(b []byte) {
	e.Uint(uint64(len(b)))
	e.Buf = append(e.Buf, b...)
}

// Decoder reads what an Encoder wrote from Buf at Pos; its first failure
// sticks in Err (and later reads return zero values).
type Decoder struct {
	Buf []byte
	Pos int
	Err error
}

// Uint reads a uvarint.
func (d *Decoder) Uint() uint64 {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.Buf[d.Pos:])
	if n <= 0 {
		d.Err = ErrCorrupt
		return 0
	}
	d.Pos += n
	return v
}

// Count reads a length, refusing one the rest of the input cannot hold
// (every element takes at least one byte).
func (d *Decoder) Count() int {
	n := d.Uint()
	if n > uint64(len(d.Buf)-d.Pos) {
		d.Err = ErrCorrupt
		return 0
	}
	return int(n)
}

// Flag reads what Encoder.Flag wrote.
func (d *Decoder) Flag() bool { return d.Uint() != 0 }

// Raw returns the next n bytes (nil after a failure); they alias Buf.
func (d *Decoder) Raw(n int) []byte {
	if d.Err != nil || n < 0 || n > len(d.Buf)-d.Pos {
		d.Err = ErrCorrupt
		return nil
	}
	b := d.Buf[d.Pos : d.Pos+n]
	d.Pos += n
	return b
}

// Bytes reads what Encoder.Bytes wrote; the result aliases Buf.
func (d *Decoder) Bytes() []byte { return d.Raw(d.Count()) }
