package logic

import (
	"sync"
	"testing"
)

// hardStates are grid states on the rating paths of hard calibration
// puzzles at which every technique before static chains fails: the states
// where the expensive techniques run.
var (
	hardStatesOnce sync.Once
	hardStates     []*Grid
)

func loadHardStates(tb testing.TB) []*Grid {
	ps := readRated(tb, "puzzles/rated/se-sudoku-exchange.txt")
	hardStatesOnce.Do(func() {
		cut := 0
		for i, t := range rateOrder {
			if t.Name == techChainsAndCycles.Name {
				cut = i
			}
		}
		n := 0
		for _, p := range ps {
			if p.rating < 7.0 {
				continue
			}
			if n++; n > 60 {
				break
			}
			g, _ := uniqueGrid(tb, p.line)
			for !g.Solved() {
				s, ok := nextStep(g, rateOrder[:cut])
				if !ok {
					hardStates = append(hardStates, g.Clone())
					s, ok = nextStep(g, rateOrder[cut:])
					if !ok {
						break
					}
				}
				g.Apply(s)
			}
		}
	})
	return hardStates
}

func benchTechnique(b *testing.B, t Technique) {
	states := loadHardStates(b)
	b.ReportMetric(float64(len(states)), "states")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range states {
			t.find(g)
		}
	}
}

func BenchmarkStaticChains(b *testing.B)  { benchTechnique(b, techChainsAndCycles) }
func BenchmarkAlignedTriple(b *testing.B) { benchTechnique(b, techAlignedTriple) }
func BenchmarkNishio(b *testing.B)        { benchTechnique(b, techNishio) }
func BenchmarkMultiple(b *testing.B)      { benchTechnique(b, techMultipleFC) }
func BenchmarkDynamic(b *testing.B)       { benchTechnique(b, techDynamicFC) }
func BenchmarkStrongLinks2(b *testing.B)  { benchTechnique(b, techStrongLinks2) }

func BenchmarkStaticModeX(b *testing.B) {
	benchTechnique(b, Technique{find: func(g *Grid) (Step, bool) { return searchStatic(g, []chainMode{modeX}, noHint) }})
}
func BenchmarkStaticModeY(b *testing.B) {
	benchTechnique(b, Technique{find: func(g *Grid) (Step, bool) { return searchStatic(g, []chainMode{modeY}, noHint) }})
}
func BenchmarkStaticModeXY(b *testing.B) {
	benchTechnique(b, Technique{find: func(g *Grid) (Step, bool) { return searchStatic(g, []chainMode{modeXY}, noHint) }})
}

// benchFresh runs t on every hard state with the per-state cache dropped
// first, as the rating path meets each state once.
func benchFresh(b *testing.B, t Technique) {
	states := loadHardStates(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range states {
			g.cache = nil
			t.find(g)
		}
	}
}

func BenchmarkStrongLinks2Fresh(b *testing.B) { benchFresh(b, techStrongLinks2) }
