package library

import (
	"hash/fnv"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// refFilter is a Bloom filter over the last name components a file's
// identifiers can resolve through: when a file starts or stops declaring a
// name, only the files whose filter may hold its last component need
// resolving again. It has 24 bits per distinct component and 6 probes
// (false positives ≈ 0.03 %, which only cost a needless re-resolution).
type refFilter []uint64

// probes returns the bit positions of s in a filter of n bits (double
// hashing over one 64-bit FNV-1a hash).
func probes(s string, n uint32) [6]uint32 {
	h := fnv.New64a()
	h.Write([]byte(s))
	v := h.Sum64()
	h1, h2 := uint32(v), uint32(v>>32)|1
	var out [6]uint32
	for i := range out {
		out[i] = (h1 + uint32(i)*h2) % n
	}
	return out
}

func (f refFilter) add(s string) {
	for _, b := range probes(s, uint32(len(f))*64) {
		f[b/64] |= 1 << (b % 64)
	}
}

func (f refFilter) mayHave(s string) bool {
	if len(f) == 0 {
		return false
	}
	for _, b := range probes(s, uint32(len(f))*64) {
		if f[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// mayHaveAny reports whether any of ss may be in the filter.
func (f refFilter) mayHaveAny(ss []string) bool {
	for _, s := range ss {
		if f.mayHave(s) {
			return true
		}
	}
	return false
}

// refFilterOf collects the identifiers of a parse result: each one's last
// component and those of the prefixes resolution retries (`foo.mp` →
// `foo`), from statements, proofs, notation atoms, attribute commands and
// exports.
func refFilterOf(pf *leansrc.File) refFilter {
	n := 0
	for i := range pf.Decls {
		n += len(pf.Decls[i].StmtRefs) + len(pf.Decls[i].ProofRefs)
	}
	set := make(map[string]bool, n/2)
	addID := func(id string) {
		id = strings.TrimPrefix(id, "_root_.")
		for strip := 0; strip < 3 && id != ""; strip++ {
			pre, last := leansrc.SplitLast(id)
			set[last] = true
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
			set[op] = true
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
	f := make(refFilter, (len(set)*24+63)/64)
	for s := range set {
		f.add(s)
	}
	return f
}
