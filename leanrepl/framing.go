package leanrepl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// DefaultMaxResponse is the largest response (or noise line) a Decoder
// accepts, in bytes.
const DefaultMaxResponse = 256 << 20

// Framing errors returned by Decoder.Next.
var (
	// ErrTruncated means the stream ended inside a response.
	ErrTruncated = errors.New("output ended in the middle of a response")
	// ErrMalformed means the REPL printed something that starts like a JSON
	// object but is not one.
	ErrMalformed = errors.New("malformed JSON response")
	// ErrTooLarge means a response or line exceeded the size limit.
	ErrTooLarge = errors.New("response too large")
)

// Frame is one unit of REPL output: a complete JSON object, or one line of
// text that is not JSON (noise, such as a warning printed by `lake`).
type Frame struct {
	// JSON holds the bytes of one complete JSON object; nil for noise.
	JSON []byte
	// Noise holds a non-JSON line (without its line ending), cut to 1 KiB.
	Noise string
}

// Decoder splits REPL output into frames. Responses are JSON objects, often
// pretty-printed over several lines, separated by blank lines; the decoder
// tolerates CRLF line endings, missing blank lines, output split across
// reads, and non-JSON lines between responses.
type Decoder struct {
	r *bufio.Reader
	// MaxResponse bounds the size of one response or line in bytes.
	MaxResponse int
	pending     []byte // the rest of a line after a completed object
	hasPending  bool
}

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: bufio.NewReaderSize(r, 64<<10), MaxResponse: DefaultMaxResponse}
}

// readLine returns the next line without its "\n" or "\r\n"; io.EOF when the
// stream ended with no more bytes.
func (d *Decoder) readLine() ([]byte, error) {
	if d.hasPending {
		d.hasPending = false
		return d.pending, nil
	}
	var line []byte
	for {
		chunk, err := d.r.ReadSlice('\n')
		if len(line)+len(chunk) > d.MaxResponse {
			return nil, fmt.Errorf("%w: a line exceeds %d bytes", ErrTooLarge, d.MaxResponse)
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				break
			}
			return nil, err
		}
		break
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, nil
}

// Next returns the next frame. At the end of the stream it returns io.EOF,
// or ErrTruncated when the stream ended inside a response.
func (d *Decoder) Next() (Frame, error) {
	var obj []byte
	depth := 0
	inString, escaped := false, false
	for {
		line, err := d.readLine()
		if err != nil {
			if err == io.EOF && obj != nil {
				return Frame{}, ErrTruncated
			}
			return Frame{}, err
		}
		blank := len(bytes.TrimSpace(line)) == 0
		start := 0
		if obj == nil {
			if blank {
				continue
			}
			trimmed := bytes.TrimLeft(line, " \t")
			if trimmed[0] != '{' {
				return Frame{Noise: noiseText(line)}, nil
			}
			start = len(line) - len(trimmed)
		} else if blank {
			return Frame{}, fmt.Errorf("%w: blank line inside an object: %q", ErrMalformed, textcut.CutBytes(string(obj), 200))
		}
		for i := start; i < len(line); i++ {
			c := line[i]
			switch {
			case inString:
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
				}
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
			}
			if depth == 0 {
				obj = append(obj, line[start:i+1]...)
				if rest := line[i+1:]; len(bytes.TrimSpace(rest)) > 0 {
					d.pending, d.hasPending = append([]byte(nil), rest...), true
				}
				if !json.Valid(obj) {
					return Frame{}, fmt.Errorf("%w: %q", ErrMalformed, textcut.CutBytes(string(obj), 200))
				}
				return Frame{JSON: obj}, nil
			}
		}
		obj = append(obj, line[start:]...)
		obj = append(obj, '\n')
		if len(obj) > d.MaxResponse {
			return Frame{}, fmt.Errorf("%w: a response exceeds %d bytes", ErrTooLarge, d.MaxResponse)
		}
	}
}

func noiseText(line []byte) string {
	return textcut.CutBytes(string(line), 1024)
}
