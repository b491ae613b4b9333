package embed

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestHumanize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Nat.Prime p", "nat prime p"},
		{"a % n = b % n", "a mod n equals b mod n"},
		{"p ∣ a * b", "p divides a times b"},
		{"(x : ℝ) (hx : 0 < x)", "x real numbers hx 0 less than x"},
		{"exists_prime_and_dvd", "exists prime and divides"},
		{"IsOpenMap f", "is open map f"},
		{"ZMod n", "z mod n"},
		{"theorem foo_bar₂ : ∀ ε > 0, ∃ δ > 0, True := by sorry", "theorem foo bar 2 for all epsilon greater than 0 there exists delta greater than 0 true by sorry"},
		{"f ⁻¹' s ⊆ t → x ∈ s", "f inverse s subset of t implies x in s"},
		{"a -> b", "a implies b"},
		{"Finset.sum_range_id_mul_two", "finset sum range id mul two"},
		{"∑ i ∈ Finset.range n, i ^ 2", "sum i in finset range n i to the power 2"},
		{"HTTPServer", "http server"},
		{"", ""},
		{"bad\xffutf8", "bad utf 8"},
		{"{ } ⟨a, b⟩ [h]", "a b h"},
	}
	for _, tc := range tests {
		if got := Humanize(tc.in); got != tc.want {
			t.Errorf("Humanize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTokenizersHugeInput(t *testing.T) {
	huge := strings.Repeat("prime numbers divide ", 50000) + "\xff\xfe"
	vocab := filepath.Join(t.TempDir(), "vocab.txt")
	os.WriteFile(vocab, []byte("[PAD]\n[UNK]\n[CLS]\n[SEP]\nprime\nnumbers\ndivide\n"), 0o644)
	wp, err := LoadWordPiece(vocab, WordPieceOptions{Lowercase: true})
	if err != nil {
		t.Fatal(err)
	}
	if ids := wp.Encode(huge, 16); len(ids) != 16 || ids[1] != 4 || ids[15] != 3 {
		t.Errorf("WordPiece on 1 MB: %v", ids)
	}
	sp, err := LoadSentencePiece(filepath.Join(ModelsDir(), "use-lite", "vocab.json"))
	if err != nil {
		t.Skipf("USE vocabulary not installed: %v", err)
	}
	full := sp.Encode(strings.Repeat("prime numbers divide ", 100), 0)
	if ids := sp.Encode(huge, 128); len(ids) != 128 || !slices.Equal(ids, full[:128]) {
		t.Errorf("SentencePiece on 1 MB: first pieces differ from the short text's")
	}
}
