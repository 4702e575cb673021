package ilp

import "fmt"

// program is a validated model in GLPK's layout: 1-based arrays (element 0
// unused), duplicate terms merged, zero coefficients dropped. Its integer
// codes are those of glpk_solve.h.
type program struct {
	kind         []int32   // per column: ilpBinary or ilpInteger
	lb, ub, obj  []float64 // per column
	sense        []int32   // per row: ilpLE, ilpGE or ilpEQ
	rhs          []float64 // per row
	ia, ja       []int32   // per matrix element: row, column
	ar           []float64 // per matrix element: coefficient
	maximize     bool
	obj0         float64
	ncols, nrows int
	nnz          int
}

// The codes of glpk_solve.h, repeated so that this file needs no cgo.
const (
	ilpBinary  = 1
	ilpInteger = 2
	ilpLE      = 1
	ilpGE      = 2
	ilpEQ      = 3
)

// compile validates m and lays it out for GLPK. Every check that keeps
// GLPK from aborting is here; the tests feed it hostile models.
func (m *Model) compile() (*program, error) {
	if err := m.checkSizes(); err != nil {
		return nil, err
	}
	n := len(m.kinds)
	p := &program{
		kind:     make([]int32, n+1),
		lb:       make([]float64, n+1),
		ub:       make([]float64, n+1),
		obj:      make([]float64, n+1),
		maximize: m.dir == Maximize,
		obj0:     m.obj0,
		ncols:    n,
		nrows:    len(m.rows),
	}
	if err := m.layColumns(p); err != nil {
		return nil, err
	}
	if err := m.layObjective(p); err != nil {
		return nil, err
	}
	if err := m.layRows(p); err != nil {
		return nil, err
	}
	p.nnz = len(p.ar) - 1
	return p, nil
}

// modelErr is a *ModelError about constraint con (-1: none) and variable v
// (-1: none).
func modelErr(con int, v Var, format string, args ...any) error {
	return &ModelError{Constraint: con, Var: v, Reason: fmt.Sprintf(format, args...)}
}

// checkSizes refuses an empty model, one over the limits, or one whose
// bounds do not match its variables.
func (m *Model) checkSizes() error {
	n := len(m.kinds)
	switch {
	case n == 0:
		return modelErr(-1, -1, "the model has no variables")
	case n > MaxVars:
		return modelErr(-1, -1, "%d variables, more than %d", n, MaxVars)
	case len(m.rows) > MaxConstraints:
		return modelErr(-1, -1, "%d constraints, more than %d", len(m.rows), MaxConstraints)
	case len(m.terms) > MaxTerms:
		return modelErr(-1, -1, "%d terms, more than %d", len(m.terms), MaxTerms)
	case len(m.lo) != n || len(m.hi) != n:
		return modelErr(-1, -1, "corrupt model: bounds of %d and %d variables for %d", len(m.lo), len(m.hi), n)
	}
	return nil
}

// layColumns writes each variable's kind and bounds (finite integers,
// lower not above upper) into p.
func (m *Model) layColumns(p *program) error {
	for j, k := range m.kinds {
		lo, hi := m.lo[j], m.hi[j]
		switch k {
		case Binary:
			p.kind[j+1] = ilpBinary
		case Integer:
			p.kind[j+1] = ilpInteger
		default:
			return modelErr(-1, Var(j), "unknown kind %d", k)
		}
		if !finite(lo) || !finite(hi) {
			return modelErr(-1, Var(j), "bounds %g..%g: want at most %g in size", lo, hi, MaxAbs)
		}
		if lo > hi {
			return modelErr(-1, Var(j), "lower bound %g above upper bound %g", lo, hi)
		}
		if lo != float64(int64(lo)) || hi != float64(int64(hi)) {
			return modelErr(-1, Var(j), "bounds %g..%g are not integers", lo, hi)
		}
		p.lb[j+1], p.ub[j+1] = lo, hi
	}
	return nil
}

