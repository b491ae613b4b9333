package leansrc

import (
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	path := os.Getenv("DUMP")
	if path == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(path)
	f := Parse(b)
	for _, d := range f.Decls {
		fmt.Printf("%s %s [%d:%d-%d:%d] sig=%q\n   attrs=%v stmt=%v proof=%v parent=%s sym=%q add=%v priv=%v prot=%v anon=%v doc=%.40q\n", d.Kind, d.Name, d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, d.Signature, d.Attrs, d.StmtRefs, d.ProofRefs, d.Parent, d.Symbol, d.Additive, d.Private, d.Protected, d.Anonymous, d.Doc)
	}
	fmt.Println("scopes", f.Scopes)
	fmt.Println("attrcmds", f.AttrCmds, "exports", f.Exports)
	fmt.Println("diags", f.Diags, "warn", f.Warnings, "moddocs", len(f.ModuleDocs))
}
