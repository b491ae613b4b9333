package main

import (
	"bufio"
	"hash/fnv"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// stmtSet turns one in every declarations into queries of several styles
// (the field style of each item), the way a mathematician asks for a
// declaration they cannot name:
//
//   - latex: a theorem's statement written in LaTeX (latexify: ∑ x ∈ s, f x
//     → \sum_{x \in s} f x, ≤ → \le, ℝ → \mathbb{R});
//   - lean: a theorem's statement in backticks, as Lean writes it;
//   - stating: "a lemma stating that" and a theorem docstring's first
//     sentence;
//   - doc: the first sentence of any other declaration's docstring.
//
// Declarations named in exclude (a held-out benchmark's gold) are skipped,
// as are generated ones and statements too long or too short to ask for.
func stmtSet(lib *library.Library, every int, exclude map[string]bool) []setItem {
	var out []setItem
	for _, d := range lib.Decls() {
		if d.Generated || exclude[d.Name] || d.Private {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte("stmt:" + d.Name))
		if h.Sum32()%uint32(every) != 0 {
			continue
		}
		lead, okLead := docLead(d.Doc)
		if d.Kind != library.KindTheorem {
			if okLead && d.Kind != library.KindNotation {
				out = append(out, setItem{ID: "doc:" + d.Name, Query: lead, Gold: []string{d.Name}, Style: "doc", Kind: string(d.Kind)})
			}
			continue
		}
		typ := statementType(d.Signature)
		if n := len([]rune(typ)); n >= 12 && n <= 140 {
			switch h.Sum32() / uint32(every) % 2 {
			case 0:
				out = append(out, setItem{ID: "latex:" + d.Name, Query: latexify(typ), Gold: []string{d.Name}, Style: "latex", Kind: string(d.Kind)})
			default:
				out = append(out, setItem{ID: "lean:" + d.Name, Query: "`" + typ + "`", Gold: []string{d.Name}, Style: "lean", Kind: string(d.Kind)})
			}
		}
		if okLead {
			out = append(out, setItem{ID: "stating:" + d.Name, Query: "a lemma stating that " + lowerFirst(lead), Gold: []string{d.Name}, Style: "stating", Kind: string(d.Kind)})
		}
	}
	return out
}

// statementType is the type of a signature: what follows its first
// top-level " : ".
func statementType(sig string) string {
	depth := 0
	for i := 0; i+2 < len(sig); i++ {
		switch sig[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ' ':
			if depth == 0 && sig[i+1] == ':' && sig[i+2] == ' ' {
				return strings.TrimSpace(sig[i+3:])
			}
		}
	}
	return ""
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || len(s) > n && unicode.IsUpper(rune(s[n])) {
		return s // an acronym or a name
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// latexCommands writes Lean's Unicode notation as LaTeX (the commands of
// LaTeX itself).
var latexCommands = strings.NewReplacer(
	"≤", `\le `, "≥", `\ge `, "≠", `\neq `, "∈", `\in `, "∉", `\notin `, "⊆", `\subseteq `,
	"⊂", `\subset `, "∪", `\cup `, "∩", `\cap `, "⋃", `\bigcup`, "⋂", `\bigcap`, "∑", `\sum`,
	"∏", `\prod`, "∫", `\int`, "∞", `\infty `, "×", `\times `, "∘", `\circ `, "⊗", `\otimes `,
	"⊕", `\oplus `, "≡", `\equiv `, "≅", `\cong `, "≃", `\simeq `, "∅", `\emptyset `, "¬", `\neg `,
	"↔", `\iff `, "→", `\to `, "∧", `\wedge `, "∨", `\vee `, "⊤", `\top `, "⊥", `\bot `, "⊔", `\sqcup `,
	"⊓", `\sqcap `, "⨆", `\sup`, "⨅", `\inf`, "∣", `\mid `, "‖", `\|`, "√", `\sqrt `, "∀", `\forall `,
	"∃", `\exists `, "•", `\cdot `, "*", `\cdot `, "⁻¹", `^{-1}`, "ℝ", `\mathbb{R}`, "ℕ", `\mathbb{N}`,
	"ℤ", `\mathbb{Z}`, "ℚ", `\mathbb{Q}`, "ℂ", `\mathbb{C}`, "∂", `\partial `, "π", `\pi `, "⊢", `\vdash `,
)

// latexify writes a Lean statement as LaTeX-flavoured text: big operators
// with their binder as a subscript (∑ i ∈ range n, f i → \sum_{i \in range n}
// f i), dotted names by their last component in \mathrm, symbols as LaTeX
// commands, the whole in $…$.
func latexify(typ string) string {
	var b strings.Builder
	rs := typ
	for len(rs) > 0 {
		r, n := utf8.DecodeRuneInString(rs)
		if strings.ContainsRune("∑∏⨆⨅⋃⋂", r) {
			if comma := strings.Index(rs, ", "); comma > 0 && comma < 60 {
				binder := strings.TrimSpace(rs[n:comma])
				b.WriteString(latexCommands.Replace(string(r)) + "_{" + latexCommands.Replace(binder) + "} ")
				rs = rs[comma+2:]
				continue
			}
		}
		if unicode.IsLetter(r) && !strings.ContainsRune("ℝℕℤℚℂπ", r) {
			j := 0
			for j < len(rs) {
				r2, n2 := utf8.DecodeRuneInString(rs[j:])
				if !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && r2 != '_' && r2 != '.' && r2 != '\'' && !(r2 >= 0x2080 && r2 <= 0x209C) {
					break
				}
				j += n2
			}
			id := strings.TrimRight(rs[:j], ".")
			if k := strings.LastIndexByte(id, '.'); k >= 0 {
				id = id[k+1:]
			}
			if utf8.RuneCountInString(id) > 1 {
				b.WriteString(`\mathrm{` + id + `}`)
			} else {
				b.WriteString(id)
			}
			rs = rs[j:]
			continue
		}
		b.WriteString(latexCommands.Replace(string(r)))
		rs = rs[n:]
	}
	return "$" + strings.Join(strings.Fields(b.String()), " ") + "$"
}

// readNames reads one name a line (a held-out benchmark's gold).
func readNames(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if n := strings.TrimSpace(sc.Text()); n != "" {
			out[n] = true
		}
	}
	return out, sc.Err()
}
