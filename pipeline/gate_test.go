package pipeline

import (
	"slices"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
)

// TestGateSureTogether: what several frames read surely together
// (Evidence.Sure) settles a cell the single confidences or the reader's
// doubt leave unsure, from cells of SureTogetherPx on; below that, or
// short of SureTogether, or on a cell it does not cover, the gate holds
// as it does without it.
func TestGateSureTogether(t *testing.T) {
	g, err := sudoku.ParseCellGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3},
		"530070000600195000098000060800060003400803001700020006060000280000419005000080079")
	if err != nil {
		t.Fatal(err)
	}
	rules := Judge(g)
	if rules.Status != StatusSolved {
		t.Fatalf("puzzle: %s", rules.Status)
	}
	const cell = 4 // r1c5, a 7
	conf := make([]float64, len(g.Cells))
	for i := range conf {
		conf[i] = 0.99
	}
	conf[cell] = 0.8 // below SmallCellSure
	weak := slices.Clone(conf)
	weak[cell] = 0.3 // below CheckBelow
	sure := func(at float64) []float64 {
		s := make([]float64, len(g.Cells))
		for i := range s {
			s[i] = 1
		}
		s[cell] = at
		return s
	}
	for _, tc := range []struct {
		name string
		ev   Evidence
		want Status
	}{
		{"small, one reading", Evidence{Conf: conf, CellPx: 15}, StatusTooSmall},
		{"small, sure together", Evidence{Conf: conf, CellPx: 15, Sure: sure(0.9995)}, StatusSolved},
		{"small, short of sure together", Evidence{Conf: conf, CellPx: 15, Sure: sure(0.998)}, StatusTooSmall},
		{"too small to count what is sure together", Evidence{Conf: conf, CellPx: 13, Sure: sure(0.9999)}, StatusTooSmall},
		{"doubted, one reading", Evidence{Conf: conf, CellPx: 20, Doubt: []int{cell}}, StatusCheck},
		{"doubted, sure together", Evidence{Conf: conf, CellPx: 20, Doubt: []int{cell}, Sure: sure(0.9995)}, StatusSolved},
		{"below CheckBelow, sure together", Evidence{Conf: weak, CellPx: 20, Sure: sure(0.9995)}, StatusSolved},
		{"below CheckBelow, short of sure together", Evidence{Conf: weak, CellPx: 20, Sure: sure(0.99)}, StatusCheck},
		{"Sure of another size ignored", Evidence{Conf: conf, CellPx: 15, Sure: []float64{1, 1, 1}}, StatusTooSmall},
	} {
		v := Gate(g, rules, tc.ev)
		if v.Status != tc.want {
			t.Errorf("%s: %s (check %v), want %s", tc.name, v.Status, v.Check, tc.want)
		}
		if tc.want != StatusSolved && !slices.Contains(v.Check, cell) {
			t.Errorf("%s: check %v, want r1c5 (cell %d) named", tc.name, v.Check, cell)
		}
	}
}

// TestGateDim: in dim light a given must be DimSure sure; in good light
// the same confidence shows the solution, and frames sure together settle
// it in dim light too.
func TestGateDim(t *testing.T) {
	g, err := sudoku.ParseCellGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3},
		"530070000600195000098000060800060003400803001700020006060000280000419005000080079")
	if err != nil {
		t.Fatal(err)
	}
	rules := Judge(g)
	const cell = 4 // r1c5, a 7
	conf := make([]float64, len(g.Cells))
	for i := range conf {
		conf[i] = 0.99
	}
	conf[cell] = 0.6 // between CheckBelow and DimSure
	together := make([]float64, len(g.Cells))
	for i := range together {
		together[i] = 1
	}
	for _, tc := range []struct {
		name string
		ev   Evidence
		want Status
	}{
		{"good light", Evidence{Conf: conf, CellPx: 30}, StatusSolved},
		{"dim", Evidence{Conf: conf, CellPx: 30, Dim: true}, StatusCheck},
		{"dim, sure together", Evidence{Conf: conf, CellPx: 30, Dim: true, Sure: together}, StatusSolved},
	} {
		v := Gate(g, rules, tc.ev)
		if v.Status != tc.want || (tc.want == StatusCheck && !slices.Equal(v.Check, []int{cell})) {
			t.Errorf("%s: %s (check %v), want %s", tc.name, v.Status, v.Check, tc.want)
		}
	}
	if cs := dimChecks([]int{cell}, g, conf, nil); len(cs) != 1 || cs[0].Cell != cell || cs[0].Name != "r1c5" {
		t.Errorf("dimChecks: %+v, want r1c5 with a reason", cs)
	}
}

