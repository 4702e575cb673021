package ilp

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestValidateRefusesBadModels(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name       string
		build      func(m *Model)
		constraint int
		v          Var
		reason     string
	}{
		{"no variables", func(m *Model) {}, -1, -1, "no variables"},
		{"unknown variable", func(m *Model) { m.Binary(); m.Add([]Term{{3, 1}}, LE, 1) }, 0, 3, "names variable 3 of 1"},
		{"negative variable", func(m *Model) { m.Binary(); m.Add([]Term{{-1, 1}}, LE, 1) }, 0, -1, "names variable -1"},
		{"NaN coefficient", func(m *Model) { x := m.Binary(); m.Add([]Term{{x, nan}}, LE, 1) }, 0, 0, "coefficient NaN"},
		{"infinite coefficient", func(m *Model) { x := m.Binary(); m.Add([]Term{{x, -inf}}, LE, 1) }, 0, 0, "coefficient -Inf"},
		{"huge coefficient", func(m *Model) { x := m.Binary(); m.Add([]Term{{x, 2e9}}, LE, 1) }, 0, 0, "coefficient 2e+09"},
		{"coefficients add up too far", func(m *Model) { x := m.Binary(); m.Add([]Term{{x, 6e8}, {x, 6e8}}, LE, 1) }, 0, 0, "add up to 1.2e+09"},
		{"NaN rhs", func(m *Model) { x := m.Binary(); m.Add(Sum(x), LE, nan) }, 0, -1, "right-hand side NaN"},
		{"infinite rhs", func(m *Model) { x := m.Binary(); m.Add(Sum(x), GE, inf) }, 0, -1, "right-hand side +Inf"},
		{"zero sense", func(m *Model) { x := m.Binary(); m.Add(Sum(x), 0, 1) }, 0, -1, "unknown sense 0"},
		{"empty constraint", func(m *Model) { m.Binary(); m.Add(nil, LE, 1) }, 0, -1, "no terms"},
		{"zero coefficients only", func(m *Model) { x := m.Binary(); m.Add([]Term{{x, 0}}, EQ, 0) }, 0, -1, "no terms"},
		{"later constraint", func(m *Model) {
			x := m.Binary()
			m.Add(Sum(x), LE, 1)
			m.Add(Sum(x), LE, 1)
			m.Add([]Term{{x, 1}, {9, 1}}, LE, 1)
		}, 2, 9, "names variable 9"},
		{"bounds out of order", func(m *Model) { m.Integer(5, 2) }, -1, 0, "lower bound 5 above upper bound 2"},
		{"bound too large", func(m *Model) { m.Integer(0, 2_000_000_000) }, -1, 0, "bounds 0..2e+09"},
		{"bound too small", func(m *Model) { m.Integer(-2_000_000_000, 0) }, -1, 0, "bounds -2e+09..0"},
		{"objective unknown variable", func(m *Model) { m.Binary(); m.SetObjective(Minimize, 0, []Term{{1, 1}}) }, -1, 1, "objective names variable 1"},
		{"objective NaN", func(m *Model) { x := m.Binary(); m.SetObjective(Maximize, 0, []Term{{x, nan}}) }, -1, 0, "objective coefficient NaN"},
		{"objective sum too large", func(m *Model) { x := m.Binary(); m.SetObjective(Maximize, 0, []Term{{x, 1e9}, {x, 1e9}}) }, -1, 0, "add up to 2e+09"},
		{"objective constant", func(m *Model) { m.Binary(); m.SetObjective(Minimize, inf, nil) }, -1, -1, "objective constant +Inf"},
		{"objective direction", func(m *Model) { m.Binary(); m.SetObjective(7, 0, nil) }, -1, -1, "unknown objective direction 7"},
	} {
		var m Model
		tc.build(&m)
		err := m.Validate()
		var me *ModelError
		if !errors.As(err, &me) {
			t.Errorf("%s: Validate = %v, want a *ModelError", tc.name, err)
			continue
		}
		if me.Constraint != tc.constraint || me.Var != tc.v || !strings.Contains(me.Reason, tc.reason) {
			t.Errorf("%s: %+v, want constraint %d, variable %d, reason containing %q", tc.name, me, tc.constraint, tc.v, tc.reason)
		}
		// Solve and Enumerate refuse it the same way, before GLPK.
		if sol, err := m.Solve(context.Background(), Options{}); sol != nil || !errors.As(err, &me) {
			t.Errorf("%s: Solve = %v, %v; want nil and a *ModelError", tc.name, sol, err)
		}
		if sols, err := m.Enumerate(context.Background(), Options{}, 2, nil); sols != nil || !errors.As(err, &me) {
			t.Errorf("%s: Enumerate = %v, %v; want nil and a *ModelError", tc.name, sols, err)
		}
	}
}

