package solvers

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time used by the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID, exact to the nanosecond, unlike getrusage's
// per-thread figures, which move in scheduler ticks), so that a benchmark
// on a busy machine can report what the solve itself cost. GLPK runs on
// the calling thread (cgo), so its work is counted. The caller locks
// itself to its thread.
func threadCPU() time.Duration {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
