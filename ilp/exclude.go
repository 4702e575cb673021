package ilp

import (
	"context"
	"fmt"
)

// Exclude adds the "no-good" cut that removes one 0-1 assignment, the
// values sol gives vars (binaries of m; nil: every binary sol has a value
// for): sum(value-1 vars) - sum(value-0 vars) <= ones - 1. Where "exactly
// one" constraints fix how many of vars are 1 (a digit per cell), it adds
// the tighter sum(value-1 vars) <= ones - 1 (BenchmarkQueensEnumerate).
// It returns the constraint's index, or an error if sol has no values or a
// variable is unknown or not binary (m is then unchanged).
func (m *Model) Exclude(sol *Solution, vars []Var) (int, error) {
	if sol == nil || !sol.HasValues() {
		return -1, &ModelError{Constraint: -1, Var: -1, Reason: "exclude: the solution has no values"}
	}
	if vars == nil {
		for v, k := range m.kinds {
			if k == Binary && v < len(sol.values) {
				vars = append(vars, Var(v))
			}
		}
	}
	if len(vars) == 0 {
		return -1, &ModelError{Constraint: -1, Var: -1, Reason: "exclude: no binary variables to exclude the solution on"}
	}
	for _, v := range vars {
		switch {
		case v < 0 || int(v) >= len(m.kinds):
			return -1, &ModelError{Constraint: -1, Var: v, Reason: fmt.Sprintf("exclude: no such variable (the model has %d)", len(m.kinds))}
		case m.kinds[v] != Binary:
			return -1, &ModelError{Constraint: -1, Var: v, Reason: "exclude: not a binary variable"}
		case int(v) >= len(sol.values):
			return -1, &ModelError{Constraint: -1, Var: v, Reason: "exclude: the solution has no value for it (it is from another model)"}
		}
	}
	terms := make([]Term, 0, len(vars))
	ones := 0
	fixed := m.fixesCount(vars)
	for _, v := range vars {
		if sol.Int(v) == 1 {
			terms = append(terms, Term{Var: v, Coef: 1})
			ones++
		} else if !fixed {
			terms = append(terms, Term{Var: v, Coef: -1})
		}
	}
	return m.Add(terms, LE, float64(ones-1)), nil
}

// Enumerate finds up to limit distinct solutions of m (told apart by vars,
// binary; nil: all binaries) on a copy of m: solve, Exclude, solve again.
// Fewer than limit with a nil error means there are no more, so limit 2
// proves uniqueness. On an error it returns the solutions found before it
// (opts.TimeLimit applies to each solve, ctx's deadline to all).
func (m *Model) Enumerate(ctx context.Context, opts Options, limit int, vars []Var) ([]*Solution, error) {
	if limit <= 0 {
		return nil, nil
	}
	p, err := m.compile()
	if err != nil {
		return nil, err
	}
	var work *Model
	var out []*Solution
	for {
		sol, err := p.solve(ctx, opts)
		if err != nil {
			return out, err
		}
		if sol.Status == Infeasible {
			return out, nil
		}
		out = append(out, sol)
		if len(out) == limit {
			return out, nil
		}
		if work == nil {
			work = m.Clone()
		}
		if _, err := work.Exclude(sol, vars); err != nil {
			return out, err
		}
		if p, err = work.compile(); err != nil {
			return out, err
		}
	}
}

// fixesCount reports whether m has EQ constraints with all coefficients 1
// that cover vars exactly, without overlapping and without other
// variables, so that the number of vars at 1 is the same in every
// solution. It looks greedily, constraint by constraint in order, which
// finds the "one digit per cell" rows of a puzzle model; a false answer
// only means Exclude adds the general cut. vars must be valid binaries.
func (m *Model) fixesCount(vars []Var) bool {
	const (
		outside = iota
		open
		covered
	)
	state := make([]int8, len(m.kinds))
	for _, v := range vars {
		if state[v] != outside {
			return false // listed twice
		}
		state[v] = open
	}
	left := len(vars)
rows:
	for _, r := range m.rows {
		if r.sense != EQ || r.start == r.end {
			continue
		}
		ts := m.terms[r.start:r.end]
		for _, t := range ts {
			if t.Var < 0 || int(t.Var) >= len(state) || t.Coef != 1 || state[t.Var] != open {
				continue rows
			}
		}
		for i, t := range ts {
			if state[t.Var] == covered { // named twice: 2x is not a count
				for _, u := range ts[:i] {
					state[u.Var] = open
				}
				continue rows
			}
			state[t.Var] = covered
		}
		if left -= len(ts); left == 0 {
			return true
		}
	}
	return false
}
