// Package leansrc is a hand-written scanner and parser for the declaration
// layer of Lean 4 source files. It does not elaborate: it recognises commands,
// scopes, declaration headers, bodies and the identifiers they mention, and it
// recovers from syntax errors at the next command keyword so that half-typed
// editor buffers still yield every declaration around the damage.
package leansrc

import "unicode/utf8"

// TokenKind classifies a token of Lean source.
type TokenKind uint8

// The token kinds produced by Scan.
const (
	TokIdent   TokenKind = iota + 1 // identifier, possibly dotted and «quoted»
	TokNumber                       // numeric literal
	TokString                       // string literal (plain, raw or interpolated)
	TokChar                         // character literal
	TokSymbol                       // punctuation or operator
	TokDoc                          // /-- doc comment -/
	TokModDoc                       // /-! module doc comment -/
	TokNameLit                      // `name or ``name literal
	TokQuote                        // `(syntax quotation)
	TokComment                      // -- or /- -/ comment (ScanWithComments only)
)

// Token is one lexical token. Offsets are byte offsets into the scanned text;
// Col is the byte column of Start on its line.
type Token struct {
	Kind  TokenKind
	BOL   bool // first token on its line
	Start int32
	End   int32
	Line  int32
	Col   int32
}

// ScanError reports a lexical problem such as an unterminated comment.
type ScanError struct {
	Offset int
	Msg    string
}

// scanner holds the state of one Scan call.
type scanner struct {
	src       []byte
	pos       int
	line      int
	lineStart int
	bol       bool
	toks      []Token
	errs      []ScanError
	comments  bool // emit TokComment tokens
}

// Scan splits src into tokens, dropping whitespace and ordinary comments but
// keeping doc and module-doc comments. It never fails: lexical errors (an
// unterminated comment, string or quotation) are reported alongside the
// tokens and scanning stops or continues at a safe point.
func Scan(src []byte) ([]Token, []ScanError) {
	return scan(src, false)
}

// ScanWithComments is Scan that also returns ordinary comments, as
// TokComment tokens (a line comment ends before its line break).
func ScanWithComments(src []byte) ([]Token, []ScanError) {
	return scan(src, true)
}

func scan(src []byte, comments bool) ([]Token, []ScanError) {
	s := &scanner{src: src, bol: true, comments: comments}
	s.toks = make([]Token, 0, len(src)/5+8)
	for s.pos < len(src) {
		s.next()
	}
	return s.toks, s.errs
}

func (s *scanner) newline(at int) {
	s.line++
	s.lineStart = at + 1
	s.bol = true
}

func (s *scanner) emit(kind TokenKind, start, startLine, startCol int) {
	s.toks = append(s.toks, Token{Kind: kind, BOL: s.bol, Start: int32(start), End: int32(s.pos), Line: int32(startLine), Col: int32(startCol)})
	s.bol = false
}

func (s *scanner) peek(off int) byte {
	if s.pos+off < len(s.src) {
		return s.src[s.pos+off]
	}
	return 0
}

