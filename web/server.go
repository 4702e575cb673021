package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/internal/limit"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/play"
	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/store"
)

// Config is what a Server needs; the zero value plus a Store works.
type Config struct {
	// Store keeps games and results (required).
	Store store.Store
	// Log receives request errors and the camera's timing summaries
	// (default: discard).
	Log *slog.Logger
	// Pipeline configures photo and camera recognition.
	Pipeline pipeline.Options
	// Secure says the server is reached over HTTPS, so cookies are
	// marked Secure.
	Secure bool
	// MaxUploadBytes caps a photo upload (default 20 MB).
	MaxUploadBytes int64
	// MaxUploadPixels caps a photo's width × height (default 40 MP).
	MaxUploadPixels int
	// MaxCameraStreams caps concurrent camera connections (default 64).
	MaxCameraStreams int
	// CameraIdle closes a camera stream that sends no frame for this long
	// (default 10 s; key messages do not count: a stream that only keeps
	// itself alive would hold a place others wait for).
	CameraIdle time.Duration
	// Workers is how many recognitions (photos and camera frames) run at
	// once (default GOMAXPROCS): each holds one pipeline.
	Workers int
	// Now is the clock (default time.Now); tests move it.
	Now func() time.Time
	// FloorPerStep sets the plausibility floor of ranked finishes: a
	// game finished faster than max(logic steps, empty cells) × this is
	// flagged "too fast" and kept off the leaderboards (default
	// play.DefaultFloorPerStep; negative: no floor).
	FloorPerStep time.Duration
	// Proxies are the addresses of load balancers in front of this
	// server (HAProxy, nginx): a request from one of them counts as its
	// client's, by the address the balancer appends to X-Forwarded-For,
	// for every per-address bound. (Their connections are not capped per
	// address either: see LimitListener; the balancer caps them per
	// client.) Empty: no header is trusted.
	Proxies []netip.Prefix
	// Rooms configures multiplayer (zero: defaults; its Store and Log
	// default to the server's).
	Rooms rooms.Config
	// Limits bounds what one client may ask (rates, work in flight,
	// camera streams); the zero value takes DefaultLimits.
	Limits Limits
	// ExpireAfter: a game nobody has touched for this long, and that was
	// not solved, is deleted (default 30 days; negative: never). A game
	// never played past its start goes after ExpireUnplayedAfter (default
	// a day). Results on the leaderboards and in histories are never
	// deleted.
	ExpireAfter, ExpireUnplayedAfter time.Duration
}

// Server is the web app. Make one with New, serve its Handler, and Close
// it after the HTTP server has shut down.
type Server struct {
	cfg    Config
	log    *slog.Logger
	store  store.Store
	mux    *http.ServeMux
	pages  map[string]*template.Template
	assets *assets
	pipes  *pipePool
	games  *games
	rooms  *rooms.Hub // multiplayer, over /ws/rooms
	guards *guards
	expiry *expirer // nil when the store cannot expire games or it is off

	// frameSlots: camera frames worked on at once, one per core (see
	// wsSource).
	frameSlots *limit.Gate

	// dailyMu: one daily puzzle is made at a time (see dailyPuzzle).
	dailyMu sync.Mutex

	// live camera connections, closed by CloseStreams.
	streamsMu sync.Mutex
	streams   map[*cameraConn]struct{}
	closing   bool
}

// New builds a Server from cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("web: no store")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxUploadBytes <= 0 {
		cfg.MaxUploadBytes = 20 << 20
	}
	if cfg.MaxUploadPixels <= 0 {
		cfg.MaxUploadPixels = 40_000_000
	}
	if cfg.MaxCameraStreams <= 0 {
		cfg.MaxCameraStreams = 64
	}
	if cfg.CameraIdle <= 0 {
		cfg.CameraIdle = 10 * time.Second
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.FloorPerStep = play.PerStep(cfg.FloorPerStep)
	if cfg.ExpireAfter == 0 {
		cfg.ExpireAfter = 30 * 24 * time.Hour
	}
	if cfg.ExpireUnplayedAfter == 0 {
		cfg.ExpireUnplayedAfter = 24 * time.Hour
	}
	a, err := loadAssets()
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg:        cfg,
		log:        cfg.Log,
		store:      cfg.Store,
		mux:        http.NewServeMux(),
		assets:     a,
		pipes:      newPipePool(cfg.Workers, cfg.Pipeline),
		guards:     newGuards(cfg.Limits, cfg.Workers, cfg.MaxCameraStreams),
		frameSlots: limit.NewGate(cfg.Workers, 0, 0),
		streams:    map[*cameraConn]struct{}{},
	}
	s.games = &games{solo: &play.Solo{Store: cfg.Store, Log: cfg.Log, Now: cfg.Now}, floorPerStep: cfg.FloorPerStep}
	if cfg.Rooms.FloorPerStep == 0 { // the same floor in rooms
		cfg.Rooms.FloorPerStep = cfg.FloorPerStep
		if cfg.FloorPerStep == 0 {
			cfg.Rooms.FloorPerStep = -1
		}
	}
	if cfg.Rooms.Store == nil {
		cfg.Rooms.Store = cfg.Store
	}
	if cfg.Rooms.Log == nil {
		cfg.Rooms.Log = cfg.Log
	}
	if cfg.Rooms.Work == nil {
		// Rooms' generations and hints share the engine's places with
		// this server's own, per address and in all.
		cfg.Rooms.Work = s.guards.work.Gate
	}
	s.rooms = rooms.NewHub(cfg.Rooms)
	if s.pages, err = parsePages(a); err != nil {
		return nil, err
	}
	s.routes()
	s.expiry = startExpiry(cfg)
	return s, nil
}

