package ocr

import (
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// goEngine is the tensor engine the Go backend's gorgonia machines run
// with: gorgonia's CPU engine, with float32 fast paths for what the
// models' graphs spend most on outside arithmetic (the profile of
// BenchmarkReadPenPages, docs/performance.md): the transpose of each
// convolution's output to N×C×H×W, which gorgonia walks with a general
// iterator, the repeat that broadcasts a convolution's bias, which it
// copies one value at a time, and Relu's compare (GteScalar). They give
// the same values as gorgonia's; any other case goes to gorgonia's
// engine.
//
// One engine serves one graph: tmp is scratch reused across runs, and a
// graph runs under its classifier's lock.
type goEngine struct {
	gorgonia.StandardEngine
	tmp []float32
}

// maxFastDims is the most dimensions the fast paths handle.
const maxFastDims = 4

// Transpose moves a's data into the order of its transposed view (its
// shape and strides), as gorgonia.StandardEngine.Transpose does.
func (e *goEngine) Transpose(a tensor.Tensor, expStrides []int) error {
	d, ok := a.(*tensor.Dense)
	if !ok || d.Dtype() != tensor.Float32 || !d.IsNativelyAccessible() || d.DataOrder().IsColMajor() ||
		len(d.Shape()) == 0 || len(d.Shape()) > maxFastDims || len(d.Strides()) != len(d.Shape()) {
		return e.StandardEngine.Transpose(a, expStrides)
	}
	data, ok := d.Data().([]float32)
	if !ok {
		return e.StandardEngine.Transpose(a, expStrides)
	}
	// The view padded to four dimensions in front (size 1, stride 0).
	var shape, strides [maxFastDims]int
	pad := maxFastDims - len(d.Shape())
	for i := range shape {
		shape[i] = 1
	}
	copy(shape[pad:], d.Shape())
	copy(strides[pad:], d.Strides())
	size := shape[0] * shape[1] * shape[2] * shape[3]
	if size > len(data) {
		return e.StandardEngine.Transpose(a, expStrides)
	}
	if cap(e.tmp) < size {
		e.tmp = make([]float32, size)
	}
	tmp := e.tmp[:size]
	k := 0
	for i0 := 0; i0 < shape[0]; i0++ {
		o0 := i0 * strides[0]
		for i1 := 0; i1 < shape[1]; i1++ {
			o1 := o0 + i1*strides[1]
			for i2 := 0; i2 < shape[2]; i2++ {
				o2 := o1 + i2*strides[2]
				for i3 := 0; i3 < shape[3]; i3++ {
					tmp[k] = data[o2+i3*strides[3]]
					k++
				}
			}
		}
	}
	copy(data, tmp)
	return nil
}

// RepeatReuse repeats t's slabs along axis into reuse, as tensor.StdEng
// does.
func (e *goEngine) RepeatReuse(t, reuse tensor.Tensor, axis int, repeats ...int) (tensor.Tensor, error) {
	src, ok1 := t.(*tensor.Dense)
	dst, ok2 := reuse.(*tensor.Dense)
	if !ok1 || !ok2 || !e.fastRepeat(src, dst, axis, repeats) {
		return e.StandardEngine.RepeatReuse(t, reuse, axis, repeats...)
	}
	return dst, nil
}

// fastRepeat repeats src along axis into dst when both are plain
// row-major float32 tensors of two to maxFastDims dimensions, reporting
// whether it did.
func (e *goEngine) fastRepeat(src, dst *tensor.Dense, axis int, repeats []int) bool {
	s := src.Shape()
	if src.Dtype() != tensor.Float32 || dst.Dtype() != tensor.Float32 || len(s) < 2 || len(s) > maxFastDims ||
		axis < 0 || axis >= len(s) || src.IsMasked() || dst.IsMasked() ||
		!src.IsNativelyAccessible() || !dst.IsNativelyAccessible() ||
		src.DataOrder().IsColMajor() || dst.DataOrder().IsColMajor() ||
		src.RequiresIterator() || dst.RequiresIterator() {
		return false
	}
	want, reps, size, err := s.Repeat(axis, repeats...)
	if err != nil || size != s[axis] || !dst.Shape().Eq(want) {
		return false
	}
	in, ok1 := src.Data().([]float32)
	out, ok2 := dst.Data().([]float32)
	if !ok1 || !ok2 || len(in) != s.TotalSize() || len(out) != want.TotalSize() {
		return false
	}
	inner := 1
	for _, n := range s[axis+1:] {
		inner *= n
	}
	outers := len(in) / max(s[axis]*inner, 1)
	k, at := 0, 0
	for o := 0; o < outers; o++ {
		for j := 0; j < size; j++ {
			slab := in[at : at+inner]
			at += inner
			if inner == 1 {
				v := slab[0]
				for r := 0; r < reps[j]; r++ {
					out[k+r] = v
				}
				k += reps[j]
				continue
			}
			for r := 0; r < reps[j]; r++ {
				copy(out[k:k+inner], slab)
				k += inner
			}
		}
	}
	return true
}

// GteScalar compares t's values with s (t >= s, leftTensor), as
// tensor.StdEng does; for a float32 tensor asked for a result of its own
// type (as gorgonia's Relu asks: 1 where t >= s, else 0) without a
// branch per value, whose outcome on a convolution's output the CPU
// cannot predict.
func (e *goEngine) GteScalar(t tensor.Tensor, s interface{}, leftTensor bool, opts ...tensor.FuncOpt) (tensor.Tensor, error) {
	in, ok := t.(*tensor.Dense)
	sv, isF32 := s.(float32)
	if !ok || !isF32 || !leftTensor || in.Dtype() != tensor.Float32 || in.IsMasked() || !in.IsNativelyAccessible() || in.RequiresIterator() {
		return e.StandardEngine.GteScalar(t, s, leftTensor, opts...)
	}
	fo := tensor.ParseFuncOpts(opts...)
	if !fo.Same() || !fo.Safe() || fo.Reuse() != nil || fo.Incr() != nil || fo.As() != (tensor.Dtype{}) {
		return e.StandardEngine.GteScalar(t, s, leftTensor, opts...)
	}
	a, ok := in.Data().([]float32)
	if !ok || len(a) != in.Shape().TotalSize() {
		return e.StandardEngine.GteScalar(t, s, leftTensor, opts...)
	}
	out := make([]float32, len(a))
	for i, v := range a {
		out[i] = gte(v, sv)
	}
	return tensor.New(tensor.WithShape(in.Shape().Clone()...), tensor.WithBacking(out), tensor.WithEngine(e)), nil
}

// gte is 1 when v >= s, else 0 (also for NaN); Go compiles it without a
// branch (a SETcc), a float32 result with one it does not.
func gte(v, s float32) float32 {
	var r int32
	if v >= s {
		r = 1
	}
	return float32(r)
}
