package main

import (
	"bytes"
	"sort"
	"strings"
	"testing"
)

// commandLines returns the command line prefix of every registered command
// and benchmark.
func commandLines() [][]string {
	var lines [][]string
	for n := range commands {
		lines = append(lines, []string{n})
	}
	for n := range benches {
		lines = append(lines, []string{"bench", n})
	}
	sort.Slice(lines, func(i, j int) bool { return strings.Join(lines[i], " ") < strings.Join(lines[j], " ") })
	return lines
}

// TestHelpAndBadFlags: every command prints its usage to stdout and exits 0
// for --help and -h, and exits 2 with the usage and the offending flag on
// stderr for an unknown flag.
func TestHelpAndBadFlags(t *testing.T) {
	lines := commandLines()
	if len(lines) < 10 {
		t.Fatalf("only %d commands registered", len(lines))
	}
	for _, line := range lines {
		name := strings.Join(line, " ")
		t.Run(name, func(t *testing.T) {
			for _, h := range []string{"--help", "-h"} {
				var out, errb bytes.Buffer
				if code := dispatch(append(append([]string(nil), line...), h), &out, &errb); code != 0 {
					t.Errorf("%s %s: exit %d, want 0; stderr: %s", name, h, code, errb.String())
				}
				if !strings.Contains(out.String(), "-") || errb.Len() > 0 {
					t.Errorf("%s %s: stdout %q, stderr %q; want the usage on stdout only", name, h, out.String(), errb.String())
				}
			}
			var out, errb bytes.Buffer
			if code := dispatch(append(append([]string(nil), line...), "--no-such-flag"), &out, &errb); code != 2 {
				t.Errorf("%s --no-such-flag: exit %d, want 2", name, code)
			}
			if !strings.Contains(errb.String(), "no-such-flag") || !strings.Contains(errb.String(), "-") || out.Len() > 0 {
				t.Errorf("%s --no-such-flag: stdout %q, stderr %q; want the error and the usage on stderr", name, out.String(), errb.String())
			}
		})
	}
}

// TestTopLevel: the top-level help, an unknown command and the version.
func TestTopLevel(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		code        int
		out, errOut string
	}{
		{[]string{"help"}, 0, "Commands:", ""},
		{[]string{"--help"}, 0, "Commands:", ""},
		{[]string{"-h"}, 0, "Commands:", ""},
		{[]string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{[]string{"--frobnicate"}, 2, "", "Commands:"},
		{[]string{"version"}, 0, "drift-lsp " + buildVersion(), ""},
		{[]string{"--version"}, 0, "drift-lsp " + buildVersion(), ""},
		{[]string{"version", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"bench"}, 2, "", "Benchmarks:"},
		{[]string{"bench", "nope"}, 2, "", `unknown benchmark "nope"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := dispatch(tc.args, &out, &errb); code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if !strings.Contains(out.String(), tc.out) || (tc.out == "") != (out.Len() == 0) {
				t.Errorf("stdout %q, want it to hold %q", out.String(), tc.out)
			}
			if !strings.Contains(errb.String(), tc.errOut) || (tc.errOut == "") != (errb.Len() == 0) {
				t.Errorf("stderr %q, want it to hold %q", errb.String(), tc.errOut)
			}
		})
	}
}

// TestVersionStamped: a version given with -ldflags -X wins.
func TestVersionStamped(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v9.9.9"
	if got := buildVersion(); got != "v9.9.9" {
		t.Errorf("buildVersion() = %q", got)
	}
}
