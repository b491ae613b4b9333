package leanrepl

import (
	"fmt"
	"strings"
	"testing"
)

// TestLexClassifies pins how the checks read leansrc's tokens: keywords,
// hash commands, projections, leading-dot names and merged symbols.
func TestLexClassifies(t *testing.T) {
	kinds := map[tokKind]string{tIdent: "id", tKeyword: "kw", tNumber: "num", tString: "str", tChar: "chr",
		tSymbol: "sym", tDoc: "doc", tHash: "hash", tField: "field", tDotIdent: "dot", tBacktick: "tick"}
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
		toks, err := lex(c.src)
		if err != nil {
			t.Errorf("lex(%q): %v", c.src, err)
			continue
		}
		var got []string
		for _, tk := range toks {
			if c.src[tk.start:tk.end] != tk.text {
				t.Errorf("lex(%q): token %q has range %d..%d", c.src, tk.text, tk.start, tk.end)
			}
			got = append(got, fmt.Sprintf("%s:%s", kinds[tk.kind], tk.text))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("lex(%q)\n got %s\nwant %s", c.src, g, c.want)
		}
	}
}
