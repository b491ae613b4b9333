package leansrc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHeader(t *testing.T) {
	text := "prelude\nimport Mathlib.Data.Nat\n  open Nat Real\nopen Foo in theorem t : True := trivial\n-- import nothing\n"
	if got, want := Header(text), "prelude\nimport Mathlib.Data.Nat\nopen Nat Real"; got != want {
		t.Errorf("Header = %q, want %q", got, want)
	}
}

func TestCommands(t *testing.T) {
	src := strings.Join([]string{
		"/-- doc -/", // 0
		"@[simp] private theorem a (n : ℕ) : n = n := by", // 1
		"  rfl",                      // 2
		"",                           // 3
		"-- Formalize: every n is n", // 4
		"lemma b.c (n : ℕ) : sorry := by sorry", // 5
		"theorem d : sorry",                     // 6
		"theorem e : x = sorry := sorry",        // 7
		"example : True := trivial",             // 8
		"namespace N",                           // 9
		"def f := 1",                            // 10
	}, "\n")
	type cmd struct {
		text, kw, name string
		placeholder    bool
	}
	want := []cmd{
		{"@[simp] private theorem a (n : ℕ) : n = n := by\n  rfl", "theorem", "a", false},
		{"lemma b.c (n : ℕ) : sorry := by sorry", "lemma", "b.c", true},
		{"theorem d : sorry", "theorem", "d", true},
		{"theorem e : x = sorry := sorry", "theorem", "e", false},
		{"example : True := trivial", "example", "", false},
		{"namespace N", "namespace", "N", false},
		{"def f := 1", "def", "f", false},
	}
	got := Commands([]byte(src))
	if len(got) != len(want) {
		t.Fatalf("Commands = %+v, want %d commands", got, len(want))
	}
	for i, c := range got {
		w := want[i]
		if src[c.Start:c.End] != w.text || c.Keyword != w.kw || c.Name != w.name || c.Placeholder != w.placeholder {
			t.Errorf("command %d = %q %+v, want %+v", i, src[c.Start:c.End], c, w)
		}
	}
	line := func(l int) (int, int) {
		x := NewLineIndex([]byte(src))
		return x.LineStart(l), x.LineEnd(l)
	}
	for _, c := range []struct {
		line int
		want string
	}{{0, ""}, {1, "a"}, {2, "a"}, {3, ""}, {4, ""}, {5, "b.c"}, {8, "example"}, {10, ""}} {
		from, to := line(c.line)
		th, ok := TheoremAt(got, from, to)
		name := th.Name
		if th.Keyword == "example" {
			name = "example"
		}
		if ok != (c.want != "") || name != c.want {
			t.Errorf("TheoremAt(line %d) = %+v, %v; want %q", c.line, th, ok, c.want)
		}
	}
}

func TestLineIndexClamps(t *testing.T) {
	x := NewLineIndex([]byte("ab𝔽c\r\nβx\n\nlast"))
	for _, c := range []struct {
		pos  Pos
		off  int
		back Pos
	}{
		{Pos{Line: 0, Character: 3}, 2, Pos{Line: 0, Character: 2}},   // inside the surrogate pair of 𝔽
		{Pos{Line: 0, Character: 99}, 7, Pos{Line: 0, Character: 5}},  // past the end of the line
		{Pos{Line: 40, Character: 0}, 18, Pos{Line: 3, Character: 4}}, // past the last line
		{Pos{Line: -1, Character: 0}, 0, Pos{Line: 0, Character: 0}},
	} {
		if got := x.Offset(c.pos); got != c.off {
			t.Errorf("Offset(%v) = %d, want %d", c.pos, got, c.off)
		}
		if got := x.Pos(c.off); got != c.back {
			t.Errorf("Pos(%d) = %v, want %v", c.off, got, c.back)
		}
	}
	if p := x.Pos(8); p != (Pos{Line: 0, Character: 5}) {
		t.Errorf("Pos inside CRLF = %v, want the line's end", p)
	}
}

// TestCommandsAgreeWithParse: on every golden file, each theorem the parser
// finds lies in a theorem command of the same name whose range is the
// declaration's (its docstring left out).
func TestCommandsAgreeWithParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.lean"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := NewLineIndex(src)
		cmds := Commands(src)
		for _, d := range Parse(src).Decls {
			if d.Kind != "theorem" || strings.Contains(d.Name, ".") {
				continue // names qualified by a namespace are not as written
			}
			start, end := lines.Offset(d.Range.Start), lines.Offset(d.Range.End)
			c, ok := TheoremAt(cmds, start, start)
			if !ok || strings.TrimPrefix(c.Name, "_root_.") != d.Name || c.Start != start || c.End != end {
				t.Errorf("%s: theorem %s at %d-%d: command %+v", path, d.Name, start, end, c)
			}
		}
	}
}

// BenchmarkCommands splits the golden files into commands, as the language
// server does once per revision of a document.
func BenchmarkCommands(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.lean"))
	var srcs [][]byte
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	b.ResetTimer()
	for range b.N {
		for _, src := range srcs {
			Commands(src)
		}
	}
}
