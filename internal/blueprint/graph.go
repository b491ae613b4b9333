package blueprint

import (
	"sort"
	"strings"
)

// Order returns the nodes so that every node comes after the nodes it
// \uses (statement and proof), ties in the order of the text, and the
// cycles found, each as its labels in order (a→b→a is [a b]). A cycle is
// broken at the use that closes it; uses of unknown labels are ignored.
func Order(nodes []*Node) ([]*Node, [][]string) {
	idx := map[string]int{}
	for i, n := range nodes {
		if _, dup := idx[n.Label]; !dup {
			idx[n.Label] = i
		}
	}
	deps := make([][]int, len(nodes))
	for i, n := range nodes {
		for _, u := range n.AllUses() {
			if j, ok := idx[u]; ok && j != i {
				deps[i] = append(deps[i], j)
			}
		}
	}
	// Depth-first, visiting nodes and their uses in the order of the text.
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(nodes))
	var out []*Node
	var cycles [][]string
	seen := map[string]bool{}
	var stack []int
	var visit func(i int)
	visit = func(i int) {
		color[i] = grey
		stack = append(stack, i)
		for _, j := range deps[i] {
			switch color[j] {
			case white:
				visit(j)
			case grey:
				// stack from j to i is a cycle.
				var c []string
				for k := len(stack) - 1; k >= 0; k-- {
					c = append(c, nodes[stack[k]].Label)
					if stack[k] == j {
						break
					}
				}
				for l, r := 0, len(c)-1; l < r; l, r = l+1, r-1 {
					c[l], c[r] = c[r], c[l]
				}
				key := canonical(c)
				if !seen[key] {
					seen[key] = true
					cycles = append(cycles, c)
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[i] = black
		out = append(out, nodes[i])
	}
	for i := range nodes {
		if color[i] == white {
			visit(i)
		}
	}
	return out, cycles
}

// canonical is a cycle's key, whichever node it starts at.
func canonical(c []string) string {
	s := append([]string{}, c...)
	sort.Strings(s)
	return strings.Join(s, "\x00")
}
