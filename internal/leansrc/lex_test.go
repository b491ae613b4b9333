package leansrc

import (
	"fmt"
	"strings"
	"testing"
)

// TestLexClassifies pins how the checks read the scanner's tokens: keywords,
// hash commands, projections, leading-dot names and merged symbols.
func TestLexClassifies(t *testing.T) {
	kinds := map[LexKind]string{LexIdent: "id", LexKeyword: "kw", LexNumber: "num", LexString: "str", LexChar: "chr",
		LexSymbol: "sym", LexDoc: "doc", LexHash: "hash", LexField: "field", LexDotIdent: "dot", LexBacktick: "tick"}
	cases := []struct{ src, want string }{
		{"#eval 1", "hash:#eval num:1"},
		{"#[1] %[2]", "sym:#[ num:1 sym:] sym:%[ num:2 sym:]"},
		{"(f z).re h.1 h.1.2 .inl", "sym:( id:f id:z sym:) field:.re id:h field:.1 id:h field:.1 field:.2 dot:.inl"},
		{"{α : Type*} Sort* Type", "sym:{ id:α sym:: kw:Type* sym:} kw:Sort* kw:Type"},
		{"a -> b <-> c ∃! x, ∀ᶠ y in l, p", "id:a sym:-> id:b sym:<-> id:c sym:∃! id:x sym:, sym:∀ᶠ id:y kw:in id:l sym:, id:p"},
		{"⟪x, y⟫_ℝ {x // p} ⦃a⦄ {{b}}", "sym:⟪ id:x sym:, id:y sym:⟫_ℝ sym:{ id:x sym:// id:p sym:} sym:⦃ id:a sym:⦄ sym:{{ id:b sym:}}"},
		{"(n : ℕ) λ x => x", "sym:( id:n sym:: sym:ℕ sym:) sym:λ id:x sym:=> id:x"},
		{"`foo `(x) /-- d -/ /-! m -/ 'c' \"s\"", "tick:`foo tick:`(x) doc:/-- d -/ chr:'c' str:\"s\""},
		{"x |>.le := by sorry", "id:x sym:|>. id:le sym::= kw:by kw:sorry"},
	}
	for _, c := range cases {
		toks, err := Lex(c.src)
		if err != nil {
			t.Errorf("Lex(%q): %v", c.src, err)
			continue
		}
		var got []string
		for _, tk := range toks {
			if c.src[tk.Start:tk.End] != tk.Text {
				t.Errorf("Lex(%q): token %q has range %d..%d", c.src, tk.Text, tk.Start, tk.End)
			}
			got = append(got, fmt.Sprintf("%s:%s", kinds[tk.Kind], tk.Text))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("Lex(%q)\n got %s\nwant %s", c.src, g, c.want)
		}
	}
}
