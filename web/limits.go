package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/internal/limit"
)

// What one client may ask, so a flood from one browser or address leaves
// everyone else served: rates (token buckets per player cookie and, four
// times larger, per address; 429 with Retry-After), work in flight (gates
// for uploads and engine calls, server-wide and per address; a short wait,
// then 503 or 429) and camera streams per address. A client is always its
// address too (IPv6 by its /64), so dropping its cookie resets nothing.

// Rate is a token bucket: Burst requests at once, then PerMinute.
type Rate struct {
	PerMinute float64
	Burst     int
}

// Limits bounds what one client may ask of the server. Zero fields take
// the defaults of DefaultLimits.
type Limits struct {
	// Off turns every per-client bound off (benchmarks that play fifty
	// clients from one address). Server-wide bounds stay.
	Off bool
	// Requests: every request except static files.
	Requests Rate
	// NewGames: games started (POST /api/games, GET /api/generate); each
	// runs the generator or rates the player's puzzle.
	NewGames Rate
	// Engine: /api/analyze, /api/solve and /api/scan calls.
	Engine Rate
	// AddressShare: an address's buckets are this many times a player's
	// (default 4).
	AddressShare float64

	// Uploads: photos being received or read at once, server-wide
	// (default 8: up to 8 × MaxUploadBytes held in memory);
	// UploadsPerClient of them from one address (default 2).
	Uploads, UploadsPerClient int
	// EngineWork: generator, rating and solver calls running at once,
	// server-wide (default 2 per core); EngineWorkPerClient from one
	// address (default 2).
	EngineWork, EngineWorkPerClient int
	// Wait is how long a request waits for a free place before 503
	// (default 10 s).
	Wait time.Duration
	// CameraPerClient: camera streams open at once from one address
	// (default 4).
	CameraPerClient int
}

