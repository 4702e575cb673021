package kakuro

import (
	"context"
	"fmt"
	"math/bits"
	"time"

	"github.com/sudokuar/sudokuar/ilp"
)

// Kakuro as a 0-1 integer program for GLPK (package ilp; docs/kakuro.md).
// ILPPlain: x[c][d] for each cell and allowed digit, one digit per cell,
// each run's sum of d·x[c][d] equal to its clue, each digit at most once
// per run. ILPCombinations (the default) adds y[r][k] for each digit set k
// of run r, one set per run, and sum over r's cells of x[c][d] = the sum of
// y[r][k] over the sets holding d: the relaxation becomes the convex hull of
// each run's sets. ILPPropagated keeps only the digits propagation leaves.
// Uniqueness: ilp.Model.Exclude the solution found and solve again.

// ILPModel chooses the formulation NewILPModel builds.
type ILPModel int

const (
	// ILPCombinations is the default: x[c][d] and one variable per
	// combination of each run (see the file comment).
	ILPCombinations ILPModel = iota
	// ILPPlain is the formulation: x[c][d], one digit per cell,
	// the sum and at most one of each digit per run.
	ILPPlain
	// ILPPropagated is ILPCombinations over the candidates the fast
	// solver's propagation leaves (no search): the smallest program, but
	// it leans on the fast solver, so it is no independent cross-check.
	ILPPropagated
)

var ilpModelNames = [...]string{ILPCombinations: "combinations", ILPPlain: "plain", ILPPropagated: "propagated"}

func (m ILPModel) String() string {
	if m >= 0 && int(m) < len(ilpModelNames) {
		return ilpModelNames[m]
	}
	return fmt.Sprintf("ILPModel(%d)", int(m))
}

// ParseILPModel reads a model name: combinations, plain or propagated.
func ParseILPModel(s string) (ILPModel, error) {
	for m, name := range ilpModelNames {
		if s == name {
			return ILPModel(m), nil
		}
	}
	return 0, fmt.Errorf("kakuro: unknown ILP model %q (want combinations, plain or propagated)", s)
}

// ILP is a board compiled to an integer program.
type ILP struct {
	board  *Board
	kind   ILPModel
	model  ilp.Model
	x      [][9]ilp.Var // per white cell, per digit 1-9 (index d-1); -1 = no variable
	vars   []ilp.Var    // every x, to tell solutions apart
	whites []int
	empty  bool // some cell or run has no candidate left: no solution
}

// ILPStats is the work the ILP solver did.
type ILPStats struct {
	Vars, Constraints int
	Solves            int           // programs solved (2 to prove uniqueness)
	Nodes             int           // GLPK branch-and-bound nodes over all solves
	Elapsed           time.Duration // GLPK's time over all solves
}

// NewILP validates b and builds its integer program in the default
// (combination) formulation. Errors are *RuleError.
func NewILP(b *Board) (*ILP, error) { return NewILPModel(b, ILPCombinations) }

// NewILPModel validates b and builds its integer program in the
// formulation kind. Errors are *RuleError.
func NewILPModel(b *Board, kind ILPModel) (*ILP, error) {
	if err := Validate(b); err != nil {
		return nil, err
	}
	if kind < 0 || int(kind) >= len(ilpModelNames) {
		return nil, fmt.Errorf("kakuro: unknown ILP model %d", int(kind))
	}
	p := &ILP{board: b, kind: kind, whites: b.Whites()}
	// Variables exist only for the digits that some combination of each of
	// the cell's clues holds (reading the combination table, as a person
	// starts): the rest are zero anyway, and without them GLPK needs
	// minutes instead of seconds on the bigger boards.
	e := newEngine(b)
	dom := append([]uint16(nil), e.init...)
	if kind == ILPPropagated && !e.propagateAll(dom) {
		p.empty = true
	}
	var sets [][]uint16
	if kind != ILPPlain {
		sets = p.fitRuns(e, dom)
	}
	p.addCells(dom)
	if p.empty {
		return p, nil
	}
	for k, r := range e.runs {
		p.addRunSum(r)
		if kind == ILPPlain || r.sum == 0 {
			p.addOncePerRun(r)
			continue
		}
		p.addCombinations(r, sets[k])
	}
	return p, nil
}

// fitRuns returns the combinations of each run that fit its cells'
// candidates, dropping from dom, until nothing changes, each digit that no
// fitting combination of one of its runs holds (for the combination
// models). A run with none left makes p empty.
func (p *ILP) fitRuns(e *engine, dom []uint16) [][]uint16 {
	sets := make([][]uint16, len(e.runs))
	for changed := true; changed && !p.empty; {
		changed = false
		for k, r := range e.runs {
			sets[k] = fittingSets(r, dom)
			var u uint16
			for _, m := range sets[k] {
				u |= m
			}
			for _, c := range r.cells {
				if nd := dom[c] & u; nd != dom[c] {
					dom[c], changed = nd, true
				}
			}
			if len(sets[k]) == 0 {
				p.empty = true
			}
		}
	}
	return sets
}

