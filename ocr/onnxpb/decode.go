package onnxpb

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// field is one decoded protobuf field: its number, wire type and value
// (varint/fixed in u, length-delimited payload in b).
type field struct {
	num protowire.Number
	typ protowire.Type
	u   uint64
	b   []byte
}

// walk calls fn for each field of the message in b, in order.
func walk(b []byte, msg string, fn func(f field) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return &FormatError{msg, fmt.Sprintf("field tag: %v", protowire.ParseError(n))}
		}
		b = b[n:]
		f := field{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.u, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			f.u = uint64(v)
		case protowire.Fixed64Type:
			f.u, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			f.b, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return &FormatError{fmt.Sprintf("%s field %d", msg, num), protowire.ParseError(n).Error()}
		}
		b = b[n:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// wantType checks a field's wire type before its value is used.
func wantType(f field, msg, name string, typ protowire.Type) error {
	if f.typ != typ {
		return &FormatError{msg + "." + name, fmt.Sprintf("wire type %d, want %d", f.typ, typ)}
	}
	return nil
}

// Decode parses ONNX ModelProto bytes. It reads the fields that Encode
// writes and skips the rest.
func Decode(data []byte) (Model, error) {
	var m Model
	if len(data) == 0 {
		return m, &FormatError{"ModelProto", "no data"}
	}
	sawGraph := false
	err := walk(data, "ModelProto", func(f field) error {
		switch f.num {
		case 1:
			if err := wantType(f, "ModelProto", "ir_version", protowire.VarintType); err != nil {
				return err
			}
			m.IRVersion = int64(f.u)
		case 2:
			if err := wantType(f, "ModelProto", "producer_name", protowire.BytesType); err != nil {
				return err
			}
			m.ProducerName = string(f.b)
		case 7:
			if err := wantType(f, "ModelProto", "graph", protowire.BytesType); err != nil {
				return err
			}
			g, err := decodeGraph(f.b)
			if err != nil {
				return err
			}
			m.Graph = g
			sawGraph = true
		case 8:
			if err := wantType(f, "ModelProto", "opset_import", protowire.BytesType); err != nil {
				return err
			}
			var domain string
			var version int64
			err := walk(f.b, "OperatorSetIdProto", func(f field) error {
				switch f.num {
				case 1:
					domain = string(f.b)
				case 2:
					version = int64(f.u)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if domain == "" || domain == "ai.onnx" {
				m.Opset = version
			}
		}
		return nil
	})
	if err != nil {
		return Model{}, err
	}
	if !sawGraph {
		return Model{}, &FormatError{"ModelProto.graph", "missing"}
	}
	return m, nil
}

func decodeGraph(b []byte) (Graph, error) {
	var g Graph
	err := walk(b, "GraphProto", func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case 1:
			n, err := decodeNode(f.b)
			if err != nil {
				return err
			}
			g.Nodes = append(g.Nodes, n)
		case 2:
			g.Name = string(f.b)
		case 5:
			t, err := decodeTensor(f.b)
			if err != nil {
				return err
			}
			g.Initializers = append(g.Initializers, t)
		case 11, 12:
			v, err := decodeValueInfo(f.b)
			if err != nil {
				return err
			}
			if f.num == 11 {
				g.Inputs = append(g.Inputs, v)
			} else {
				g.Outputs = append(g.Outputs, v)
			}
		}
		return nil
	})
	return g, err
}

func decodeNode(b []byte) (Node, error) {
	var n Node
	err := walk(b, "NodeProto", func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case 1:
			n.Inputs = append(n.Inputs, string(f.b))
		case 2:
			n.Outputs = append(n.Outputs, string(f.b))
		case 3:
			n.Name = string(f.b)
		case 4:
			n.OpType = string(f.b)
		case 5:
			a, err := decodeAttr(f.b)
			if err != nil {
				return err
			}
			n.Attrs = append(n.Attrs, a)
		}
		return nil
	})
	return n, err
}

func decodeAttr(b []byte) (Attr, error) {
	var a Attr
	err := walk(b, "AttributeProto", func(f field) error {
		switch f.num {
		case 1:
			a.Name = string(f.b)
		case 2:
			if err := wantType(f, "AttributeProto", "f", protowire.Fixed32Type); err != nil {
				return err
			}
			a.Float = math.Float32frombits(uint32(f.u))
		case 3:
			a.Int = int64(f.u)
		case 8:
			switch f.typ {
			case protowire.VarintType:
				a.Ints = append(a.Ints, int64(f.u))
			case protowire.BytesType:
				vs, err := packedVarints(f.b, "AttributeProto.ints")
				if err != nil {
					return err
				}
				a.Ints = append(a.Ints, vs...)
			}
		case 20:
			a.Kind = int(f.u)
		}
		return nil
	})
	return a, err
}

