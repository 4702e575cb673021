// Package models ships sudokuar's trained networks inside the binary, so the
// program runs from any directory.
//
// In: nothing. Out: the bytes of models/digits.onnx, the digit classifier
// described in models/README.md (run it with package ocr).
package models

import _ "embed"

//go:embed digits.onnx
var digits string // a string, so no caller can modify the embedded model

// Digits returns a fresh copy of the ONNX digit model (input "cells"
// [N,1,28,28] float32, output "logits" [N,10]).
func Digits() []byte { return []byte(digits) }
