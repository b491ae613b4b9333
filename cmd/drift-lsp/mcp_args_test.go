package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPUsage: bad command lines of `drift-lsp mcp` exit 2 with a message,
// before anything is loaded or served.
func TestMCPUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--http", "0.0.0.0:0"}, "is not a loopback address"},
		{[]string{"--http", "8765"}, "want host:port"},
		{[]string{"--stdio=false"}, "--stdio=false needs --http ADDR"},
		{[]string{"--root", filepath.Join(t.TempDir(), "missing")}, "drift-lsp mcp: workspace "},
		{[]string{"extra"}, "usage: drift-lsp mcp"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		if code := dispatch(append([]string{"mcp"}, c.args...), io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("mcp %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}
