package web

import (
	"context"
	"errors"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/store"
)

// Multiplayer rooms over the WebSocket at /ws/rooms: package rooms does
// all of it (its protocol.go describes the messages); this file only
// carries bytes between a socket and a rooms.Conn, names the player by
// the browser's cookie, and maps the hub's reasons for closing to
// WebSocket close codes.

// Keepalive: a ping every roomsPing finds a connection that died without
// a word (a phone losing its network), so its seat starts waiting.
const (
	roomsPing        = 20 * time.Second
	roomsPingTimeout = 15 * time.Second
	roomsWriteTime   = 10 * time.Second
)

// roomsSocket: GET /ws/rooms upgrades to the rooms protocol.
func (s *Server) roomsSocket(w http.ResponseWriter, r *http.Request) {
	player := s.player(w, r) // a first visit gets its cookie on this very response
	// Accept checks that the page comes from this server's own origin.
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	ws.SetReadLimit(rooms.MaxMessageBytes)
	c, err := s.rooms.ConnectFrom(player, s.guards.gateKey(s.clientOf(r)))
	if err != nil {
		ws.Close(websocket.StatusTryAgainLater, err.Error())
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A binary message is refused here, not by the hub: the writer must
	// not close the socket first with the hub's normal closure.
	var refused atomic.Bool
	written := make(chan struct{})
	go func() {
		defer close(written)
		s.roomsWrite(ctx, ws, c, &refused)
	}()
	for {
		typ, data, err := ws.Read(ctx)
		if err != nil {
			break // closed by either side; a message over the limit is closed by the library as 1009
		}
		if typ != websocket.MessageText {
			refused.Store(true)
			c.Close()
			ws.Close(websocket.StatusUnsupportedData, "the rooms protocol is JSON text messages")
			break
		}
		c.Receive(data)
	}
	c.Close()
	cancel()
	<-written
}

// roomsWrite sends the hub's messages for c until the hub ends it (then
// the socket is closed with the hub's reason, unless the reader refused
// the client and closes it itself) or the socket fails.
func (s *Server) roomsWrite(ctx context.Context, ws *websocket.Conn, c *rooms.Conn, refused *atomic.Bool) {
	write := func(b []byte) bool {
		wctx, cancel := context.WithTimeout(ctx, roomsWriteTime)
		defer cancel()
		return ws.Write(wctx, websocket.MessageText, b) == nil
	}
	ping := time.NewTicker(roomsPing)
	defer ping.Stop()
	for {
		select {
		case b := <-c.Out():
			if !write(b) {
				c.Close()
				return
			}
		case <-c.Done():
			if refused.Load() {
				return
			}
			// Flush what the hub said last (a "closed" notice, an error).
			for more := true; more; {
				select {
				case b := <-c.Out():
					more = write(b)
				default:
					more = false
				}
			}
			code, reason := c.Reason()
			ws.Close(closeStatus(code), reason)
			return
		case <-ctx.Done():
			return
		case <-ping.C:
			go func() {
				pctx, cancel := context.WithTimeout(ctx, roomsPingTimeout)
				defer cancel()
				if err := ws.Ping(pctx); err != nil && ctx.Err() == nil {
					c.Close()
					_ = ws.CloseNow() // the peer did not answer the ping: nothing to tell it
				}
			}()
		}
	}
}

// closeStatus maps the hub's reasons to WebSocket close codes.
func closeStatus(code int) websocket.StatusCode {
	switch code {
	case rooms.CloseTooBig:
		return websocket.StatusMessageTooBig
	case rooms.ClosePolicy:
		return websocket.StatusPolicyViolation
	case rooms.CloseShutdown:
		return websocket.StatusGoingAway
	}
	return websocket.StatusNormalClosure
}

// roomPage: GET /rooms and /rooms/{code} are one page (the lobby, or a
// room); its script talks to /ws/rooms.
func (s *Server) roomPage(w http.ResponseWriter, r *http.Request) {
	s.player(w, r) // seats belong to a browser from its first visit
	code := r.PathValue("code")
	if code != "" && !rooms.ValidCode(strings.ToUpper(code)) {
		s.render(w, r, http.StatusNotFound, "notfound", r.URL.Path)
		return
	}
	s.render(w, r, http.StatusOK, "rooms", nil)
}

// apiRooms: GET /api/rooms -> the public rooms waiting for players.
func (s *Server) apiRooms(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.rooms.PublicRooms())
}

