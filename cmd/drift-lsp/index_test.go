package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

func TestIndexAndDeclsCommands(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	root := filepath.Join("..", "..", "testdata", "workspace")
	cache := t.TempDir()
	var out, errb bytes.Buffer
	if code := dispatch([]string{"index", "--root", root, "--cache", cache, "--json"}, &out, &errb); code != 0 {
		t.Fatalf("index exit %d: %s", code, errb.String())
	}
	var sum indexSummary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("index --json output %q: %v", out.String(), err)
	}
	if sum.Files == 0 || sum.Decls == 0 || sum.Errors != 0 {
		t.Errorf("summary %+v", sum)
	}
	out.Reset()
	if code := dispatch([]string{"decls", "--root", root, "--cache", cache}, &out, &errb); code != 0 {
		t.Fatalf("decls exit %d: %s", code, errb.String())
	}
	ds, err := library.ReadCorpus(&out, "")
	if err != nil || len(ds) != sum.Decls {
		t.Errorf("decls: %d records (index said %d), err %v", len(ds), sum.Decls, err)
	}
	out.Reset()
	if code := dispatch([]string{"index", "--root", root, "--cache", ""}, &out, &errb); code != 0 || !strings.Contains(out.String(), "declarations") {
		t.Errorf("index text output %q", out.String())
	}
	if code := dispatch([]string{"index", "--root", filepath.Join(root, "missing")}, &out, &errb); code != 1 {
		t.Errorf("missing root: exit %d", code)
	}
	errb.Reset()
	empty := t.TempDir()
	if code := dispatch([]string{"index", "--root", empty, "--cache", ""}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "holds no .lean files") {
		t.Errorf("empty root: exit %d, stderr %q", code, errb.String())
	}
	out.Reset()
	if code := dispatch([]string{"index", "--root", root, "--root", empty, "--cache", "", "--json"}, &out, &errb); code != 1 || !strings.Contains(out.String(), `"empty_roots":1`) {
		t.Errorf("empty extra root: exit %d, output %q", code, out.String())
	}
	if code := dispatch([]string{"decls", "extra-arg"}, &out, &errb); code != 2 {
		t.Errorf("usage error: exit %d", code)
	}
}

func TestMultiFlag(t *testing.T) {
	var m multiFlag
	m.Set("a")
	m.Set("b")
	if m.String() != "a,b" {
		t.Errorf("multiFlag = %q", m.String())
	}
}

// TestCacheFollowsDriftCacheDir: the commands' default index cache is the
// server's, DRIFT_CACHE_DIR included, so the CLI and editors share it.
func TestCacheFollowsDriftCacheDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DRIFT_CACHE_DIR", dir)
	fs := newFlagSet("index", &bytes.Buffer{})
	f := addIndexFlags(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if f.cache != dir {
		t.Fatalf("default cache %q, want DRIFT_CACHE_DIR %q", f.cache, dir)
	}
}
