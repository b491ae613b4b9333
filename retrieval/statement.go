package retrieval

import (
	"iter"
	"math"
	"slices"
	"sort"
	"strings"

	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// The statement field (fStmt) makes a declaration findable by what it
// states: the words and notation symbols of its signature, the conclusion
// counted twice (a lemma is asked for by what it concludes), the words of
// the constants its notation unfolds to (the indexer resolves an operator
// to its target through the library's own notation declarations: ⁻¹' →
// Set.preimage), and for a structure or class the names of its fields.
// Which words a symbol stands for is mined from the library (mineSymbols)
// and applied to the query, so the index holds the symbols as written.

// statementKeywords are the heads of a signature ("theorem Foo.bar …").
var statementKeywords = map[string]bool{
	"theorem": true, "lemma": true, "def": true, "abbrev": true, "instance": true, "structure": true,
	"class": true, "inductive": true, "opaque": true, "axiom": true, "field": true, "constructor": true,
	"alias": true, "noncomputable": true, "protected": true, "private": true, "partial": true, "unsafe": true,
}

// statementParts splits a signature into its hypotheses (binders and
// premises of the type) and its conclusion (the type after its last
// top-level arrow), dropping the head keyword and name.
func statementParts(sig string) (hyps, concl string) {
	rest := sig
	for {
		w, r, ok := strings.Cut(strings.TrimLeft(rest, " "), " ")
		if !ok || !statementKeywords[w] {
			break
		}
		rest = r
		if w == "protected" || w == "private" || w == "noncomputable" || w == "partial" || w == "unsafe" {
			continue
		}
		// The name follows the keyword (an anonymous instance has none:
		// its binders or its colon come next).
		if t := strings.TrimLeft(rest, " "); t != "" && !strings.ContainsRune("([{⦃:", rune(t[0])) {
			_, rest, _ = strings.Cut(t, " ")
		}
		break
	}
	// The first top-level " : " ends the binders; the type's last
	// top-level "→" (outside brackets) ends its premises.
	depth, colon, arrow, iff := 0, -1, -1, false
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ':':
			if depth == 0 && colon < 0 && (i == 0 || rest[i-1] == ' ') && i+1 < len(rest) && rest[i+1] == ' ' {
				colon = i
			}
		case 0xE2: // → is E2 86 92; ⟨ ⟩ are E2 9F A8/A9
			if strings.HasPrefix(rest[i:], "⟨") || strings.HasPrefix(rest[i:], "⦃") {
				depth++
			} else if strings.HasPrefix(rest[i:], "⟩") || strings.HasPrefix(rest[i:], "⦄") {
				depth--
			} else if depth == 0 && colon >= 0 && !iff && strings.HasPrefix(rest[i:], "→") {
				arrow = i
			} else if depth == 0 && colon >= 0 && strings.HasPrefix(rest[i:], "↔") {
				iff = true // the arrows of an equivalence's sides are no premises
			}
		}
	}
	switch {
	case colon < 0:
		return rest, ""
	case arrow < 0:
		return rest[:colon], rest[colon+1:]
	}
	return rest[:arrow], rest[arrow+len("→"):]
}

// binderGroups yields the pieces of a signature's hypotheses cut at the
// spaces outside brackets: binder groups (`{α : Type u}`, `[Lattice α]`)
// and the words and symbols between them. A space ends every word and
// symbol of the analyzer, so the pieces' terms are the whole text's; text
// with a backslash (LaTeX, whose \mathbb reads past a space) is one piece.
func binderGroups(hyps string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if strings.IndexByte(hyps, '\\') >= 0 {
			yield(hyps)
			return
		}
		depth, start := 0, 0
		for i := 0; i < len(hyps); i++ {
			switch c := hyps[i]; c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case 0xE2: // ⟨ ⦃ open, ⟩ ⦄ close
				switch {
				case strings.HasPrefix(hyps[i:], "⟨"), strings.HasPrefix(hyps[i:], "⦃"):
					depth++
				case strings.HasPrefix(hyps[i:], "⟩"), strings.HasPrefix(hyps[i:], "⦄"):
					depth--
				}
			case ' ':
				if depth <= 0 {
					if i > start && !yield(hyps[start:i]) {
						return
					}
					start = i + 1
				}
			}
		}
		if start < len(hyps) {
			yield(hyps[start:])
		}
	}
}

