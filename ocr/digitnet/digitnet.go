// Package digitnet defines sudokuar's digit CNN: its weights, the gorgonia
// graph that trains it, and its export to (and import from) ONNX.
// In: batches of cells, In stacked CellSize² views in [0,1] (1 for the
// digit models; labels when training).
// Out: logits per cell (softmax is the caller's), trained Weights, and the
// ONNX bytes package ocr runs. Two strided 3×3 convolutions (not pooling:
// cheaper in gorgonia) and two Gemm layers, using only operators both
// onnx-go and OpenCV DNN run; models/README.md has the architecture.
package digitnet

import (
	"fmt"
	"math"
	"math/rand"
	"slices"

	"github.com/sudokuar/sudokuar/ocr/onnxpb"
)

// Side is the input image side in pixels (vision.CellSize).
const Side = 28

// Classes is the number of outputs of the first models: 0 = empty, 1..9 =
// digits. Models with more outputs read more glyphs (see package ocr's
// Glyph); Arch.Classes says how many a model has.
const Classes = 10

// Arch gives the layer widths.
type Arch struct {
	C1, C2 int // filters of the two convolutions
	Hidden int // units of the hidden fully connected layer
	// Classes is the number of outputs; 0 means the original 10.
	Classes int
	// In is the number of input channels (28×28 views of a cell stacked);
	// 0 means 1, the digit models' single view.
	In int
}

// Channels is the number of input channels.
func (a Arch) Channels() int {
	if a.In <= 0 {
		return 1
	}
	return a.In
}

// MaxChannels bounds the input channels a model file may declare.
const MaxChannels = 8

// Outputs is the number of logits per cell.
func (a Arch) Outputs() int {
	if a.Classes <= 0 {
		return Classes
	}
	return a.Classes
}

// DefaultArch is the architecture shipped in models/digits.onnx.
var DefaultArch = Arch{C1: 8, C2: 16, Hidden: 64, Classes: 25}

// flat is the length of the flattened feature map after the second conv.
func (a Arch) flat() int { return a.C2 * 7 * 7 }

// MACs is the number of multiply-accumulates to classify one cell.
func (a Arch) MACs() int {
	conv1 := 14 * 14 * a.C1 * 9 * a.Channels()
	conv2 := 7 * 7 * a.C2 * a.C1 * 9
	return conv1 + conv2 + a.flat()*a.Hidden + a.Hidden*a.Outputs()
}

// MaxClasses bounds the outputs a model file may declare.
const MaxClasses = 64

// Scale divides the last layer by t (temperature scaling): the logits
// become logits/t, so the softmax is softer for t > 1. Calibration fits t
// after training and bakes it into the file, so every runtime gives
// calibrated probabilities.
func (w *Weights) Scale(t float32) {
	for i := range w.FC2W {
		w.FC2W[i] /= t
	}
	for i := range w.FC2B {
		w.FC2B[i] /= t
	}
}

// Weights holds all parameters, row-major, in the layouts the ONNX file uses:
// conv weights [out,in,3,3], fully connected weights [out,in] (Gemm with
// transB=1, the layout OpenCV's importer expects), biases [out].
type Weights struct {
	Arch           Arch
	Conv1W, Conv1B []float32
	Conv2W, Conv2B []float32
	FC1W, FC1B     []float32
	FC2W, FC2B     []float32
}

// Init returns He-initialised weights (zero biases) drawn from rng.
func Init(a Arch, rng *rand.Rand) Weights {
	a.Classes = a.Outputs()
	a.In = a.Channels()
	he := func(n, fanIn int) []float32 {
		s := math.Sqrt(2 / float64(fanIn))
		w := make([]float32, n)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * s)
		}
		return w
	}
	return Weights{
		Arch:   a,
		Conv1W: he(a.C1*a.In*9, a.In*9),
		Conv1B: make([]float32, a.C1),
		Conv2W: he(a.C2*a.C1*9, a.C1*9),
		Conv2B: make([]float32, a.C2),
		FC1W:   he(a.flat()*a.Hidden, a.flat()),
		FC1B:   make([]float32, a.Hidden),
		FC2W:   he(a.Hidden*a.Outputs(), a.Hidden),
		FC2B:   make([]float32, a.Outputs()),
	}
}

