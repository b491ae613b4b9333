package leansrc

import (
	"fmt"
	"os"
	"testing"
)

func TestZZScan(t *testing.T) {
	path := os.Getenv("SCAN")
	if path == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(path)
	toks, errs := Scan(b)
	for _, e := range errs {
		fmt.Println("ERR", e.Offset, e.Msg, string(b[e.Offset:min(len(b), e.Offset+60)]))
		for _, tk := range toks {
			if int(tk.Start) >= e.Offset-200 && int(tk.Start) <= e.Offset {
				fmt.Printf("  %d %d %q\n", tk.Kind, tk.Line, b[tk.Start:tk.End])
			}
		}
	}
}
