//go:build !linux

package solvers

import "time"

// threadCPU is not available here; benchmarks then report wall time only.
func threadCPU() time.Duration { return 0 }
