// Package ocr reads the values of a Sudoku grid from its cell images.
// In: vision.Cell images (ink bright on dark) and the box shape. Out: a
// Reading: the givens, the symbol convention above 9, calibrated per-cell
// probabilities, the corrections made for a unique solution, and the cells
// to check before a solution is shown as certain (Reading.Doubt). The model
// is a small ONNX CNN (package ocr/digitnet, models/README.md) run by onnx-go
// (pure Go, the default) or OpenCV's DNN module.
package ocr

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/sudokuar/sudokuar/models"
	"github.com/sudokuar/sudokuar/ocr/digitnet"
	"github.com/sudokuar/sudokuar/vision"
)

// Classes is the number of classes the first digit models told apart
// (0 = empty, 1..9). The shipped model reads more glyphs: see Glyph and
// NumGlyphs. A Classifier returns as many probabilities per cell as its
// model has outputs.
const Classes = digitnet.Classes

// CellLen is the number of floats in one input cell (vision.CellSize²).
const CellLen = vision.CellSize * vision.CellSize

// Classifier turns cell images into class probabilities.
//
// Classify takes any number of cells, each CellLen floats in [0,1] (ink
// bright on dark, as vision.Cell.Pixels), and returns, per cell, one
// probability per glyph the model knows (Classes or NumGlyphs of them),
// summing to 1: index 0 = empty, 1..9 = that digit, then the glyphs of
// Glyph. A cell of the wrong length is an error (an *InputError); nothing
// is classified then.
type Classifier interface {
	Classify(cells [][]float32) ([][]float32, error)
}

// Backend names accepted by Load and Default.
const (
	BackendGo     = "go"     // onnx-go with the gorgonia backend (pure Go)
	BackendOpenCV = "opencv" // OpenCV DNN through gocv
)

// ModelError reports model bytes that are not a usable sudokuar digit model:
// unreadable protobuf, a different graph, or weights of the wrong size. File
// names the model file when it was loaded from one.
type ModelError struct {
	File string
	Err  error
}

func (e *ModelError) Error() string {
	if e.File == "" {
		return "digit model: " + e.Err.Error()
	}
	return fmt.Sprintf("digit model %s: %v", e.File, e.Err)
}

func (e *ModelError) Unwrap() error { return e.Err }

// InputError reports a cell that cannot be classified (wrong size or values
// that are not finite).
type InputError struct {
	Cell   int // index in the batch
	Reason string
}

func (e *InputError) Error() string { return fmt.Sprintf("ocr input cell %d: %s", e.Cell, e.Reason) }

// Load reads an ONNX digit model from path and runs it with the named
// backend (BackendGo, BackendOpenCV; "" means BackendGo). Errors name the
// file. Close the result with CloseClassifier when done.
func Load(path, backend string) (Classifier, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ModelError{File: path, Err: err}
	}
	c, err := New(data, backend)
	var me *ModelError
	if errors.As(err, &me) && me.File == "" {
		me.File = path
	}
	return c, err
}

// Default runs the model embedded in package models (models/digits.onnx)
// with the named backend.
func Default(backend string) (Classifier, error) {
	c, err := New(models.Digits(), backend)
	var me *ModelError
	if errors.As(err, &me) && me.File == "" {
		me.File = "models/digits.onnx (embedded)"
	}
	return c, err
}

// New runs the model in data with the named backend.
func New(data []byte, backend string) (Classifier, error) {
	switch strings.ToLower(backend) {
	case "", BackendGo, "onnx-go":
		return NewGo(data)
	case BackendOpenCV:
		return NewOpenCV(data)
	}
	return nil, fmt.Errorf("ocr backend %q unknown (want %q or %q)", backend, BackendGo, BackendOpenCV)
}

// open runs a validated model of k classes reading in views of a cell
// with the named backend.
func open(data []byte, k, in int, backend string) (Classifier, error) {
	switch strings.ToLower(backend) {
	case "", BackendGo, "onnx-go":
		c, err := newGo(data, k, in)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return c, nil
	case BackendOpenCV:
		c, err := newOpenCV(data, k, in)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return nil, fmt.Errorf("ocr backend %q unknown (want %q or %q)", backend, BackendGo, BackendOpenCV)
}

// CloseClassifier releases what a classifier holds outside the Go heap (the
// OpenCV network). It is safe to call on any Classifier.
func CloseClassifier(c Classifier) error {
	if cl, ok := c.(interface{ Close() error }); ok {
		return cl.Close()
	}
	return nil
}

// validate checks that data is exactly a digitnet graph (same operators in
// the same order, wired the same way, weights of consistent sizes) before any
// runtime sees it: OpenCV aborts the process on graphs it cannot handle, and
// onnx-go may panic.
//
// It returns the number of outputs (classes) the model has.
func validate(data []byte) (int, error) {
	k, in, err := validateGraph(data)
	if err != nil {
		return 0, err
	}
	if in != 1 {
		return 0, &ModelError{Err: fmt.Errorf("model reads %d views of a cell; a digit model reads 1", in)}
	}
	if k > NumGlyphs {
		return 0, &ModelError{Err: fmt.Errorf("model has %d outputs; this program knows %d glyphs", k, NumGlyphs)}
	}
	return k, nil
}

// validateGraph checks data as validate does, decoding it once
// (digitnet.FromONNX checks the graph), and returns the model's outputs and
// input channels.
func validateGraph(data []byte) (int, int, error) {
	w, err := digitnet.FromONNX(data)
	if err != nil {
		return 0, 0, &ModelError{Err: err}
	}
	return w.Arch.Outputs(), w.Arch.Channels(), nil
}

// checkCells validates a batch before it reaches a runtime.
func checkCells(cells [][]float32, channels int) error {
	for i, c := range cells {
		if len(c) != channels*CellLen {
			return &InputError{Cell: i, Reason: fmt.Sprintf("%d values, want %d (%d×%d×%d)", len(c), channels*CellLen, channels, vision.CellSize, vision.CellSize)}
		}
		for _, v := range c {
			// v-v is 0 for every finite v and NaN for NaN and ±Inf: one
			// compare per value, where this loop reads every input.
			if v-v != 0 {
				return &InputError{Cell: i, Reason: "value not finite"}
			}
		}
	}
	return nil
}

// softmax turns each row of k logits into probabilities.
func softmax(logits []float32, n, k int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		row := logits[i*k : (i+1)*k]
		max := row[0]
		for _, v := range row {
			if v > max {
				max = v
			}
		}
		p := make([]float32, k)
		var sum float64
		for j, v := range row {
			e := math.Exp(float64(v - max))
			p[j] = float32(e)
			sum += e
		}
		for j := range p {
			p[j] = float32(float64(p[j]) / sum)
		}
		out[i] = p
	}
	return out
}
