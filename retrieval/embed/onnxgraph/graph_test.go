package onnxgraph

import (
	"bytes"
	"strings"
	"testing"
)

func build(n int) ([]byte, error) {
	g := New("t")
	x := g.Input("x", Float, Dim{Param: "batch"}, Dim{Size: 2})
	y := g.Linear("lin", x, 2, 3, make([]float32, n), []float32{1, 2, 3})
	g.Output(y, "y", Float, Dim{Param: "batch"}, Dim{Size: 3})
	return g.Marshal("test")
}

func TestMarshalDeterministic(t *testing.T) {
	a, err := build(6)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := build(6)
	if !bytes.Equal(a, b) {
		t.Error("same graph, different bytes")
	}
	for _, want := range []string{"MatMul", "Identity", "lin_w_1", "batch"} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("model lacks %q", want)
		}
	}
}

func TestMarshalRejectsBadInitializer(t *testing.T) {
	if _, err := build(5); err == nil || !strings.Contains(err.Error(), "5 values") {
		t.Errorf("wrong-sized weight: err = %v", err)
	}
}