// DefaultLimits are the bounds a zero Limits stands for, with workers
// recognitions at once.
func DefaultLimits(workers int) Limits {
	return Limits{
		Requests:            Rate{PerMinute: 600, Burst: 200},
		NewGames:            Rate{PerMinute: 10, Burst: 10},
		Engine:              Rate{PerMinute: 120, Burst: 60},
		AddressShare:        4,
		Uploads:             8,
		UploadsPerClient:    2,
		EngineWork:          2 * max(1, workers),
		EngineWorkPerClient: 2,
		Wait:                10 * time.Second,
		CameraPerClient:     4,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults(workers int) Limits {
	d := DefaultLimits(workers)
	rate := func(r *Rate, def Rate) {
		if r.PerMinute <= 0 {
			r.PerMinute = def.PerMinute
		}
		if r.Burst <= 0 {
			r.Burst = def.Burst
		}
	}
	rate(&l.Requests, d.Requests)
	rate(&l.NewGames, d.NewGames)
	rate(&l.Engine, d.Engine)
	for _, f := range []struct{ v, def *int }{
		{&l.Uploads, &d.Uploads}, {&l.UploadsPerClient, &d.UploadsPerClient},
		{&l.EngineWork, &d.EngineWork}, {&l.EngineWorkPerClient, &d.EngineWorkPerClient},
		{&l.CameraPerClient, &d.CameraPerClient},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	if l.AddressShare <= 0 {
		l.AddressShare = d.AddressShare
	}
	if l.Wait <= 0 {
		l.Wait = d.Wait
	}
	return l
}

// client is who is asking: the address (always) and the player cookie
// (when the request carries a valid one).
type client struct {
	addr, player string
}

// clientOf identifies the client of r. A request from a trusted proxy
// (Config.Proxies: a load balancer in front) is the client's whose
// address the proxy appended last to X-Forwarded-For; anyone else's
// X-Forwarded-For is ignored (it is the client's own word).
func (s *Server) clientOf(r *http.Request) client {
	c := client{addr: addressKey(r.RemoteAddr)}
	if len(s.cfg.Proxies) > 0 && trusted(s.cfg.Proxies, r.RemoteAddr) {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			last := xff[len(xff)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if ip, err := netip.ParseAddr(strings.TrimSpace(last)); err == nil {
				c.addr = addressKey(ip.String())
			}
		}
	}
	if ck, err := r.Cookie(playerCookie); err == nil && validID(ck.Value) {
		c.player = ck.Value
	}
	return c
}

// addressKey is the key of a remote address: the IP, or for IPv6 its /64.
func addressKey(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// rateLimit is a Rate for players and the same, scaled, for addresses.
type rateLimit struct {
	what             string // for the message: "requests", "new games"
	players, address *limit.Buckets
}

func newRateLimit(what string, r Rate, share float64) *rateLimit {
	return &rateLimit{what: what, players: newBuckets(r, 1), address: newBuckets(r, share)}
}

// newBuckets is r, scaled, as keyed token buckets.
func newBuckets(r Rate, scale float64) *limit.Buckets {
	return limit.NewBuckets(r.PerMinute*scale/60, float64(r.Burst)*scale)
}

// allow spends a token of c's address and, if it has one, of its player
// cookie. A refusal is an *apiError with status 429 and RetryAfter set.
func (l *rateLimit) allow(c client, now time.Time) error {
	if l == nil {
		return nil
	}
	ok, wait := l.address.Take(c.addr, now)
	if ok && c.player != "" {
		ok, wait = l.players.Take(c.player, now)
	}
	if ok {
		return nil
	}
	secs := max(1, int(math.Ceil(wait.Seconds())))
	return &apiError{Status: http.StatusTooManyRequests, RetryAfter: secs,
		Msg: fmt.Sprintf("too many %s from you: wait %d s and try again", l.what, secs)}
}

// gate is a limit.Gate whose refusals are API errors naming what it
// bounds: 429 when the client's own places stay taken, 503 when the
// server's do.
type gate struct {
	what string // "photo", "puzzle"
	*limit.Gate
}

func newGate(what string, total, perKey int, wait time.Duration) *gate {
	return &gate{what: what, Gate: limit.NewGate(total, perKey, wait)}
}

// enter waits for a place for key (see limit.Gate.Enter) and returns the
// function that gives it back.
func (g *gate) enter(ctx context.Context, key string) (func(), error) {
	done, err := g.Enter(ctx, key)
	return done, g.refusal(err)
}

// refusal turns a limit.Gate refusal into an *apiError.
func (g *gate) refusal(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, limit.ErrKeyFull):
		return &apiError{Status: http.StatusTooManyRequests, RetryAfter: 5,
			Msg: fmt.Sprintf("you already have %s being worked on: wait for them to finish", count(g.PerKey(), g.what))}
	case errors.Is(err, limit.ErrFull):
		return &apiError{Status: http.StatusServiceUnavailable, RetryAfter: 5,
			Msg: fmt.Sprintf("the server is busy with other people's %ss: try again in a few seconds", g.what)}
	}
	return errorf(http.StatusServiceUnavailable, "the request was cancelled")
}

// count writes "1 photo", "2 photos".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// guards are the server's bounds, built from Limits.
type guards struct {
	limits                  Limits
	requests, games, engine *rateLimit // nil when Off
	uploads, work           *gate
	// cameras: camera streams open, maxStreams server-wide and
	// CameraPerClient per address; a place is taken, without waiting,
	// before the stream is accepted, so the count can never be overrun.
	cameras *limit.Gate
}

func newGuards(l Limits, workers, maxStreams int) *guards {
	l = l.withDefaults(workers)
	g := &guards{limits: l}
	perKey := func(n int) int { return n }
	if l.Off {
		perKey = func(int) int { return 0 }
	} else {
		g.requests = newRateLimit("requests", l.Requests, l.AddressShare)
		g.games = newRateLimit("new games", l.NewGames, l.AddressShare)
		g.engine = newRateLimit("puzzles to analyse, solve or scan", l.Engine, l.AddressShare)
	}
	g.uploads = newGate("photo", l.Uploads, perKey(l.UploadsPerClient), l.Wait)
	g.work = newGate("puzzle", l.EngineWork, perKey(l.EngineWorkPerClient), l.Wait)
	g.cameras = limit.NewGate(maxStreams, perKey(l.CameraPerClient), 0)
	return g
}

// gateKey is the per-client key for a gate: the address, or "" when
// per-client bounds are off.
func (g *guards) gateKey(c client) string {
	if g.limits.Off {
		return ""
	}
	return c.addr
}

// isStatic reports requests for the embedded files, which cost nothing
// and are cached: they spend no request tokens.
func isStatic(path string) bool {
	return strings.HasPrefix(path, "/static/") || path == "/favicon.ico"
}

// maxBody is the largest request body path may carry.
func (s *Server) maxBody(path string) int64 {
	if path == "/api/scan" {
		return s.cfg.MaxUploadBytes + multipartSlack
	}
	return maxJSONBody
}

// multipartSlack is what a multipart upload may carry beside the photo:
// headers, boundaries, other small fields.
const multipartSlack = 64 << 10

// guard is the outer layer of every request: the request budget, and the
// body bound (a body announced larger than the route takes is refused
// before a byte of it is read; one that grows past it fails on reading).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := s.maxBody(r.URL.Path)
		if r.ContentLength > limit {
			w.Header().Set("Connection", "close")
			msg := fmt.Sprintf("the request body is %d bytes; %s takes at most %d", r.ContentLength, r.URL.Path, limit)
			if r.URL.Path == "/api/scan" {
				msg = s.photoTooLarge()
			}
			s.writeError(w, r, errorf(http.StatusRequestEntityTooLarge, "%s", msg))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		if !isStatic(r.URL.Path) {
			if err := s.guards.requests.allow(s.clientOf(r), s.cfg.Now()); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// admit lets r through rate l and into gate g, or says why not. The
// caller runs the returned function when the work is done.
func (s *Server) admit(r *http.Request, l *rateLimit, g *gate) (func(), error) {
	c := s.clientOf(r)
	if err := l.allow(c, s.cfg.Now()); err != nil {
		return nil, err
	}
	return g.enter(r.Context(), s.guards.gateKey(c))
}

// retryAfter writes the Retry-After header of a refusal.
func retryAfter(w http.ResponseWriter, secs int) {
	if secs > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
}
