// Package models ships sudokuar's trained networks inside the binary, so the
// program runs from any directory.
//
// In: nothing. Out: the bytes of models/digits.onnx, the digit classifier,
// and of models/pen.onnx and models/pen2.onnx, which tell printed digits
// from handwritten ones and pencil notes; all described in
// models/README.md (run them with package ocr).
package models

import _ "embed"

//go:embed digits.onnx
var digits string // a string, so no caller can modify the embedded model

// Digits returns a fresh copy of the ONNX digit model (input "cells"
// [N,1,28,28] float32, output "logits" [N,10]).
func Digits() []byte { return []byte(digits) }

//go:embed pen.onnx
var pen string

//go:embed pen2.onnx
var pen2 string

// Pen returns a fresh copy of the ONNX pen model, which tells what ink a
// cell holds (input "cells" [N,3,28,28]: a cell's vision.Cell Pixels,
// View and Grey; output "logits" [N,13]: empty, printed, handwritten 1..9, pencil
// notes, unclear; see models/README.md).
func Pen() []byte { return []byte(pen) }

// PenSecond returns a fresh copy of the second pen model: the same
// network and training from another seed, asked only about the cells the
// first reads unsurely (ocr.DefaultPen).
func PenSecond() []byte { return []byte(pen2) }