// layObjective checks the direction and the objective's constant and
// terms, and adds the terms up per variable into p.obj.
func (m *Model) layObjective(p *program) error {
	n := len(m.kinds)
	if m.dir != Minimize && m.dir != Maximize {
		return modelErr(-1, -1, "unknown objective direction %d", m.dir)
	}
	if !finite(m.obj0) {
		return modelErr(-1, -1, "objective constant %g: want a number of at most %g in size", m.obj0, MaxAbs)
	}
	for _, t := range m.objTerms {
		if t.Var < 0 || int(t.Var) >= n {
			return modelErr(-1, t.Var, "objective names variable %d of %d", t.Var, n)
		}
		if !finite(t.Coef) {
			return modelErr(-1, t.Var, "objective coefficient %g: want a number of at most %g in size", t.Coef, MaxAbs)
		}
		p.obj[t.Var+1] += t.Coef
	}
	for j := 1; j <= n; j++ {
		if !finite(p.obj[j]) {
			return modelErr(-1, Var(j-1), "objective coefficients add up to %g, more than %g", p.obj[j], MaxAbs)
		}
	}
	return nil
}

// rowLayout tracks, while rows are laid out, where each variable's
// element of the current row is: duplicate (row, column) pairs are a
// fatal error in GLPK's glp_load_matrix, so terms on one variable are
// merged.
type rowLayout struct {
	at    []int32 // position in ia/ja/ar of v's element in row rowOf[v] (1-based; 0: none yet)
	rowOf []int32
}

// layRows writes each constraint's sense, right-hand side and merged,
// non-zero terms into p's sparse matrix.
func (m *Model) layRows(p *program) error {
	n := len(m.kinds)
	p.sense = make([]int32, len(m.rows)+1)
	p.rhs = make([]float64, len(m.rows)+1)
	p.ia = make([]int32, 1, len(m.terms)+1)
	p.ja = make([]int32, 1, len(m.terms)+1)
	p.ar = make([]float64, 1, len(m.terms)+1)
	lay := &rowLayout{at: make([]int32, n), rowOf: make([]int32, n)}
	for i, r := range m.rows {
		if err := m.layRow(p, lay, i, r); err != nil {
			return err
		}
	}
	return nil
}

// layRow lays out constraint i.
func (m *Model) layRow(p *program, lay *rowLayout, i int, r row) error {
	n := len(m.kinds)
	switch r.sense {
	case LE:
		p.sense[i+1] = ilpLE
	case GE:
		p.sense[i+1] = ilpGE
	case EQ:
		p.sense[i+1] = ilpEQ
	default:
		return modelErr(i, -1, "unknown sense %d", r.sense)
	}
	if !finite(r.rhs) {
		return modelErr(i, -1, "right-hand side %g: want a number of at most %g in size", r.rhs, MaxAbs)
	}
	p.rhs[i+1] = r.rhs
	if r.start < 0 || r.end < r.start || r.end > len(m.terms) {
		return modelErr(i, -1, "corrupt model: terms %d..%d of %d", r.start, r.end, len(m.terms))
	}
	first := int32(len(p.ar))
	for _, t := range m.terms[r.start:r.end] {
		if t.Var < 0 || int(t.Var) >= n {
			return modelErr(i, t.Var, "names variable %d of %d", t.Var, n)
		}
		if !finite(t.Coef) {
			return modelErr(i, t.Var, "coefficient %g: want a number of at most %g in size", t.Coef, MaxAbs)
		}
		if lay.rowOf[t.Var] == int32(i+1) {
			p.ar[lay.at[t.Var]] += t.Coef
			continue
		}
		lay.rowOf[t.Var], lay.at[t.Var] = int32(i+1), int32(len(p.ar))
		p.ia = append(p.ia, int32(i+1))
		p.ja = append(p.ja, int32(t.Var)+1)
		p.ar = append(p.ar, t.Coef)
	}
	return dropCancelled(p, i, first, r)
}

// dropCancelled removes row i's elements (from first on) whose
// coefficients cancelled out; a row left with none is an error.
func dropCancelled(p *program, i int, first int32, r row) error {
	w := first
	for k := first; k < int32(len(p.ar)); k++ {
		c := p.ar[k]
		if !finite(c) {
			return modelErr(i, Var(p.ja[k]-1), "coefficients add up to %g, more than %g", c, MaxAbs)
		}
		if c == 0 {
			continue
		}
		p.ia[w], p.ja[w], p.ar[w] = p.ia[k], p.ja[k], c
		w++
	}
	p.ia, p.ja, p.ar = p.ia[:w], p.ja[:w], p.ar[:w]
	if w == first {
		return modelErr(i, -1, "no terms with a non-zero coefficient (0 %v %g)", r.sense, r.rhs)
	}
	return nil
}
