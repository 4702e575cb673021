package pipeline

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

func TestJudge(t *testing.T) {
	s9 := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	const puzzle = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
	const solution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
	tests := []struct {
		name          string
		text          string
		wantStatus    Status
		wantConflicts []int
		wantSolution  string
	}{
		{"unique", puzzle, StatusSolved, nil, solution},
		{"a 5 twice in row 1 and column 9", "530070005" + puzzle[9:], StatusConflict, []int{0, 8, 71}, ""},
		{"no givens: several", fmt.Sprintf("%081d", 0), StatusSeveral, nil, ""},
		// Valid givens with no solution: r1c3 can only be 4, which r1c9's 4 forbids.
		{"valid but unsolvable", "530070004" + puzzle[9:], StatusConflict, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := sudoku.ParseCellGrid(s9, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			v := Judge(g)
			if v.Status != tc.wantStatus || !reflect.DeepEqual(v.Conflicts, tc.wantConflicts) || sudoku.CellString(v.Solution.Cells) != tc.wantSolution {
				t.Fatalf("Judge = %q conflicts %v solution %q; want %q %v %q",
					v.Status, v.Conflicts, sudoku.CellString(v.Solution.Cells), tc.wantStatus, tc.wantConflicts, tc.wantSolution)
			}
		})
	}
}

func TestStatusOf(t *testing.T) {
	tests := []struct {
		err  error
		want Status
	}{
		{&vision.QualityError{Kind: vision.NoGrid}, StatusNoGrid},
		{&vision.QualityError{Kind: vision.TooSmall}, StatusTooSmall},
		{&vision.QualityError{Kind: vision.TooBlurry}, StatusBlurry},
		{&vision.QualityError{Kind: vision.TooDark}, StatusDark},
		{fmt.Errorf("wrapped: %w", &vision.QualityError{Kind: vision.TooDark}), StatusDark},
		{&vision.QualityError{Kind: vision.BadInput}, StatusBadInput},
		{errors.New("other"), StatusBadInput},
	}
	for _, tc := range tests {
		if got := statusOf(tc.err); got != tc.want {
			t.Errorf("statusOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