// TestGateStream: in a stream of readings a solved puzzle is shown only
// once the readings bear it out; a still (no Stream) is shown at once.
func TestGateStream(t *testing.T) {
	const givens = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
	g, err := sudoku.ParseCellGrid(sudoku.Shape{BoxRows: 3, BoxCols: 3}, givens)
	if err != nil {
		t.Fatal(err)
	}
	rules := Judge(g)
	sure := make([]float64, len(g.Cells))
	for i := range sure {
		sure[i] = 0.99
	}
	unsure := slices.Clone(sure)
	unsure[4] = 0.9 // under AloneSure, over CheckBelow and SmallCellSure
	near := []byte(givens)
	near[1] = '0' // one given off
	other := "000000000000000000000000000000000000000000000000000000000000000000000000000000123"
	for _, tc := range []struct {
		name   string
		conf   []float64
		px     float64
		stream *Stream
		want   Status
	}{
		{"a still", unsure, 20, nil, StatusSolved},
		{"first reading, standing alone", sure, 20, &Stream{Stood: 1, Recent: []string{other}}, StatusSolved},
		{"first reading, a given under AloneSure", unsure, 20, &Stream{Stood: 1}, StatusReading},
		{"first reading, cells under AloneCellPx", sure, 18, &Stream{Stood: 1}, StatusReading},
		{"first reading, repaired", sure, 20, &Stream{Stood: 1, Repaired: true}, StatusReading},
		{"first reading, a few cells off a recent one", sure, 20, &Stream{Stood: 1, Recent: []string{string(near)}}, StatusReading},
		{"first reading, read before", unsure, 20, &Stream{Stood: 1, Recent: []string{givens}}, StatusSolved},
		{"confirmed by a second reading", unsure, 18, &Stream{Stood: ConfirmReadings}, StatusSolved},
		{"disputed", sure, 20, &Stream{Stood: 5, Disputed: true}, StatusReading},
		{"right after a larger puzzle", sure, 20, &Stream{Stood: 5, Larger: 16}, StatusReading},
		{"after a puzzle of the same size", sure, 20, &Stream{Stood: 5, Larger: 9}, StatusSolved},
	} {
		v := Gate(g, rules, Evidence{Conf: tc.conf, CellPx: tc.px, Stream: tc.stream})
		if v.Status != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, v.Status, tc.want)
		}
	}
	// The rule on the cells comes first: a held cell stays to be checked.
	weak := slices.Clone(sure)
	weak[4] = 0.3
	if v := Gate(g, rules, Evidence{Conf: weak, CellPx: 20, Stream: &Stream{Stood: 5}}); v.Status != StatusCheck {
		t.Errorf("a cell under CheckBelow in a stream: %s, want %s", v.Status, StatusCheck)
	}
}

func TestNearRecent(t *testing.T) {
	recent := []string{"123456789", "000000000"}
	tests := []struct {
		given string
		want  bool
	}{
		{"123456789", false}, // the same reading: not a near miss
		{"103456789", true},  // one cell off
		{"100056789", true},  // three off
		{"100000789", true},  // four off the second
		{"111111111", false}, // eight and nine off
		{"12345", false},     // another size
	}
	for _, tc := range tests {
		if got := nearRecent(recent, tc.given); got != tc.want {
			t.Errorf("nearRecent(%q) = %v, want %v", tc.given, got, tc.want)
		}
	}
}
