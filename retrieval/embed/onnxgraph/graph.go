// Package onnxgraph builds ONNX models in memory and serialises them as
// ModelProto bytes with protowire, deterministically: the same graph always
// yields the same bytes.
package onnxgraph

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Element types of ONNX TensorProto.DataType used by this package.
const (
	Float = 1
	Int8  = 3
	Int32 = 6
	Int64 = 7
	Bool  = 9
)

// Dim is one dimension of a graph input or output: a fixed size when Param is
// empty, otherwise a named symbolic size such as "batch".
type Dim struct {
	Size  int64
	Param string
}

// Graph accumulates nodes, initializers, inputs and outputs of one ONNX graph.
type Graph struct {
	name    string
	nodes   []node
	inits   []tensor
	inputs  []valueInfo
	outputs []valueInfo
	counter int
	names   map[string]bool
	err     error
}

type node struct {
	op      string
	name    string
	inputs  []string
	outputs []string
	attrs   []attr
}

type attr struct {
	name string
	kind int // 1 float, 2 int, 7 ints
	f    float32
	i    int64
	ints []int64
}

type tensor struct {
	name  string
	dtype int
	dims  []int64
	raw   []byte
}

type valueInfo struct {
	name  string
	dtype int
	dims  []Dim
}

// New returns an empty graph with the given name.
func New(name string) *Graph {
	return &Graph{name: name, names: map[string]bool{}}
}

func (g *Graph) fresh(prefix string) string {
	for {
		g.counter++
		n := fmt.Sprintf("%s_%d", prefix, g.counter)
		if !g.names[n] {
			g.names[n] = true
			return n
		}
	}
}

// Input declares a graph input and returns its name.
func (g *Graph) Input(name string, dtype int, dims ...Dim) string {
	g.names[name] = true
	g.inputs = append(g.inputs, valueInfo{name, dtype, dims})
	return name
}

// Output declares the value named value as a graph output called name (an
// Identity node is inserted when the names differ).
func (g *Graph) Output(value, name string, dtype int, dims ...Dim) {
	if value != name {
		g.names[name] = true
		g.nodes = append(g.nodes, node{op: "Identity", name: name + "_identity", inputs: []string{value}, outputs: []string{name}})
	}
	g.outputs = append(g.outputs, valueInfo{name, dtype, dims})
}

// Floats adds a float32 initializer with the given shape and returns its name.
func (g *Graph) Floats(prefix string, dims []int64, data []float32) string {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	if int64(len(data)) != n && g.err == nil {
		g.err = fmt.Errorf("onnxgraph: initializer %s has %d values for shape %v", prefix, len(data), dims)
	}
	raw := make([]byte, 4*len(data))
	for i, v := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	name := g.fresh(prefix)
	g.inits = append(g.inits, tensor{name, Float, append([]int64(nil), dims...), raw})
	return name
}

// Scalar adds a float32 scalar initializer.
func (g *Graph) Scalar(prefix string, v float32) string {
	return g.Floats(prefix, nil, []float32{v})
}

// Int64s adds an int64 initializer with the given shape.
func (g *Graph) Int64s(prefix string, dims []int64, data []int64) string {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	if int64(len(data)) != n && g.err == nil {
		g.err = fmt.Errorf("onnxgraph: initializer %s has %d values for shape %v", prefix, len(data), dims)
	}
	raw := make([]byte, 8*len(data))
	for i, v := range data {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
	}
	name := g.fresh(prefix)
	g.inits = append(g.inits, tensor{name, Int64, append([]int64(nil), dims...), raw})
	return name
}

// Vec adds a one-dimensional int64 initializer.
func (g *Graph) Vec(prefix string, data ...int64) string {
	return g.Int64s(prefix, []int64{int64(len(data))}, data)
}

// Op appends a node with one output and returns the output's name.
func (g *Graph) Op(op string, inputs []string, attrs ...Attr) string {
	return g.OpN(op, 1, inputs, attrs...)[0]
}

