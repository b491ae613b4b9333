package retrieval

import (
	"math"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// snapshot is an immutable view of the whole library that one query reads:
// declarations, their IDs in the lexical index, the name channel and the
// graph statistics behind the priors. Updates build a new snapshot.
type snapshot struct {
	decls  map[string]*library.Decl // by document ID
	byName map[string][]string      // full name -> document IDs
	files  map[string][]string      // file key -> document IDs
	usedBy map[string][]string      // name -> IDs of decls whose statement uses it
	indeg  map[string]int           // name -> number of statements that use it
	// notationTarget marks constants that a notation unfolds to; they are
	// written as the notation, not by name.
	notationTarget map[string]bool
	names          *names.Index
	model          *model
	// slotOf maps document IDs to model slots; only the update path (a
	// single writer) reads or writes it.
	slotOf map[string]int32
}

// docID is the lexical document ID of a declaration: unique per file and
// name.
func docID(d *library.Decl) string {
	return fileKey(d) + "\x1f" + d.Name
}

// fileKey identifies the file a declaration came from across packages.
func fileKey(d *library.Decl) string {
	return d.Package + ":" + d.File
}

// newSnapshot indexes decls (later duplicates of an ID are dropped).
func newSnapshot(decls []*library.Decl) *snapshot {
	s := &snapshot{
		decls:  make(map[string]*library.Decl, len(decls)),
		byName: make(map[string][]string, len(decls)),
		files:  map[string][]string{},
	}
	kept := make([]*library.Decl, 0, len(decls))
	for _, d := range decls {
		if d == nil || d.Name == "" {
			continue
		}
		id := docID(d)
		if _, dup := s.decls[id]; dup {
			continue
		}
		s.decls[id] = d
		kept = append(kept, d)
		s.byName[d.Name] = append(s.byName[d.Name], id)
		fk := fileKey(d)
		s.files[fk] = append(s.files[fk], id)
	}
	// The three structures are independent: build them in parallel.
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.names = names.New(kept)
	}()
	go func() {
		defer wg.Done()
		s.computeGraph()
	}()
	s.model = newModel()
	s.slotOf = make(map[string]int32, len(kept))
	s.model.add(kept, s.slotOf)
	wg.Wait()
	return s
}

// computeGraph fills usedBy, indeg and notationTarget from statement deps.
func (s *snapshot) computeGraph() {
	s.usedBy = make(map[string][]string, len(s.decls)/4)
	s.indeg = make(map[string]int, len(s.decls)/4)
	s.notationTarget = map[string]bool{}
	for id, d := range s.decls {
		if d.Kind == library.KindNotation {
			for _, t := range d.StatementDeps {
				s.notationTarget[t] = true
			}
			continue
		}
		seen := map[string]bool{}
		for _, dep := range d.StatementDeps {
			if seen[dep] || dep == d.Name {
				continue
			}
			seen[dep] = true
			s.indeg[dep]++
			if d.Kind == library.KindTheorem {
				s.usedBy[dep] = append(s.usedBy[dep], id)
			}
		}
	}
}

// premiseKind reports whether declarations of kind k are candidate premises
// (things a statement names), and how strongly.
func premiseKind(k library.Kind) float64 {
	switch k {
	case library.KindDef, library.KindAbbrev, library.KindStructure, library.KindClass,
		library.KindInductive, library.KindClassInductive, library.KindOpaque:
		return 1
	case library.KindAxiom, library.KindField, library.KindConstructor:
		return 0.5
	}
	return 0
}

// popularity is the graph prior of a name: log of one plus the number of
// statements that use it.
func (s *snapshot) popularity(name string) float64 {
	return math.Log1p(float64(s.indeg[name]))
}

// lexDoc is the lexical document of a declaration.
func lexDoc(d *library.Decl) lexical.Doc {
	ns, last := "", d.Name
	if l := names.Last(d.Name); len(l) < len(d.Name) {
		ns, last = d.Name[:len(d.Name)-len(l)-1], l
	}
	doc := d.Doc
	if d.Informal != "" {
		doc += "\n" + d.Informal
	}
	if d.Symbol != "" {
		doc += "\n" + d.Symbol
	}
	return lexical.Doc{
		Name:      last,
		Namespace: ns,
		Doc:       doc,
		Signature: stripDeclHead(d.Signature),
		Module:    d.Module,
		Kind:      string(d.Kind),
		File:      fileKey(d),
	}
}

// stripDeclHead drops the leading keyword and name from a signature so that
// the name is not counted twice.
func stripDeclHead(sig string) string {
	f := strings.Fields(sig)
	for i, w := range f {
		if w == "def" || w == "theorem" || w == "lemma" || w == "structure" || w == "class" ||
			w == "inductive" || w == "abbrev" || w == "instance" || w == "opaque" || w == "axiom" {
			if i+2 <= len(f) {
				return strings.Join(f[i+2:], " ")
			}
		}
	}
	return sig
}
