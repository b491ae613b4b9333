package embed

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// WordPiece is BERT's tokenizer: a BasicTokenizer (text cleaning, optional
// lower-casing with accent stripping, CJK and punctuation splitting) followed
// by greedy longest-match-first WordPiece over a fixed vocabulary.
type WordPiece struct {
	vocab        map[string]int64
	lowercase    bool
	stripAccents bool
	chinese      bool
	prefix       string
	maxWordChars int
	unk, cls     int64
	sep, pad     int64
}

// WordPieceOptions configures a WordPiece tokenizer built from a vocabulary.
type WordPieceOptions struct {
	Lowercase    bool // lower-case (and strip accents) before splitting
	StripAccents *bool
}

// LoadWordPiece reads a tokenizer from a vocab.txt (one token per line) or a
// Hugging Face tokenizer.json with a WordPiece model. For vocab.txt, opts
// decides lower-casing; tokenizer.json carries its own normaliser settings.
func LoadWordPiece(path string, opts WordPieceOptions) (*WordPiece, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: tokenizer: %v", ErrUnavailable, err)
	}
	defer f.Close()
	if strings.HasSuffix(path, ".json") {
		return parseTokenizerJSON(f)
	}
	vocab := map[string]int64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var id int64
	for sc.Scan() {
		tok := strings.TrimRight(sc.Text(), "\r")
		if _, dup := vocab[tok]; !dup {
			vocab[tok] = id
		}
		id++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	strip := opts.Lowercase
	if opts.StripAccents != nil {
		strip = *opts.StripAccents
	}
	return newWordPiece(vocab, opts.Lowercase, strip, true, "##", 100)
}

func parseTokenizerJSON(r io.Reader) (*WordPiece, error) {
	var tj struct {
		Normalizer *struct {
			Type               string `json:"type"`
			Lowercase          *bool  `json:"lowercase"`
			StripAccents       *bool  `json:"strip_accents"`
			HandleChineseChars *bool  `json:"handle_chinese_chars"`
		} `json:"normalizer"`
		Model struct {
			Type         string           `json:"type"`
			Vocab        map[string]int64 `json:"vocab"`
			Prefix       *string          `json:"continuing_subword_prefix"`
			MaxWordChars int              `json:"max_input_chars_per_word"`
		} `json:"model"`
	}
	if err := json.NewDecoder(r).Decode(&tj); err != nil {
		return nil, fmt.Errorf("tokenizer.json: %w", err)
	}
	if tj.Model.Type != "WordPiece" {
		return nil, fmt.Errorf("tokenizer.json: model type %q is not WordPiece", tj.Model.Type)
	}
	lower, chinese := true, true
	var strip *bool
	if n := tj.Normalizer; n != nil {
		if n.Type != "BertNormalizer" {
			return nil, fmt.Errorf("tokenizer.json: normalizer %q is not supported (want BertNormalizer)", n.Type)
		}
		if n.Lowercase != nil {
			lower = *n.Lowercase
		}
		if n.HandleChineseChars != nil {
			chinese = *n.HandleChineseChars
		}
		strip = n.StripAccents
	}
	s := lower
	if strip != nil {
		s = *strip
	}
	prefix := "##"
	if tj.Model.Prefix != nil {
		prefix = *tj.Model.Prefix
	}
	maxChars := tj.Model.MaxWordChars
	if maxChars <= 0 {
		maxChars = 100
	}
	return newWordPiece(tj.Model.Vocab, lower, s, chinese, prefix, maxChars)
}

func newWordPiece(vocab map[string]int64, lower, strip, chinese bool, prefix string, maxChars int) (*WordPiece, error) {
	w := &WordPiece{vocab: vocab, lowercase: lower, stripAccents: strip, chinese: chinese, prefix: prefix, maxWordChars: maxChars}
	for _, sp := range []struct {
		tok string
		dst *int64
	}{{"[UNK]", &w.unk}, {"[CLS]", &w.cls}, {"[SEP]", &w.sep}, {"[PAD]", &w.pad}} {
		id, ok := vocab[sp.tok]
		if !ok {
			return nil, fmt.Errorf("tokenizer: vocabulary lacks %s", sp.tok)
		}
		*sp.dst = id
	}
	return w, nil
}

// Encode returns [CLS] pieces… [SEP] as ids, truncated to maxLen ids in all.
func (w *WordPiece) Encode(text string, maxLen int) []int64 {
	if maxLen < 2 {
		maxLen = 2
	}
	// A word yields at least one piece from at most maxWordChars+1 runes, so
	// nothing past this prefix can be among the kept pieces.
	if limit := 4 * (w.maxWordChars + 2) * maxLen; len(text) > limit {
		text = strings.ToValidUTF8(text[:limit], "")
	}
	ids := []int64{w.cls}
	for _, word := range w.basic(text) {
		for _, id := range w.wordPiece(word) {
			if len(ids) == maxLen-1 {
				return append(ids, w.sep)
			}
			ids = append(ids, id)
		}
	}
	return append(ids, w.sep)
}

// Tokens returns the pieces of text (without [CLS]/[SEP]) as strings.
func (w *WordPiece) Tokens(text string) []string {
	inv := make(map[int64]string, len(w.vocab))
	for t, id := range w.vocab {
		inv[id] = t
	}
	var out []string
	for _, word := range w.basic(text) {
		for _, id := range w.wordPiece(word) {
			out = append(out, inv[id])
		}
	}
	return out
}

// basic is BERT's BasicTokenizer: clean, split CJK, lower-case and strip
// accents, split on whitespace and punctuation.
func (w *WordPiece) basic(text string) []string {
	var b strings.Builder
	for _, r := range text {
		switch {
		case r == 0 || r == 0xFFFD || isControl(r):
			continue
		case isWhitespace(r):
			b.WriteByte(' ')
		case w.chinese && isCJK(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if w.stripAccents {
		s = stripMarks(norm.NFD.String(s))
	}
	if w.lowercase {
		s = strings.ToLower(s)
	}
	var words []string
	for _, tok := range strings.FieldsFunc(s, isWhitespace) {
		start := 0
		for i, r := range tok {
			if isPunct(r) {
				if i > start {
					words = append(words, tok[start:i])
				}
				n := i + len(string(r))
				words = append(words, tok[i:n])
				start = n
			}
		}
		if start < len(tok) {
			words = append(words, tok[start:])
		}
	}
	return words
}

func (w *WordPiece) wordPiece(word string) []int64 {
	runes := []rune(word)
	if len(runes) > w.maxWordChars {
		return []int64{w.unk}
	}
	var ids []int64
	for start := 0; start < len(runes); {
		end := len(runes)
		found := int64(-1)
		for end > start {
			sub := string(runes[start:end])
			if start > 0 {
				sub = w.prefix + sub
			}
			if id, ok := w.vocab[sub]; ok {
				found = id
				break
			}
			end--
		}
		if found < 0 {
			return []int64{w.unk}
		}
		ids = append(ids, found)
		start = end
	}
	return ids
}

func stripMarks(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isWhitespace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || unicode.Is(unicode.Zs, r)
}

func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) ||
		!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

func isPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}