// routes lists every URL the server answers. Go's pattern syntax names
// the method; anything else is a 404 (JSON under /api/, a page elsewhere).
func (s *Server) routes() {
	m := s.mux
	// Pages.
	m.HandleFunc("GET /{$}", s.page("home"))
	m.HandleFunc("GET /play", s.page("play"))
	m.HandleFunc("GET /play/{id}", s.page("play"))
	m.HandleFunc("GET /enter", s.page("enter"))
	m.HandleFunc("GET /upload", s.page("upload"))
	m.HandleFunc("GET /camera", s.page("camera"))
	m.HandleFunc("GET /daily", s.page("daily"))
	m.HandleFunc("GET /leaderboard", s.leaderboardPage)
	m.HandleFunc("GET /stats", s.statsPage)
	m.HandleFunc("GET /rooms", s.roomPage)
	m.HandleFunc("GET /rooms/{code}", s.roomPage)
	s.kakuroRoutes() // pages and API of kakuro.go
	m.Handle("GET /static/", s.assets)
	m.HandleFunc("GET /favicon.ico", s.assets.favicon)

	// The JSON API (docs/api.md).
	m.HandleFunc("GET /api/health", s.apiHealth)
	m.HandleFunc("GET /api/solvers", s.apiSolvers)
	m.HandleFunc("POST /api/solve", s.apiSolve)
	m.HandleFunc("POST /api/analyze", s.apiAnalyze)
	m.HandleFunc("POST /api/scan", s.apiScan)
	m.HandleFunc("GET /api/generate", s.apiGenerate)
	m.HandleFunc("POST /api/games", s.apiNewGame)
	m.HandleFunc("GET /api/games/{id}", s.apiGame)
	m.HandleFunc("POST /api/games/{id}/{action}", s.apiGameAction)
	m.HandleFunc("GET /api/leaderboard", s.apiLeaderboard)
	m.HandleFunc("GET /api/history", s.apiHistory)
	m.HandleFunc("GET /api/daily", s.apiDaily)
	m.HandleFunc("POST /api/daily", s.apiDailyStart)
	m.HandleFunc("GET /api/stats", s.apiStats)
	m.HandleFunc("GET /api/rooms", s.apiRooms)
	m.HandleFunc("GET /api/rooms/stats", s.apiRoomsStats)
	m.HandleFunc("GET /api/matches", s.apiMatches)
	m.HandleFunc("/api/", s.apiNotFound)

	// The camera's live stream, and multiplayer rooms.
	m.HandleFunc("GET /ws/camera", s.camera)
	m.HandleFunc("GET /ws/rooms", s.roomsSocket)

	m.HandleFunc("/", s.notFound)
}

// apiNotFound answers a request no API pattern took: 405 with Allow when
// the path exists for another method, else 404, both as JSON.
func (s *Server) apiNotFound(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/api/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.writeError(w, r, errorf(http.StatusMethodNotAllowed, "%s %s: use %s", r.Method, r.URL.Path, strings.Join(allow, " or ")))
		return
	}
	s.writeError(w, r, errorf(http.StatusNotFound, "no API endpoint %s %s", r.Method, r.URL.Path))
}

// Handler returns the server's HTTP handler with its safety layers:
// recovery from panics, security headers, the request budget of each
// client and the bound on request bodies.
func (s *Server) Handler() http.Handler {
	return s.recoverer(s.headers(s.guard(s.mux)))
}

// Close releases the recognition pipelines, ends camera streams and
// rooms, and stops expiring games. Call it after http.Server.Shutdown.
func (s *Server) Close() error {
	s.CloseStreams()
	s.expiry.stop()
	return s.pipes.close()
}

// Rooms returns the multiplayer hub (for its counters).
func (s *Server) Rooms() *rooms.Hub { return s.rooms }

// headers sets the security headers every response carries: no inline
// script or style may run (a name like <script> can only ever be text),
// nothing is framed, and the camera is for this origin only.
func (s *Server) headers(next http.Handler) http.Handler {
	csp := "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
		"media-src 'self' blob: mediastream:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
		"frame-ancestors 'none'; form-action 'self'"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(self), microphone=(), geolocation=()")
		next.ServeHTTP(w, r)
	})
}

// recoverer turns a panic in a handler into a logged 500, so one bad
// request never takes the server down. (Handlers are written not to
// panic; this is the net under them.)
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				buf := make([]byte, 8<<10)
				buf = buf[:runtime.Stack(buf, false)]
				s.log.Error("panic serving request", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(buf))
				s.writeError(w, r, errorf(http.StatusInternalServerError, "internal error; it has been logged"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// playerCookie names the cookie that ties games and history to a browser.
const playerCookie = "sudokuar_player"

// player returns the id of the browser making r, setting a new random one
// when it has none. The id is not a secret account, only a way to show a
// player their own history.
func (s *Server) player(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(playerCookie); err == nil && validID(c.Value) {
		return c.Value
	}
	id := newID()
	http.SetCookie(w, &http.Cookie{
		Name: playerCookie, Value: id, Path: "/", MaxAge: 5 * 365 * 24 * 3600,
		HttpOnly: true, Secure: s.cfg.Secure, SameSite: http.SameSiteLaxMode,
	})
	return id
}

// newID returns 128 random bits in hex: game and player ids.
func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never happens on supported systems
	}
	return hex.EncodeToString(b[:])
}

// validID reports whether id has newID's form, so no other string is
// ever looked up.
func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (s *Server) apiHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	status, code := "ok", http.StatusOK
	if err := s.store.Ping(ctx); err != nil {
		status, code = "store: "+err.Error(), http.StatusServiceUnavailable
	}
	writeJSON(w, code, map[string]any{"status": status, "streams": s.streamCount()})
}
