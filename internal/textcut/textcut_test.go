package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 5, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"abcd", 1, "…"},
		{"abcd", 0, ""},
		{"abcd", -1, ""},
		// ℕ is three bytes: a byte cut would leave U+FFFD in the user's file.
		{"∀ n : ℕ, n + 0 = n", 8, "∀ n : ℕ…"},
		{"ℕℕℕℕ", 3, "ℕℕ…"},
		{"ℕℕℕ", 3, "ℕℕℕ"},
		// e and a combining acute accent are one character.
		{"cafe\u0301 au lait", 5, "cafe\u0301 au lait"[:6] + "…"},
		{"e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301e\u0301"},
		{"e\u0301e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301…"},
		// A flag is two regional indicators; a family is joined by ZWJs.
		{"🇫🇷🇩🇪🇮🇹", 2, "🇫🇷…"},
		{"👨‍👩‍👧x y", 2, "👨‍👩‍👧…"},
		{"ab cdef", 4, "ab …"},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q; want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestCutBytes(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcdef", 5, "ab…"},
		{"abcdef", 3, "…"},
		{"abcdef", 2, ""},
		// ℕ (3 bytes) does not fit in 5 − 3 = 2 bytes: it is left out whole.
		{"aℕℕℕ", 5, "a…"},
		{"aℕℕℕ", 7, "aℕ…"},
		{"e\u0301e\u0301", 5, "…"},
	} {
		if got := CutBytes(c.s, c.n); got != c.want {
			t.Errorf("CutBytes(%q, %d) = %q; want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"  a\n\tb  c ", 10, "a b c"},
		{"theorem foo\n    (n : ℕ) :\n    n = n", 20, "theorem foo (n : ℕ)…"},
	} {
		if got := Line(c.s, c.n); got != c.want {
			t.Errorf("Line(%q, %d) = %q; want %q", c.s, c.n, got, c.want)
		}
	}
	if Len("ℕe\u0301🇫🇷") != 3 {
		t.Errorf("Len = %d; want 3", Len("ℕe\u0301🇫🇷"))
	}
}

// check holds what every cut promises, for any input: the text kept is a
// prefix of s ending between two grapheme clusters, valid UTF-8 stays valid,
// and the result fits.
func check(t *testing.T, s string, n int, got string, fits func(string) bool) {
	t.Helper()
	if got == s {
		if !fits(s) && n >= 0 {
			t.Fatalf("%q returned whole for n=%d though it does not fit", s, n)
		}
		return
	}
	if !fits(got) {
		t.Fatalf("cut(%q, %d) = %q does not fit", s, n, got)
	}
	if got == "" {
		return
	}
	kept, ok := strings.CutSuffix(got, Ellipsis)
	if !ok {
		t.Fatalf("cut(%q, %d) = %q: changed but not marked", s, n, got)
	}
	if !strings.HasPrefix(s, kept) {
		t.Fatalf("cut(%q, %d) = %q: not a prefix", s, n, got)
	}
	if utf8.ValidString(s) && !utf8.ValidString(got) {
		t.Fatalf("cut(%q, %d) = %q: invalid UTF-8", s, n, got)
	}
	// The kept text ends at a boundary: its clusters are s's first clusters.
	if uniseg.GraphemeClusterCount(kept)+uniseg.GraphemeClusterCount(s[len(kept):]) != uniseg.GraphemeClusterCount(s) {
		t.Fatalf("cut(%q, %d) = %q: splits a grapheme cluster", s, n, got)
	}
}

func FuzzCut(f *testing.F) {
	for _, s := range []string{"", "abc", "∀ n : ℕ, n + 0 = n", "cafe\u0301", "🇫🇷🇩🇪", "👨‍👩‍👧 x", "a\xffb\xfe", "x\u0301\u0301\u0301y"} {
		for _, n := range []int{0, 1, 2, 3, 5, 8} {
			f.Add(s, n)
		}
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 64
		check(t, s, n, Cut(s, n), func(x string) bool { return uniseg.GraphemeClusterCount(x) <= max(n, 0) })
		check(t, s, n, CutBytes(s, n), func(x string) bool { return len(x) <= max(n, 0) })
		if l := Line(s, n); strings.ContainsAny(l, "\n\t") {
			t.Fatalf("Line(%q, %d) = %q keeps a line break", s, n, l)
		}
	})
}