// TestGLPKErrorsAreCaught hands GLPK, past the validator, the input it
// treats as fatal. Without the error hook each case would abort the test
// binary; with it, Solve returns a *SolverError carrying GLPK's message,
// and the same OS thread solves correctly afterwards (its GLPK
// environment was freed and starts afresh).
func TestGLPKErrorsAreCaught(t *testing.T) {
	runtime.LockOSThread() // keep every solve below on one thread
	defer runtime.UnlockOSThread()
	good, _ := queens(4)
	for _, tc := range []struct {
		name    string
		corrupt func(p *program)
		want    string // in GLPK's message
	}{
		{"row index out of range", func(p *program) { p.ia[1] = int32(p.nrows + 5) }, "row index out of range"},
		{"column index out of range", func(p *program) { p.ja[2] = 0 }, "column index out of range"},
		{"duplicate element", func(p *program) { p.ia[2], p.ja[2] = p.ia[1], p.ja[1] }, "duplicate indices not allowed"},
		{"too many elements", func(p *program) { p.nnz = -3 }, "invalid number of constraint coefficients"},
		// With no columns or rows added, the matrix names ones that are not there.
		{"negative column count", func(p *program) { p.ncols = -2 }, "column index out of range"},
		{"negative row count", func(p *program) { p.nrows = -1 }, "row index out of range"},
	} {
		p, err := good.compile()
		if err != nil {
			t.Fatal(err)
		}
		tc.corrupt(p)
		sol, err := p.solve(context.Background(), Options{})
		var se *SolverError
		if !errors.As(err, &se) || sol != nil {
			t.Errorf("%s: %v, %v; want a *SolverError", tc.name, sol, err)
			continue
		}
		if se.Code != 0 || !strings.Contains(se.Message, tc.want) || !strings.Contains(se.Message, "Error detected in file") {
			t.Errorf("%s: code %d, message %q; want code 0 and GLPK's words %q", tc.name, se.Code, se.Message, tc.want)
		}
		// GLPK works again on this thread.
		sols, err := good.Enumerate(context.Background(), Options{}, 10, nil)
		if err != nil || len(sols) != 2 {
			t.Fatalf("%s: afterwards, 4 queens gave %d solutions, %v; want 2", tc.name, len(sols), err)
		}
	}
}

// TestGLPKReturnCodes covers the failures GLPK reports by return code
// rather than abort: bounds out of order (which the validator refuses).
func TestGLPKReturnCodes(t *testing.T) {
	var m Model
	x := m.Integer(0, 5)
	m.Add(Sum(x), LE, 3)
	p, err := m.compile()
	if err != nil {
		t.Fatal(err)
	}
	p.lb[1], p.ub[1] = 4, 2
	_, err = p.solve(context.Background(), Options{})
	var se *SolverError
	if !errors.As(err, &se) || se.Code != 0x04 {
		t.Fatalf("bounds 4..2: %v, want a *SolverError with GLP_EBOUND (4)", err)
	}
}

