package main

import (
	"math"
	"sort"

	"github.com/sudokuar/sudokuar/ocr/digitnet"
)

// logitsOf runs the training graph's forward pass over samples, in chunks,
// and returns one row of logits per sample (nil on failure).
func logitsOf(w digitnet.Weights, data []sample) [][]float32 {
	const chunk = 256
	k := w.Arch.Outputs()
	out := make([][]float32, 0, len(data))
	for s := 0; s < len(data); s += chunk {
		e := min(s+chunk, len(data))
		var x []float32
		for _, d := range data[s:e] {
			x = append(x, d.x...)
		}
		logits, err := digitnet.Forward(w, x, e-s)
		if err != nil {
			return nil
		}
		for i := 0; i < e-s; i++ {
			out = append(out, logits[i*k:(i+1)*k])
		}
	}
	return out
}

// softmaxT returns the probabilities of logits at temperature t.
func softmaxT(logits []float32, t float64) []float64 {
	p := make([]float64, len(logits))
	m := math.Inf(-1)
	for _, v := range logits {
		m = math.Max(m, float64(v))
	}
	var sum float64
	for i, v := range logits {
		p[i] = math.Exp((float64(v) - m) / t)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// fitTemperature returns the temperature that minimises the negative log
// likelihood of the samples' labels (a golden-section search over
// 0.25..8; the likelihood is unimodal in t). Temperature scaling keeps
// every cell's ranking of classes and only makes the probabilities say how
// often the top class is right.
func fitTemperature(w digitnet.Weights, data []sample) float64 {
	logits := logitsOf(w, data)
	if len(logits) == 0 {
		return 1
	}
	nll := func(t float64) float64 {
		var s float64
		for i, l := range logits {
			s -= math.Log(softmaxT(l, t)[data[i].y] + 1e-12)
		}
		return s
	}
	a, b := math.Log(0.25), math.Log(8)
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := nll(math.Exp(c)), nll(math.Exp(d))
	for k := 0; k < 40; k++ {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = nll(math.Exp(c))
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = nll(math.Exp(d))
		}
	}
	return math.Exp((a + b) / 2)
}

// eceBins is the number of equal-width confidence bins of ece.
const eceBins = 15

// ece returns the expected calibration error of the model's top class at
// temperature t: over confidence bins, the gap between mean confidence and
// accuracy, weighted by the share of cells in the bin.
func ece(w digitnet.Weights, data []sample, t float64) float64 {
	logits := logitsOf(w, data)
	if len(logits) == 0 {
		return math.NaN()
	}
	conf := make([]float64, len(logits))
	right := make([]bool, len(logits))
	for i, l := range logits {
		p := softmaxT(l, t)
		best := 0
		for k := range p {
			if p[k] > p[best] {
				best = k
			}
		}
		conf[i], right[i] = p[best], best == data[i].y
	}
	return eceOf(conf, right)
}

// eceOf is the expected calibration error of confidences and outcomes.
func eceOf(conf []float64, right []bool) float64 {
	var sumC, sumA [eceBins]float64
	var count [eceBins]int
	for i, c := range conf {
		b := min(eceBins-1, int(c*eceBins))
		sumC[b] += c
		if right[i] {
			sumA[b]++
		}
		count[b]++
	}
	var e float64
	for b := range count {
		if count[b] > 0 {
			e += math.Abs(sumC[b]-sumA[b]) / float64(len(conf))
		}
	}
	return e
}

// sources lists the sources of photos in the sets, in order.
func sources(sets ...[]photoCells) []string {
	seen := map[string]bool{}
	var out []string
	for _, ps := range sets {
		for _, p := range ps {
			if !seen[p.source] {
				seen[p.source] = true
				out = append(out, p.source)
			}
		}
	}
	sort.Strings(out)
	return out
}

// bySource returns the photos of ps from source src.
func bySource(ps []photoCells, src string) []photoCells {
	var out []photoCells
	for _, p := range ps {
		if p.source == src {
			out = append(out, p)
		}
	}
	return out
}
