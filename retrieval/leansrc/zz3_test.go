package leansrc

import (
	"fmt"
	"testing"
)

func TestZZ3(t *testing.T) {
	b := []byte("def toString :=\n  s!\"[{r.left}]\"\n\ninstance")
	toks, errs := Scan(b)
	for _, tk := range toks {
		fmt.Printf("  %d %d %q\n", tk.Kind, tk.Line, b[tk.Start:tk.End])
	}
	fmt.Println(errs)
}