// params lists the tensors in a fixed order with their ONNX names and dims.
func (w *Weights) params() []param {
	a := w.Arch
	return []param{
		{"conv1.w", []int64{int64(a.C1), int64(a.Channels()), 3, 3}, &w.Conv1W, false},
		{"conv1.b", []int64{int64(a.C1)}, &w.Conv1B, false},
		{"conv2.w", []int64{int64(a.C2), int64(a.C1), 3, 3}, &w.Conv2W, false},
		{"conv2.b", []int64{int64(a.C2)}, &w.Conv2B, false},
		{"fc1.w", []int64{int64(a.Hidden), int64(a.flat())}, &w.FC1W, true},
		{"fc1.b", []int64{int64(a.Hidden)}, &w.FC1B, false},
		{"fc2.w", []int64{int64(a.Outputs()), int64(a.Hidden)}, &w.FC2W, true},
		{"fc2.b", []int64{int64(a.Outputs())}, &w.FC2B, false},
	}
}

type param struct {
	name string
	dims []int64
	data *[]float32
	fc   bool // fully connected weight, [out,in]
}

// Input and output names in the ONNX graph.
const (
	InputName  = "cells"
	OutputName = "logits"
)

// Opset is the ONNX operator set version written. Version 9 keeps Gemm's C
// input and Flatten in forms both onnx-go v0.5.0 and OpenCV 4.6 read.
const Opset = 9

// ONNX returns the network as ONNX model bytes with input "cells"
// [N,In,28,28] and output "logits" [N,Classes] (N left symbolic).
func (w Weights) ONNX() []byte { return onnxpb.Encode(w.Model()) }

// Model returns the network as the ONNX model value ONNX encodes; its
// tensors share w's slices.
func (w Weights) Model() onnxpb.Model {
	ints := func(name string, v ...int64) onnxpb.Attr {
		return onnxpb.Attr{Name: name, Kind: onnxpb.AttrInts, Ints: v}
	}
	convAttrs := []onnxpb.Attr{ints("kernel_shape", 3, 3), ints("pads", 1, 1, 1, 1), ints("strides", 2, 2), ints("dilations", 1, 1)}
	transB := onnxpb.Attr{Name: "transB", Kind: onnxpb.AttrInt, Int: 1}
	node := func(op string, in []string, out string, attrs ...onnxpb.Attr) onnxpb.Node {
		return onnxpb.Node{Name: out, OpType: op, Inputs: in, Outputs: []string{out}, Attrs: attrs}
	}
	g := onnxpb.Graph{
		Name: "sudokuar-digits",
		Nodes: []onnxpb.Node{
			node("Conv", []string{InputName, "conv1.w", "conv1.b"}, "conv1", convAttrs...),
			node("Relu", []string{"conv1"}, "relu1"),
			node("Conv", []string{"relu1", "conv2.w", "conv2.b"}, "conv2", convAttrs...),
			node("Relu", []string{"conv2"}, "relu2"),
			node("Flatten", []string{"relu2"}, "flat", onnxpb.Attr{Name: "axis", Kind: onnxpb.AttrInt, Int: 1}),
			node("Gemm", []string{"flat", "fc1.w", "fc1.b"}, "fc1", transB),
			node("Relu", []string{"fc1"}, "relu3"),
			node("Gemm", []string{"relu3", "fc2.w", "fc2.b"}, OutputName, transB),
		},
		Inputs:  []onnxpb.ValueInfo{{Name: InputName, ElemType: onnxpb.Float, Dims: []int64{-1, int64(w.Arch.Channels()), Side, Side}}},
		Outputs: []onnxpb.ValueInfo{{Name: OutputName, ElemType: onnxpb.Float, Dims: []int64{-1, int64(w.Arch.Outputs())}}},
	}
	for _, p := range w.params() {
		g.Initializers = append(g.Initializers, onnxpb.Tensor{Name: p.name, Dims: p.dims, DataType: onnxpb.Float, Floats: *p.data})
	}
	return onnxpb.Model{IRVersion: 6, Opset: Opset, ProducerName: "github.com/sudokuar/sudokuar/cmd/train", Graph: g}
}