// OpN appends a node with n outputs and returns their names.
func (g *Graph) OpN(op string, n int, inputs []string, attrs ...Attr) []string {
	name := g.fresh(op)
	outs := make([]string, n)
	for i := range outs {
		outs[i] = fmt.Sprintf("%s_out%d", name, i)
		g.names[outs[i]] = true
	}
	as := make([]attr, len(attrs))
	for i, a := range attrs {
		as[i] = attr(a)
	}
	g.nodes = append(g.nodes, node{op: op, name: name, inputs: inputs, outputs: outs, attrs: as})
	return outs
}

// Attr is a node attribute made by AttrInt, AttrFloat or AttrInts.
type Attr attr

// AttrInt is an integer attribute.
func AttrInt(name string, v int64) Attr { return Attr{name: name, kind: 2, i: v} }

// AttrFloat is a float attribute.
func AttrFloat(name string, v float32) Attr { return Attr{name: name, kind: 1, f: v} }

// AttrInts is an integer-list attribute.
func AttrInts(name string, v ...int64) Attr { return Attr{name: name, kind: 7, ints: v} }

// Marshal serialises the graph as an ONNX ModelProto (IR version 8, default
// opset 17); it fails if an initializer was given data of the wrong size.
func (g *Graph) Marshal(producer string) ([]byte, error) {
	if g.err != nil {
		return nil, g.err
	}
	var gb []byte
	for _, n := range g.nodes {
		gb = protowire.AppendTag(gb, 1, protowire.BytesType)
		gb = protowire.AppendBytes(gb, n.marshal())
	}
	gb = appendString(gb, 2, g.name)
	for _, t := range g.inits {
		gb = protowire.AppendTag(gb, 5, protowire.BytesType)
		gb = protowire.AppendBytes(gb, t.marshal())
	}
	for _, v := range g.inputs {
		gb = protowire.AppendTag(gb, 11, protowire.BytesType)
		gb = protowire.AppendBytes(gb, v.marshal())
	}
	for _, v := range g.outputs {
		gb = protowire.AppendTag(gb, 12, protowire.BytesType)
		gb = protowire.AppendBytes(gb, v.marshal())
	}
	var m []byte
	m = appendInt(m, 1, 8) // ir_version
	m = appendString(m, 2, producer)
	m = protowire.AppendTag(m, 7, protowire.BytesType)
	m = protowire.AppendBytes(m, gb)
	var op []byte
	op = appendString(op, 1, "")
	op = appendInt(op, 2, 17)
	m = protowire.AppendTag(m, 8, protowire.BytesType)
	m = protowire.AppendBytes(m, op)
	return m, nil
}