// statementTerms renders d's statement into the terms of the statement
// field; fields are the names of its fields when d is a structure or
// class. a analyzes the text (nil: a fresh one).
func statementTerms(fa *fieldAnalyzer, d *library.Decl, fields []string) []string {
	return appendStatementTerms(nil, fa, d, fields)
}

// appendStatementTerms appends statementTerms(fa, d, fields) to dst.
func appendStatementTerms(dst []string, fa *fieldAnalyzer, d *library.Decl, fields []string) []string {
	switch d.Kind {
	case library.KindNotation, library.KindField, library.KindConstructor, library.KindAlias:
		return dst // a field's name is in its parent's statement
	}
	if d.Signature == "" {
		return dst
	}
	if fa == nil {
		fa = newFieldAnalyzer()
	}
	a := fa.a
	sig := d.Signature
	if len(sig) > 1500 {
		sig = strings.ToValidUTF8(sig[:1500], "")
	}
	// The star of Type* and Sort* is no product.
	if strings.Contains(sig, "*") {
		sig = strings.ReplaceAll(strings.ReplaceAll(sig, "Type*", "Type"), "Sort*", "Sort")
	}
	hyps, concl := statementParts(sig)
	// The hypotheses binder group by binder group, through a's cache.
	out, syms := dst, fa.syms[:0]
	for g := range binderGroups(hyps) {
		out, syms = a.AppendChunk(out, syms, g)
	}
	out = append(out, syms...)
	fa.syms = syms
	c := len(out)
	out = a.AppendTerms(out, concl)
	out = lexical.AppendSymbols(out, concl)
	out = append(out, out[c:]...) // the conclusion counts twice
	// The constants an operator unfolds to, which the text does not name.
	for _, dep := range d.StatementDeps {
		last := names.Last(dep)
		if dep != d.Name && !strings.Contains(sig, last) {
			out = a.AppendTerms(out, last)
		}
	}
	for _, f := range fields {
		out = a.AppendTerms(out, names.Last(f))
	}
	return out
}

// fieldsByParent maps each structure, class or inductive among decls to the
// names of its fields and constructors (declared in the same file, so a part
// over the file's declarations holds both).
func fieldsByParent(decls []*library.Decl) map[string][]string {
	out := map[string][]string{}
	for _, d := range decls {
		if (d.Kind == library.KindField || d.Kind == library.KindConstructor) && d.Parent != "" && len(out[d.Parent]) < 40 {
			out[d.Parent] = append(out[d.Parent], d.Name)
		}
	}
	return out
}

// symbolMark prefixes the part of a lexicon pair that is a notation
// symbol (stored with the mined lexicon in the base index).
const symbolMark = "§"

// symTerm is one word a symbol stands for (or one symbol a word stands
// for), with the weight of the evidence in (0, 1].
type symTerm struct {
	term   string
	weight float64
}

// symbolTable maps notation symbols to the words they stand for in the
// library and back.
type symbolTable struct {
	words   map[string][]symTerm // symbol → analyzed words
	symbols map[string][]symTerm // analyzed word → symbols
}

// The bounds of the symbol mining: a symbol needs minSymbolStatements
// statements; a word must stand in at least a share minSymbolConf of them
// and be at least minSymbolLift times likelier there than in the library's
// names; each symbol keeps its maxSymbolWords best words.
const (
	minSymbolStatements = 4
	minSymbolConf       = 0.08
	minSymbolLift       = 8
	maxSymbolWords      = 3
)

