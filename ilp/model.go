// Package ilp solves small integer linear programs (0-1 and bounded integer
// variables) with GLPK through its own cgo binding; it knows no puzzles.
//
//  1. Build a Model: Binary, Integer(lo, hi), Add(terms, LE|GE|EQ, rhs), SetObjective.
//  2. Solve it (one GLPK branch and bound), or Enumerate solutions
//     (Exclude cuts one off; limit 2 proves uniqueness).
//  3. Read the Solution, or the error: *ModelError, *SolverError,
//     ErrTimeLimit or the context's (with the best solution so far).
package ilp

import (
	"errors"
	"fmt"
	"math"
)

// Var names a variable of a Model: its index, in the order created.
type Var int

// Term is Coef times the variable Var, one part of a linear sum.
type Term struct {
	Var  Var
	Coef float64
}

// Sum returns the terms 1·v for each v: the sum of the variables.
func Sum(vars ...Var) []Term {
	out := make([]Term, len(vars))
	for i, v := range vars {
		out[i] = Term{Var: v, Coef: 1}
	}
	return out
}

// Sense says how a constraint's sum compares with its right-hand side.
type Sense int8

// The senses of a constraint. The zero Sense is invalid.
const (
	LE Sense = iota + 1 // sum <= rhs
	GE                  // sum >= rhs
	EQ                  // sum == rhs
)

func (s Sense) String() string {
	switch s {
	case LE:
		return "<="
	case GE:
		return ">="
	case EQ:
		return "="
	}
	return fmt.Sprintf("Sense(%d)", int(s))
}

// Kind is the kind of a variable.
type Kind int8

// The kinds of variable.
const (
	Binary  Kind = iota + 1 // 0 or 1
	Integer                 // an integer between its bounds
)

// Direction says whether the objective is minimised or maximised.
type Direction int8

// The objective directions. The zero Direction minimises.
const (
	Minimize Direction = iota
	Maximize
)

// Limits on a model. GLPK itself takes larger numbers, but coefficients
// beyond MaxAbs invite numerical trouble in its simplex method, and no
// model of ours needs them.
const (
	MaxAbs         = 1e9         // largest |coefficient|, |rhs| or |bound|
	MaxVars        = 100_000_000 // GLPK's own limit on columns
	MaxConstraints = 100_000_000 // GLPK's own limit on rows
	MaxTerms       = 500_000_000 // GLPK's own limit on matrix elements
)

// Model is an integer linear program under construction. The zero value is
// an empty model that minimises 0.
type Model struct {
	kinds  []Kind
	lo, hi []float64 // bounds of each variable (0..1 for binaries)

	dir      Direction
	obj0     float64 // the objective's constant term
	objTerms []Term

	rows  []row
	terms []Term // every constraint's terms, constraint after constraint
}

// row is one constraint: terms[start:end] Sense rhs.
type row struct {
	start, end int
	sense      Sense
	rhs        float64
}

// Binary adds a 0-1 variable.
func (m *Model) Binary() Var { return m.add(Binary, 0, 1) }

// Integer adds an integer variable with lo <= value <= hi. Bounds that are
// out of order or beyond MaxAbs are reported by Validate and Solve.
func (m *Model) Integer(lo, hi int) Var { return m.add(Integer, float64(lo), float64(hi)) }

func (m *Model) add(k Kind, lo, hi float64) Var {
	m.kinds = append(m.kinds, k)
	m.lo = append(m.lo, lo)
	m.hi = append(m.hi, hi)
	return Var(len(m.kinds) - 1)
}

// NumVars returns the number of variables.
func (m *Model) NumVars() int { return len(m.kinds) }

// NumConstraints returns the number of constraints.
func (m *Model) NumConstraints() int { return len(m.rows) }

// Add adds the constraint sum(terms) sense rhs and returns its index (the
// Constraint of a *ModelError that concerns it). The terms are copied;
// terms on the same variable add up. Invalid input (an unknown variable,
// NaN, a zero Sense, no terms) is reported by Validate and Solve.
func (m *Model) Add(terms []Term, sense Sense, rhs float64) int {
	start := len(m.terms)
	m.terms = append(m.terms, terms...)
	m.rows = append(m.rows, row{start: start, end: len(m.terms), sense: sense, rhs: rhs})
	return len(m.rows) - 1
}

// SetObjective sets the objective to minimise or maximise sum(terms) +
// constant, replacing any earlier one. Terms on the same variable add up.
// Invalid terms are recorded as given and reported by Validate and Solve.
func (m *Model) SetObjective(dir Direction, constant float64, terms []Term) {
	m.dir = dir
	m.obj0 = constant
	m.objTerms = append(m.objTerms[:0], terms...)
}

// Clone returns a deep copy of m, to change (say, with Exclude) while m
// stays as it is.
func (m *Model) Clone() *Model {
	c := *m
	c.kinds = append([]Kind(nil), m.kinds...)
	c.lo = append([]float64(nil), m.lo...)
	c.hi = append([]float64(nil), m.hi...)
	c.rows = append([]row(nil), m.rows...)
	c.terms = append([]Term(nil), m.terms...)
	c.objTerms = append([]Term(nil), m.objTerms...)
	return &c
}

// ModelError says what is wrong with a model. Constraint is the index
// Add returned for the offending constraint, Var the offending variable;
// each is -1 when the problem is elsewhere (the objective, the model as a
// whole).
type ModelError struct {
	Constraint int
	Var        Var
	Reason     string
}

func (e *ModelError) Error() string {
	switch {
	case e.Constraint >= 0 && e.Var >= 0:
		return fmt.Sprintf("ilp: constraint %d, variable %d: %s", e.Constraint, e.Var, e.Reason)
	case e.Constraint >= 0:
		return fmt.Sprintf("ilp: constraint %d: %s", e.Constraint, e.Reason)
	case e.Var >= 0:
		return fmt.Sprintf("ilp: variable %d: %s", e.Var, e.Reason)
	}
	return "ilp: " + e.Reason
}

// ErrTimeLimit is wrapped by Solve's error when Options.TimeLimit ends the
// search before it finished.
var ErrTimeLimit = errors.New("ilp: time limit reached")

// finite reports whether x is a number of at most MaxAbs in size.
func finite(x float64) bool { return !math.IsNaN(x) && math.Abs(x) <= MaxAbs }

// Validate returns nil if Solve can hand m to GLPK, or a *ModelError for
// the first problem found.
func (m *Model) Validate() error {
	_, err := m.compile()
	return err
}
