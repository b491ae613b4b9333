package leanrepl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func decodeAll(t testing.TB, r io.Reader, max int) (objs []string, noise []string, err error) {
	d := NewDecoder(r)
	if max > 0 {
		d.MaxResponse = max
	}
	for {
		f, err := d.Next()
		if err == io.EOF {
			return objs, noise, nil
		}
		if err != nil {
			return objs, noise, err
		}
		if f.JSON != nil {
			objs = append(objs, string(f.JSON))
		} else {
			noise = append(noise, f.Noise)
		}
	}
}

func TestDecoderTable(t *testing.T) {
	pretty := "{\"sorries\":\n [{\"proofState\": 0,\n   \"goal\": \"x : Unit\\n⊢ Nat\"}],\n \"env\": 0}"
	cases := []struct {
		name  string
		in    string
		objs  int
		noise int
		err   error
	}{
		{"one pretty", pretty + "\n\n", 1, 0, nil},
		{"two", pretty + "\n\n{\"env\": 1}\n\n", 2, 0, nil},
		{"no trailing blank", `{"env": 1}`, 1, 0, nil},
		{"crlf", strings.ReplaceAll(pretty+"\n\n{\"env\": 1}\n\n", "\n", "\r\n"), 2, 0, nil},
		{"back to back", `{"env": 1}{"env": 2}` + "\n", 2, 0, nil},
		{"noise before", "warning: manifest out of date\n" + pretty + "\n\n", 1, 1, nil},
		{"noise between", "{\"env\": 1}\n\nnoise line\n\n{\"env\": 2}\n\n", 2, 1, nil},
		{"braces in strings", `{"data": "}{ \" \\\" [ ]"}` + "\n\n", 1, 0, nil},
		{"leading blank lines", "\n\n\n{\"env\": 1}\n\n", 1, 0, nil},
		{"indented object", "   {\"env\": 1}\n\n", 1, 0, nil},
		{"truncated", "{\"env\":\n", 0, 0, ErrTruncated},
		{"blank inside", "{\"env\":\n\n1}\n", 0, 0, ErrMalformed},
		{"not json", "{this is not JSON}\n\n", 0, 0, ErrMalformed},
		{"unterminated garbage", "{garbage\n\n", 0, 0, ErrMalformed},
		{"non-utf8", "{\"data\": \"\xff\xfe\"}\n\n", 1, 0, nil},
		{"empty", "", 0, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(c.in), iotest.OneByteReader(strings.NewReader(c.in)), iotest.HalfReader(strings.NewReader(c.in))} {
				objs, noise, err := decodeAll(t, r, 0)
				if !errors.Is(err, c.err) || (err == nil && c.err != nil) {
					t.Fatalf("err = %v, want %v", err, c.err)
				}
				if err == nil && (len(objs) != c.objs || len(noise) != c.noise) {
					t.Fatalf("got %d objects %q and %d noise lines %q", len(objs), objs, len(noise), noise)
				}
				for _, o := range objs {
					var v any
					if err := json.Unmarshal([]byte(o), &v); err != nil {
						t.Fatalf("object does not parse: %v", err)
					}
				}
			}
		})
	}
}

func TestDecoderHugeResponse(t *testing.T) {
	// A 2 MB goal on one line (32 times the read buffer), as a huge
	// pretty-printed term can produce.
	goal := strings.Repeat("x + ", 1<<19)
	resp := Response{Env: Int(0), Sorries: []Sorry{{ProofState: Int(0), Goal: goal}}}
	b, err := json.MarshalIndent(&resp, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	objs, _, err := decodeAll(t, bytes.NewReader(append(b, "\n\n"...)), 0)
	if err != nil || len(objs) != 1 {
		t.Fatalf("err=%v objs=%d", err, len(objs))
	}
	var got Response
	if err := json.Unmarshal([]byte(objs[0]), &got); err != nil || got.Sorries[0].Goal != goal {
		t.Fatalf("huge response garbled: %v", err)
	}
	_, _, err = decodeAll(t, bytes.NewReader(append(b, "\n\n"...)), 1<<20)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("limit not enforced: %v", err)
	}
}

// FuzzDecoder checks that any byte stream decodes without panics into valid
// JSON objects, and that a valid response embedded after arbitrary noise
// lines, with CRLF and split reads, comes out intact.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte("{\"env\": 0}\n\n"), []byte("noise\n"), true, uint8(3))
	f.Add([]byte("{\"messages\":\n [{\"severity\": \"error\",\n   \"data\": \"a\\nb\"}],\n \"env\": 1}"), []byte(""), false, uint8(1))
	f.Add([]byte("{{{{"), []byte("}}}}\n"), true, uint8(7))
	f.Add([]byte("\xff\xfe{\"a\":\"\\\"\"}"), []byte("{\n"), false, uint8(0))
	f.Fuzz(func(t *testing.T, stream, noise []byte, crlf bool, chunk uint8) {
		// Arbitrary input: no panic, every object valid JSON.
		objs, _, _ := decodeAll(t, iotest.OneByteReader(bytes.NewReader(stream)), 1<<20)
		for _, o := range objs {
			if !json.Valid([]byte(o)) {
				t.Fatalf("invalid object %q", o)
			}
		}
		// A known response after noise that does not start like an object.
		var lines []string
		for _, l := range strings.Split(string(noise), "\n") {
			l = strings.ReplaceAll(l, "\r", "")
			if strings.TrimSpace(l) != "" && strings.TrimLeft(l, " \t")[0] != '{' {
				lines = append(lines, l)
			}
		}
		want := Response{Env: Int(7), Messages: []Message{{Severity: "info", Data: string(stream)}}}
		body, _ := json.MarshalIndent(&want, "", " ")
		text := strings.Join(lines, "\n")
		if text != "" {
			text += "\n"
		}
		text += string(body) + "\n\n"
		if crlf {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		r := io.Reader(strings.NewReader(text))
		if chunk%2 == 1 {
			r = iotest.OneByteReader(r)
		} else if chunk%3 == 0 {
			r = iotest.HalfReader(r)
		}
		objs, nz, err := decodeAll(t, r, 0)
		if err != nil || len(objs) != 1 || len(nz) != len(lines) {
			t.Fatalf("err=%v objs=%d noise=%d/%d for %q", err, len(objs), len(nz), len(lines), text)
		}
		var got Response
		if err := json.Unmarshal([]byte(objs[0]), &got); err != nil {
			t.Fatal(err)
		}
		var wantData string
		enc, _ := json.Marshal(string(stream))
		_ = json.Unmarshal(enc, &wantData)
		if *got.Env != 7 || got.Messages[0].Data != wantData {
			t.Fatalf("got %+v", got)
		}
		if !reflect.DeepEqual(got.Messages[0].Pos, Pos{}) {
			t.Fatalf("pos changed: %+v", got.Messages[0].Pos)
		}
	})
}
