package main

import (
	"syscall"
	"time"
	"unsafe"
)

// threadClock returns a function that reads the CPU time the calling OS
// thread has used, callable from any goroutine. The caller must stay
// locked to its thread (runtime.LockOSThread) while it uses the result.
// bench uses it so that a time limit means the same on a busy machine as
// on a quiet one: other processes do not eat into a solver's allowance.
func threadClock() func() time.Duration {
	tid := syscall.Gettid()
	// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) from the kernel's
	// posix-timers.h: the clock of one thread's scheduled run time.
	clock := int32(^uint32(tid)<<3 | 4 | 2)
	return func() time.Duration {
		var ts syscall.Timespec
		if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
			return 0
		}
		return time.Duration(ts.Nano())
	}
}

const haveThreadClock = true

// processCPU returns the CPU time (user and system) this process has used
// so far; loadgen reports its own share beside the server's, since both
// compete for the same cores on one machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
