package digitnet

import (
	"math/rand"
	"reflect"
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

func TestFromONNXRejects(t *testing.T) {
	w := Init(Arch{C1: 3, C2: 5, Hidden: 7}, rand.New(rand.NewSource(1)))
	m, err := onnxpb.Decode(w.ONNX())
	if err != nil {
		t.Fatal(err)
	}
	drop := m
	drop.Graph.Initializers = m.Graph.Initializers[:len(m.Graph.Initializers)-1]
	reshaped := m
	reshaped.Graph.Initializers = append([]onnxpb.Tensor(nil), m.Graph.Initializers...)
	reshaped.Graph.Initializers[4].Dims = []int64{reshaped.Graph.Initializers[4].Dims[1], reshaped.Graph.Initializers[4].Dims[0]}
	for name, data := range map[string][]byte{
		"missing fc2.b": onnxpb.Encode(drop),
		"fc1.w turned":  onnxpb.Encode(reshaped),
		"garbage":       []byte("not onnx"),
	} {
		if _, err := FromONNX(data); err == nil {
			t.Errorf("%s: no error", name)
		}
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
