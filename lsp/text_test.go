package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

func TestOffsetPosition(t *testing.T) {
	d := newDocument("u", "lean4", 1, "ab𝔽c\r\nβx\n\nlast")
	cases := []struct {
		pos  Pos
		off  int
		back Pos // Position(off)
	}{
		{Pos{Line: 0, Character: 0}, 0, Pos{Line: 0, Character: 0}},
		{Pos{Line: 0, Character: 2}, 2, Pos{Line: 0, Character: 2}},
		{Pos{Line: 0, Character: 3}, 2, Pos{Line: 0, Character: 2}}, // inside the surrogate pair of 𝔽
		{Pos{Line: 0, Character: 4}, 6, Pos{Line: 0, Character: 4}},
		{Pos{Line: 0, Character: 5}, 7, Pos{Line: 0, Character: 5}},
		{Pos{Line: 0, Character: 99}, 7, Pos{Line: 0, Character: 5}}, // past the end of the line: clamps before \r\n
		{Pos{Line: 1, Character: 1}, 11, Pos{Line: 1, Character: 1}},
		{Pos{Line: 2, Character: 5}, 13, Pos{Line: 2, Character: 0}},
		{Pos{Line: 3, Character: 4}, 18, Pos{Line: 3, Character: 4}},
		{Pos{Line: 40, Character: 0}, 18, Pos{Line: 3, Character: 4}}, // past the last line
		{Pos{Line: -1, Character: 0}, 0, Pos{Line: 0, Character: 0}},
	}
	for _, c := range cases {
		if got := d.Offset(c.pos); got != c.off {
			t.Errorf("Offset(%v) = %d, want %d", c.pos, got, c.off)
		}
		if got := d.Position(c.off); got != c.back {
			t.Errorf("Position(%d) = %v, want %v", c.off, got, c.back)
		}
	}
}

func TestApplyChanges(t *testing.T) {
	cases := []struct {
		name    string
		text    string
		changes []Change
		want    string
	}{
		{"insert", "hello\nworld", []Change{{Range: &Span{Start: Pos{Line: 1, Character: 0}, End: Pos{Line: 1, Character: 0}}, Text: "big "}}, "hello\nbig world"},
		{"replace across lines", "a\nb\nc", []Change{{Range: &Span{Start: Pos{Line: 0, Character: 1}, End: Pos{Line: 2, Character: 0}}, Text: "-"}}, "a-c"},
		{"whole document", "x", []Change{{Text: "y"}}, "y"},
		{"sequence", "abc", []Change{
			{Range: &Span{Start: Pos{Line: 0, Character: 3}, End: Pos{Line: 0, Character: 3}}, Text: "d"},
			{Range: &Span{Start: Pos{Line: 0, Character: 0}, End: Pos{Line: 0, Character: 1}}, Text: ""},
		}, "bcd"},
		{"reversed range", "abcdef", []Change{{Range: &Span{Start: Pos{Line: 0, Character: 4}, End: Pos{Line: 0, Character: 1}}, Text: "X"}}, "aXef"},
		{"past the end", "ab\ncd", []Change{{Range: &Span{Start: Pos{Line: 0, Character: 50}, End: Pos{Line: 9, Character: 9}}, Text: "!"}}, "ab!"},
		{"utf-16 columns", "α𝔽β", []Change{{Range: &Span{Start: Pos{Line: 0, Character: 1}, End: Pos{Line: 0, Character: 3}}, Text: "F"}}, "αFβ"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDocument("u", "lean4", 1, c.text)
			d.Apply(2, c.changes)
			if d.Text != c.want {
				t.Errorf("got %q, want %q", d.Text, c.want)
			}
			if d.Version != 2 || d.Rev != 1 {
				t.Errorf("version %d rev %d", d.Version, d.Rev)
			}
		})
	}
}

func TestFindTarget(t *testing.T) {
	text := strings.Join([]string{
		`/-- A docstring about primes. -/`,     // 0
		`def s := "not /- a comment -/ here"`,  // 1
		`/- outer /- nested -/ still outer -/`, // 2
		`-- first line`,                        // 3
		`--   second line`,                     // 4
		`x -- trailing`,                        // 5
		`-- separate run`,                      // 6
		`theorem t : True := trivial`,          // 7
		`/--`,                                  // 8
		`   multi`,                             // 9
		`   line -/`,                           // 10
	}, "\n")
	d := newDocument("u", "lean4", 1, text)
	cases := []struct {
		name string
		r    Span
		kind CommentKind
		stmt string
		ok   bool
	}{
		{"docstring", Span{Start: Pos{Line: 0, Character: 8}, End: Pos{Line: 0, Character: 8}}, KindDocComment, "A docstring about primes.", true},
		{"inside string", Span{Start: Pos{Line: 1, Character: 16}, End: Pos{Line: 1, Character: 16}}, "", "", false},
		{"nested block", Span{Start: Pos{Line: 2, Character: 25}, End: Pos{Line: 2, Character: 25}}, KindBlockComment, "outer /- nested -/ still outer", true},
		{"run of lines", Span{Start: Pos{Line: 4, Character: 1}, End: Pos{Line: 4, Character: 1}}, KindLineComments, "first line\nsecond line", true},
		{"start of run line", Span{Start: Pos{Line: 3, Character: 0}, End: Pos{Line: 3, Character: 0}}, KindLineComments, "first line\nsecond line", true},
		{"trailing comment", Span{Start: Pos{Line: 5, Character: 6}, End: Pos{Line: 5, Character: 6}}, KindLineComments, "trailing", true},
		{"lone run", Span{Start: Pos{Line: 6, Character: 4}, End: Pos{Line: 6, Character: 4}}, KindLineComments, "separate run", true},
		{"code", Span{Start: Pos{Line: 7, Character: 3}, End: Pos{Line: 7, Character: 3}}, "", "", false},
		{"selection", Span{Start: Pos{Line: 7, Character: 8}, End: Pos{Line: 7, Character: 15}}, KindSelection, "t : Tru", true},
		{"multi-line docstring", Span{Start: Pos{Line: 9, Character: 4}, End: Pos{Line: 9, Character: 4}}, KindDocComment, "multi\nline", true},
		{"past the end", Span{Start: Pos{Line: 99, Character: 0}, End: Pos{Line: 99, Character: 0}}, KindDocComment, "multi\nline", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := findTarget(d, c.r)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, c.ok, got)
			}
			if !ok {
				return
			}
			if got.Kind != c.kind || got.Statement != c.stmt {
				t.Errorf("got %s %q, want %s %q", got.Kind, got.Statement, c.kind, c.stmt)
			}
			if d.Text[got.Start:got.End] != got.Raw {
				t.Errorf("raw text does not match its range")
			}
		})
	}
}

