package cputime

import (
	"runtime"
	"testing"
	"time"
)

// spin burns CPU on the calling thread until the clock has moved by d.
func spin(clock func() time.Duration, d time.Duration) {
	t0 := clock()
	for x := 0; clock()-t0 < d; x++ {
		_ = x * x
	}
}

// TestClocksAdvance: every clock moves forward while this thread works,
// and a thread's clock read from another goroutine is that thread's.
func TestClocksAdvance(t *testing.T) {
	if !Available {
		t.Skip("no thread CPU clock on " + runtime.GOOS)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, t0 := Process(), Thread()
	clock := ThreadClock()
	c0 := clock()
	spin(Thread, 20*time.Millisecond)
	if d := Thread() - t0; d < 20*time.Millisecond {
		t.Errorf("Thread moved %v, want at least 20ms", d)
	}
	if d := Process() - p0; d < 10*time.Millisecond {
		t.Errorf("Process moved %v while this thread spun 20ms", d)
	}
	// Read from another goroutine (another thread): still this thread's clock.
	got := make(chan time.Duration)
	go func() { got <- clock() }()
	if d := <-got - c0; d < 20*time.Millisecond {
		t.Errorf("ThreadClock read elsewhere moved %v, want at least 20ms", d)
	}
}