// roomsStats is GET /api/rooms/stats: the hub's counters and the server
// process's memory and CPU, for the load generator and monitoring.
type roomsStats struct {
	rooms.Stats
	Goroutines int     `json:"goroutines"`
	HeapBytes  uint64  `json:"heapBytes"`
	SysBytes   uint64  `json:"sysBytes"`   // memory the Go runtime holds from the system
	RSSBytes   int64   `json:"rssBytes"`   // resident set size (Linux; 0 elsewhere)
	CPUSeconds float64 `json:"cpuSeconds"` // user + system CPU time of the process so far
	UptimeMs   int64   `json:"uptimeMs"`
}

var processStart = time.Now()

func (s *Server) apiRoomsStats(w http.ResponseWriter, r *http.Request) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := roomsStats{
		Stats: s.rooms.Stats(), Goroutines: runtime.NumGoroutine(), HeapBytes: ms.HeapAlloc, SysBytes: ms.Sys,
		RSSBytes: rss(), CPUSeconds: cputime.Process().Seconds(), UptimeMs: time.Since(processStart).Milliseconds(),
	}
	writeJSON(w, http.StatusOK, st)
}

// rss reads the process's resident set from /proc (Linux), or 0.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// publicMatch is a Match without the players' browser ids or boards.
type publicMatch struct {
	ID      string       `json:"id"`
	Mode    string       `json:"mode"`
	Size    string       `json:"size"`
	Level   string       `json:"level"`
	Room    string       `json:"room"`
	Started string       `json:"started"`
	Ms      int64        `json:"ms"`
	Seats   []publicSeat `json:"seats"`
}

type publicSeat struct {
	Name     string `json:"name"`
	You      bool   `json:"you"`
	Place    int    `json:"place"` // 0: did not finish
	Ms       int64  `json:"ms"`
	Time     string `json:"time"`
	Filled   int    `json:"filled"`
	Mistakes int    `json:"mistakes"`
	Hints    int    `json:"hints"`
}

func publicMatches(list []store.Match, player string) []publicMatch {
	out := []publicMatch{}
	for _, m := range list {
		pm := publicMatch{ID: m.ID, Mode: m.Mode, Size: m.Size, Level: m.Level, Room: m.Room,
			Started: m.Started.Format(time.RFC3339), Ms: m.Ended.Sub(m.Started).Milliseconds(), Seats: []publicSeat{}}
		for _, st := range m.Seats {
			ps := publicSeat{Name: st.Name, You: st.Player == player, Place: st.Placing, Ms: st.Millis,
				Filled: st.Filled, Mistakes: st.Mistakes, Hints: st.Hints}
			if st.Placing > 0 {
				ps.Time = formatMillis(st.Millis)
			}
			pm.Seats = append(pm.Seats, ps)
		}
		out = append(out, pm)
	}
	return out
}

// apiMatches: GET /api/matches -> this browser's multiplayer games, newest
// first, with every player's place.
func (s *Server) apiMatches(w http.ResponseWriter, r *http.Request) {
	limit, err := queryLimit(r.URL.Query().Get("limit"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c, cerr := r.Cookie(playerCookie)
	if cerr != nil || !validID(c.Value) {
		writeJSON(w, http.StatusOK, []publicMatch{})
		return
	}
	list, err := s.store.PlayerMatches(r.Context(), c.Value, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, publicMatches(list, c.Value))
}

// modeParam reads a leaderboard's mode ("", solo, race, coop).
func modeParam(m string) (string, error) {
	switch m {
	case "", store.ModeSolo:
		return store.ModeSolo, nil
	case store.ModeRace, store.ModeCoop:
		return m, nil
	}
	return "", errors.New(`mode ` + strconv.Quote(m) + `: want solo, race or coop`)
}
