package lsp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// DefaultMaxMessageBytes is the default largest message body the server
// reads; a larger one is skipped and answered with an error, and the
// connection stays up.
const DefaultMaxMessageBytes = 64 << 20

// stream is a jsonrpc2.Stream with LSP header framing that survives bad
// input: a frame whose body is not a JSON-RPC message, or that is too large,
// is answered with a null-id error response and skipped, and a garbled
// header is skipped up to the next blank line. (jsonrpc2's own header stream
// ends the connection on such input.)
type stream struct {
	in      *bufio.Reader
	out     io.Writer
	closer  io.Closer
	max     int
	writeMu sync.Mutex
	// onBad is told about every skipped frame, for the log.
	onBad func(error)
}

func newStream(r io.Reader, w io.Writer, c io.Closer, max int, onBad func(error)) *stream {
	if onBad == nil {
		onBad = func(error) {}
	}
	if max <= 0 {
		max = DefaultMaxMessageBytes
	}
	return &stream{in: bufio.NewReaderSize(r, 64<<10), out: w, closer: c, max: max, onBad: onBad}
}

// errBadHeader marks a garbled header block.
var errBadHeader = errors.New("invalid message header")

// Read implements jsonrpc2.Stream.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		length, hdr, err := s.readHeader()
		if errors.Is(err, errBadHeader) {
			s.onBad(err)
			s.reject(jsonrpc2.NewError(jsonrpc2.ParseError, "drift-lsp: "+err.Error()))
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		if length > s.max {
			if _, err := io.CopyN(io.Discard, s.in, int64(length)); err != nil {
				return nil, 0, io.ErrUnexpectedEOF
			}
			err := fmt.Errorf("message of %d bytes exceeds the limit of %d bytes", length, s.max)
			s.onBad(err)
			s.reject(jsonrpc2.NewError(jsonrpc2.InvalidRequest, "drift-lsp: "+err.Error()))
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.in, body); err != nil {
			return nil, 0, io.ErrUnexpectedEOF
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			s.onBad(fmt.Errorf("malformed message: %w", err))
			code := jsonrpc2.ParseError
			if errors.Is(err, jsonrpc2.ErrInvalidRequest) {
				code = jsonrpc2.InvalidRequest
			}
			s.reject(jsonrpc2.NewError(code, "drift-lsp: malformed JSON-RPC message: "+err.Error()))
			continue
		}
		return withParams(msg), int64(hdr + length), nil
	}
}

// nullParams stands for absent params.
var nullParams = jsonrpc2.RawMessage("null")

// withParams gives a request without params a null one: JSON-RPC lets params
// be omitted, and protocol.ServerHandler decodes an absent one as a parse
// error (before it could answer "method not found").
func withParams(msg jsonrpc2.Message) jsonrpc2.Message {
	switch m := msg.(type) {
	case *jsonrpc2.Call:
		if len(m.Params()) == 0 {
			return jsonrpc2.NewCall(m.ID(), m.Method(), nullParams)
		}
	case *jsonrpc2.Notification:
		if len(m.Params()) == 0 {
			return jsonrpc2.NewNotification(m.Method(), nullParams)
		}
	}
	return msg
}

// readHeader reads one header block and returns the Content-Length and the
// header size. A garbled block is consumed up to its blank line.
func (s *stream) readHeader() (length, size int, err error) {
	bad := false
	have := false
	for {
		line, err := s.in.ReadString('\n')
		size += len(line)
		if err != nil {
			if err == io.EOF && size == 0 {
				return 0, 0, io.EOF
			}
			return 0, 0, io.ErrUnexpectedEOF
		}
		if len(line) > 4096 {
			bad = true
		}
		trimmed := strings.TrimRight(line, "\r\n")
		if trimmed == "" {
			if size <= 2 {
				// Stray blank lines between frames are harmless.
				size = 0
				continue
			}
			break
		}
		name, value, ok := strings.Cut(trimmed, ":")
		if !ok {
			bad = true
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n <= 0 {
				bad = true
				continue
			}
			length, have = n, true
		}
	}
	if bad || !have {
		return 0, size, errBadHeader
	}
	return length, size, nil
}

// reject writes a null-id error response.
func (s *stream) reject(e *jsonrpc2.Error) {
	_, _ = s.Write(context.Background(), jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, e))
}

// Write implements jsonrpc2.Stream.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	body, err := jsonrpc2.EncodeMessage(msg)
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 0, len(body)+32)
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(body)), 10)
	buf = append(buf, "\r\n\r\n"...)
	buf = append(buf, body...)
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	n, err := s.out.Write(buf)
	return int64(n), err
}

// Close implements jsonrpc2.Stream.
func (s *stream) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
