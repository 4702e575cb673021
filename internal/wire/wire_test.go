package wire

import (
	"reflect"
	"testing"

	"github.com/sudokuar/sudokuar/pipeline"
)

// TestEveryResultField: each field of pipeline.Result either has a field
// of the same name on the wire, which FromResult copies, or is named here
// with where its value goes, so a field added to the Result is not left
// out of the JSON unnoticed. The shapes themselves are pinned by the
// golden tests (cmd/sudokuar, web).
func TestEveryResultField(t *testing.T) {
	notOnWire := map[string]string{
		"Puzzle": "given", "Solved": "solution", "Grid": "corners and box",
		"Prob": "live's vote only", "Pen": "live's vote only",
	}
	wt := reflect.TypeOf(Result{})
	rt := reflect.TypeOf(pipeline.Result{})
	for i := range rt.NumField() {
		name := rt.Field(i).Name
		if _, ok := notOnWire[name]; ok {
			continue
		}
		if _, ok := wt.FieldByName(name); !ok {
			t.Errorf("pipeline.Result.%s has no place on the wire", name)
		}
	}
}

// TestFromResult: every field FromResult copies arrives, under each
// field's own value (zero and non-zero), on a Result where every copied
// field is set.
func TestFromResult(t *testing.T) {
	r := pipeline.Result{File: "f.jpg", Found: true, Status: pipeline.StatusCheck, Ms: 1.5, Error: "e",
		Conflicts: []int{1}, Changed: []int{2}, Grids: []pipeline.GridChoice{{Score: 0.5, Read: true}},
		Check: []pipeline.Check{{Cell: 3, Name: "r1c4", Reason: "why"}}, Symbols: "letters",
		Conf: []float64{0.5}, Turns: 1, CellPx: 20, Entries: "1", Mistakes: []int{4}, Clashes: []int{5},
		Notes: []int{6}, EntryCheck: []pipeline.Check{{Cell: 7}}, Progress: "p"}
	w := reflect.ValueOf(FromResult(r))
	rv := reflect.ValueOf(r)
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		f := w.FieldByName(name)
		if !f.IsValid() {
			continue
		}
		if f.IsZero() != rv.Field(i).IsZero() {
			t.Errorf("%s: %v on the wire, %v in the Result", name, f, rv.Field(i))
		}
	}
}