// mineSymbols returns, as lexicon pairs whose part is symbolMark + the
// symbol, the words each notation symbol of the library stands for: the
// name words of the constants a notation declaration unfolds to (the
// library's `notation`, `infix`, `prefix`, `macro_rules`: ⊔ → Max.max →
// max), and the words of the declaration names whose statements use the
// symbol far more often than the library's names use the word (Lean's
// naming convention names a lemma after its notation: ⊔ in sup_le, ∣ in
// dvd_mul_right). Sorted, independent of decls' order.
// analyzed, when not nil, are decls' analyzed fields (analyzeAll).
func mineSymbols(decls []*library.Decl, analyzed [][nFields][]string) []lexPair {
	best := map[[2]string]float64{}
	note := func(sym, word string, w float64) {
		k := [2]string{sym, word}
		best[k] = max(best[k], w)
	}
	// Notation declarations: the symbol → the target's words, weighed by
	// the share of the symbol's notations that unfold to that target.
	type target struct{ sym, word string }
	notes := map[string]int{}
	noteWords := map[target]int{}
	// A bracket head stands for its notations with the fewest operands:
	// "d[" X " # " Y "]" => rdist, not the conditional variants that add
	// operands ("d[" X " | " Z " # " Y " | " W "]"), which the head alone
	// does not name.
	fewest := map[string]int{}
	for _, d := range decls {
		if d.Kind == library.KindNotation {
			if h := bracketHead(d.Symbol); h != "" {
				if n, ok := fewest[h]; !ok || operands(d.Symbol) < n {
					fewest[h] = operands(d.Symbol)
				}
			}
		}
	}
	for _, d := range decls {
		if d.Kind != library.KindNotation || d.Symbol == "" {
			continue
		}
		if h := bracketHead(d.Symbol); h != "" && operands(d.Symbol) > fewest[h] {
			continue
		}
		targets := d.StatementDeps
		if _, rhs, ok := strings.Cut(d.Signature, "=>"); ok && len(targets) == 0 {
			for _, f := range strings.FieldsFunc(rhs, func(r rune) bool { return strings.ContainsRune(" ()[]{}⟨⟩,", r) }) {
				if r, _ := utf8.DecodeRuneInString(f); unicode.IsLetter(r) {
					targets = append(targets, f)
					break
				}
			}
		}
		syms := lexical.Symbols(d.Symbol)
		if head := bracketHead(d.Symbol); head != "" {
			syms = []string{head} // "H[" X "]" => entropy X: the head H[
		} else if len(syms) != 1 || syms[0] != strings.TrimSpace(d.Symbol) {
			continue // a notation with operands or letters is no symbol
		}
		if len(targets) == 0 {
			continue
		}
		notes[syms[0]]++
		for _, w := range uniq(lexical.Terms(names.Last(targets[0]))) {
			noteWords[target{syms[0], w}]++
		}
	}
	for k, c := range noteWords {
		note(k.sym, k.word, float64(c)/float64(notes[k.sym]))
	}
	// Statements against names. Symbols and words are numbered, so that a
	// pair is one integer key.
	symID, wordID := map[string]int32{}, map[string]int32{}
	var symName, wordName []string
	var symCount, wordCount []int32
	id := func(ids map[string]int32, names *[]string, counts *[]int32, t string) int32 {
		k, ok := ids[t]
		if !ok {
			k = int32(len(*names))
			ids[t] = k
			*names = append(*names, t)
			*counts = append(*counts, 0)
		}
		return k
	}
	pair := map[uint64]int32{}
	n := 0
	var syms, words []int32
	var fa *fieldAnalyzer
	for i, d := range decls {
		if d.Kind != library.KindTheorem && d.Kind != library.KindDef && d.Kind != library.KindAbbrev {
			continue
		}
		var a [nFields][]string
		if analyzed != nil {
			a = analyzed[i]
		} else {
			if fa == nil {
				fa = newFieldAnalyzer()
			}
			a[fName] = lexical.Terms(names.Last(d.Name))
			a[fStmt] = statementTerms(fa, d, nil)
		}
		syms = syms[:0]
		for _, t := range a[fStmt] {
			if isSymbolTerm(t) {
				syms = append(syms, id(symID, &symName, &symCount, t))
			}
		}
		slices.Sort(syms)
		syms = slices.Compact(syms)
		words = words[:0]
		for _, t := range a[fName] {
			if w := id(wordID, &wordName, &wordCount, t); !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
		n++
		for _, w := range words {
			wordCount[w]++
		}
		for _, s := range syms {
			symCount[s]++
			for _, w := range words {
				pair[uint64(s)<<32|uint64(w)]++
			}
		}
	}
	for k, c := range pair {
		s, w := int32(k>>32), int32(k&math.MaxUint32)
		cs := symCount[s]
		if cs < minSymbolStatements || c < 2 {
			continue
		}
		conf := float64(c) / float64(cs)
		lift := conf * float64(n) / float64(wordCount[w])
		if conf >= minSymbolConf && lift >= minSymbolLift {
			note(symName[s], wordName[w], math.Min(1, 2*conf))
		}
	}
	bySym := map[string][]symTerm{}
	for k, w := range best {
		bySym[k[0]] = append(bySym[k[0]], symTerm{k[1], w})
	}
	var out []lexPair
	for s, ts := range bySym {
		sort.Slice(ts, func(i, j int) bool {
			if ts[i].weight != ts[j].weight {
				return ts[i].weight > ts[j].weight
			}
			return ts[i].term < ts[j].term
		})
		for _, t := range ts[:min(len(ts), maxSymbolWords)] {
			out = append(out, lexPair{part: symbolMark + s, words: t.term, weight: t.weight})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].part != out[j].part {
			return out[i].part < out[j].part
		}
		return out[i].words < out[j].words
	})
	return out
}

