package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Symbols returns the notation symbols of Lean text, as written: each
// maximal run of operator characters (⊔, ∣, ⁻¹', →+*, ≃ₗ, ^, ≤), with the
// modifier letters and primes that end a notation (ₗ in ≃ₗ, ' in ⁻¹').
// Pure syntax (:, :=, →, =, ↦, brackets, commas, coercion arrows) is not a
// symbol. They are the statement field's notation terms: which words a
// symbol stands for is mined from the library (see retrieval's symbol
// table), never listed here.
func Symbols(text string) []string {
	return appendSymbols(nil, text, true)
}

// AppendSymbols appends Symbols(text) to dst.
func AppendSymbols(dst []string, text string) []string {
	return appendSymbols(dst, text, true)
}

// appendSymbols appends the symbols of text to out; with ascii false, runs
// made only of the ASCII characters that join words in prose (- / & ~ ! %
// # @ \) are skipped.
func appendSymbols(out []string, text string, ascii bool) []string {
	i := 0
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf && !asciiSymbol[c] {
			i++ // letters, digits, spaces, brackets: the common case
			continue
		}
		r, sz := utf8.DecodeRuneInString(text[i:])
		if !isSymbolRune(r) {
			i += sz
			continue
		}
		j := i + sz
		for j < len(text) {
			r2, sz2 := utf8.DecodeRuneInString(text[j:])
			if !isSymbolRune(r2) && r2 != '\'' && !unicode.Is(unicode.Lm, r2) && !isSubSuper(r2) {
				break
			}
			j += sz2
		}
		run := text[i:j]
		i = j
		if syntaxSymbols[run] || !ascii && isASCII(run) && strings.Trim(run, "-/&~!%#@\\") == "" {
			continue
		}
		out = append(out, run)
	}
	return out
}

// quotesOnly reports whether run is made of quotation marks (’ “ ” « ‹ and
// the like: Unicode's initial and final quote punctuation), which prose
// writes around and inside words ("Cantor’s theorem") and no notation is.
func quotesOnly(run string) bool {
	for _, r := range run {
		if !unicode.In(r, unicode.Pi, unicode.Pf) && r != '\'' {
			return false
		}
	}
	return true
}

// syntaxSymbols are runs that are Lean syntax or too common to tell
// statements apart.
var syntaxSymbols = map[string]bool{
	":": true, ":=": true, "=>": true, "↦": true, "→": true, "←": true, "=": true, "@": true,
	"$": true, "·": true, "|": true, "..": true, "<|": true, "|>": true, "#": true, "?": true,
	"↑": true, "⇑": true, "↥": true, "<;>": true, "'": true, "''": true, "!": true,
	"∀": true, "∃": true, "λ": true, "\\": true, "...": true, "|-": true, "`": true,
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isSymbolRune reports whether r can start or continue a notation symbol:
// a math or other symbol, non-bracket punctuation outside ASCII, or an ASCII
// operator character.
func isSymbolRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSymbol[r]
	}
	switch r {
	case '⟨', '⟩', '⦃', '⦄', '⟦', '⟧', '«', '»', '…', '⋯', '·', '′':
		return false
	}
	if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) {
		return false
	}
	return unicode.IsSymbol(r) || unicode.IsPunct(r) || isSubSuper(r)
}

// asciiSymbol marks the ASCII operator characters.
var asciiSymbol = func() (t [utf8.RuneSelf]bool) {
	for _, c := range "+-*/^<>=&|!~%@#$\\" {
		t[c] = true
	}
	return t
}()

// isSubSuper reports superscript and subscript digits and signs (⁻¹, ₊, ₀).
func isSubSuper(r rune) bool {
	return r >= 0x2070 && r <= 0x209F || r == '¹' || r == '²' || r == '³'
}

// latexSymbols maps LaTeX commands to the Unicode symbol they typeset: the
// notation of LaTeX itself, not of any Lean library (which words a symbol
// stands for is mined from the library).
var latexSymbols = map[string]string{
	"sqcup": "⊔", "sqcap": "⊓", "bigsqcup": "⨆", "bigsqcap": "⨅", "mid": "∣", "nmid": "∤",
	"divides": "∣", "le": "≤", "leq": "≤", "leqslant": "≤", "ge": "≥", "geq": "≥", "geqslant": "≥",
	"ne": "≠", "neq": "≠", "lt": "<", "gt": ">", "in": "∈", "notin": "∉", "ni": "∋",
	"subset": "⊂", "subseteq": "⊆", "subsetneq": "⊂", "supset": "⊃", "supseteq": "⊇",
	"cup": "∪", "cap": "∩", "bigcup": "⋃", "bigcap": "⋂", "setminus": "\\", "sum": "∑",
	"prod": "∏", "coprod": "∐", "int": "∫", "oint": "∮", "infty": "∞", "times": "×",
	"circ": "∘", "cdot": "*", "otimes": "⊗", "oplus": "⊕", "bigoplus": "⨁", "bigotimes": "⨂",
	"equiv": "≡", "cong": "≅", "simeq": "≃", "approx": "≈", "emptyset": "∅", "varnothing": "∅",
	"neg": "¬", "lnot": "¬", "iff": "↔", "Leftrightarrow": "↔", "leftrightarrow": "↔",
	"wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "top": "⊤", "bot": "⊥", "perp": "⟂",
	"lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "Vert": "‖", "lVert": "‖",
	"rVert": "‖", "|": "‖", "nabla": "∇", "partial": "∂", "sqrt": "√", "star": "⋆", "ast": "∗",
	"dagger": "†", "prec": "≺", "succ": "≻", "preceq": "≼", "succeq": "≽", "models": "⊨",
	"vdash": "⊢", "trianglelefteq": "⊴", "unlhd": "⊴", "triangleleft": "◃", "lhd": "◃",
	"rtimes": "⋊", "ltimes": "⋉", "hookrightarrow": "↪", "twoheadrightarrow": "↠",
	"bullet": "•", "smile": "⌣", "triangle": "∆", "triangledown": "∇", "angle": "∠",
	"measuredangle": "∡", "parallel": "∥", "propto": "∝", "aleph": "ℵ", "wr": "≀",
	"bigvee": "⨆", "bigwedge": "⨅", "uplus": "⊎", "boxtimes": "⊠", "odot": "⊙",
	"Rightarrow": "→", "implies": "→", "to": "→", "rightarrow": "→", "mapsto": "↦",
	"forall": "∀", "exists": "∃", "cdots": "", "ldots": "", "dots": "",
}

