package lexical

import (
	"slices"
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
			if cmd == "mathbb" || cmd == "Bbb" || cmd == "mathbf" || cmd == "bf" {
				// \mathbb{R}, \mathbb R, and the font switch {\bf F}.
				k := j
				for k < len(text) && text[k] == ' ' {
					k++
				}
				letter, n := byte(0), 0
				switch {
				case k+2 < len(text) && text[k] == '{' && text[k+2] == '}':
					letter, n = text[k+1], k+3-j
				case k > j && k < len(text) && isASCIILetter(text[k]) && (k+1 == len(text) || !isASCIILetter(text[k+1])):
					letter, n = text[k], k+1-j
				}
				if u, ok := blackboardSymbols[letter]; ok && n > 0 {
					b.WriteString(u)
					i = j + n
					continue
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
// \(…\), \[…\], a math environment, `…`) a hyphen or a slash joins words
// and is no symbol. Inside math, a letter run applied with a bracket (H[X],
// \mathbb{E}[X], \mathrm{Var}[X]) is read as the bracket notation a Lean
// library declares with that head (BracketHeads).
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
	for _, seg := range mathSegments(text) {
		t := seg.text
		if seg.math && !seg.lean {
			// LaTeX math: & aligns columns (\begin{align}), no notation.
			t = strings.ReplaceAll(t, "&", " ")
		}
		u := LaTeXToUnicode(t)
		add(appendSymbols(nil, u, seg.math))
		if seg.math {
			add(BracketHeads(u))
			add(BracketHeads(unfont(t)))
		}
	}
	return out
}

// NotationWords returns the words of Lean's naming conventions for two
// readings of a query's math, analyzed: an inequality with zero (0 ≤ x, x ≥ 0
// → nonneg; 0 < x → pos; x ≤ 0 → nonpos; x < 0 → neg: a lemma concluding
// 0 ≤ x is named …_nonneg), and bars around a capital letter, the size of a
// set or group (|A|, |G'| → card; |x| stays abs). Equations (= 0, ≠ 0) are
// left out: they are as often hypotheses, and names describe their
// left-hand side (dens_empty for dens ∅ = 0).
func NotationWords(text string) []string {
	var out []string
	add := func(w string) {
		for _, x := range Terms(w) {
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	for _, seg := range mathSegments(text) {
		if !seg.math {
			continue
		}
		u := LaTeXToUnicode(seg.text)
		if cardBars(u) {
			add("card")
		}
		f := strings.Fields(spaceRelations(u))
		for i, t := range f {
			switch {
			case i+1 < len(f) && strings.TrimRight(f[i+1], ").,;:}$") == "0":
				add(map[string]string{"≥": "nonneg", ">": "pos", "≤": "nonpos", "<": "neg"}[t])
			case i > 0 && strings.TrimLeft(f[i-1], "({$") == "0":
				add(map[string]string{"≤": "nonneg", "<": "pos", "≥": "nonpos", ">": "neg"}[t])
			}
		}
	}
	return out
}

// cardBars reports whether math text writes bars around a capital letter
// (with primes or a subscript): |A|, |G'|, |H_1|.
func cardBars(u string) bool {
	for i := 0; i+2 < len(u); i++ {
		if u[i] != '|' || u[i+1] < 'A' || u[i+1] > 'Z' {
			continue
		}
		j := i + 2
		for j < len(u) && (u[j] == '\'' || u[j] == '_' || u[j] >= '0' && u[j] <= '9' || u[j] == '{' || u[j] == '}') {
			j++
		}
		if j < len(u) && u[j] == '|' && (i == 0 || u[i-1] != '|') {
			return true
		}
	}
	return false
}

// spaceRelations puts spaces around the relations NotationWords reads.
var spaceRelations = strings.NewReplacer("≤", " ≤ ", "≥", " ≥ ", "<", " < ", ">", " > ").Replace

// BracketHeads returns the bracket-notation heads of math text: each run
// of letters (with the modifier letters, primes and sub- and superscripts
// that end it: dᵤ, ρ⁻) written right before "[", not after a backslash (a
// command's option), an underscore or a dot (part of a name), with the
// bracket: "H[X ; μ]" → "H[", "d[" in "2d[X ; Y]", "KL[" in "KL[X # Y]".
// Lean libraries declare such notations ("H[" X "]" => entropy X); which
// words a head stands for is mined from the library's notation
// declarations, never listed here.
func BracketHeads(text string) []string {
	var out []string
	for k := 0; k < len(text); {
		j := strings.IndexByte(text[k:], '[')
		if j < 0 {
			break
		}
		end := k + j
		k = end + 1
		start := end
		for start > 0 {
			r, sz := utf8.DecodeLastRuneInString(text[:start])
			if !unicode.IsLetter(r) && r != '\'' && !isSubSuper(r) && !unicode.Is(unicode.Lm, r) {
				break
			}
			start -= sz
		}
		if start == end {
			continue
		}
		r, _ := utf8.DecodeRuneInString(text[start:])
		if !unicode.IsLetter(r) {
			continue
		}
		if start > 0 {
			p, _ := utf8.DecodeLastRuneInString(text[:start])
			if p == '\\' || p == '_' || p == '.' {
				continue
			}
		}
		if h := text[start : end+1]; !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// fontCommands are LaTeX's commands that set their argument in a font:
// the letters are the same letters (\mathbb{H} is an H, \mathrm{Var} the
// word Var).
var fontCommands = map[string]bool{
	"mathbb": true, "Bbb": true, "mathbf": true, "mathrm": true, "mathsf": true, "mathit": true,
	"mathtt": true, "mathcal": true, "mathscr": true, "mathfrak": true, "operatorname": true,
	"text": true, "textrm": true, "textsf": true, "textit": true, "textbf": true, "boldsymbol": true,
}

// unfont replaces each font command of LaTeX text with its argument
// (\mathbb{H}[X] → H[X]); other text is kept.
func unfont(text string) string {
	if !strings.Contains(text, `\`) {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		if text[i] != '\\' {
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i + 1
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		if fontCommands[text[i+1:j]] {
			k := j
			for k < len(text) && text[k] == ' ' {
				k++
			}
			if arg, n, ok := Braced(text[k:]); ok {
				b.WriteString(arg)
				i = k + n
				continue
			}
		}
		b.WriteString(text[i:max(j, i+1)])
		i = max(j, i+1)
	}
	return b.String()
}

// mathEnvs are the environments whose body LaTeX sets as math.
var mathEnvs = []string{"equation", "align", "gather", "multline", "eqnarray", "displaymath", "math", "flalign", "alignat"}

// Prose returns the prose of text, its math segments ($…$, \(…\), \[…\],
// math environments, `…`) replaced by a space.
func Prose(text string) string {
	var b strings.Builder
	for _, seg := range mathSegments(text) {
		if seg.math {
			b.WriteByte(' ')
		} else {
			b.WriteString(seg.text)
		}
	}
	return b.String()
}

// segment is a piece of a query: prose, LaTeX math or Lean in backticks.
type segment struct {
	text       string
	math, lean bool
}

// mathSegments splits text into prose and math segments: math is between
// $ or $$, \( and \), \[ and \], \begin and \end of a math environment
// (starred too), or backticks (Lean); an unclosed delimiter is prose.
func mathSegments(text string) []segment {
	var out []segment
	prose := 0 // start of the current prose segment
	for i := 0; i < len(text); {
		open, close := mathOpen(text[i:])
		if open == 0 {
			i++
			continue
		}
		start := i + open
		end := strings.Index(text[start:], close)
		if end < 0 {
			i += open
			continue
		}
		out = append(out, segment{text: text[prose:i]}, segment{text: text[start : start+end], math: true, lean: text[i] == '`'})
		i = start + end + len(close)
		prose = i
	}
	return append(out, segment{text: text[prose:]})
}

// mathOpen returns the length of the math opener at the start of s and its
// closer, or 0.
func mathOpen(s string) (int, string) {
	switch {
	case strings.HasPrefix(s, "$$"):
		return 2, "$$"
	case s[0] == '$':
		return 1, "$"
	case s[0] == '`':
		n := 1
		for n < len(s) && s[n] == '`' {
			n++
		}
		return n, s[:n]
	case strings.HasPrefix(s, `\(`):
		return 2, `\)`
	case strings.HasPrefix(s, `\[`):
		return 2, `\]`
	case strings.HasPrefix(s, `\begin{`):
		rest := s[len(`\begin{`):]
		e := strings.IndexByte(rest, '}')
		if e < 0 {
			return 0, ""
		}
		env := rest[:e]
		if slices.Contains(mathEnvs, strings.TrimSuffix(env, "*")) {
			return len(`\begin{`) + e + 1, `\end{` + env + `}`
		}
	}
	return 0, ""
}
