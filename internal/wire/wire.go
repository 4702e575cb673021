// Package wire is the JSON the front ends print and serve for a reading of
// one picture: a line of `sudokuar scan --json` and of `live --json`, and
// the answer of POST /api/scan. Its shapes are pinned byte for byte by
// golden tests (docs/camera.md, "Pinned shapes"); a field is added here
// on purpose or not at all.
//
// In: a pipeline.Result, the stage's value. Out: a Result ready for
// encoding/json, the strings (givens, solution) and the rounded corners
// derived from the Result's grids. What only one front end adds (live's
// frame and its readings beside the vote, scan's rating) the front end
// sets on the value FromResult returns, or embeds it.
package wire

import (
	"github.com/sudokuar/sudokuar/pipeline"
)

// Result is one reading of a picture as JSON. The fields keep the order
// they are encoded in.
type Result struct {
	File     string          `json:"file,omitempty"`
	Frame    *int            `json:"frame,omitempty"` // live only: the frame index recognised
	Found    bool            `json:"found"`
	Corners  [4][2]float64   `json:"corners"` // TL, TR, BR, BL in the frame's pixels
	Box      [2]int          `json:"box"`     // box rows, box columns (0,0 when no grid)
	Given    string          `json:"given"`   // N² chars, '0' = empty
	Solution string          `json:"solution"`
	Status   pipeline.Status `json:"status"`
	Ms       float64         `json:"ms"`
	Error    string          `json:"error,omitempty"`

	Conflicts []int     `json:"conflicts,omitempty"` // cells (row-major) of givens that break a rule
	Changed   []int     `json:"changed,omitempty"`   // cells the OCR's repair read as a less likely value
	Grids     []Grid    `json:"grids,omitempty"`     // the grids in view, when more than one
	Check     []Check   `json:"check,omitempty"`     // cells to check before trusting a solution
	Symbols   string    `json:"symbols,omitempty"`   // how the page writes values above 9 (given says A..)
	Conf      []float64 `json:"conf,omitempty"`      // per cell, how sure the reading is of its value
	Turns     int       `json:"turns,omitempty"`     // quarter turns the page lay from upright
	CellPx    float64   `json:"cell_px,omitempty"`   // a cell's side in the pixels it was read from
	// Own and Fused are live's: what the recognised frame read alone, and
	// what the fusion of the page's latest views read (live.Recognition).
	Own   *Reading `json:"own,omitempty"`
	Fused *Reading `json:"fused,omitempty"`

	// What the player wrote on a pen page (pipeline.CheckEntries).
	Entries    string  `json:"entries,omitempty"` // N² chars, '0' = no entry
	Mistakes   []int   `json:"mistakes,omitempty"`
	Clashes    []int   `json:"clashes,omitempty"`
	Notes      []int   `json:"notes,omitempty"`
	EntryCheck []Check `json:"entry_check,omitempty"`
	Progress   string  `json:"progress,omitempty"`
}

// Grid is one of several grids found in one picture (pipeline.GridChoice).
type Grid struct {
	Corners [4][2]float64 `json:"corners"`
	Score   float64       `json:"score"`
	Read    bool          `json:"read,omitempty"`
}

// Check is one cell to check on the page (pipeline.Check).
type Check struct {
	Cell   int    `json:"cell"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Reading is a reading of the givens beside the one a Result reports.
type Reading struct {
	Given  string          `json:"given"`
	Status pipeline.Status `json:"status"`
	Views  int             `json:"views,omitempty"`
}

// FromResult is the JSON form of r.
func FromResult(r pipeline.Result) Result {
	w := Result{
		File: r.File, Found: r.Found, Status: r.Status, Ms: r.Ms, Error: r.Error,
		Given: r.Given(), Solution: r.Solution(),
		Conflicts: r.Conflicts, Changed: r.Changed, Grids: each(r.Grids, toGrid), Check: each(r.Check, toCheck),
		Symbols: r.Symbols, Conf: r.Conf, Turns: r.Turns, CellPx: r.CellPx,
		Entries: r.Entries, Mistakes: r.Mistakes, Clashes: r.Clashes, Notes: r.Notes,
		EntryCheck: each(r.EntryCheck, toCheck), Progress: r.Progress,
	}
	w.Corners = pipeline.Corners(r.Grid)
	w.Box = [2]int{r.Grid.Shape.BoxRows, r.Grid.Shape.BoxCols}
	return w
}

// each converts xs one by one with f; nil stays nil, so a field the
// pipeline left out stays out of the JSON.
func each[T, U any](xs []T, f func(T) U) []U {
	if xs == nil {
		return nil
	}
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func toGrid(g pipeline.GridChoice) Grid { return Grid(g) }
func toCheck(c pipeline.Check) Check    { return Check(c) }
