package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/ocr"
	"github.com/sudokuar/sudokuar/sudoku"
)

// metrics counts how well photos were read, through vision's cutter and
// ocr.Read (conflict resolution included).
type metrics struct {
	photos, cut       int // photos, and those vision cut into the right grid
	digits, digitsOK  int // truth non-empty cells, read right
	cells, cellsOK    int // all cells, read right (empty counts)
	classified, clsOK int // cells vision passed to the model, read right
	grids             int // photos read exactly
	changed, fixed    int // readings with changes, and of those exact
	tooLarge          int // grids the model cannot read
	shown, wrongShown int // readings presented as solved (certain), and of those with a wrong solution
	check, checkExact int // readings with one solution held back for a check, and of those exact
	readTime          time.Duration
	misses            []string
}

func evaluate(cl ocr.Classifier, ps []photoCells) metrics {
	return evaluateWith(cl, ps, ocr.DefaultSettings)
}

func evaluateWith(cl ocr.Classifier, ps []photoCells, set ocr.Settings) metrics {
	var m metrics
	for _, p := range ps {
		m.photos++
		n := len(p.truth.Cells)
		m.cells += n
		m.digits += p.truth.Givens()
		if p.cells == nil {
			m.misses = append(m.misses, fmt.Sprintf("%s: %v", p.name, p.err))
			continue
		}
		t := time.Now()
		r, err := ocr.ReadWith(cl, p.shape, p.cells, set)
		m.readTime += time.Since(t)
		if errors.Is(err, ocr.ErrGridTooLarge) {
			m.tooLarge++
			m.misses = append(m.misses, fmt.Sprintf("%s: %v", p.name, err))
			continue
		}
		if err != nil {
			m.misses = append(m.misses, fmt.Sprintf("%s: %v", p.name, err))
			continue
		}
		m.cut++
		exact := true
		var wrong []string
		for i, v := range r.Given.Cells {
			want := p.truth.Cells[i]
			if r.Prob[i] != nil {
				m.classified++
				if v == want {
					m.clsOK++
				}
			}
			if v == want {
				m.cellsOK++
				if want != 0 {
					m.digitsOK++
				}
				continue
			}
			exact = false
			wrong = append(wrong, fmt.Sprintf("r%dc%d %d→%d (conf %.2f)", i/p.shape.N()+1, i%p.shape.N()+1, want, v, r.Conf[i]))
		}
		if len(r.Changes) > 0 {
			m.changed++
			if exact {
				m.fixed++
			}
		}
		if r.Certain() {
			m.shown++
			if sol, err := sudoku.Solve(r.Given); err != nil || !solvesTruth(sol, p.truth) {
				m.wrongShown++
				m.misses = append(m.misses, fmt.Sprintf("%s: WRONG SOLUTION SHOWN AS CERTAIN", p.name))
			}
		} else if r.Solutions == 1 {
			m.check++
			if exact {
				m.checkExact++
			}
			var ds []string
			for _, d := range r.Doubt {
				ds = append(ds, fmt.Sprintf("r%dc%d: %s", d.Cell/p.shape.N()+1, d.Cell%p.shape.N()+1, d.Reason))
			}
			m.misses = append(m.misses, fmt.Sprintf("%s (exact %v) held back: %s", p.name, exact, strings.Join(ds, "; ")))
		}
		if exact {
			m.grids++
		} else {
			m.misses = append(m.misses, fmt.Sprintf("%s (truth turned %d, read turned %d, %d changes, %d solutions, symbols %v): %s", p.name, p.turns, r.Turns, len(r.Changes), r.Solutions, r.Symbols, strings.Join(wrong, ", ")))
		}
	}
	return m
}

func report(name string, m metrics) {
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	fmt.Printf("%s: %d photos, %d cut by vision into the true shape", name, m.photos, m.cut)
	if m.tooLarge > 0 {
		fmt.Printf(" (%d grids with values the model has no glyphs for)", m.tooLarge)
	}
	fmt.Printf("\n  digits %d/%d = %.2f%%, all cells %d/%d = %.3f%%, exact grids %d/%d = %.1f%% (after conflict resolution; %d readings changed, %d of them exact)\n",
		m.digitsOK, m.digits, pct(m.digitsOK, m.digits), m.cellsOK, m.cells, pct(m.cellsOK, m.cells),
		m.grids, m.photos, pct(m.grids, m.photos), m.changed, m.fixed)
	fmt.Printf("  model alone: %d/%d = %.2f%% of the cells vision passed to it read right\n", m.clsOK, m.classified, pct(m.clsOK, m.classified))
	fmt.Printf("  shown as solved: %d/%d, of them with a wrong solution: %d; held back for a check: %d (%d of them read exactly)\n", m.shown, m.photos, m.wrongShown, m.check, m.checkExact)
	if m.cut > 0 {
		fmt.Printf("  ocr.Read (onnx-go): %.2f ms per grid\n", float64(m.readTime.Microseconds())/1000/float64(m.cut))
	}
	for _, s := range m.misses {
		fmt.Printf("  miss %s\n", s)
	}
}

// testdataPhotos cuts the committed synthetic photos (image + .dat).
func testdataPhotos(dir string, workers int) ([]photoCells, error) {
	var paths []string
	for _, ext := range []string{"*.jpg", "*.png"} {
		m, err := filepath.Glob(filepath.Join(dir, ext))
		if err != nil {
			return nil, err
		}
		for _, p := range m {
			if _, err := os.Stat(strings.TrimSuffix(p, filepath.Ext(p)) + ".dat"); err == nil {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no photos with .dat truth")
	}
	sort.Strings(paths)
	return cutPhotos(paths, false, workers, nil), nil
}

// solvesTruth reports whether sol is the solution of the true puzzle.
func solvesTruth(sol, truth sudoku.Grid) bool {
	want, err := sudoku.Solve(truth)
	return err == nil && want.Equal(sol)
}