func (s *scanner) runeAt(i int) (rune, int) {
	if i >= len(s.src) {
		return 0, 0
	}
	c := s.src[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRune(s.src[i:])
}

// next scans one token (or skips whitespace or a comment).
func (s *scanner) next() {
	c := s.src[s.pos]
	switch {
	case c == '\n':
		s.newline(s.pos)
		s.pos++
		return
	case c == '\r':
		if s.peek(1) != '\n' {
			s.newline(s.pos)
		}
		s.pos++
		return
	case c == ' ' || c == '\t' || c == '\f' || c == '\v':
		s.pos++
		return
	}
	start, line, col := s.pos, s.line, s.pos-s.lineStart
	switch {
	case c == '-' && s.peek(1) == '-':
		for s.pos < len(s.src) && s.src[s.pos] != '\n' && s.src[s.pos] != '\r' {
			s.pos++
		}
		if s.comments {
			s.emit(TokComment, start, line, col)
		}
		return
	case c == '/' && s.peek(1) == '-':
		kind := TokenKind(0)
		if s.comments {
			kind = TokComment
		}
		if s.peek(2) == '-' && s.peek(3) != '/' {
			kind = TokDoc
		} else if s.peek(2) == '!' {
			kind = TokModDoc
		}
		s.pos += 2
		if !s.blockComment() {
			s.errs = append(s.errs, ScanError{start, "unterminated block comment"})
			if s.recover(start, line) {
				if kind != 0 {
					s.emit(kind, start, line, col)
				}
				s.bol = true
				return
			}
		}
		if kind != 0 {
			s.emit(kind, start, line, col)
		}
		return
	case c == '"':
		s.pos++
		if !s.stringBody(start) && s.recover(start, line) {
			s.emit(TokString, start, line, col)
			s.bol = true
			return
		}
		s.emit(TokString, start, line, col)
		return
	case c == '\'':
		if s.charLit() {
			s.emit(TokChar, start, line, col)
			return
		}
		s.pos++
		if s.peek(0) == '\'' {
			s.pos++
		}
		s.emit(TokSymbol, start, line, col)
		return
	case c == '`':
		s.backtick(start, line, col)
		return
	case c >= '0' && c <= '9':
		s.number()
		s.emit(TokNumber, start, line, col)
		return
	}
	r, n := s.runeAt(s.pos)
	if (r == 'r' && (s.peek(1) == '"' || (s.peek(1) == '#' && s.rawAhead()))) ||
		((r == 's' || r == 'm' || r == 'f') && s.peek(1) == '!' && s.peek(2) == '"') {
		if r == 'r' {
			s.rawString(start)
		} else {
			s.pos += 3
			s.stringBody(start)
		}
		s.emit(TokString, start, line, col)
		return
	}
	if isIDFirst(r) || r == '«' {
		s.ident()
		s.emit(TokIdent, start, line, col)
		return
	}
	if r == utf8.RuneError && n == 1 {
		s.pos++
		s.emit(TokSymbol, start, line, col)
		return
	}
	// Symbols: a few multi-character tokens matter to the parser.
	s.pos += n
	switch {
	case c == ':' && (s.peek(0) == '=' || s.peek(0) == ':'):
		s.pos++
	case c == '=' && s.peek(0) == '>':
		s.pos++
	case c == '@' && s.peek(0) == '[':
		s.pos++
	case c == '|' && (s.peek(0) == '|' || s.peek(0) == '>'):
		s.pos++
		if s.peek(0) == '.' {
			s.pos++
		}
	case c == '<' && s.peek(0) == '|':
		s.pos++
		if s.peek(0) == '>' {
			s.pos++
		}
	case c == '.' && s.peek(0) == '.':
		s.pos++
	}
	s.emit(TokSymbol, start, line, col)
}

// blockComment skips a (nested) block comment body after its opening "/-".
func (s *scanner) blockComment() bool {
	depth := 1
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\n':
			s.newline(s.pos)
			s.pos++
		case c == '\r':
			if s.peek(1) != '\n' {
				s.newline(s.pos)
			}
			s.pos++
		case c == '/' && s.peek(1) == '-':
			depth++
			s.pos += 2
		case c == '-' && s.peek(1) == '/':
			depth--
			s.pos += 2
			if depth == 0 {
				return true
			}
		default:
			s.pos++
		}
	}
	return false
}

// recoveryStarts are line beginnings that end an unterminated comment or
// string: a half-typed buffer keeps the declarations that follow it.
var recoveryStarts = []string{"theorem ", "lemma ", "def ", "instance ", "instance:", "structure ", "class ",
	"inductive ", "abbrev ", "example ", "example:", "namespace ", "section", "end", "@[", "/--", "/-!",
	"noncomputable ", "open ", "variable ", "private ", "protected ", "universe ", "attribute "}

// recover moves the scanner back from the end of input to the first line
// after start that begins with a command keyword, if there is one. The
// token begun at start then ends there.
func (s *scanner) recover(start, line int) bool {
	lineNo := line
	for i := start; i < len(s.src); i++ {
		if s.src[i] != '\n' {
			continue
		}
		lineNo++
		rest := s.src[i+1:]
		for _, k := range recoveryStarts {
			if len(rest) >= len(k) && string(rest[:len(k)]) == k {
				if k == "end" && len(rest) > 3 && rest[3] != ' ' && rest[3] != '\n' && rest[3] != '\r' {
					continue
				}
				s.pos = i + 1
				s.line = lineNo
				s.lineStart = i + 1
				return true
			}
		}
	}
	return false
}

// stringBody scans a string literal after its opening quote; it reports
// false when the string is unterminated.
func (s *scanner) stringBody(start int) bool {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch c {
		case '\\':
			s.pos++
			if s.pos < len(s.src) {
				if s.src[s.pos] == '\n' {
					s.newline(s.pos)
				}
				s.pos++
			}
			continue
		case '"':
			s.pos++
			return true
		case '\n':
			s.newline(s.pos)
		}
		s.pos++
	}
	s.errs = append(s.errs, ScanError{start, "unterminated string literal"})
	return false
}

func (s *scanner) rawAhead() bool {
	i := s.pos + 1
	for i < len(s.src) && s.src[i] == '#' {
		i++
	}
	return i < len(s.src) && s.src[i] == '"'
}

// rawString scans r"…" or r#"…"#.
func (s *scanner) rawString(start int) {
	s.pos++ // r
	hashes := 0
	for s.peek(0) == '#' {
		hashes++
		s.pos++
	}
	s.pos++ // "
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		if c == '\n' {
			s.newline(s.pos)
		}
		s.pos++
		if c == '"' {
			n := 0
			for n < hashes && s.peek(0) == '#' {
				n++
				s.pos++
			}
			if n == hashes {
				return
			}
		}
	}
	s.errs = append(s.errs, ScanError{start, "unterminated raw string literal"})
}

