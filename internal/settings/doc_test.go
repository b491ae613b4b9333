package settings

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the table of docs/settings.md")

// docsFile is the documentation's table of the environment.
var docsFile = filepath.Join("..", "..", "docs", "settings.md")

const (
	tableBegin = "<!-- vars: generated from internal/settings.Vars; go test ./internal/settings -update -->\n"
	tableEnd   = "<!-- vars end -->\n"
)

// table renders Vars as the documentation's Markdown table.
func table() string {
	var b strings.Builder
	b.WriteString("| Variable | Setting | Meaning |\n| --- | --- | --- |\n")
	for _, v := range Vars {
		setting := ""
		if v.Setting != "" {
			setting = "`" + v.Setting + "`"
		}
		b.WriteString("| `" + v.Name + "` | " + setting + " | " + v.Doc + " |\n")
	}
	return b.String()
}

// TestDocsTable: docs/settings.md shows the table of Vars (-update writes
// it).
func TestDocsTable(t *testing.T) {
	b, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, tableBegin), strings.Index(doc, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the markers %q … %q", docsFile, tableBegin, tableEnd)
	}
	got, want := doc[i+len(tableBegin):j], table()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(docsFile, []byte(doc[:i+len(tableBegin)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's table differs from Vars (go test ./internal/settings -update):\n%s", docsFile, want)
}

// TestEveryVariableInTable: every DRIFT_ variable named in the project's
// Go code outside tests is in Vars.
func TestEveryVariableInTable(t *testing.T) {
	known := map[string]bool{}
	for _, v := range Vars {
		known[v.Name] = true
	}
	re := regexp.MustCompile(`DRIFT_[A-Z0-9_]*[A-Z0-9]`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, name := range re.FindAllString(string(b), -1) {
			if !known[name] && !strings.HasSuffix(name, "_LLM") {
				t.Errorf("%s names %s, which is not in settings.Vars", path, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
