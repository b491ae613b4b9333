package varcode

import (
	"bytes"
	"errors"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var e Encoder
	e.Uint(0)
	e.Uint(300)
	e.Uint(1 << 60)
	e.Flag(true)
	e.Flag(false)
	e.Bytes([]byte("ℕ → ℝ"))
	e.Bytes(nil)
	d := Decoder{Buf: e.Buf}
	if got := []uint64{d.Uint(), d.Uint(), d.Uint()}; got[0] != 0 || got[1] != 300 || got[2] != 1<<60 {
		t.Errorf("uints %v", got)
	}
	if !d.Flag() || d.Flag() {
		t.Error("flags")
	}
	if b := d.Bytes(); string(b) != "ℕ → ℝ" {
		t.Errorf("bytes %q", b)
	}
	if b := d.Bytes(); len(b) != 0 {
		t.Errorf("empty bytes %q", b)
	}
	if d.Err != nil || d.Pos != len(e.Buf) {
		t.Errorf("err %v, pos %d of %d", d.Err, d.Pos, len(e.Buf))
	}
}

// TestCorrupt checks that every damaged input reads as ErrCorrupt, sticks,
// and never panics.
func TestCorrupt(t *testing.T) {
	var e Encoder
	e.Bytes([]byte("hello"))
	for name, buf := range map[string][]byte{
		"empty":        nil,
		"truncated":    e.Buf[:3],
		"length>input": {0x7f, 'a'},
		"overlong":     bytes.Repeat([]byte{0xff}, 11),
	} {
		d := Decoder{Buf: buf}
		d.Bytes()
		if !errors.Is(d.Err, ErrCorrupt) {
			t.Errorf("%s: err %v, want ErrCorrupt", name, d.Err)
		}
		if d.Uint() != 0 || d.Raw(0) != nil {
			t.Errorf("%s: reads after a failure return values", name)
		}
	}
}
