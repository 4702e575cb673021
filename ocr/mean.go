package ocr

import (
	"errors"
	"fmt"
)

// meanOf is a Classifier whose output for each cell is the arithmetic mean
// of its members' probabilities: models trained alike from other seeds
// err on different cells, and their mean errs less than any of them.
type meanOf struct {
	members []Classifier
}

// MeanOf returns a Classifier averaging the probabilities of cs, which
// must read the same inputs into the same classes. Closing it closes
// them. One member is returned as it is.
func MeanOf(cs ...Classifier) (Classifier, error) {
	switch len(cs) {
	case 0:
		return nil, errors.New("ocr: a mean of no classifiers")
	case 1:
		return cs[0], nil
	}
	return &meanOf{members: cs}, nil
}

// Classify runs every member on cells and averages what they say.
func (m *meanOf) Classify(cells [][]float32) ([][]float32, error) {
	var sum [][]float32
	for k, c := range m.members {
		probs, err := classify(c, cells)
		if err != nil {
			return nil, fmt.Errorf("member %d of %d: %w", k+1, len(m.members), err)
		}
		if sum == nil {
			sum = make([][]float32, len(probs))
			for i, p := range probs {
				sum[i] = append([]float32(nil), p...) // a member may reuse its output
			}
			continue
		}
		for i, p := range probs {
			if len(p) != len(sum[i]) {
				return nil, fmt.Errorf("member %d of %d gives %d classes, member 1 %d", k+1, len(m.members), len(p), len(sum[i]))
			}
			for j, v := range p {
				sum[i][j] += v
			}
		}
	}
	w := 1 / float32(len(m.members))
	for _, p := range sum {
		for j := range p {
			p[j] *= w
		}
	}
	return sum, nil
}

// Glyphs is the members' glyph count (the first member's: they agree).
func (m *meanOf) Glyphs() int { return glyphCount(m.members[0]) }

// Close closes every member.
func (m *meanOf) Close() error {
	var errs []error
	for _, c := range m.members {
		errs = append(errs, CloseClassifier(c))
	}
	return errors.Join(errs...)
}

// asked is a Classifier that asks its first member about every cell and
// the others only about the cells the first is not sure of (sure false),
// where it gives the mean of all: most of a page is empty or plainly
// printed, so the others cost a fraction of a batch.
type asked struct {
	first Classifier
	sure  func(p []float32) bool
	merge Merge
	rest  *meanOf
}

// Merge makes one reading of a cell from the first member's (first), the
// mean of the others' (others) and the mean of all (mean).
type Merge func(first, others, mean []float32) []float32

// MeanWhereUnsure returns a Classifier giving first's probabilities for
// the cells sure calls sure, and for the others the mean of first's and
// rest's, passed through merge when merge is not nil. Closing it closes
// them all.
func MeanWhereUnsure(first Classifier, sure func(p []float32) bool, merge Merge, rest ...Classifier) (Classifier, error) {
	if len(rest) == 0 {
		return first, nil
	}
	return &asked{first: first, sure: sure, merge: merge, rest: &meanOf{members: rest}}, nil
}

// Classify asks first about cells, then the others about the unsure ones.
func (a *asked) Classify(cells [][]float32) ([][]float32, error) {
	probs, err := classify(a.first, cells)
	if err != nil {
		return nil, err
	}
	var again [][]float32
	var at []int
	for i, p := range probs {
		if !a.sure(p) {
			again = append(again, cells[i])
			at = append(at, i)
		}
	}
	if len(again) == 0 {
		return probs, nil
	}
	more, err := a.rest.Classify(again)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.Cell < len(at) {
			return nil, &InputError{Cell: at[ie.Cell], Reason: ie.Reason}
		}
		return nil, err
	}
	out := make([][]float32, len(probs))
	copy(out, probs)
	n := float32(len(a.rest.members))
	for k, i := range at {
		if len(more[k]) != len(probs[i]) {
			return nil, fmt.Errorf("the other members give %d classes, the first %d", len(more[k]), len(probs[i]))
		}
		p := make([]float32, len(probs[i]))
		for j := range p {
			p[j] = (probs[i][j] + n*more[k][j]) / (n + 1)
		}
		if a.merge != nil {
			p = a.merge(probs[i], more[k], p)
		}
		out[i] = p
	}
	return out, nil
}

// firstOpinion is the classifier c asks first when it is a
// MeanWhereUnsure, else c.
func firstOpinion(c Classifier) Classifier {
	if a, ok := c.(*asked); ok {
		return a.first
	}
	return c
}

// Glyphs is the first member's glyph count.
func (a *asked) Glyphs() int { return glyphCount(a.first) }

// Close closes every member.
func (a *asked) Close() error {
	return errors.Join(CloseClassifier(a.first), a.rest.Close())
}