func appendString(b []byte, field protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendInt(b []byte, field protowire.Number, v int64) []byte {
	b = protowire.AppendTag(b, field, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func (n node) marshal() []byte {
	var b []byte
	for _, in := range n.inputs {
		b = appendString(b, 1, in)
	}
	for _, out := range n.outputs {
		b = appendString(b, 2, out)
	}
	b = appendString(b, 3, n.name)
	b = appendString(b, 4, n.op)
	for _, a := range n.attrs {
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, a.marshal())
	}
	return b
}

func (a attr) marshal() []byte {
	var b []byte
	b = appendString(b, 1, a.name)
	switch a.kind {
	case 1:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.f))
	case 2:
		b = appendInt(b, 3, a.i)
	case 7:
		var p []byte
		for _, v := range a.ints {
			p = protowire.AppendVarint(p, uint64(v))
		}
		b = protowire.AppendTag(b, 8, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	b = appendInt(b, 20, int64(a.kind))
	return b
}

func (t tensor) marshal() []byte {
	var b []byte
	if len(t.dims) > 0 {
		var p []byte
		for _, d := range t.dims {
			p = protowire.AppendVarint(p, uint64(d))
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	b = appendInt(b, 2, int64(t.dtype))
	b = appendString(b, 8, t.name)
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	b = protowire.AppendBytes(b, t.raw)
	return b
}

func (v valueInfo) marshal() []byte {
	var shape []byte
	for _, d := range v.dims {
		var db []byte
		if d.Param != "" {
			db = appendString(db, 2, d.Param)
		} else {
			db = appendInt(db, 1, d.Size)
		}
		shape = protowire.AppendTag(shape, 1, protowire.BytesType)
		shape = protowire.AppendBytes(shape, db)
	}
	var tt []byte
	tt = appendInt(tt, 1, int64(v.dtype))
	tt = protowire.AppendTag(tt, 2, protowire.BytesType)
	tt = protowire.AppendBytes(tt, shape)
	var typ []byte
	typ = protowire.AppendTag(typ, 1, protowire.BytesType)
	typ = protowire.AppendBytes(typ, tt)
	var b []byte
	b = appendString(b, 1, v.name)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, typ)
	return b
}

// Linear returns x·w + b for a weight w of shape [in, out] (row-major, given
// as data) and a bias of length out.
func (g *Graph) Linear(prefix, x string, in, out int, w, b []float32) string {
	y := g.Op("MatMul", []string{x, g.Floats(prefix+"_w", []int64{int64(in), int64(out)}, w)})
	return g.Op("Add", []string{y, g.Floats(prefix+"_b", []int64{int64(out)}, b)})
}

// LayerNorm normalises x over its last axis with the given scale, bias and
// epsilon (ONNX LayerNormalization, opset 17).
func (g *Graph) LayerNorm(prefix, x string, scale, bias []float32, eps float32) string {
	n := int64(len(scale))
	return g.Op("LayerNormalization", []string{x, g.Floats(prefix+"_scale", []int64{n}, scale), g.Floats(prefix+"_bias", []int64{n}, bias)},
		AttrInt("axis", -1), AttrFloat("epsilon", eps))
}

// Int8s adds an int8 initializer with the given shape.
func (g *Graph) Int8s(prefix string, dims []int64, data []int8) string {
	raw := make([]byte, len(data))
	for i, v := range data {
		raw[i] = byte(v)
	}
	name := g.fresh(prefix)
	g.inits = append(g.inits, tensor{name, Int8, append([]int64(nil), dims...), raw})
	return name
}

// QuantLinear is Linear with the weight quantised to 7-bit signed integers
// per output column and the input quantised dynamically to uint8 per call
// (DynamicQuantizeLinear → MatMulInteger → rescale), the pattern ONNX
// Runtime fuses into one integer matrix product. Seven bits keep AVX2's
// u8×s8 pair sums from saturating.
func (g *Graph) QuantLinear(prefix, x string, in, out int, w, b []float32) string {
	if len(w) != in*out {
		if g.err == nil {
			g.err = fmt.Errorf("onnxgraph: %s: %d weights for %dx%d", prefix, len(w), in, out)
		}
		return g.Linear(prefix, x, in, out, w, b)
	}
	scales := make([]float32, out)
	for j := 0; j < out; j++ {
		var m float64
		for i := 0; i < in; i++ {
			m = math.Max(m, math.Abs(float64(w[i*out+j])))
		}
		if m == 0 {
			m = 1
		}
		scales[j] = float32(m / 63)
	}
	q := make([]int8, in*out)
	for i := 0; i < in; i++ {
		for j := 0; j < out; j++ {
			q[i*out+j] = int8(math.Round(float64(w[i*out+j] / scales[j])))
		}
	}
	xq := g.OpN("DynamicQuantizeLinear", 3, []string{x})
	acc := g.Op("MatMulInteger", []string{xq[0], g.Int8s(prefix+"_wq", []int64{int64(in), int64(out)}, q), xq[2], g.Int8s(prefix+"_wzp", []int64{int64(out)}, make([]int8, out))})
	f := g.Op("Cast", []string{acc}, AttrInt("to", Float))
	scale := g.Op("Mul", []string{xq[1], g.Floats(prefix+"_wscale", []int64{int64(out)}, scales)})
	return g.Op("Add", []string{g.Op("Mul", []string{f, scale}), g.Floats(prefix+"_b", []int64{int64(out)}, b)})
}
