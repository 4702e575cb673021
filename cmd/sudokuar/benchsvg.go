package main

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// The chart of `sudokuar bench`: one panel per puzzle set, one row per
// solver, every puzzle a dot on a logarithmic time axis (jittered up and
// down so that dots do not hide each other), a box over the middle half of
// the times with a bar at the median, and the puzzles a solver gave up on
// as red dots in a column of their own at the right. The eye sees at once
// which solver is fast, which is erratic and which fails.

// solverColour gives each solver the same colour in every chart.
var solverColour = map[string]string{
	"dlx":       "#1b7f5f",
	"backtrack": "#d95f02",
	"stack":     "#7570b3",
	"ilp":       "#c2257a",
	"logic":     "#4f8f16",
	"anneal":    "#c99700",
	"cga":       "#8c5a1b",
}

const (
	svgWidth  = 1060
	labelW    = 120 // solver names
	plotL     = 130 // left edge of the time axis
	plotR     = 760 // right edge of the time axis
	failL     = 780 // the "gave up" column
	failR     = 840
	summaryL  = 856 // solved share and median
	rowH      = 30
	panelHead = 34
	axisH     = 26
	panelGap  = 18
)

func benchSVG(runs []benchRun) string {
	var timeout time.Duration // the longest limit ends the axis
	for _, r := range runs {
		timeout = max(timeout, r.limit)
	}
	// The axis runs from the decade below the fastest time to the limit.
	fastest := timeout
	for _, r := range runs {
		for i, t := range r.times {
			if r.ok[i] && t > 0 && t < fastest {
				fastest = t
			}
		}
	}
	lo := math.Pow(10, math.Floor(math.Log10(fastest.Seconds())))
	lo = math.Max(lo, 1e-7)
	hi := timeout.Seconds()
	x := func(sec float64) float64 {
		sec = math.Min(math.Max(sec, lo), hi)
		return plotL + (plotR-plotL)*(math.Log10(sec)-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))
	}

	// Group runs by set, keeping the order they ran in.
	var sets []string
	bySet := map[string][]benchRun{}
	for _, r := range runs {
		if _, ok := bySet[r.set]; !ok {
			sets = append(sets, r.set)
		}
		bySet[r.set] = append(bySet[r.set], r)
	}
	height := 92
	for _, s := range sets {
		height += panelHead + rowH*len(bySet[s]) + axisH + panelGap
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif">`+"\n", svgWidth, height, svgWidth, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="20" y="30" font-size="19" font-weight="600" fill="#222">Time to solve each puzzle, per solver</text>`+"\n")
	fmt.Fprintf(&b, `<text x="20" y="50" font-size="12.5" fill="#555">Each dot is one puzzle, on a log scale of time up to the set's limit (dashed). The box spans the middle half of the</text>`+"\n")
	fmt.Fprintf(&b, `<text x="20" y="66" font-size="12.5" fill="#555">puzzles a solver solved and the dark bar is their median; red dots at the right are the puzzles it gave up on.</text>`+"\n")

	y := 92
	for _, s := range sets {
		rs := bySet[s]
		n := len(rs[0].times)
		var panelLimit time.Duration // the set's limit; a solver may have less
		for _, r := range rs {
			panelLimit = max(panelLimit, r.limit)
		}
		fmt.Fprintf(&b, `<text x="20" y="%d" font-size="15" font-weight="600" fill="#222">%s</text>`, y+20, html.EscapeString(s))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" fill="#666">%d puzzles, limit %s each</text>`+"\n", 28+7*len(s)+20, y+20, n, shortDur(panelLimit))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#a33" text-anchor="middle">gave up</text>`, (failL+failR)/2, y+24)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#666">solved · their median</text>`+"\n", summaryL, y+24)
		y += panelHead
		rowsTop := y
		// Decade grid lines behind the rows.
		rowsBottom := rowsTop + rowH*len(rs)
		for k := range rs {
			if k%2 == 0 {
				fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#f4f5f8"/>`, 12, rowsTop+rowH*k, svgWidth-24, rowH)
			}
		}
		for d := math.Log10(lo); d <= math.Log10(hi)+1e-9; d++ {
			if l := math.Log10(panelLimit.Seconds()); math.Abs(l-d) < 0.35 {
				continue // too close to the limit's label
			}
			xx := x(math.Pow(10, d))
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e3e3e3"/>`, xx, rowsTop, xx, rowsBottom)
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11" fill="#666" text-anchor="middle">%s</text>`+"\n", xx, rowsBottom+16, decadeLabel(d))
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#bbb"/>`+"\n", plotL, rowsBottom, plotR, rowsBottom)
		limitX := x(panelLimit.Seconds())
		for k, r := range rs { // each row's own limit, dashed
			lx := x(r.limit.Seconds())
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#d66" stroke-dasharray="3,3"/>`, lx, rowsTop+rowH*k, lx, rowsTop+rowH*(k+1))
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11" fill="#c44" text-anchor="middle">%s limit</text>`+"\n", limitX, rowsBottom+16, shortDur(panelLimit))
		for k, r := range rs {
			cy := float64(rowsTop + rowH*k + rowH/2)
			col := colourOf(r.solver, k)
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="13.5" fill="%s" font-weight="600" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", labelW, cy, col, html.EscapeString(r.solver))
			var solved []time.Duration
			failed := 0
			for i, t := range r.times {
				jit := (math.Mod(float64(i)*0.6180339887, 1) - 0.5) * (rowH - 10)
				if r.ok[i] {
					solved = append(solved, t)
					fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.3" fill="%s" fill-opacity="0.45"/>`, x(t.Seconds()), cy+jit, col)
					continue
				}
				failed++
				fx := failL + 6 + math.Mod(float64(i)*0.7548776662, 1)*float64(failR-failL-12)
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.3" fill="#d22" fill-opacity="0.6"/>`, fx, cy+jit)
			}
			b.WriteString("\n")
			if len(solved) > 0 {
				q1, med, q3 := quantile(solved, 0.25), quantile(solved, 0.5), quantile(solved, 0.75)
				x1, x3 := x(q1.Seconds()), x(q3.Seconds())
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="3" fill="%s" fill-opacity="0.14" stroke="%s" stroke-width="1.3"/>`, x1-1, cy-9, x3-x1+2, 18, col, col)
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222" stroke-width="3" stroke-linecap="round"/>`+"\n", x(med.Seconds()), cy-10, x(med.Seconds()), cy+10)
			}
			share := float64(len(solved)) / float64(len(r.times))
			medText := "–"
			if len(solved) > 0 {
				medText = fmtDur(quantile(solved, 0.5))
			}
			weight := "400"
			fill := "#222"
			if failed > 0 {
				fill = "#a33"
				weight = "600"
			}
			own := ""
			if r.limit < panelLimit {
				own = " · limit " + shortDur(r.limit)
			}
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="12.5" fill="%s" font-weight="%s" dominant-baseline="middle">%s · %s%s</text>`+"\n", summaryL, cy, fill, weight, pct(share), medText, own)
		}
		y = rowsBottom + axisH + panelGap
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// colourOf returns the solver's colour, or one from a spare palette.
func colourOf(name string, k int) string {
	if c, ok := solverColour[name]; ok {
		return c
	}
	spare := []string{"#1f77b4", "#9467bd", "#17becf", "#7f7f7f"}
	return spare[k%len(spare)]
}

// decadeLabel names 10^d seconds: 1µs, 10µs, ..., 1s, 10s.
func decadeLabel(d float64) string {
	e := int(math.Round(d))
	switch {
	case e >= 0:
		return fmt.Sprintf("%.0fs", math.Pow(10, float64(e)))
	case e >= -3:
		return fmt.Sprintf("%.0fms", math.Pow(10, float64(e+3)))
	case e >= -6:
		return fmt.Sprintf("%.0fµs", math.Pow(10, float64(e+6)))
	}
	return fmt.Sprintf("%.0fns", math.Pow(10, float64(e+9)))
}

// pct formats a share as a percentage without needless decimals.
func pct(f float64) string {
	if f == 1 || f == 0 || f*100 == math.Round(f*100) {
		return fmt.Sprintf("%.0f%%", f*100)
	}
	return fmt.Sprintf("%.1f%%", f*100)
}

// shortDur formats a limit without trailing zeros: 10s, 2.5s, 500ms.
func shortDur(d time.Duration) string {
	return strings.NewReplacer(".00", "", ".0s", "s").Replace(fmtDur(d))
}
