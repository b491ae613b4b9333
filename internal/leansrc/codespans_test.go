package leansrc

import (
	"strings"
	"testing"
)

func TestCodeSpans(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"a `x` b ``y`z`` c", []string{"x", "y`z"}},
		{"unclosed `x", nil},
		{"```\n`inside`\n```\n`after`", []string{"after"}},
		{"`a\nb`", []string{"a\nb"}},
	}
	for _, tt := range tests {
		src := []byte(tt.text)
		var got []string
		for _, s := range CodeSpans(src, 0, len(src)) {
			got = append(got, string(src[s.Start:s.End]))
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
		}
	}
}