func TestFindDecl(t *testing.T) {
	d := newDocument("u", "lean4", 1, "/-- doc -/\n@[simp] theorem a (n : ℕ) :\n    n = n := by\n  rfl\n\nexample : True := trivial\ndef f := 1\n")
	cases := []struct {
		line int
		want string
		ok   bool
	}{
		{0, "", false},
		{1, "@[simp] theorem a (n : ℕ) :\n    n = n := by\n  rfl", true},
		{3, "@[simp] theorem a (n : ℕ) :\n    n = n := by\n  rfl", true},
		{4, "", false},
		{5, "example : True := trivial", true},
		{6, "", false},
	}
	for _, c := range cases {
		s, e, ok := findDecl(d, c.line)
		if ok != c.ok || (ok && d.Text[s:e] != c.want) {
			t.Errorf("line %d: got %v %q", c.line, ok, d.Text[s:e])
		}
	}
}

func TestSettingsOverlay(t *testing.T) {
	s := DefaultSettings()
	s.LLM.BaseURL, s.LLM.Model, s.MaxJobs = "http://env/v1", "env-model", 3
	s2, err := s.Overlay([]byte(`{"drift": {"llm": {"model": "m2"}, "pipeline": {"k": 500, "subQueries": "topk"}, "log": {"level": "loud"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s2.LLM.Model != "m2" || s2.LLM.BaseURL != "http://env/v1" || s2.Pipeline.K != 5 || s2.Pipeline.SubQueries != "topk" || s2.Log.Level != "info" {
		t.Errorf("overlay %+v", s2)
	}
	if _, err := s.Overlay([]byte(`[1]`)); err == nil {
		t.Errorf("array accepted as settings")
	}
	if s3, err := s.Overlay([]byte(`null`)); err != nil || s3.LLM.Model != "env-model" {
		t.Errorf("null overlay: %v %+v", err, s3)
	}
}

func TestLoggerRedacts(t *testing.T) {
	var got []string
	l := newLogger(func(_ level, m string) { got = append(got, m) })
	s := DefaultSettings()
	s.LLM.APIKeyEnv = "MY_KEY"
	s.Log.File = filepath.Join(t.TempDir(), "drift.log")
	l.configure(s, func(s Settings) []string {
		if s.LLM.APIKeyEnv == "MY_KEY" {
			return []string{"sk-secret-123", ""}
		}
		return nil
	})
	l.Errorf("request failed: Authorization: Bearer %s", "sk-secret-123")
	l.Debugf("not shown at info level")
	if len(got) != 1 || strings.Contains(got[0], "sk-secret") || !strings.Contains(got[0], "[redacted]") {
		t.Errorf("log lines %q", got)
	}
	l.close()
	b, err := os.ReadFile(s.Log.File)
	if err != nil || strings.Contains(string(b), "sk-secret") || !strings.Contains(string(b), "ERROR request failed: Authorization: Bearer [redacted]") {
		t.Errorf("log file %q %v", b, err)
	}
}

func TestInsertionPoint(t *testing.T) {
	d := newDocument("u", "lean4", 1, "-- c\ntheorem a (n : ℕ) :\n    n = n := by\n  rfl\n\n-- d\n")
	cases := []struct {
		sel  string
		want int // byte offset
	}{
		{"-- c", 4},     // end of the comment's line
		{"(n : ℕ)", 48}, // a selection in a declaration: after the declaration
		{"-- d", len(d.Text) - 1},
	}
	for _, c := range cases {
		i := strings.Index(d.Text, c.sel)
		if got := insertionPoint(d, Target{Start: i, End: i + len(c.sel)}); got != c.want {
			t.Errorf("%q: got %d (%q), want %d", c.sel, got, d.Text[:got], c.want)
		}
	}
}

// TestURIToPath converts document URIs with go.lsp.dev/uri: escapes are
// decoded, other schemes have no path, and a Windows drive letter keeps its
// colon (the old url.Parse conversion gave "/C:/…").
func TestURIToPath(t *testing.T) {
	for in, want := range map[string]string{
		"file:///work/ws/A.lean":                 "/work/ws/A.lean",
		"file:///home/u/My%20Proofs/%CE%B1.lean": "/home/u/My Proofs/α.lean",
		"untitled:Untitled-1":                    "",
		"file:///C:/Users/u/Proofs/A.lean":       "c:/Users/u/Proofs/A.lean",
	} {
		if got := uriToPath(uri.URI(in)); got != want {
			t.Errorf("uriToPath(%q) = %q, want %q", in, got, want)
		}
	}
}
