package kakuro

// Solver is the fast solver for one board: the board compiled once into
// cells, runs and combination tables, then counted or solved as often as
// needed. It is not safe for concurrent use.
type Solver struct {
	board *Board
	e     *engine
	s     search
	dom   []uint16
	// MaxNodes stops a count after this many search nodes (0: no limit);
	// Result.Stopped then says the count is a lower bound.
	MaxNodes uint64
}

// Result is the outcome of a count.
type Result struct {
	Count     int      // solutions found, at most the limit asked for
	Solutions []*Board // the first solutions found (at most two)
	Nodes     uint64   // search nodes (branchings) visited
	Revisions uint64   // runs revised by propagation
	Stopped   bool     // MaxNodes ran out: Count is a lower bound
}

// NewSolver validates b and compiles it. Errors are *RuleError.
func NewSolver(b *Board) (*Solver, error) {
	if err := Validate(b); err != nil {
		return nil, err
	}
	e := newEngine(b)
	return &Solver{board: b, e: e, dom: make([]uint16, len(e.init))}, nil
}

// Count searches for up to limit solutions (limit 2 proves uniqueness) and
// returns how many it found, with the first two.
func (s *Solver) Count(limit int) Result {
	if limit < 1 {
		limit = 1
	}
	e := s.e
	e.nodes, e.props = 0, 0
	var res Result
	copy(s.dom, e.init)
	if e.propagateAll(s.dom) {
		s.s = search{e: e, limit: limit, budget: s.MaxNodes, stack: s.s.stack}
		s.s.found = func(dom []uint16) bool {
			if len(res.Solutions) < 2 {
				res.Solutions = append(res.Solutions, s.fill(dom))
			}
			return true
		}
		s.s.run(s.dom, 0)
		res.Count, res.Stopped = s.s.count, s.s.broke
	}
	res.Nodes, res.Revisions = e.nodes, e.props
	return res
}

// fill returns the board with the digits of the fixed domains dom.
func (s *Solver) fill(dom []uint16) *Board {
	out := s.board.Clone()
	for c, m := range dom {
		out.Cells[s.e.cellOf[c]].Digit = maskDigit(m)
	}
	return out
}

// Solve returns the solution of b. A puzzle without one is ErrNoSolution, a
// puzzle with several a *MultipleError (which matches
// ErrMultipleSolutions), a malformed one a *RuleError.
func Solve(b *Board) (*Board, error) {
	s, err := NewSolver(b)
	if err != nil {
		return nil, err
	}
	res := s.Count(2)
	switch res.Count {
	case 0:
		return nil, ErrNoSolution
	case 1:
		return res.Solutions[0], nil
	}
	return nil, &MultipleError{First: res.Solutions[0], Second: res.Solutions[1]}
}

// CountSolutions returns the number of solutions of b, counting no further
// than limit.
func CountSolutions(b *Board, limit int) (int, error) {
	s, err := NewSolver(b)
	if err != nil {
		return 0, err
	}
	return s.Count(limit).Count, nil
}
