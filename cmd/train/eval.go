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
	"github.com/sudokuar/sudokuar/vision"
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
	tooLarge          int // grids the model cannot read (N > 9)
	readTime          time.Duration
	misses            []string
}

func evaluate(cl ocr.Classifier, ps []photoCells) metrics {
	var m metrics
	for _, p := range ps {
		if p.truth.N() > ocr.MaxSide {
			m.tooLarge++ // not this model's job: kept out of the rates
			continue
		}
		m.photos++
		n := len(p.truth.Cells)
		m.cells += n
		m.digits += p.truth.Givens()
		if p.cells == nil {
			m.misses = append(m.misses, fmt.Sprintf("%s: %v", p.name, p.err))
			continue
		}
		t := time.Now()
		r, err := ocr.Read(cl, p.shape, p.cells)
		m.readTime += time.Since(t)
		if errors.Is(err, ocr.ErrGridTooLarge) {
			m.misses = append(m.misses, fmt.Sprintf("%s: vision saw a %v grid: %v", p.name, p.shape, err))
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
		if exact {
			m.grids++
		} else {
			m.misses = append(m.misses, fmt.Sprintf("%s (truth turned %d, read turned %d, %d changes, %d solutions): %s", p.name, p.turns, r.Turns, len(r.Changes), r.Solutions, strings.Join(wrong, ", ")))
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
	fmt.Printf("%s: %d photos up to 9×9, %d cut by vision into the true shape", name, m.photos, m.cut)
	if m.tooLarge > 0 {
		fmt.Printf(" (%d larger grids left out: the model reads 1..9 only)", m.tooLarge)
	}
	fmt.Printf("\n  digits %d/%d = %.2f%%, all cells %d/%d = %.3f%%, exact grids %d/%d = %.1f%% (after conflict resolution; %d readings changed, %d of them exact)\n",
		m.digitsOK, m.digits, pct(m.digitsOK, m.digits), m.cellsOK, m.cells, pct(m.cellsOK, m.cells),
		m.grids, m.photos, pct(m.grids, m.photos), m.changed, m.fixed)
	fmt.Printf("  model alone: %d/%d = %.2f%% of the cells vision passed to it read right\n", m.clsOK, m.classified, pct(m.clsOK, m.classified))
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
	return cutPhotos(paths, vision.Options{}, workers, nil), nil
}
