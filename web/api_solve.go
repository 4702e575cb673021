package web

import (
	"context"
	"errors"
	"math"
	"net/http"
	"time"

	"github.com/sudokuar/sudokuar/dlx"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/solvers"
	"github.com/sudokuar/sudokuar/sudoku"
)

// solveTimeout bounds one /api/solve call: stochastic solvers may wander.
const solveTimeout = 10 * time.Second

// puzzleRequest is the body of /api/solve and /api/analyze.
type puzzleRequest struct {
	Puzzle string `json:"puzzle"`
	Box    string `json:"box,omitempty"`    // e.g. "2x3"; default: the usual shape for the side
	Solver string `json:"solver,omitempty"` // /api/solve only; default dlx
	// Rate (/api/solve only): false skips the rating, which can take the
	// engine up to rateTimeout while the solver needs microseconds; the
	// Enter page has its rating from /api/analyze already.
	Rate *bool `json:"rate,omitempty"`
}

// Analysis is what the rules say about a puzzle, without its solution.
type Analysis struct {
	Size      int     `json:"size"`
	Box       [2]int  `json:"box"`
	Puzzle    string  `json:"puzzle"` // normalised: '0' for empty
	Givens    int     `json:"givens"`
	Status    string  `json:"status"` // solved (one solution), no solution, several solutions
	Conflicts []int   `json:"conflicts"`
	Reason    string  `json:"reason,omitempty"` // the first conflict in words
	Rating    float64 `json:"rating,omitempty"`
	Level     string  `json:"level,omitempty"`
}

// Solved is /api/solve's answer.
type Solved struct {
	Analysis
	Solution string  `json:"solution"`
	Solver   string  `json:"solver"`
	Ms       float64 `json:"ms"`
	Nodes    uint64  `json:"nodes,omitempty"`
	Error    string  `json:"error,omitempty"` // why a solver gave up
}

// analyze judges g: conflicts, number of solutions, and (when rated) its
// rating and level. Counting the solutions of what a stranger typed is
// bounded (see countSolutions): a puzzle the counter cannot settle in time
// is a 422 saying so, and a request whose client went away stops at once.
func analyze(ctx context.Context, g sudoku.Grid, rated bool) (Analysis, error) {
	a := Analysis{
		Size: g.N(), Box: [2]int{g.Shape.BoxRows, g.Shape.BoxCols}, Puzzle: sudoku.CellString(g.Cells),
		Givens: g.Givens(), Conflicts: []int{},
	}
	if cs := sudoku.Validate(g); len(cs) > 0 {
		a.Status, a.Reason = pipeline.StatusConflict.String(), cs[0].String()
		seen := map[int]bool{}
		for _, c := range cs {
			for _, i := range []int{c.A, c.B} {
				if !seen[i] {
					seen[i] = true
					a.Conflicts = append(a.Conflicts, i)
				}
			}
		}
		return a, nil
	}
	n, err := countSolutions(ctx, g)
	if err != nil {
		return a, err
	}
	switch n {
	case 0:
		a.Status, a.Reason = pipeline.StatusConflict.String(), "the givens do not break a rule, but no grid completes them"
	case 1:
		a.Status = pipeline.StatusSolved.String()
		if !rated {
			break
		}
		if r, l, err := rate(ctx, g); err == nil {
			a.Rating, a.Level = r, l
		}
	default:
		a.Status, a.Reason = pipeline.StatusSeveral.String(), "more than one grid completes these givens: add a given"
	}
	return a, nil
}

// How long, and how many search nodes, the server spends finding whether a
// puzzle has zero, one or several solutions: a proper puzzle takes
// milliseconds, but a 16×16 with no solution and no clashing givens can keep
// the search busy for minutes (attack.Unsolvable16), so it stops at
// countTimeout, countNodes or when the client goes away
// (docs/performance.md, "Tuning").
const (
	countTimeout = 2 * time.Second
	countNodes   = 10_000_000
)

