package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestBlueprintSet writes the blueprint sets of testdata/blueprint over
// the test workspace: each node whose \lean names the library has is asked
// for by its statement as written (macros expanded, the blueprint's
// commands dropped), gold those names; nodes naming only missing
// declarations, and a name in --exclude, are left out.
func TestBlueprintSet(t *testing.T) {
	t.Setenv("DRIFT_EMBED_PROVIDER", "none")
	ws, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	bp, err := filepath.Abs(filepath.Join("..", "..", "testdata", "blueprint", "src"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(exclude string) map[string]setItem {
		dir := t.TempDir()
		args := []string{"bench", "mkset", "--root", ws, "--cache", "", "--blueprint", bp, "--out", dir}
		if exclude != "" {
			path := filepath.Join(dir, "names.txt")
			if err := os.WriteFile(path, []byte(exclude+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, "--exclude", path)
		}
		var out, errb bytes.Buffer
		if code := dispatch(args, &out, &errb); code != 0 {
			t.Fatalf("mkset: exit %d\n%s%s", code, out.String(), errb.String())
		}
		got := map[string]setItem{}
		for _, half := range []string{"dev", "test"} {
			for _, it := range readSetFile(t, filepath.Join(dir, "blueprint-"+half+".jsonl")) {
				got[it.ID] = it
			}
		}
		return got
	}
	got := run("")
	odd, ok := got["blueprint:def:odd"]
	if !ok || len(odd.Gold) != 1 || odd.Gold[0] != "Mm.Odd" || odd.Style != "latex" || odd.Kind != "def" ||
		odd.Query != `A natural number $n \in \mathbb{N}$ is odd when it has the form $2k + 1$.` {
		t.Errorf("def:odd: %+v", odd)
	}
	for id, it := range got {
		for _, g := range it.Gold {
			if len(g) > 5 && g[:5] == "Blue." {
				t.Errorf("%s: gold %s is no declaration of the workspace", id, g)
			}
		}
	}
	if _, ok := run("Mm.Odd")["blueprint:def:odd"]; ok {
		t.Errorf("excluded Mm.Odd is a gold")
	}
}
