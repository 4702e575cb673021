//go:build !linux

package sudoku

import "time"

// threadCPU is not available here; benchmarks then skip the CPU-time rate.
func threadCPU() time.Duration { return 0 }
