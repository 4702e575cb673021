//go:build !linux

package logic

import "time"

// threadCPU falls back to wall-clock time where thread CPU time is not
// available.
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }
