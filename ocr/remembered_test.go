package ocr

import (
	"errors"
	"testing"
)

// counting answers each image with its first value, counts the images it
// was asked, and refuses an image whose first value is negative.
type counting struct{ asked int }

func (c *counting) Classify(cells [][]float32) ([][]float32, error) {
	c.asked += len(cells)
	out := make([][]float32, len(cells))
	for i, x := range cells {
		if x[0] < 0 {
			return nil, &InputError{Cell: i, Reason: "negative"}
		}
		out[i] = []float32{x[0]}
	}
	return out, nil
}

func TestRemembered(t *testing.T) {
	inner := &counting{}
	m := &remembered{c: inner, seen: map[*float32][]float32{}}
	a, b, bad := []float32{1}, []float32{2}, []float32{-1}
	if _, err := m.Classify([][]float32{a, b}); err != nil {
		t.Fatal(err)
	}
	got, err := m.Classify([][]float32{b, a, {3}})
	if err != nil {
		t.Fatal(err)
	}
	if inner.asked != 3 || got[0][0] != 2 || got[1][0] != 1 || got[2][0] != 3 {
		t.Errorf("asked %d images, got %v; want 3 asked and [[2] [1] [3]]", inner.asked, got)
	}
	got[0][0] = 9 // a caller changing its result leaves the memory alone
	if again, _ := m.Classify([][]float32{b}); again[0][0] != 2 {
		t.Errorf("remembered %v after a caller changed its copy, want [2]", again[0])
	}
	var ie *InputError
	if _, err := m.Classify([][]float32{a, b, bad}); !errors.As(err, &ie) || ie.Cell != 2 {
		t.Errorf("error %v, want an InputError for image 2 of the batch", err)
	}
}
