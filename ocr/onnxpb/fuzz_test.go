package onnxpb

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// FuzzDecode feeds Decode arbitrary bytes. It must not panic; it fails with
// a *FormatError or returns a model whose tensors hold as many values as
// their dims say, and which Encode writes back in a form that decodes to the
// same bytes again (Encode∘Decode is idempotent).
func FuzzDecode(f *testing.F) {
	f.Add(Encode(sample()))
	f.Add([]byte{})
	f.Add([]byte("not onnx"))
	for _, b := range handSeeds() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T %v, want *FormatError", err, err)
			}
			return
		}
		for _, tensor := range m.Graph.Initializers {
			size := big.NewInt(1)
			for _, d := range tensor.Dims {
				size.Mul(size, big.NewInt(d))
			}
			have := len(tensor.Floats) + len(tensor.Int64s)
			if size.Cmp(big.NewInt(int64(have))) != 0 {
				t.Fatalf("tensor %q: dims %v hold %v values, decoded %d", tensor.Name, tensor.Dims, size, have)
			}
		}
		once := Encode(m)
		m2, err := Decode(once)
		if err != nil {
			t.Fatalf("decoded model does not re-encode: %v", err)
		}
		if twice := Encode(m2); !bytes.Equal(once, twice) {
			t.Fatalf("encoding changed on the second round trip:\n%x\n%x", once, twice)
		}
	})
}

// handSeeds are encodings Encode does not write: packed dims and int64_data,
// float_data, unknown fields of every wire type, an ai.onnx opset.
func handSeeds() [][]byte {
	var tensor []byte
	tensor = appendPacked(tensor, 1, 2, 1) // dims [2,1], packed
	tensor = protowire.AppendTag(tensor, 2, protowire.VarintType)
	tensor = protowire.AppendVarint(tensor, Int64)
	tensor = appendString(tensor, 8, "s")
	tensor = appendPacked(tensor, 7, 5, 1<<40) // int64_data, packed
	var floats []byte
	floats = protowire.AppendTag(floats, 1, protowire.VarintType)
	floats = protowire.AppendVarint(floats, 2)
	floats = protowire.AppendTag(floats, 2, protowire.VarintType)
	floats = protowire.AppendVarint(floats, Float)
	for _, v := range []uint32{0x3f800000, 0x7fc00001} { // 1 and a NaN, unpacked
		floats = protowire.AppendTag(floats, 4, protowire.Fixed32Type)
		floats = protowire.AppendFixed32(floats, v)
	}
	var graph []byte
	graph = appendMessage(graph, 5, tensor)
	graph = appendMessage(graph, 5, floats)
	graph = protowire.AppendTag(graph, 99, protowire.Fixed64Type)
	graph = protowire.AppendFixed64(graph, 7)
	graph = protowire.AppendTag(graph, 98, protowire.StartGroupType)
	graph = protowire.AppendTag(graph, 98, protowire.EndGroupType)
	var op []byte
	op = appendString(op, 1, "ai.onnx")
	op = protowire.AppendTag(op, 2, protowire.VarintType)
	op = protowire.AppendVarint(op, 13)
	var model []byte
	model = appendMessage(model, 7, graph)
	model = appendMessage(model, 8, op)
	return [][]byte{model, graph, tensor}
}

func appendPacked(b []byte, num protowire.Number, vs ...uint64) []byte {
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, v)
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, p)
}

// TestHandSeeds: the hand-made encodings decode to what they spell.
func TestHandSeeds(t *testing.T) {
	m, err := Decode(handSeeds()[0])
	if err != nil {
		t.Fatal(err)
	}
	if m.Opset != 13 || len(m.Graph.Initializers) != 2 {
		t.Fatalf("opset %d, %d initialisers; want 13 and 2", m.Opset, len(m.Graph.Initializers))
	}
	s, f := m.Graph.Initializers[0], m.Graph.Initializers[1]
	if s.Name != "s" || len(s.Dims) != 2 || len(s.Int64s) != 2 || s.Int64s[1] != 1<<40 {
		t.Errorf("packed int64 tensor %+v", s)
	}
	if len(f.Floats) != 2 || f.Floats[0] != 1 {
		t.Errorf("float_data tensor %+v", f)
	}
}
