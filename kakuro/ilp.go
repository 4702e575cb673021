package kakuro

import (
	"context"
	"time"

	"github.com/sudokuar/sudokuar/ilp"
)

// Kakuro as a 0-1 integer program, solved by GLPK through package ilp: the
// model of the seed project, corrected to constrain runs rather than whole
// rows and columns (which only holds on boards without inner blocks).
//
//	x[c][d] = 1 when white cell c holds digit d (d = 1..9)
//	sum_d x[c][d] = 1                          every cell holds one digit
//	sum_{c in r} sum_d d*x[c][d] = clue(r)     every run adds up to its clue
//	sum_{c in r} x[c][d] <= 1                  no digit twice in a run
//
// x[c][d] exists only for digits d that the combination table allows in c
// (a given digit g: only x[c][g]).
// There is no objective: any solution is optimal. Uniqueness is proved as
// the issue asks, by excluding the solution found (ilp.Model.Exclude) and
// solving again: an infeasible second program means no other solution.

// ILP is a board compiled to an integer program.
type ILP struct {
	board  *Board
	model  ilp.Model
	x      [][9]ilp.Var // per white cell, per digit 1-9 (index d-1); -1 = no variable
	vars   []ilp.Var    // every x, to tell solutions apart
	whites []int
}

// ILPStats is the work the ILP solver did.
type ILPStats struct {
	Vars, Constraints int
	Solves            int           // programs solved (2 to prove uniqueness)
	Nodes             int           // GLPK branch-and-bound nodes over all solves
	Elapsed           time.Duration // GLPK's time over all solves
}

// NewILP validates b and builds its integer program. Errors are *RuleError.
func NewILP(b *Board) (*ILP, error) {
	if err := Validate(b); err != nil {
		return nil, err
	}
	p := &ILP{board: b, whites: b.Whites()}
	// Variables exist only for the digits that some combination of each of
	// the cell's clues holds (reading the combination table, as a person
	// starts): the rest are zero anyway, and without them GLPK needs
	// minutes instead of seconds on the bigger boards.
	e := newEngine(b)
	num := make(map[int]int, len(p.whites))
	for i, w := range p.whites {
		num[w] = i
		var xs [9]ilp.Var
		var one []ilp.Var
		for d := range xs {
			xs[d] = -1
			if e.init[i]&digitBit(d+1) != 0 {
				xs[d] = p.model.Binary()
				p.vars = append(p.vars, xs[d])
				one = append(one, xs[d])
			}
		}
		p.x = append(p.x, xs)
		p.model.Add(ilp.Sum(one...), ilp.EQ, 1)
	}
	for _, r := range b.Runs() {
		var sum []ilp.Term
		for _, w := range r.Cells {
			for d, v := range p.x[num[w]] {
				if v >= 0 {
					sum = append(sum, ilp.Term{Var: v, Coef: float64(d + 1)})
				}
			}
		}
		p.model.Add(sum, ilp.EQ, float64(r.Sum))
		for d := 0; d < 9; d++ {
			var once []ilp.Var
			for _, w := range r.Cells {
				if v := p.x[num[w]][d]; v >= 0 {
					once = append(once, v)
				}
			}
			if len(once) > 1 {
				p.model.Add(ilp.Sum(once...), ilp.LE, 1)
			}
		}
	}
	return p, nil
}

// Solve finds up to limit solutions (limit 2 proves uniqueness: solve,
// exclude, solve again) and reports the work.
func (p *ILP) Solve(ctx context.Context, limit int) ([]*Board, ILPStats, error) {
	st := ILPStats{Vars: p.model.NumVars(), Constraints: p.model.NumConstraints()}
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
// program (limit 2 proves uniqueness).
func SolveILP(ctx context.Context, b *Board, limit int) ([]*Board, error) {
	p, err := NewILP(b)
	if err != nil {
		return nil, err
	}
	sols, _, err := p.Solve(ctx, limit)
	return sols, err
}
