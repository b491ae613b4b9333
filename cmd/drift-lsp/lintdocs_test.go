package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLintDocsCommand(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "internal", "docref", "testdata", "ws"))); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := dispatch([]string{"lint-docs", "--root", root, "--cache", ""}, &out, &errb); code != 1 {
		t.Fatalf("lint-docs exit %d, want 1 (findings): %s", code, errb.String())
	}
	for _, want := range []string{
		"Lib/Uses.lean:23:55 Lib.Widget.dubble → Lib.Widget.double\n",
		"Lib/Uses.lean:29:18 Lib.old_name → Lib.new_name (deprecated alias)\n",
		"Lib/Uses.lean:14:52 Widget.tripel → ?\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	lines := strings.Count(out.String(), "\n")

	out.Reset()
	if code := dispatch([]string{"lint-docs", "--root", root, "--cache", "", "--json"}, &out, &errb); code != 1 {
		t.Fatalf("--json exit %d", code)
	}
	n, unsure := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var f lintFinding
		if err := json.Unmarshal([]byte(l), &f); err != nil || f.File == "" || f.Line == 0 || f.Name == "" {
			t.Errorf("--json line %q: %+v, %v", l, f, err)
		}
		if !f.Sure {
			unsure++
		}
		n++
	}
	if unsure == 0 || unsure == n {
		t.Fatalf("the fixture must have findings with and without a sure fix: %d of %d unsure", unsure, n)
	}
	if n != lines {
		t.Errorf("--json gave %d objects, text %d lines", n, lines)
	}

	before, _ := os.ReadFile(filepath.Join(root, "Lib", "Uses.lean"))
	out.Reset()
	if code := dispatch([]string{"lint-docs", "--root", root, "--cache", "", "--fix"}, &out, &errb); code != 1 {
		t.Fatalf("--fix exit %d, want 1 (Widget.tripel has no fix)", code)
	}
	after, _ := os.ReadFile(filepath.Join(root, "Lib", "Uses.lean"))
	want, _ := os.ReadFile(filepath.Join("..", "internal", "docref", "testdata", "Uses.fixed.lean"))
	if bytes.Equal(before, after) || !bytes.Equal(after, want) {
		t.Errorf("--fix wrote:\n%s\nwant:\n%s", after, want)
	}
	out.Reset()
	if code := dispatch([]string{"lint-docs", "--root", root, "--cache", ""}, &out, &errb); code != 1 || strings.Count(out.String(), "\n") != unsure {
		t.Errorf("after --fix: exit %d, output %q; want only the %d findings without a sure fix", code, out.String(), unsure)
	}
}
