//go:build linux

package logic

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time used by the calling OS thread (the caller
// locks itself to it), so per-puzzle timings on a busy machine are not
// diluted by other processes. It reads CLOCK_THREAD_CPUTIME_ID, which has
// nanosecond resolution (getrusage counts in scheduler ticks).
func threadCPU() time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
