// Package onnxpb writes and reads the subset of the ONNX protobuf format
// (onnx/onnx.proto) that sudokuar's digit model needs: a Model (nodes,
// float32/int64 initialisers, typed inputs and outputs) to ModelProto bytes
// and back. Decode skips unknown fields, reads float_data, int64_data and
// raw_data tensors, and never panics: a *FormatError names what was broken.
package onnxpb

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Element types of TensorProto.DataType used by this package.
const (
	Float = 1 // TensorProto.FLOAT
	Int64 = 7 // TensorProto.INT64
)

// Attribute kinds of AttributeProto.AttributeType used by this package.
const (
	AttrFloat = 1
	AttrInt   = 2
	AttrInts  = 7
)

// Model is an ONNX model: one graph plus the versions readers need.
type Model struct {
	IRVersion    int64  // ONNX IR version (e.g. 6)
	Opset        int64  // version of the default ("ai.onnx") operator set
	ProducerName string // tool that wrote the file
	Graph        Graph
}

// Graph is a computation graph in topological order.
type Graph struct {
	Name         string
	Nodes        []Node
	Initializers []Tensor // constant tensors (weights); not listed in Inputs
	Inputs       []ValueInfo
	Outputs      []ValueInfo
}

// Node is one operator application.
type Node struct {
	Name    string
	OpType  string // e.g. "Conv", "Relu", "MaxPool", "Reshape", "Gemm"
	Inputs  []string
	Outputs []string
	Attrs   []Attr
}

// Attr is a node attribute; Kind says which of the value fields is set.
type Attr struct {
	Name  string
	Kind  int // AttrFloat, AttrInt or AttrInts
	Float float32
	Int   int64
	Ints  []int64
}

// Tensor is a named constant. Exactly one of Floats and Int64s is used,
// according to DataType.
type Tensor struct {
	Name     string
	Dims     []int64
	DataType int // Float or Int64
	Floats   []float32
	Int64s   []int64
}

// ValueInfo names a graph input or output and gives its element type and
// shape; a dimension of -1 is written without a value (unknown size).
type ValueInfo struct {
	Name     string
	ElemType int
	Dims     []int64
}

// FormatError reports bytes that are not a well-formed ONNX model (or use a
// part of the format this package does not read).
type FormatError struct {
	Where  string // message and field, e.g. "TensorProto.raw_data"
	Reason string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("onnx: bad %s: %s", e.Where, e.Reason)
}

// Attr returns the attribute called name and whether it exists.
func (n Node) Attr(name string) (Attr, bool) {
	for _, a := range n.Attrs {
		if a.Name == name {
			return a, true
		}
	}
	return Attr{}, false
}

// Size is the number of elements the tensor's dims describe (unchecked:
// a product beyond int64 wraps; Decode checks its tensors without Size).
func (t Tensor) Size() int64 {
	s := int64(1)
	for _, d := range t.Dims {
		s *= d
	}
	return s
}

// Encode serialises m as ONNX ModelProto bytes.
func Encode(m Model) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType) // ir_version
	b = protowire.AppendVarint(b, uint64(m.IRVersion))
	if m.ProducerName != "" {
		b = appendString(b, 2, m.ProducerName)
	}
	b = appendMessage(b, 7, encodeGraph(m.Graph))
	var op []byte
	op = appendString(op, 1, "") // default domain
	op = protowire.AppendTag(op, 2, protowire.VarintType)
	op = protowire.AppendVarint(op, uint64(m.Opset))
	b = appendMessage(b, 8, op)
	return b
}

func encodeGraph(g Graph) []byte {
	var b []byte
	for _, n := range g.Nodes {
		b = appendMessage(b, 1, encodeNode(n))
	}
	b = appendString(b, 2, g.Name)
	for _, t := range g.Initializers {
		b = appendMessage(b, 5, encodeTensor(t))
	}
	for _, v := range g.Inputs {
		b = appendMessage(b, 11, encodeValueInfo(v))
	}
	for _, v := range g.Outputs {
		b = appendMessage(b, 12, encodeValueInfo(v))
	}
	return b
}

func encodeNode(n Node) []byte {
	var b []byte
	for _, s := range n.Inputs {
		b = appendString(b, 1, s)
	}
	for _, s := range n.Outputs {
		b = appendString(b, 2, s)
	}
	b = appendString(b, 3, n.Name)
	b = appendString(b, 4, n.OpType)
	for _, a := range n.Attrs {
		b = appendMessage(b, 5, encodeAttr(a))
	}
	return b
}

func encodeAttr(a Attr) []byte {
	var b []byte
	b = appendString(b, 1, a.Name)
	switch a.Kind {
	case AttrFloat:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.Float))
	case AttrInt:
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.Int))
	case AttrInts:
		// Unpacked, as the reference implementation writes repeated int64 in
		// AttributeProto; readers accept both.
		for _, v := range a.Ints {
			b = protowire.AppendTag(b, 8, protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(v))
		}
	}
	b = protowire.AppendTag(b, 20, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(a.Kind))
	return b
}

func encodeTensor(t Tensor) []byte {
	var b []byte
	for _, d := range t.Dims {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.DataType))
	b = appendString(b, 8, t.Name)
	var raw []byte
	switch t.DataType {
	case Float:
		raw = make([]byte, 4*len(t.Floats))
		for i, v := range t.Floats {
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
		}
	case Int64:
		raw = make([]byte, 8*len(t.Int64s))
		for i, v := range t.Int64s {
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
		}
	}
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	b = protowire.AppendBytes(b, raw)
	return b
}

func encodeValueInfo(v ValueInfo) []byte {
	var shape []byte
	for _, d := range v.Dims {
		var dim []byte
		if d >= 0 {
			dim = protowire.AppendTag(dim, 1, protowire.VarintType)
			dim = protowire.AppendVarint(dim, uint64(d))
		} else {
			dim = appendString(dim, 2, "N")
		}
		shape = appendMessage(shape, 1, dim)
	}
	var tt []byte
	tt = protowire.AppendTag(tt, 1, protowire.VarintType)
	tt = protowire.AppendVarint(tt, uint64(v.ElemType))
	tt = appendMessage(tt, 2, shape)
	var typ []byte
	typ = appendMessage(typ, 1, tt)
	var b []byte
	b = appendString(b, 1, v.Name)
	b = appendMessage(b, 2, typ)
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendMessage(b []byte, num protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}
