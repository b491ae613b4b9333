package library

import (
	"hash/fnv"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// refFilter is a Bloom filter (4,096 bits, 3 hashes) over the last name
// components a file's identifiers can resolve through: when a file starts
// or stops declaring a name, only the files whose filter may hold its last
// component need resolving again. 512 bytes per file; false positives only
// cost a needless re-resolution.
type refFilter [64]uint64

func filterBits(s string) [3]uint32 {
	h := fnv.New64a()
	h.Write([]byte(s))
	v := h.Sum64()
	return [3]uint32{uint32(v) & 4095, uint32(v>>21) & 4095, uint32(v>>42) & 4095}
}

func (f *refFilter) add(s string) {
	for _, b := range filterBits(s) {
		f[b/64] |= 1 << (b % 64)
	}
}

func (f *refFilter) mayHave(s string) bool {
	for _, b := range filterBits(s) {
		if f[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// mayHaveAny reports whether any of ss may be in the filter.
func (f *refFilter) mayHaveAny(ss []string) bool {
	for _, s := range ss {
		if f.mayHave(s) {
			return true
		}
	}
	return false
}

// refFilterOf collects the identifiers of a parse result: each one's last
// component and those of the prefixes resolution retries (`foo.mp` →
// `foo`), from statements, proofs, notations, attribute commands and exports.
func refFilterOf(pf *leansrc.File) refFilter {
	var f refFilter
	addID := func(id string) {
		id = strings.TrimPrefix(id, "_root_.")
		for strip := 0; strip < 3 && id != ""; strip++ {
			pre, last := splitLast(id)
			f.add(last)
			id = pre
		}
	}
	for i := range pf.Decls {
		for _, id := range pf.Decls[i].StmtRefs {
			addID(id)
		}
		for _, id := range pf.Decls[i].ProofRefs {
			addID(id)
		}
		for _, op := range pf.Decls[i].StmtOps {
			f.add(op)
		}
	}
	for _, a := range pf.AttrCmds {
		for _, id := range a.Names {
			addID(id)
		}
	}
	for _, e := range pf.Exports {
		for _, id := range e.Names {
			addID(id)
		}
	}
	return f
}
