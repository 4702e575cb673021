package digitnet

import (
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"github.com/sudokuar/sudokuar/ocr/onnxpb"
)

func TestONNXRoundTrip(t *testing.T) {
	w := Init(Arch{C1: 3, C2: 5, Hidden: 7}, rand.New(rand.NewSource(1)))
	got, err := FromONNX(w.ONNX())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Error("weights changed in the round trip")
	}
}

// TestFromONNXRejects: FromONNX refuses weights that do not fit the
// architecture and graphs other than the one Model writes.
func TestFromONNXRejects(t *testing.T) {
	w := Init(Arch{C1: 3, C2: 5, Hidden: 7}, rand.New(rand.NewSource(1)))
	cases := []struct {
		name   string
		change func(g *onnxpb.Graph)
	}{
		{"missing fc2.b", func(g *onnxpb.Graph) { g.Initializers = g.Initializers[:len(g.Initializers)-1] }},
		{"fc1.w turned", func(g *onnxpb.Graph) { d := g.Initializers[4].Dims; g.Initializers[4].Dims = []int64{d[1], d[0]} }},
		{"short bias", func(g *onnxpb.Graph) {
			g.Initializers[1].Dims = []int64{2}
			g.Initializers[1].Floats = g.Initializers[1].Floats[:2]
		}},
		{"one node fewer", func(g *onnxpb.Graph) { g.Nodes = g.Nodes[:len(g.Nodes)-1] }},
		{"one node more", func(g *onnxpb.Graph) {
			g.Nodes = append(g.Nodes, onnxpb.Node{OpType: "Relu", Inputs: []string{"logits"}, Outputs: []string{"out"}})
		}},
		{"other operator", func(g *onnxpb.Graph) { g.Nodes[1].OpType = "Sigmoid" }},
		{"rewired", func(g *onnxpb.Graph) { g.Nodes[2].Inputs = []string{"conv1", "conv2.w", "conv2.b"} }},
		{"inputs run together", func(g *onnxpb.Graph) { g.Nodes[2].Inputs = []string{"relu1 conv2.w", "conv2.b"} }},
		{"other output", func(g *onnxpb.Graph) { g.Nodes[1].Outputs = []string{"relu1", "extra"} }},
		{"other stride", func(g *onnxpb.Graph) {
			g.Nodes[0].Attrs = slices.Clone(g.Nodes[0].Attrs)
			g.Nodes[0].Attrs[2].Ints = []int64{1, 1}
		}},
		{"attribute dropped", func(g *onnxpb.Graph) { g.Nodes[5].Attrs = nil }},
		{"attribute kind", func(g *onnxpb.Graph) {
			g.Nodes[4].Attrs = []onnxpb.Attr{{Name: "axis", Kind: onnxpb.AttrFloat, Float: 1}}
		}},
		{"input renamed", func(g *onnxpb.Graph) { g.Inputs[0].Name = "x" }},
		{"two inputs", func(g *onnxpb.Graph) { g.Inputs = append(g.Inputs, g.Inputs[0]) }},
		{"output renamed", func(g *onnxpb.Graph) { g.Outputs[0].Name = "y" }},
		{"no outputs", func(g *onnxpb.Graph) { g.Outputs = nil }},
	}
	for _, tc := range cases {
		m, err := onnxpb.Decode(w.ONNX()) // a fresh copy each time
		if err != nil {
			t.Fatal(err)
		}
		tc.change(&m.Graph)
		if _, err := FromONNX(onnxpb.Encode(m)); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := FromONNX([]byte("not onnx")); err == nil {
		t.Error("garbage: no error")
	}
}

// TestTrainerLearns: a few Adam steps on a fixed batch of two easy classes
// must bring the loss down and get the batch right, and Weights must carry
// what was learnt (Forward agrees with the trainer's own predictions).
func TestTrainerLearns(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const batch = 16
	x := make([]float32, batch*Side*Side)
	y := make([]int, batch)
	for i := 0; i < batch; i++ {
		y[i] = 1 + i%2
		for r := 4; r < 24; r++ {
			for c := 4; c < 24; c++ {
				// class 1: a vertical bar; class 2: a horizontal bar
				if (y[i] == 1 && c >= 12 && c < 16) || (y[i] == 2 && r >= 12 && r < 16) {
					x[i*Side*Side+r*Side+c] = 0.8 + 0.2*rng.Float32()
				}
			}
		}
	}
	tr, err := NewTrainer(Init(Arch{C1: 4, C2: 4, Hidden: 8}, rng), batch, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	first, _, err := tr.Step(x, y)
	if err != nil {
		t.Fatal(err)
	}
	var last float64
	for i := 0; i < 30; i++ {
		if last, _, err = tr.Step(x, y); err != nil {
			t.Fatal(err)
		}
	}
	if last > first/4 {
		t.Errorf("loss %.4f → %.4f after 30 steps", first, last)
	}
	logits, err := Forward(tr.Weights(), x, batch)
	if err != nil {
		t.Fatal(err)
	}
	for i := range y {
		if got := Argmax(logits[i*Classes : (i+1)*Classes]); got != y[i] {
			t.Errorf("sample %d: class %d, want %d", i, got, y[i])
		}
	}
	if _, _, err := tr.Step(x, y[:3]); err == nil {
		t.Error("short label batch accepted")
	}
}