// FuzzModel builds models from arbitrary bytes: any number of variables
// and constraints, any indices, any float bit patterns. Whatever comes in,
// Solve must return a *ModelError or a solution (never abort, never a
// GLPK error), and an Optimal solution must satisfy every constraint.
func FuzzModel(f *testing.F) {
	f.Add([]byte{2, 1, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f})
	f.Add([]byte{4, 0, 1, 2, 3, 9, 1, 1, 0, 1, 2, 3})
	f.Add([]byte{1, 0xff, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, checks := modelFromBytes(data)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		sol, err := m.Solve(ctx, Options{TimeLimit: 200 * time.Millisecond})
		var me *ModelError
		switch {
		case err == nil:
		case errors.As(err, &me):
			if m.Validate() == nil {
				t.Fatalf("Solve refused a model Validate accepts: %v", err)
			}
			return
		case errors.Is(err, ErrTimeLimit), errors.Is(err, context.DeadlineExceeded):
			return
		default:
			t.Fatalf("Solve: %v", err)
		}
		if sol.Status != Optimal {
			return
		}
		for j := 0; j < m.NumVars(); j++ {
			x := sol.Value(Var(j))
			if x < m.lo[j]-1e-6 || x > m.hi[j]+1e-6 || math.Abs(x-math.Round(x)) > 1e-6 {
				t.Fatalf("variable %d = %g outside %g..%g or not an integer", j, x, m.lo[j], m.hi[j])
			}
		}
		for i, r := range m.rows {
			if !checks[i] {
				continue
			}
			sum, scale := 0.0, 1.0
			for _, tm := range m.terms[r.start:r.end] {
				sum += tm.Coef * float64(sol.Int(tm.Var))
				scale = max(scale, math.Abs(tm.Coef))
			}
			tol := 1e-6 * scale * float64(r.end-r.start+1)
			if (r.sense == LE && sum > r.rhs+tol) || (r.sense == GE && sum < r.rhs-tol) || (r.sense == EQ && math.Abs(sum-r.rhs) > tol) {
				t.Fatalf("constraint %d: %g %v %g broken", i, sum, r.sense, r.rhs)
			}
		}
	})
}

// modelFromBytes reads a model from fuzz data: a byte with the number of
// variables (kind and bounds from the next bytes), then constraints as a
// byte of term count, sense and terms (a variable byte, a coefficient
// that is a float64 bit pattern or a small integer). checks[i] reports
// whether constraint i has only small integer numbers, so that the
// solution can be checked against it exactly.
func modelFromBytes(data []byte) (*Model, []bool) {
	var m Model
	pos := 0
	next := func() byte {
		if pos >= len(data) {
			return 0
		}
		pos++
		return data[pos-1]
	}
	number := func() (float64, bool) {
		b := next()
		if b&0x80 == 0 {
			return float64(int(b&0x3f) - 16), true
		}
		var bits uint64
		for k := 0; k < 8; k++ {
			bits = bits<<8 | uint64(next())
		}
		return math.Float64frombits(bits), false
	}
	for nv := int(next() % 17); nv > 0; nv-- {
		if k := next(); k%4 == 0 {
			lo := int(int8(next()))
			hi := int(int8(next()))
			if k&0x80 != 0 {
				hi = lo + int(next()%8) // mostly ordered bounds
			}
			m.Integer(lo, hi)
		} else {
			m.Binary()
		}
	}
	var checks []bool
	for pos < len(data) && len(m.rows) < 40 {
		head := next()
		n, sense := int(head%9), Sense(head>>4%4)
		var terms []Term
		exact := true
		for ; n > 0; n-- {
			v := Var(int(int8(next())))
			c, ok := number()
			exact = exact && ok
			terms = append(terms, Term{v, c})
		}
		rhs, ok := number()
		checks = append(checks, exact && ok)
		m.Add(terms, sense, rhs)
	}
	if next()%2 == 1 {
		var obj []Term
		for n := int(next() % 5); n > 0; n-- {
			c, _ := number()
			obj = append(obj, Term{Var(int(int8(next()))), c})
		}
		m.SetObjective(Direction(next()%3), 0, obj)
	}
	return &m, checks
}
