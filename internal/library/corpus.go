package library

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxCorpusLine bounds one JSONL record.
const maxCorpusLine = 16 << 20

// ReadCorpus reads declarations in the `decls` JSONL schema (one JSON object
// per line; blank lines are skipped). Declarations without a package get pkg.
// A malformed line is an error naming its line number.
func ReadCorpus(r io.Reader, pkg string) ([]*Decl, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var out []*Decl
	for line := 1; ; line++ {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			big := append([]byte(nil), b...)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(big) > maxCorpusLine {
					return out, fmt.Errorf("corpus line %d: longer than %d bytes", line, maxCorpusLine)
				}
				b, err = br.ReadSlice('\n')
				big = append(big, b...)
			}
			b = big
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return out, fmt.Errorf("corpus line %d: %w", line, err)
		}
		if t := bytes.TrimSpace(b); len(t) > 0 {
			if line == 1 {
				t = bytes.TrimPrefix(t, []byte("\xef\xbb\xbf"))
			}
			d := &Decl{}
			if jerr := json.Unmarshal(t, d); jerr != nil {
				return out, fmt.Errorf("corpus line %d: %v", line, jerr)
			}
			if d.Name == "" {
				return out, fmt.Errorf("corpus line %d: declaration without a name", line)
			}
			if d.Package == "" {
				d.Package = pkg
			}
			normalize(d)
			out = append(out, d)
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
	}
}

// normalize replaces nil slices by empty ones so that JSON shows [].
func normalize(d *Decl) {
	d.Attrs = nonNil(d.Attrs)
	d.StatementDeps = nonNil(d.StatementDeps)
	d.ProofDeps = nonNil(d.ProofDeps)
}

// WriteDecls writes declarations as JSONL in the `decls` schema, one object
// per line, with empty lists written as [].
func WriteDecls(w io.Writer, decls []*Decl) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, d := range decls {
		c := *d
		normalize(&c)
		if err := enc.Encode(&c); err != nil {
			return err
		}
	}
	return bw.Flush()
}
