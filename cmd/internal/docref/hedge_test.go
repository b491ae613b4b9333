package docref

import (
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// TestStaleWhateverTheWording: a name in backticks that resolves to nothing
// is a finding whatever the words around it ("unlike", "nor"); where the
// wording is hypothetical (the name may be missing on purpose) the finding
// is not sure, so neither --fix nor the quick-fix applies it.
func TestStaleWhateverTheWording(t *testing.T) {
	lib, _ := loadWS(t)
	c := New(lib, names.New(lib.Decls()), nil)
	for _, tc := range []struct {
		line, name string
		sure       bool
	}{
		{"Unlike `Lib.Widget.doubel`, this one is total.", "Lib.Widget.doubel", true},
		{"Neither `Lib.Widget.double` nor `Lib.Widget.doubel` is needed.", "Lib.Widget.doubel", true},
		{"It holds, unlike `Lib.Widget.doubel`, which would be stronger.", "Lib.Widget.doubel", false},
		{"Nor does `Lib.Widget.doubel` exist, and it cannot.", "Lib.Widget.doubel", false},
		{"This would work if there was such a thing as `Lib.Gizmo`.", "Lib.Gizmo", false},
	} {
		raw := []byte("import Lib.Defs\n/-- " + tc.line + " -/\ntheorem t : True := trivial\n")
		src, _ := leansrc.Prepare(raw)
		fs := c.Findings(c.File(src, leansrc.Parse(raw), nil))
		if len(fs) != 1 || fs[0].Name != tc.name || fs[0].Sure != tc.sure {
			t.Errorf("%q: findings %+v; want %s with sure=%v", tc.line, fs, tc.name, tc.sure)
		}
	}
}
