package retrieval

import (
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// Description is an informal description of a declaration, written for
// its signature (the Informalize stage's output).
type Description struct {
	Signature string
	Text      string
}

// Describe gives declarations (by full name) informal descriptions that
// search reads with their docstrings; it returns at once and they become
// searchable shortly after. A description holds while the declaration has
// no docstring and keeps the signature it was written for, also across
// later reindexing of its file.
func (e *Engine) Describe(desc map[string]Description) {
	select {
	case e.describe <- desc:
	case <-e.ctx.Done():
	}
}

// applyDescriptions, in the update loop, adds desc to the engine's
// descriptions and re-commits the files of the declarations they name.
func (e *Engine) applyDescriptions(desc map[string]Description) {
	if e.informal == nil {
		e.informal = map[string]Description{}
	}
	cur := e.snapshot()
	changed := map[string][]*library.Decl{}
	buffered := map[string]bool{}
	for name, d := range desc {
		e.informal[name] = d
		for _, sl := range cur.slotsOf(name) {
			k := fileKey(cur.decl(sl))
			if _, ok := changed[k]; !ok {
				changed[k], buffered[k] = cur.fileDecls(k), cur.buffered[k]
			}
		}
	}
	e.commit(changed, buffered, time.Now(), "described declarations")
}

// described returns ds with the engine's descriptions set on copies of the
// declarations they apply to (ds itself is not modified).
func (e *Engine) described(ds []*library.Decl) []*library.Decl {
	if len(e.informal) == 0 {
		return ds
	}
	var out []*library.Decl
	for i, d := range ds {
		desc, ok := e.informal[d.Name]
		if !ok || d.Doc != "" || d.Informal == desc.Text || d.Signature != desc.Signature {
			continue
		}
		if out == nil {
			out = append([]*library.Decl(nil), ds...)
		}
		c := *d
		c.Informal = desc.Text
		out[i] = &c
	}
	if out == nil {
		return ds
	}
	return out
}
