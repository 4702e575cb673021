package ocr

import (
	"errors"
	"strings"
	"testing"
)

// constant answers every image with p, or fails with err.
type constant struct {
	p   []float32
	err error
}

func (c constant) Classify(cells [][]float32) ([][]float32, error) {
	if c.err != nil {
		return nil, c.err
	}
	out := make([][]float32, len(cells))
	for i := range out {
		out[i] = c.p // shared on purpose: MeanOf must not write into it
	}
	return out, nil
}

func TestMeanOf(t *testing.T) {
	a := constant{p: []float32{0.8, 0.2}}
	b := constant{p: []float32{0.2, 0.8}}
	c := constant{p: []float32{0.5, 0.5}}
	tests := []struct {
		name    string
		members []Classifier
		want    []float32
		err     string
	}{
		{"two", []Classifier{a, b}, []float32{0.5, 0.5}, ""},
		{"three", []Classifier{a, a, c}, []float32{0.7, 0.3}, ""},
		{"one is itself", []Classifier{b}, []float32{0.2, 0.8}, ""},
		{"a member fails", []Classifier{a, constant{err: errors.New("broken")}}, nil, "member 2 of 2"},
		{"classes differ", []Classifier{a, constant{p: []float32{1, 0, 0}}}, nil, "3 classes"},
		{"none", nil, nil, "no classifiers"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := MeanOf(tc.members...)
			var got [][]float32
			if err == nil {
				got, err = m.Classify([][]float32{{0}, {1}})
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range got {
				for j := range tc.want {
					if d := p[j] - tc.want[j]; d > 1e-6 || d < -1e-6 {
						t.Fatalf("got %v, want %v for each cell", p, tc.want)
					}
				}
			}
			if a.p[0] != 0.8 || b.p[0] != 0.2 {
				t.Errorf("a member's output was changed: %v %v", a.p, b.p)
			}
		})
	}
}

// TestMeanWhereUnsure: the others are asked only about the cells the
// first is unsure of, and merge sees the first's reading, the others'
// and the mean.
func TestMeanWhereUnsure(t *testing.T) {
	first := &byCell{answers: map[float32][]float32{0: {0.9, 0.1}, 1: {0.4, 0.6}, 2: {0.99, 0.01}}}
	other := &byCell{answers: map[float32][]float32{0: {0, 1}, 1: {0, 1}, 2: {0, 1}}}
	sure := func(p []float32) bool { return p[0] >= 0.9 }
	tests := []struct {
		name  string
		merge Merge
		want  [][]float32
	}{
		{"mean", nil, [][]float32{{0.9, 0.1}, {0.2, 0.8}, {0.99, 0.01}}},
		{"merged", func(f, _, m []float32) []float32 { return []float32{f[0], m[1]} }, [][]float32{{0.9, 0.1}, {0.4, 0.8}, {0.99, 0.01}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			other.asked = nil
			c, err := MeanWhereUnsure(first, sure, tc.merge, other)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Classify([][]float32{{0}, {1}, {2}})
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.want {
				for j := range tc.want[i] {
					if d := got[i][j] - tc.want[i][j]; d > 1e-6 || d < -1e-6 {
						t.Fatalf("got %v, want %v", got, tc.want)
					}
				}
			}
			if len(other.asked) != 1 || other.asked[0] != 1 {
				t.Errorf("the other was asked about cells %v, want only [1]", other.asked)
			}
		})
	}
	// A failing other names the cell of the whole batch.
	bad := &byCell{answers: map[float32][]float32{}}
	c, _ := MeanWhereUnsure(first, sure, nil, bad)
	_, err := c.Classify([][]float32{{0}, {1}})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Cell != 1 {
		t.Errorf("err %v, want an InputError naming cell 1", err)
	}
}

// byCell answers an image by its first value and notes what it was asked.
type byCell struct {
	answers map[float32][]float32
	asked   []float32
}

func (b *byCell) Classify(cells [][]float32) ([][]float32, error) {
	out := make([][]float32, len(cells))
	for i, x := range cells {
		b.asked = append(b.asked, x[0])
		p, ok := b.answers[x[0]]
		if !ok {
			return nil, &InputError{Cell: i, Reason: "unknown image"}
		}
		out[i] = p
	}
	return out, nil
}

// TestPenKindOf: the kinds come from the mean, the handwritten digits'
// shares from the first model.
func TestPenKindOf(t *testing.T) {
	first := make([]float32, PenClasses)
	first[PenHand0+4], first[PenHand0+9] = 0.6, 0.2 // hand 0.8: 4 over 9, 3 to 1
	first[PenPrinted] = 0.2
	mean := make([]float32, PenClasses)
	mean[PenHand0+4], mean[PenHand0+9] = 0.1, 0.3 // hand 0.4: 9 over 4
	mean[PenPrinted] = 0.6
	got := PenKindOf(first, nil, mean)
	kind, kc, _, _ := PenDecide(got)
	if kind != KindPrinted || kc != 0.6 {
		t.Errorf("kind %v at %.2f, want printed at 0.60 (the mean's)", kind, kc)
	}
	near := func(a, b float32) bool { return a-b < 1e-6 && b-a < 1e-6 }
	if !near(got[PenHand0+4], 0.3) || !near(got[PenHand0+9], 0.1) {
		t.Errorf("hand 4 %.3f, 9 %.3f; want 0.3 and 0.1 (the mean's hand mass shared as the first shares it)", got[PenHand0+4], got[PenHand0+9])
	}
	if mean[PenHand0+4] != 0.1 {
		t.Error("PenKindOf changed its input")
	}
}

// TestPenKindOfSecondOpinion: where the mean reads a handwritten digit at
// EntrySureAt, the others must too, or the handwritten mass is theirs.
func TestPenKindOfSecondOpinion(t *testing.T) {
	reading := func(hand, unclear float32) []float32 {
		p := make([]float32, PenClasses)
		p[PenHand0+7], p[PenUnclear], p[PenPrinted] = hand, unclear, 1-hand-unclear
		return p
	}
	cases := []struct {
		name                string
		first, others, mean []float32
		hand                float32
	}{
		{"both sure", reading(0.9995, 0.0003), reading(0.998, 0.001), reading(0.99875, 0.00065), 0.99875},
		{"the others under the bar", reading(0.9995, 0.0003), reading(0.996, 0.003), reading(0.99775, 0.00165), 0.996},
		{"the mean under the bar already", reading(0.9995, 0.0003), reading(0.09, 0.9), reading(0.54475, 0.45015), 0.54475},
		{"no others", reading(0.9995, 0.0003), nil, reading(0.99875, 0.00065), 0.99875},
	}
	for _, tc := range cases {
		got := PenKindOf(tc.first, tc.others, tc.mean)
		var sum float32
		for _, v := range got {
			sum += v
		}
		if h := handShare(got); h-tc.hand > 1e-5 || tc.hand-h > 1e-5 || sum-1 > 1e-5 || 1-sum > 1e-5 {
			t.Errorf("%s: hand %.5f (sum %.5f), want %.5f", tc.name, h, sum, tc.hand)
		}
	}
}
