package limit

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestBucket: a burst at once, then the rate; the wait says when.
func TestBucket(t *testing.T) {
	b := NewBucket(2, 3)
	now := time.Unix(1000, 0)
	for i := range 3 {
		if ok, _ := b.Take(now); !ok {
			t.Fatalf("token %d of the burst refused", i+1)
		}
	}
	ok, wait := b.Take(now)
	if ok || wait != 500*time.Millisecond {
		t.Fatalf("past the burst: %v, wait %v; want refused, 500ms", ok, wait)
	}
	if ok, _ := b.Take(now.Add(500 * time.Millisecond)); !ok {
		t.Error("refilled after 500 ms at 2/s: refused")
	}
	if ok, _ := b.Take(now.Add(time.Hour)); !ok || b.tokens != 2 {
		t.Errorf("after an hour: %v with %.1f tokens left, want 2 (the burst, less one)", ok, b.tokens)
	}
}

// TestBucketsForget: full buckets are dropped, so the map holds only
// clients that spent something lately.
func TestBucketsForget(t *testing.T) {
	b := NewBuckets(1, 2)
	now := time.Now()
	for i := range 1000 {
		b.Take(fmt.Sprint("k", i), now)
	}
	b.Take("k0", now)
	b.Take("k0", now.Add(30*time.Second)) // refilled by then: spends one of two
	if len(b.m) != 1000 {
		t.Fatalf("%d keys", len(b.m))
	}
	b.Take("late", now.Add(2*time.Minute))
	if len(b.m) != 1 {
		t.Errorf("after two quiet minutes %d keys are kept, want 1 (the new one)", len(b.m))
	}
}

// TestGate: per-key places, the server's places, first come first
// served, places given back, and TryEnter never waiting.
func TestGate(t *testing.T) {
	g := NewGate(3, 2, 100*time.Millisecond)
	ctx := context.Background()
	var leave []func()
	for range 2 {
		done, err := g.Enter(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		leave = append(leave, done)
	}
	if _, err := g.Enter(ctx, "a"); !errors.Is(err, ErrKeyFull) {
		t.Errorf("a third place for a: %v, want ErrKeyFull", err)
	}
	if _, err := g.TryEnter("a"); !errors.Is(err, ErrKeyFull) {
		t.Errorf("TryEnter a third place for a: %v, want ErrKeyFull", err)
	}
	done, err := g.TryEnter("b")
	if err != nil {
		t.Fatalf("b beside a: %v", err)
	}
	if _, err := g.Enter(ctx, "c"); !errors.Is(err, ErrFull) {
		t.Errorf("every place taken: %v, want ErrFull", err)
	}
	if _, err := g.TryEnter("c"); !errors.Is(err, ErrFull) {
		t.Errorf("TryEnter with every place taken: %v, want ErrFull", err)
	}
	got := make(chan error, 1)
	go func() {
		d, err := g.Enter(ctx, "c")
		if err == nil {
			d()
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	done()
	done() // twice is harmless
	if err := <-got; err != nil {
		t.Errorf("c waiting for b's place: %v", err)
	}
	for _, d := range leave {
		d()
	}
	if g.InUse() != 0 || g.Keys() != 0 {
		t.Errorf("after everything is given back: %d places taken, %d keys kept", g.InUse(), g.Keys())
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for range 3 {
		d, _ := g.Enter(ctx, "")
		defer d()
	}
	if _, err := g.Enter(cctx, "z"); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled request: %v, want context.Canceled", err)
	}
	if g.Keys() != 0 {
		t.Errorf("a refused key is kept: %d", g.Keys())
	}
}

// TestGateWaitsForContext: a gate without a wait waits until the
// context ends.
func TestGateWaitsForContext(t *testing.T) {
	g := NewGate(1, 0, 0)
	d, err := g.Enter(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer d()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := g.Enter(ctx, "y"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%v, want the context's deadline", err)
	}
}