// blackboardSymbols are \mathbb{X}'s Unicode letters.
var blackboardSymbols = map[byte]string{'R': "ℝ", 'N': "ℕ", 'Z': "ℤ", 'Q': "ℚ", 'C': "ℂ", 'H': "ℍ", 'F': "𝔽", 'P': "ℙ", 'E': "𝔼", 'K': "𝕜"}

// LaTeXToUnicode rewrites LaTeX math into the Unicode a Lean statement
// uses: commands into their symbols (\sqcup → ⊔, \mid → ∣, \le → ≤, \sum →
// ∑, \mathbb{R} → ℝ), ^{-1} into ⁻¹, \sup_ and \inf_ with a subscript into
// the indexed ⨆ and ⨅; other commands stay as they are (the analyzer reads
// their names), dollar signs are dropped.
func LaTeXToUnicode(text string) string {
	if !strings.ContainsAny(text, "\\^$") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '$':
			b.WriteByte(' ')
			i++
			continue
		case c == '^' && strings.HasPrefix(text[i:], "^{-1}"):
			b.WriteString("⁻¹")
			i += len("^{-1}")
			continue
		case c == '\\' && i+1 < len(text) && text[i+1] == '|':
			b.WriteString("‖")
			i += 2
			continue
		case c == '\\':
			j := i + 1
			for j < len(text) && isASCIILetter(text[j]) {
				j++
			}
			cmd := text[i+1 : j]
			if cmd == "mathbb" || cmd == "Bbb" || cmd == "mathbf" && j < len(text) {
				k := j
				for k < len(text) && text[k] == ' ' {
					k++
				}
				if k+2 < len(text) && text[k] == '{' && text[k+2] == '}' {
					if u, ok := blackboardSymbols[text[k+1]]; ok {
						b.WriteString(u)
						i = k + 3
						continue
					}
				}
			}
			if (cmd == "sup" || cmd == "inf" || cmd == "bigvee" || cmd == "bigwedge") && j < len(text) && text[j] == '_' {
				if cmd == "sup" || cmd == "bigvee" {
					b.WriteString(" ⨆ ")
				} else {
					b.WriteString(" ⨅ ")
				}
				i = j
				continue
			}
			if u, ok := latexSymbols[cmd]; ok && cmd != "" {
				b.WriteString(" " + u + " ")
				i = j
				continue
			}
			if j == i+1 {
				// An escaped character or spacing (\{, \,, \ ): no symbol.
				b.WriteByte(' ')
				i = min(len(text), j+1)
				continue
			}
			b.WriteString(text[i:j])
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// QuerySymbols returns the notation symbols of a human query: LaTeX read as
// the Unicode it typesets, then the symbols of the text; outside math ($…$,
// `…`) a hyphen or a slash joins words and is no symbol.
func QuerySymbols(text string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(syms []string) {
		for _, s := range syms {
			if !seen[s] && !quotesOnly(s) {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	for i, seg := range mathSegments(text) {
		u := LaTeXToUnicode(seg)
		add(appendSymbols(nil, u, i%2 == 1))
	}
	return out
}

// mathSegments splits text at $ and ` into alternating prose and math
// segments (prose first); an unclosed delimiter leaves the rest prose.
func mathSegments(text string) []string {
	var out []string
	cur := 0
	for cur <= len(text) {
		k := strings.IndexAny(text[cur:], "$`")
		if k < 0 {
			out = append(out, text[cur:])
			break
		}
		open := text[cur+k]
		out = append(out, text[cur:cur+k])
		start := cur + k + 1
		for start < len(text) && text[start] == open { // $$ … $$
			start++
		}
		end := strings.IndexByte(text[start:], open)
		if end < 0 {
			out[len(out)-1] += text[cur+k:]
			break
		}
		out = append(out, text[start:start+end])
		cur = start + end + 1
		for cur < len(text) && text[cur] == open {
			cur++
		}
		if cur >= len(text) {
			break
		}
	}
	return out
}
