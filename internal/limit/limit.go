// Package limit is the one rate limiter and the one work gate of the
// servers (web and rooms), so a flood from one client or address leaves
// everyone else served.
//
// In: a key (an address, a player) asking to do something now. Out: yes, or
// how long to wait (Bucket, Buckets), or a place held until released (Gate;
// ErrKeyFull when the key's places are taken, ErrFull when the server's
// are). The callers turn refusals into a 429, a 503 or a "busy" message.
package limit

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"
)

// Bucket is one token bucket: Burst tokens at once, refilled at PerSecond.
// It is not safe for concurrent use (a connection's reader owns its own);
// Buckets is the concurrent, keyed kind.
type Bucket struct {
	PerSecond, Burst float64
	tokens           float64
	at               time.Time
}

// NewBucket returns a full bucket.
func NewBucket(perSecond, burst float64) Bucket {
	return Bucket{PerSecond: perSecond, Burst: math.Max(1, burst)}
}

// Take spends one token at now. When there is none it returns false and
// how long until there is.
func (b *Bucket) Take(now time.Time) (bool, time.Duration) {
	if b.at.IsZero() {
		b.tokens = b.Burst
	} else if dt := now.Sub(b.at).Seconds(); dt > 0 {
		b.tokens = math.Min(b.Burst, b.tokens+dt*b.PerSecond)
	}
	if now.After(b.at) || b.at.IsZero() {
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	if b.PerSecond <= 0 {
		return false, time.Duration(math.MaxInt64)
	}
	return false, time.Duration((1 - b.tokens) / b.PerSecond * float64(time.Second))
}

// full reports whether the bucket has refilled completely by now (it
// then behaves as a new one).
func (b *Bucket) full(now time.Time) bool {
	return b.tokens+now.Sub(b.at).Seconds()*b.PerSecond >= b.Burst
}

// Buckets is one Bucket per key, safe for concurrent use. Keys whose
// bucket has refilled are forgotten, so the map holds only the clients
// of the last minutes; MaxKeys bounds it even then.
type Buckets struct {
	perSecond, burst float64

	mu    sync.Mutex
	m     map[string]*Bucket
	sweep time.Time // when full buckets were last dropped
}

// MaxKeys is the most keys Buckets remembers: past it, every key starts
// afresh rather than the server running out of memory.
const MaxKeys = 100_000

// NewBuckets returns buckets of burst tokens refilled at perSecond.
func NewBuckets(perSecond, burst float64) *Buckets {
	return &Buckets{perSecond: perSecond, burst: math.Max(1, burst), m: map[string]*Bucket{}}
}

// Take spends one token of key's bucket at now (see Bucket.Take).
func (b *Buckets) Take(key string, now time.Time) (bool, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Sub(b.sweep) > time.Minute || len(b.m) >= MaxKeys {
		b.forget(now)
	}
	k, ok := b.m[key]
	if !ok {
		nb := NewBucket(b.perSecond, b.burst)
		k = &nb
		b.m[key] = k
	}
	return k.Take(now)
}

// forget drops the buckets that are full again; if that is not enough,
// all of them.
func (b *Buckets) forget(now time.Time) {
	b.sweep = now
	for key, k := range b.m {
		if k.full(now) {
			delete(b.m, key)
		}
	}
	if len(b.m) >= MaxKeys {
		clear(b.m)
	}
}

// Refusals of a Gate.
var (
	// ErrKeyFull: the key's own places stayed taken.
	ErrKeyFull = errors.New("limit: this client's places are all taken")
	// ErrFull: the places of the whole server stayed taken.
	ErrFull = errors.New("limit: every place is taken")
)

// Gate bounds work in flight: Total places in all, PerKey of them for one
// key (0: no bound per key). Waiting is first come, first served (Go's
// channels queue their senders in order).
type Gate struct {
	all    chan struct{}
	perKey int
	wait   time.Duration

	mu   sync.Mutex
	keys map[string]*keyPlaces
}

type keyPlaces struct {
	ch    chan struct{}
	users int // callers holding or waiting for one of ch's places
}

// NewGate returns a gate of total places, perKey for one key (0: no
// bound per key); Enter waits up to wait for a place (0: until its
// context ends).
func NewGate(total, perKey int, wait time.Duration) *Gate {
	return &Gate{all: make(chan struct{}, max(1, total)), perKey: perKey, wait: wait, keys: map[string]*keyPlaces{}}
}

// Total returns the gate's number of places.
func (g *Gate) Total() int { return cap(g.all) }

// PerKey returns the places one key may hold (0: no bound).
func (g *Gate) PerKey() int { return g.perKey }

// InUse returns how many places are held now.
func (g *Gate) InUse() int { return len(g.all) }

// Enter waits (up to the gate's wait, or until ctx ends) for a place for
// key and returns the function that gives it back (safe to call more than
// once). Refusals: ErrKeyFull, ErrFull, or an error wrapping ctx.Err().
// Key "" skips the bound per key.
func (g *Gate) Enter(ctx context.Context, key string) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err // a free place must not go to a request already gone
	}
	var expired <-chan time.Time // nil: never
	if g.wait > 0 {
		timer := time.NewTimer(g.wait)
		defer timer.Stop()
		expired = timer.C
	}
	kp := g.hold(key)
	if kp != nil {
		select {
		case kp.ch <- struct{}{}:
		case <-expired:
			g.unhold(key, kp, false)
			return nil, ErrKeyFull
		case <-ctx.Done():
			g.unhold(key, kp, false)
			return nil, ctx.Err()
		}
	}
	select {
	case g.all <- struct{}{}:
	case <-expired:
		g.unhold(key, kp, true)
		return nil, ErrFull
	case <-ctx.Done():
		g.unhold(key, kp, true)
		return nil, ctx.Err()
	}
	return g.releaser(key, kp), nil
}

// TryEnter takes a place for key if one is free now, without waiting:
// for things held open for long (a camera stream), where waiting makes
// no sense. Refusals as for Enter.
func (g *Gate) TryEnter(key string) (func(), error) {
	kp := g.hold(key)
	if kp != nil {
		select {
		case kp.ch <- struct{}{}:
		default:
			g.unhold(key, kp, false)
			return nil, ErrKeyFull
		}
	}
	select {
	case g.all <- struct{}{}:
	default:
		g.unhold(key, kp, true)
		return nil, ErrFull
	}
	return g.releaser(key, kp), nil
}

// hold registers a caller of key's places (nil: no bound per key).
func (g *Gate) hold(key string) *keyPlaces {
	if key == "" || g.perKey <= 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	kp := g.keys[key]
	if kp == nil {
		kp = &keyPlaces{ch: make(chan struct{}, g.perKey)}
		g.keys[key] = kp
	}
	kp.users++
	return kp
}

// unhold gives back key's place (held says whether it had one) and
// forgets the key when nobody uses it.
func (g *Gate) unhold(key string, kp *keyPlaces, held bool) {
	if kp == nil {
		return
	}
	if held {
		<-kp.ch
	}
	g.mu.Lock()
	kp.users--
	if kp.users == 0 {
		delete(g.keys, key)
	}
	g.mu.Unlock()
}

func (g *Gate) releaser(key string, kp *keyPlaces) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			<-g.all
			g.unhold(key, kp, true)
		})
	}
}

// Keys returns how many keys hold or wait for places (for tests: it
// returns to 0 when all is given back).
func (g *Gate) Keys() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.keys)
}
