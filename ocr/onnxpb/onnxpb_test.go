package onnxpb

import (
	"errors"
	"reflect"
	"testing"
)

func sample() Model {
	return Model{
		IRVersion:    6,
		Opset:        9,
		ProducerName: "test",
		Graph: Graph{
			Name: "g",
			Nodes: []Node{
				{Name: "c", OpType: "Conv", Inputs: []string{"x", "w"}, Outputs: []string{"y"}, Attrs: []Attr{
					{Name: "kernel_shape", Kind: AttrInts, Ints: []int64{3, 3}},
					{Name: "group", Kind: AttrInt, Int: 1},
					{Name: "alpha", Kind: AttrFloat, Float: 0.25},
				}},
				{Name: "r", OpType: "Reshape", Inputs: []string{"y", "s"}, Outputs: []string{"z"}},
			},
			Initializers: []Tensor{
				{Name: "w", Dims: []int64{2, 1, 3, 3}, DataType: Float, Floats: []float32{1, -2, 3.5, 0, 0, 0, 1e-7, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1}},
				{Name: "s", Dims: []int64{2}, DataType: Int64, Int64s: []int64{-1, 1 << 40}},
			},
			Inputs:  []ValueInfo{{Name: "x", ElemType: Float, Dims: []int64{-1, 1, 28, 28}}},
			Outputs: []ValueInfo{{Name: "z", ElemType: Float, Dims: []int64{-1, 10}}},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	m := sample()
	got, err := Decode(Encode(m))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, m)
	}
}

// TestEveryPrefix cuts the encoding at every length: each prefix must decode
// or fail with a FormatError, never panic. Most prefixes must fail.
func TestEveryPrefix(t *testing.T) {
	data := Encode(sample())
	failed := 0
	for n := 0; n < len(data); n++ {
		_, err := Decode(data[:n])
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("prefix %d: error %T %v, want *FormatError", n, err, err)
			}
			failed++
		}
	}
	if failed < len(data)*9/10 {
		t.Errorf("only %d of %d truncated encodings were rejected", failed, len(data))
	}
}

func TestBadTensors(t *testing.T) {
	cases := map[string]Tensor{
		"too few floats": {Name: "a", Dims: []int64{3}, DataType: Float, Floats: []float32{1, 2}},
		"too many int64": {Name: "b", Dims: []int64{1}, DataType: Int64, Int64s: []int64{1, 2}},
		"unknown type":   {Name: "c", Dims: []int64{1}, DataType: 11},
		// 2^84 elements wrap to 0 in an int64 product.
		"dims overflow": {Name: "d", Dims: []int64{1 << 28, 1 << 28, 1 << 28}, DataType: Float},
	}
	for name, tensor := range cases {
		m := sample()
		m.Graph.Initializers = []Tensor{tensor}
		if _, err := Decode(Encode(m)); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}