// countSolutions counts g's solutions up to 2 within the bounds above. Giving
// up is a 422 naming the bound; a cancelled request is its context's error.
func countSolutions(ctx context.Context, g sudoku.Grid) (int, error) {
	sv, err := sudoku.NewSolver(g.Shape)
	if err != nil {
		return 0, errorf(http.StatusBadRequest, "puzzle: %v", err)
	}
	sv.SetBudget(countNodes)
	within, cancel := context.WithTimeout(ctx, countTimeout)
	defer cancel()
	n, err := sv.CountContext(within, g, 2)
	switch {
	case err == nil:
		return n, nil
	case ctx.Err() != nil:
		return 0, errorf(http.StatusServiceUnavailable, "the request was cancelled")
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, dlx.ErrBudget):
		return 0, errorf(http.StatusUnprocessableEntity,
			"gave up after %v: the server could not tell whether this puzzle has one solution, none or several (%d search nodes); check the givens, or add some", countTimeout, sv.Stats().Nodes)
	}
	return 0, errorf(http.StatusBadRequest, "puzzle: %v", err)
}

func (s *Server) readPuzzle(r *http.Request) (puzzleRequest, sudoku.Grid, error) {
	var req puzzleRequest
	if err := decodeJSON(r, &req); err != nil {
		return req, sudoku.Grid{}, err
	}
	g, err := parsePuzzle(req.Puzzle, req.Box)
	if err != nil {
		return req, sudoku.Grid{}, errorf(http.StatusBadRequest, "puzzle: %v", err)
	}
	return req, g, nil
}

// apiAnalyze: POST /api/analyze {"puzzle": "..."} -> Analysis.
func (s *Server) apiAnalyze(w http.ResponseWriter, r *http.Request) {
	_, g, err := s.readPuzzle(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	done, err := s.admit(r, s.guards.engine, s.guards.work)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer done()
	a, err := analyze(r.Context(), g, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// apiSolve: POST /api/solve {"puzzle": "...", "solver": "dlx"} -> Solved.
// A puzzle with no or several solutions is a 200 with that status and no
// solution; only a request that cannot be read is an error.
func (s *Server) apiSolve(w http.ResponseWriter, r *http.Request) {
	req, g, err := s.readPuzzle(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	name := req.Solver
	if name == "" {
		name = "dlx"
	}
	sv, err := solvers.New(name, solvers.Options{})
	if err != nil {
		s.writeError(w, r, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	done, err := s.admit(r, s.guards.engine, s.guards.work)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer done()
	a, err := analyze(r.Context(), g, req.Rate == nil || *req.Rate)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := Solved{Analysis: a, Solver: name}
	if out.Status != pipeline.StatusSolved.String() {
		writeJSON(w, http.StatusOK, out)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), solveTimeout)
	defer cancel()
	res, err := sv.Solve(ctx, g)
	out.Ms = math.Round(float64(res.Stats.Elapsed.Nanoseconds())/1e3) / 1e3
	out.Nodes = res.Stats.Nodes
	var te *solvers.TimeoutError
	switch {
	case errors.As(err, &te):
		out.Ms = math.Round(float64(te.Stats.Elapsed.Nanoseconds())/1e3) / 1e3
		out.Status, out.Error = "gave up", err.Error()
	case errors.Is(err, solvers.ErrStuck):
		out.Status, out.Error = "stuck", err.Error()
	case err != nil:
		s.writeError(w, r, err)
		return
	default:
		if cerr := solvers.Check(g, res.Solution); cerr != nil {
			s.writeError(w, r, errors.Join(errors.New("solver "+name+" returned a wrong grid"), cerr))
			return
		}
		out.Solution = sudoku.CellString(res.Solution.Cells)
	}
	writeJSON(w, http.StatusOK, out)
}

// apiSolvers: GET /api/solvers -> [{"name", "summary"}], the default first.
func (s *Server) apiSolvers(w http.ResponseWriter, r *http.Request) {
	type entry struct {
		Name    string `json:"name"`
		Summary string `json:"summary"`
	}
	list := []entry{}
	for _, n := range solvers.Names() {
		list = append(list, entry{n, solvers.Summary(n)})
	}
	writeJSON(w, http.StatusOK, list)
}
