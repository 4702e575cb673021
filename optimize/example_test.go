package optimize_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sudokuar/sudokuar/optimize"
)

// parabola is the smallest Annealable: one integer x in -100..100 with
// cost (x-7)², moved by ±1.
type parabola struct{ x, step int }

func (p *parabola) Randomize(rng *rand.Rand) { p.x = rng.IntN(201) - 100 }
func (p *parabola) Cost() float64            { return float64((p.x - 7) * (p.x - 7)) }
func (p *parabola) State() int               { return p.x }
func (p *parabola) Accept()                  { p.x += p.step }

func (p *parabola) Propose(rng *rand.Rand) float64 {
	p.step = 2*rng.IntN(2) - 1
	if p.x+p.step < -100 || p.x+p.step > 100 {
		p.step = 0
	}
	after := (p.x + p.step - 7) * (p.x + p.step - 7)
	return float64(after) - p.Cost()
}

func ExampleAnneal() {
	res, err := optimize.Anneal(context.Background(), &parabola{}, optimize.AnnealConfig{Seed: 1, Target: 0})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Best, res.Cost, res.Reached)
	// Output: 7 0 true
}