// setRaw reads raw_data as t's values, little-endian floats or int64s by
// t.DataType.
func (t *Tensor) setRaw(raw []byte) error {
	switch t.DataType {
	case Float:
		if len(raw)%4 != 0 {
			return &FormatError{"TensorProto.raw_data", fmt.Sprintf("tensor %q: %d bytes is not a multiple of 4", t.Name, len(raw))}
		}
		t.Floats = make([]float32, len(raw)/4)
		for i := range t.Floats {
			t.Floats[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case Int64:
		if len(raw)%8 != 0 {
			return &FormatError{"TensorProto.raw_data", fmt.Sprintf("tensor %q: %d bytes is not a multiple of 8", t.Name, len(raw))}
		}
		t.Int64s = make([]int64, len(raw)/8)
		for i := range t.Int64s {
			t.Int64s[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
		}
	default:
		return &FormatError{"TensorProto.data_type", fmt.Sprintf("tensor %q: data type %d not supported", t.Name, t.DataType)}
	}
	return nil
}

func decodeTensor(b []byte) (Tensor, error) {
	var t Tensor
	var raw []byte
	hasRaw := false
	err := walk(b, "TensorProto", func(f field) error {
		switch f.num {
		case 1:
			switch f.typ {
			case protowire.VarintType:
				t.Dims = append(t.Dims, int64(f.u))
			case protowire.BytesType:
				vs, err := packedVarints(f.b, "TensorProto.dims")
				if err != nil {
					return err
				}
				t.Dims = append(t.Dims, vs...)
			}
		case 2:
			t.DataType = int(f.u)
		case 4: // float_data, packed or not
			switch f.typ {
			case protowire.Fixed32Type:
				t.Floats = append(t.Floats, math.Float32frombits(uint32(f.u)))
			case protowire.BytesType:
				if len(f.b)%4 != 0 {
					return &FormatError{"TensorProto.float_data", "length not a multiple of 4"}
				}
				for i := 0; i < len(f.b); i += 4 {
					t.Floats = append(t.Floats, math.Float32frombits(binary.LittleEndian.Uint32(f.b[i:])))
				}
			}
		case 7: // int64_data
			switch f.typ {
			case protowire.VarintType:
				t.Int64s = append(t.Int64s, int64(f.u))
			case protowire.BytesType:
				vs, err := packedVarints(f.b, "TensorProto.int64_data")
				if err != nil {
					return err
				}
				t.Int64s = append(t.Int64s, vs...)
			}
		case 8:
			t.Name = string(f.b)
		case 9:
			raw, hasRaw = f.b, true
		}
		return nil
	})
	if err != nil {
		return t, err
	}
	for _, d := range t.Dims {
		if d < 0 || d > 1<<28 {
			return t, &FormatError{"TensorProto.dims", fmt.Sprintf("tensor %q: bad dimension %d", t.Name, d)}
		}
	}
	if hasRaw {
		if err := t.setRaw(raw); err != nil {
			return t, err
		}
	}
	// Values of the other type (float_data in an INT64 tensor) are
	// dropped: only those of DataType are the tensor's.
	var have int
	switch t.DataType {
	case Float:
		have, t.Int64s = len(t.Floats), nil
	case Int64:
		have, t.Floats = len(t.Int64s), nil
	default:
		return t, &FormatError{"TensorProto.data_type", fmt.Sprintf("tensor %q: data type %d not supported", t.Name, t.DataType)}
	}
	if !holds(t.Dims, int64(have)) {
		return t, &FormatError{"TensorProto", fmt.Sprintf("tensor %q: dims %v do not hold %d values", t.Name, t.Dims, have)}
	}
	return t, nil
}

// holds reports whether dims describe exactly have elements. It stops as
// soon as the product passes have, so a product too large for an int64
// cannot wrap round to have (Tensor.Size would).
func holds(dims []int64, have int64) bool {
	if slices.Contains(dims, 0) {
		return have == 0
	}
	size := int64(1)
	for _, d := range dims {
		if size > have/d {
			return false
		}
		size *= d
	}
	return size == have
}

func decodeValueInfo(b []byte) (ValueInfo, error) {
	var v ValueInfo
	err := walk(b, "ValueInfoProto", func(f field) error {
		switch f.num {
		case 1:
			v.Name = string(f.b)
		case 2: // TypeProto
			return walk(f.b, "TypeProto", func(f field) error {
				if f.num != 1 || f.typ != protowire.BytesType {
					return nil
				}
				return walk(f.b, "TypeProto.Tensor", func(f field) error {
					switch f.num {
					case 1:
						v.ElemType = int(f.u)
					case 2:
						return walk(f.b, "TensorShapeProto", func(f field) error {
							if f.num != 1 || f.typ != protowire.BytesType {
								return nil
							}
							d := int64(-1)
							err := walk(f.b, "TensorShapeProto.Dimension", func(f field) error {
								if f.num == 1 && f.typ == protowire.VarintType {
									d = int64(f.u)
								}
								return nil
							})
							v.Dims = append(v.Dims, d)
							return err
						})
					}
					return nil
				})
			})
		}
		return nil
	})
	return v, err
}

func packedVarints(b []byte, where string) ([]int64, error) {
	var vs []int64
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, &FormatError{where, protowire.ParseError(n).Error()}
		}
		vs = append(vs, int64(v))
		b = b[n:]
	}
	return vs, nil
}
