// Package errata lists the cells whose label in the truth files of
// ../shared/datasets disagrees with what the photo prints, each checked by
// eye on the photo. In: a truth file's folder and name; out: the cells to
// set, for training and measuring on what the page really shows.
//
// Every fix keeps the puzzle's solution: a given the label lacks is the
// digit the solution has there, and a given the label has but the page
// does not print leaves the puzzle with the same one solution.
package errata

import "path/filepath"

// Fix sets one cell (row and column from 1; V 0 for empty).
type Fix struct{ Row, Col, V int }

// byFile holds the fixes per folder and file.
var byFile = map[string]map[string][]Fix{
	"others-train": {
		// The label lacks a given the page prints.
		"es2812-18.dat": {{1, 3, 8}},
		"es2812-32.dat": {{9, 7, 3}},
		"es2812-58.dat": {{7, 8, 2}, {9, 7, 8}},
		// The label has a 5 the page does not print (the cell is blank
		// paper in the photo; the puzzle without it has the same single
		// solution).
		"es2812-11.dat": {{2, 1, 0}},
	},
}

// For returns the fixes for the truth file at path (its folder's name and
// its own name decide), or nil.
func For(path string) []Fix {
	return byFile[filepath.Base(filepath.Dir(path))][filepath.Base(path)]
}