// FromONNX reads weights from model bytes, decoding them once. It checks
// that every tensor is present with the dims the architecture implies and
// that the graph is the one Model writes for them (same operators in the
// same order, wired the same way, same attributes, one input "cells" and
// one output "logits"), so that no runtime sees another graph.
func FromONNX(data []byte) (Weights, error) {
	m, err := onnxpb.Decode(data)
	if err != nil {
		return Weights{}, err
	}
	w, err := weights(m.Graph)
	if err != nil {
		return Weights{}, err
	}
	if err := sameGraph(m.Graph, w.Model().Graph); err != nil {
		return Weights{}, err
	}
	return w, nil
}

// weights reads the architecture and parameters from g's initialisers.
func weights(g onnxpb.Graph) (Weights, error) {
	byName := map[string]onnxpb.Tensor{}
	for _, t := range g.Initializers {
		byName[t.Name] = t
	}
	dim := func(name string, i int) int {
		t, ok := byName[name]
		if !ok || len(t.Dims) <= i {
			return 0
		}
		return int(t.Dims[i])
	}
	w := Weights{Arch: Arch{C1: dim("conv1.w", 0), C2: dim("conv2.w", 0), Hidden: dim("fc1.w", 0), Classes: dim("fc2.w", 0), In: dim("conv1.w", 1)}}
	if w.Arch.C1 == 0 || w.Arch.C2 == 0 || w.Arch.Hidden == 0 || w.Arch.Classes == 0 {
		return Weights{}, fmt.Errorf("not a digitnet model: missing conv1.w, conv2.w, fc1.w or fc2.w")
	}
	if w.Arch.In < 1 || w.Arch.In > MaxChannels {
		return Weights{}, fmt.Errorf("conv1.w has %d input channels, want 1..%d", w.Arch.In, MaxChannels)
	}
	if w.Arch.Classes < Classes || w.Arch.Classes > MaxClasses {
		return Weights{}, fmt.Errorf("fc2.w has %d outputs, want %d..%d", w.Arch.Classes, Classes, MaxClasses)
	}
	for _, p := range w.params() {
		t, ok := byName[p.name]
		if !ok {
			return Weights{}, fmt.Errorf("not a digitnet model: missing tensor %s", p.name)
		}
		if !slices.Equal(t.Dims, p.dims) {
			return Weights{}, fmt.Errorf("tensor %s has dims %v, want %v", p.name, t.Dims, p.dims)
		}
		*p.data = t.Floats
	}
	return w, nil
}

// sameGraph says how g differs from want in its nodes (operator, inputs,
// outputs, attributes; names are free) and its input and output names.
func sameGraph(g, want onnxpb.Graph) error {
	if len(g.Nodes) != len(want.Nodes) {
		return fmt.Errorf("graph has %d nodes, want %d", len(g.Nodes), len(want.Nodes))
	}
	for i, n := range g.Nodes {
		wn := want.Nodes[i]
		if n.OpType != wn.OpType || !slices.Equal(n.Inputs, wn.Inputs) || !slices.Equal(n.Outputs, wn.Outputs) {
			return fmt.Errorf("node %d is %s%v→%v, want %s%v→%v", i, n.OpType, n.Inputs, n.Outputs, wn.OpType, wn.Inputs, wn.Outputs)
		}
		if !slices.EqualFunc(n.Attrs, wn.Attrs, sameAttr) {
			return fmt.Errorf("node %d (%s) has attributes %v, want %v", i, n.OpType, n.Attrs, wn.Attrs)
		}
	}
	if len(g.Inputs) != 1 || g.Inputs[0].Name != InputName {
		return fmt.Errorf("graph inputs %v, want one called %q", g.Inputs, InputName)
	}
	if len(g.Outputs) != 1 || g.Outputs[0].Name != OutputName {
		return fmt.Errorf("graph outputs %v, want one called %q", g.Outputs, OutputName)
	}
	return nil
}

func sameAttr(a, b onnxpb.Attr) bool {
	return a.Name == b.Name && a.Kind == b.Kind && a.Float == b.Float && a.Int == b.Int && slices.Equal(a.Ints, b.Ints)
}
