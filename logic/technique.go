package logic

// Technique is one solving technique: a name, its difficulty on the Sudoku
// Explainer scale (the easiest step it can produce; some steps rate higher,
// e.g. longer chains) and a finder.
type Technique struct {
	Name   string
	Rating float64
	find   func(g *Grid) (Step, bool)
}

// Find looks for one step of this technique in g. It never changes g. The
// step it returns is the easiest of its kind (lowest rating, then most
// eliminations) where the technique ranks its findings, the first found
// otherwise.
func (t Technique) Find(g *Grid) (Step, bool) {
	if t.find == nil || g == nil {
		return Step{}, false
	}
	return t.find(g)
}

// Techniques returns every technique in the order hints use them: the ones
// people know first, roughly by difficulty, forcing chains last. The list
// is a fresh copy.
func Techniques() []Technique { return append([]Technique(nil), hintOrder...) }

// RatingTechniques returns the techniques in the order Rate applies them,
// which follows Sudoku Explainer's so that ratings compare with its scale.
func RatingTechniques() []Technique { return append([]Technique(nil), rateOrder...) }

// TechniqueByName returns the technique with the given name.
func TechniqueByName(name string) (Technique, bool) {
	for _, list := range [][]Technique{hintOrder, rateOrder} {
		for _, t := range list {
			if t.Name == name {
				return t, true
			}
		}
	}
	return Technique{}, false
}

// nextStep returns the first step found by the techniques in order.
func nextStep(g *Grid, order []Technique) (Step, bool) {
	for _, t := range order {
		if s, ok := t.find(g); ok {
			return s, true
		}
	}
	return Step{}, false
}

// NextStep returns the simplest step the hint order finds in g.
func NextStep(g *Grid) (Step, bool) { return nextStep(g, hintOrder) }
