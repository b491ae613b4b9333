package retrieval

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDescribe: a description makes search find a declaration by its
// words; it survives reindexing of the file, and is dropped when the
// declaration's signature changes.
func TestDescribe(t *testing.T) {
	dir := newWorkspace(t)
	e := openReady(t, Config{Roots: []string{dir}})
	const name, words = "Demo.divides_refl", "quantity factor of itself"
	if searchable(e, words, name) {
		t.Fatalf("%q finds %s before it was described", words, name)
	}
	d, ok := e.Lookup(name)
	if !ok {
		t.Fatalf("%s not indexed", name)
	}
	e.Describe(map[string]Description{name: {Signature: d.Signature, Text: "Every quantity is a factor of itself."}})
	eventually(t, e, "the description", func() bool { return searchable(e, words, name) })
	if d, _ := e.Lookup(name); d.Informal != "Every quantity is a factor of itself." {
		t.Errorf("Lookup's Informal = %q", d.Informal)
	}

	file := filepath.Join(dir, "Demo", "Basic.lean")
	extra := strings.Replace(basicLean, "end Demo", "theorem drift_extra : True := trivial\n\nend Demo", 1)
	e.UpdateBuffer(file, []byte(extra))
	eventually(t, e, "the edit", func() bool { return has(e, "Demo.drift_extra") })
	if !searchable(e, words, name) {
		t.Errorf("the description was lost when the file was reindexed")
	}

	changed := strings.Replace(extra, "theorem divides_refl (a : Nat) : Divides a a", "theorem divides_refl (b : Nat) : Divides b b", 1)
	e.UpdateBuffer(file, []byte(changed))
	eventually(t, e, "the new signature", func() bool {
		d, ok := e.Lookup(name)
		return ok && strings.Contains(d.Signature, "(b : Nat)")
	})
	if searchable(e, words, name) {
		t.Errorf("the description outlived the signature it was written for")
	}
}