// symbolsFrom builds the symbol table from the stored lexicon pairs.
func symbolsFrom(pairs []lexPair) *symbolTable {
	t := &symbolTable{words: map[string][]symTerm{}, symbols: map[string][]symTerm{}}
	for _, p := range pairs {
		sym, ok := strings.CutPrefix(p.part, symbolMark)
		if !ok {
			continue
		}
		t.words[sym] = append(t.words[sym], symTerm{p.words, p.weight})
		t.symbols[p.words] = append(t.symbols[p.words], symTerm{sym, p.weight})
	}
	for w, ts := range t.symbols {
		sort.Slice(ts, func(i, j int) bool {
			if ts[i].weight != ts[j].weight {
				return ts[i].weight > ts[j].weight
			}
			return ts[i].term < ts[j].term
		})
		t.symbols[w] = ts[:min(len(ts), maxSymbolWords)]
	}
	return t
}

// isSymbolTerm reports whether a query or index term is a notation symbol
// (the analyzer's words are letters and digits; a bracket head, H[, starts
// with letters).
func isSymbolTerm(t string) bool {
	return strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0
}

// operands counts the operands of a notation's pattern: its fields after
// the first that begin with a letter (atoms are symbols and brackets).
func operands(pattern string) int {
	n := 0
	fields := strings.Fields(pattern)
	for _, f := range fields[min(1, len(fields)):] {
		if r, _ := utf8.DecodeRuneInString(f); unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// isBracketHead reports whether a symbol term is a bracket head (H[).
func isBracketHead(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return strings.HasSuffix(t, "[") && unicode.IsLetter(r)
}

// bracketHead returns the head of a bracket notation's pattern (a
// notation's Symbol: its atoms and operands joined by spaces), "H[" of
// `H[ X ; μ ]`, or "" when the pattern does not open with one.
func bracketHead(pattern string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(pattern), " ")
	if h := lexical.BracketHeads(first); len(h) == 1 && h[0] == first {
		return first
	}
	return ""
}

// expandSymbols returns the expansions the symbol table adds to the query
// terms qs (symbols included): a symbol's words, in every field, and a
// word's symbols, which only the statement field holds; each covers the
// query term it stands for.
func (t *symbolTable) expandSymbols(qs []string, have map[string]bool) []expansion {
	if t == nil {
		return nil
	}
	var out []expansion
	for i, q := range qs {
		if i >= 64 {
			break
		}
		src := t.symbols[q]
		if isSymbolTerm(q) {
			src = t.words[q]
		}
		for _, x := range src {
			if have[x.term] {
				continue
			}
			have[x.term] = true
			out = append(out, expansion{term: x.term, covers: 1 << i, rule: q + " → " + x.term, weight: x.weight})
		}
	}
	return out
}
