package ocr

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// randomDense is a float32 tensor of shape s with random values, run by e.
func randomDense(rng *rand.Rand, e tensor.Engine, s ...int) *tensor.Dense {
	data := make([]float32, tensor.Shape(s).TotalSize())
	for i := range data {
		data[i] = rng.Float32()
	}
	return tensor.New(tensor.WithShape(s...), tensor.WithBacking(data), tensor.WithEngine(e))
}

// TestGoEngineMovesAsGorgonia: goEngine's transpose and repeat give the
// values gorgonia's engine gives, for the patterns the models' graphs use
// and others.
func TestGoEngineMovesAsGorgonia(t *testing.T) {
	transposes := []struct {
		shape, axes []int
	}{
		{[]int{3, 14, 14, 8}, []int{0, 3, 1, 2}}, // a convolution's output
		{[]int{2, 7, 7, 16}, []int{0, 3, 1, 2}},
		{[]int{5, 6}, []int{1, 0}},
		{[]int{2, 3, 4}, []int{2, 0, 1}},
		{[]int{2, 3, 4, 5}, []int{3, 2, 1, 0}},
		{[]int{2, 3, 4, 5, 2}, []int{4, 0, 3, 1, 2}}, // five dimensions: gorgonia's
	}
	for _, tc := range transposes {
		t.Run(fmt.Sprintf("transpose %v %v", tc.shape, tc.axes), func(t *testing.T) {
			rng := rand.New(rand.NewSource(1))
			want := randomDense(rng, gorgonia.StandardEngine{}, tc.shape...)
			got := randomDense(rand.New(rand.NewSource(1)), &goEngine{}, tc.shape...)
			for _, d := range []*tensor.Dense{want, got} {
				if err := d.T(tc.axes...); err != nil {
					t.Fatal(err)
				}
				if err := d.Transpose(); err != nil {
					t.Fatal(err)
				}
			}
			if !got.Shape().Eq(want.Shape()) || !slices.Equal(got.Data().([]float32), want.Data().([]float32)) {
				t.Errorf("got %v %v, want %v %v", got.Shape(), got.Data(), want.Shape(), want.Data())
			}
		})
	}
	repeats := []struct {
		shape   []int
		axis    int
		repeats []int
	}{
		{[]int{1, 8, 1, 1}, 0, []int{3}}, // a convolution's bias broadcast
		{[]int{3, 8, 1, 1}, 2, []int{14}},
		{[]int{3, 8, 14, 1}, 3, []int{14}},
		{[]int{4, 3}, 1, []int{1, 2, 3}},
		{[]int{4, 3}, 0, []int{2, 0, 1, 3}},
		{[]int{2, 3, 4}, 1, []int{2}},
		{[]int{5}, 0, []int{2}}, // a vector: gorgonia's
	}
	for _, tc := range repeats {
		t.Run(fmt.Sprintf("repeat %v axis %d %v", tc.shape, tc.axis, tc.repeats), func(t *testing.T) {
			rng := rand.New(rand.NewSource(2))
			src := randomDense(rng, gorgonia.StandardEngine{}, tc.shape...)
			want, err := tensor.StdEng{}.Repeat(src, tc.axis, tc.repeats...)
			if err != nil {
				t.Fatal(err)
			}
			reuse := tensor.New(tensor.WithShape(want.Shape()...), tensor.Of(tensor.Float32))
			for i, v := range reuse.Data().([]float32) { // not zero: all of it must be written
				reuse.Data().([]float32)[i] = v - 1
			}
			got, err := (&goEngine{}).RepeatReuse(src, reuse, tc.axis, tc.repeats...)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Shape().Eq(want.Shape()) || !slices.Equal(got.Data().([]float32), want.Data().([]float32)) {
				t.Errorf("got %v %v, want %v %v", got.Shape(), got.Data(), want.Shape(), want.Data())
			}
		})
	}
	t.Run("relu's compare", func(t *testing.T) {
		x := randomDense(rand.New(rand.NewSource(3)), gorgonia.StandardEngine{}, 2, 3, 4, 5)
		data := x.Data().([]float32)
		for i := range data {
			data[i] -= 0.5
		}
		data[0], data[1], data[2], data[3] = 0, float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1))
		for _, s := range []float32{0, 0.25} {
			want, err := tensor.StdEng{}.GteScalar(x, s, true, tensor.AsSameType())
			if err != nil {
				t.Fatal(err)
			}
			got, err := (&goEngine{}).GteScalar(x, s, true, tensor.AsSameType())
			if err != nil {
				t.Fatal(err)
			}
			if !got.Shape().Eq(want.Shape()) || !slices.Equal(got.Data().([]float32), want.Data().([]float32)) {
				t.Errorf(">= %g: got %v %v, want %v %v", s, got.Shape(), got.Data(), want.Shape(), want.Data())
			}
		}
	})
}
