package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Available reports whether the thread clocks measure CPU time here.
const Available = true

// clockThreadCPUTimeID is CLOCK_THREAD_CPUTIME_ID from <time.h>.
const clockThreadCPUTimeID = 3

// readClock reads one POSIX clock, or returns 0 when it cannot.
func readClock(clock uintptr) time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clock, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// Thread returns the CPU time the calling OS thread has used. The caller
// locks itself to its thread (runtime.LockOSThread) between two readings.
// Work done in C on that thread (cgo: GLPK, OpenCV) is counted.
func Thread() time.Duration { return readClock(clockThreadCPUTimeID) }

// ThreadClock returns a function that reads the CPU time of the thread
// that called ThreadClock, callable from any goroutine (a watchdog can
// read a solver's clock). That thread must stay locked
// (runtime.LockOSThread) while the result is used.
func ThreadClock() func() time.Duration {
	tid := syscall.Gettid()
	// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) from the kernel's
	// posix-timers.h: the clock of one thread's scheduled run time.
	clock := uintptr(int32(^uint32(tid)<<3 | 4 | 2))
	return func() time.Duration { return readClock(clock) }
}

// Process returns the CPU time (user and system, all threads) this
// process has used so far, or 0 when it cannot be read.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
