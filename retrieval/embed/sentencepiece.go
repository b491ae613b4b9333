package embed

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

// SentencePiece is the unigram tokenizer of Universal Sentence Encoder lite: a
// faithful port of the TF.js reference (@tensorflow-models/universal-sentence-
// encoder), Viterbi over the piece scores of vocab.json. Like the reference it
// works on UTF-16 code units, so astral characters (𝔽, 𝕜) tokenise exactly as
// TF.js tokenises them.
type SentencePiece struct {
	pieces [][]uint16 // piece text per id
	root   *spNode
}

type spNode struct {
	children map[uint16]*spNode
	end      bool
	score    float64
	id       int64
	length   int
}

// spReserved is the number of leading ids (unk, control and user symbols)
// never produced by the lattice.
const spReserved = 6

// LoadSentencePiece reads a vocab.json of [piece, score] pairs.
func LoadSentencePiece(path string) (*SentencePiece, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: vocabulary: %v", ErrUnavailable, err)
	}
	var raw [][2]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("vocabulary %s: %w", path, err)
	}
	if len(raw) <= spReserved {
		return nil, fmt.Errorf("vocabulary %s: only %d entries", path, len(raw))
	}
	sp := &SentencePiece{pieces: make([][]uint16, len(raw)), root: &spNode{}}
	for i, e := range raw {
		var piece string
		var score float64
		if err := json.Unmarshal(e[0], &piece); err != nil {
			return nil, fmt.Errorf("vocabulary %s: entry %d: %w", path, i, err)
		}
		if err := json.Unmarshal(e[1], &score); err != nil {
			return nil, fmt.Errorf("vocabulary %s: entry %d: %w", path, i, err)
		}
		units := utf16.Encode([]rune(piece))
		sp.pieces[i] = units
		if i < spReserved || len(units) == 0 {
			continue
		}
		n := sp.root
		for _, u := range units {
			c := n.children[u]
			if c == nil {
				if n.children == nil {
					n.children = map[uint16]*spNode{}
				}
				c = &spNode{}
				n.children[u] = c
			}
			n = c
		}
		n.end, n.score, n.id, n.length = true, score, int64(i), len(units)
	}
	return sp, nil
}

// Encode returns the piece ids of text (NFKC-normalised, spaces as ▁, with a
// leading ▁), at most maxLen of them.
func (sp *SentencePiece) Encode(text string, maxLen int) []int64 {
	// Only the first maxLen pieces are kept, so a huge text is cut first (at
	// a space, far beyond where the kept pieces can reach).
	if limit := 64 * maxLen; maxLen > 0 && len(text) > limit {
		cut := strings.LastIndexByte(text[:limit], ' ')
		if cut <= 0 {
			cut = limit
		}
		text = strings.ToValidUTF8(text[:cut], "")
	}
	text = norm.NFKC.String(text)
	if text == "" {
		return nil
	}
	sym := utf16.Encode([]rune("\u2581" + strings.ReplaceAll(text, " ", "\u2581")))
	n := len(sym)
	best := make([]float64, n+1)
	words := make([]int64, n+1)
	// arcs[end] lists (start, id, score) in increasing start order, as the
	// reference visits them.
	type arc struct {
		start int
		id    int64
		score float64
	}
	arcs := make([][]arc, n+1)
	for i := 0; i < n; i++ {
		node := sp.root.children[sym[i]]
		matched := false
		for j := i; j < n && node != nil; j++ {
			if node.end {
				arcs[i+node.length] = append(arcs[i+node.length], arc{i, node.id, node.score})
				matched = true
			}
			if j+1 < n {
				node = node.children[sym[j+1]]
			} else {
				node = nil
			}
		}
		if !matched {
			arcs[i+1] = append(arcs[i+1], arc{i, 0, 0})
		}
	}
	for end := 0; end <= n; end++ {
		for _, a := range arcs[end] {
			s := a.score + best[a.start]
			if best[end] == 0 || s >= best[end] {
				best[end] = s
				words[end] = a.id
			}
		}
	}
	var rev []int64
	for it := n; it > 0; {
		rev = append(rev, words[it])
		step := len(sp.pieces[words[it]])
		if step == 0 {
			step = 1
		}
		it -= step
	}
	ids := make([]int64, 0, len(rev))
	prevUnk := false
	for _, id := range rev {
		if !(prevUnk && id == 0) {
			ids = append(ids, id)
		}
		prevUnk = id == 0
	}
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
	if maxLen > 0 && len(ids) > maxLen {
		ids = ids[:maxLen]
	}
	return ids
}