// addCells makes a binary variable per white cell and candidate digit,
// one of them 1 per cell; a cell without candidates makes p empty.
func (p *ILP) addCells(dom []uint16) {
	for i := range p.whites {
		var xs [9]ilp.Var
		var one []ilp.Var
		for d := range xs {
			xs[d] = -1
			if dom[i]&digitBit(d+1) != 0 {
				xs[d] = p.model.Binary()
				p.vars = append(p.vars, xs[d])
				one = append(one, xs[d])
			}
		}
		p.x = append(p.x, xs)
		if len(one) == 0 {
			p.empty = true
			continue
		}
		p.model.Add(ilp.Sum(one...), ilp.EQ, 1)
	}
}

// addRunSum makes run r's digits add up to its clue (when it has one).
func (p *ILP) addRunSum(r erun) {
	var sum []ilp.Term
	for _, c := range r.cells {
		for d, v := range p.x[c] {
			if v >= 0 {
				sum = append(sum, ilp.Term{Var: v, Coef: float64(d + 1)})
			}
		}
	}
	if r.sum > 0 {
		p.model.Add(sum, ilp.EQ, float64(r.sum))
	}
}

// addOncePerRun allows each digit at most once in run r (the plain model,
// and runs without a clue).
func (p *ILP) addOncePerRun(r erun) {
	for d := 0; d < 9; d++ {
		var once []ilp.Var
		for _, c := range r.cells {
			if v := p.x[c][d]; v >= 0 {
				once = append(once, v)
			}
		}
		if len(once) > 1 {
			p.model.Add(ilp.Sum(once...), ilp.LE, 1)
		}
	}
}

// addCombinations picks one of run r's fitting combinations sets (a
// binary variable each) and makes the run hold exactly its digits.
func (p *ILP) addCombinations(r erun, sets []uint16) {
	y := make([]ilp.Var, len(sets))
	for j := range y {
		y[j] = p.model.Binary()
	}
	p.model.Add(ilp.Sum(y...), ilp.EQ, 1)
	for d := 0; d < 9; d++ {
		var link []ilp.Term
		for _, c := range r.cells {
			if v := p.x[c][d]; v >= 0 {
				link = append(link, ilp.Term{Var: v, Coef: 1})
			}
		}
		for j, m := range sets {
			if m&digitBit(d+1) != 0 {
				link = append(link, ilp.Term{Var: y[j], Coef: -1})
			}
		}
		if len(link) > 0 {
			p.model.Add(link, ilp.EQ, 0)
		}
	}
}

// fittingSets returns the digit sets of run r's clue that the cells'
// candidates dom can take: every cell has a digit of the set, and the
// cells together cover it (checked by the union only: cheap and enough to
// prune, the program does the rest).
func fittingSets(r erun, dom []uint16) []uint16 {
	n := len(r.cells)
	var union uint16
	for _, c := range r.cells {
		union |= dom[c]
	}
	var out []uint16
	for _, m := range combos.sets[n][r.sum] {
		if m&^union != 0 {
			continue
		}
		ok := true
		for _, c := range r.cells {
			if dom[c]&m == 0 {
				ok = false
				break
			}
		}
		if ok && bits.OnesCount16(m) == n {
			out = append(out, m)
		}
	}
	return out
}

// Model returns the formulation p was built with.
func (p *ILP) Model() ILPModel { return p.kind }

// Solve finds up to limit solutions (limit 2 proves uniqueness: solve,
// exclude, solve again) and reports the work.
func (p *ILP) Solve(ctx context.Context, limit int) ([]*Board, ILPStats, error) {
	st := ILPStats{Vars: p.model.NumVars(), Constraints: p.model.NumConstraints()}
	if p.empty {
		return nil, st, nil // a cell or run without candidates: no solution
	}
	sols, err := p.model.Enumerate(ctx, ilp.Options{}, limit, p.vars)
	st.Solves = len(sols) + 1
	if len(sols) == limit {
		st.Solves = limit
	}
	var out []*Board
	for _, s := range sols {
		st.Nodes += s.Nodes
		st.Elapsed += s.Elapsed
		b := p.board.Clone()
		for i, w := range p.whites {
			for d, v := range p.x[i] {
				if v >= 0 && s.Int(v) == 1 {
					b.Cells[w].Digit = d + 1
				}
			}
		}
		out = append(out, b)
	}
	return out, st, err
}

// SolveILP returns up to limit solutions of b found by the integer
// program in the default formulation (limit 2 proves uniqueness).
func SolveILP(ctx context.Context, b *Board, limit int) ([]*Board, error) {
	p, err := NewILP(b)
	if err != nil {
		return nil, err
	}
	sols, _, err := p.Solve(ctx, limit)
	return sols, err
}