// charLit scans 'c' or '\n' style literals; it reports false (consuming
// nothing) when the quote does not start a character literal.
func (s *scanner) charLit() bool {
	i := s.pos + 1
	if i >= len(s.src) || s.src[i] == '\n' || s.src[i] == '\'' {
		return false
	}
	if s.src[i] == '\\' {
		i++
		if i >= len(s.src) {
			return false
		}
		switch s.src[i] {
		case 'x':
			i += 3
		case 'u':
			i += 5
		default:
			i++
		}
	} else {
		_, n := s.runeAt(i)
		i += n
	}
	if i < len(s.src) && s.src[i] == '\'' {
		s.pos = i + 1
		return true
	}
	return false
}

// backtick scans name literals (`foo, “foo) and syntax quotations (`(…), `(cat| …)).
func (s *scanner) backtick(start, line, col int) {
	s.pos++
	if s.peek(0) == '`' {
		s.pos++
	}
	if s.peek(0) == '(' || s.peek(0) == '[' {
		open := s.src[s.pos]
		close := byte(')')
		if open == '[' {
			close = ']'
		}
		depth := 0
		for s.pos < len(s.src) {
			c := s.src[s.pos]
			switch {
			case c == open:
				depth++
			case c == close:
				depth--
				if depth == 0 {
					s.pos++
					s.emit(TokQuote, start, line, col)
					return
				}
			case c == '\n':
				s.newline(s.pos)
			case c == '"':
				s.pos++
				s.stringBody(s.pos - 1)
				continue
			case c == '-' && s.peek(1) == '-':
				for s.pos < len(s.src) && s.src[s.pos] != '\n' {
					s.pos++
				}
				continue
			case c == '/' && s.peek(1) == '-':
				s.pos += 2
				s.blockComment()
				continue
			}
			s.pos++
		}
		s.errs = append(s.errs, ScanError{start, "unterminated syntax quotation"})
		s.emit(TokQuote, start, line, col)
		return
	}
	r, _ := s.runeAt(s.pos)
	if isIDFirst(r) || r == '«' {
		s.ident()
		s.emit(TokNameLit, start, line, col)
		return
	}
	s.emit(TokSymbol, start, line, col)
}

func (s *scanner) number() {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		if (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' {
			s.pos++
			continue
		}
		if c == '.' && s.peek(1) >= '0' && s.peek(1) <= '9' {
			s.pos++
			continue
		}
		break
	}
}

// ident scans a possibly dotted identifier whose parts may be «quoted».
func (s *scanner) ident() {
	for {
		r, n := s.runeAt(s.pos)
		if r == '«' {
			open := s.pos
			s.pos += n
			closed := false
			for s.pos < len(s.src) {
				r, n = s.runeAt(s.pos)
				if r == '\n' {
					break // unterminated: stop at the line end
				}
				s.pos += n
				if r == '»' {
					closed = true
					break
				}
			}
			if !closed {
				s.errs = append(s.errs, ScanError{open, "unterminated «name»"})
			}
		} else {
			s.pos += n
			for s.pos < len(s.src) {
				r, n = s.runeAt(s.pos)
				if !isIDRest(r) {
					break
				}
				s.pos += n
			}
		}
		if s.peek(0) != '.' {
			return
		}
		r, _ = s.runeAt(s.pos + 1)
		if !isIDFirst(r) && r != '«' {
			return
		}
		s.pos++
	}
}

// isLetterLike mirrors Lean's isLetterLike: Greek (minus λ, Π, Σ), Coptic,
// letter-like symbols, small capitals and mathematical alphanumerics.
func isLetterLike(r rune) bool {
	return (0x3b1 <= r && r <= 0x3c9 && r != 0x3bb) ||
		(0x391 <= r && r <= 0x3A9 && r != 0x3A0 && r != 0x3A3) ||
		(0x3ca <= r && r <= 0x3fb) ||
		(0x1f00 <= r && r <= 0x1ffe) ||
		(0x2100 <= r && r <= 0x214f) ||
		(0x1d49c <= r && r <= 0x1d59f)
}

// IsSubScriptAlnum mirrors Lean's isSubScriptAlnum: subscript digits and
// letters (₀…₉, ₐ…ₜ, ᵢ…ᵪ, ⱼ), which may continue an identifier.
func IsSubScriptAlnum(r rune) bool {
	return (0x2080 <= r && r <= 0x2089) || (0x2090 <= r && r <= 0x209c) || (0x1d62 <= r && r <= 0x1d6a) || r == 0x2c7c
}

// isIDFirst reports whether r may start a Lean identifier.
func isIDFirst(r rune) bool {
	if r < utf8.RuneSelf {
		return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r == '_'
	}
	return isLetterLike(r)
}

// isIDRest reports whether r may continue a Lean identifier.
func isIDRest(r rune) bool {
	if r < utf8.RuneSelf {
		return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r == '_' || r == '\'' || r == '!' || r == '?'
	}
	return isLetterLike(r) || IsSubScriptAlnum(r)
}

// IsIdentifier reports whether s is a single well-formed (possibly dotted)
// Lean identifier.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	toks, errs := Scan([]byte(s))
	return len(errs) == 0 && len(toks) == 1 && toks[0].Kind == TokIdent && int(toks[0].End) == len(s)
}
