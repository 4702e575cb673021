package web

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/internal/limit"
	"github.com/sudokuar/sudokuar/live"
	"github.com/sudokuar/sudokuar/logic"
	"github.com/sudokuar/sudokuar/pipeline"
	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/vision"
)

// The camera protocol over the WebSocket at /ws/camera (docs/api.md, "The
// camera WebSocket"): binary frames in (a 4-byte big-endian sequence
// number, then a JPEG of at most maxFrameSide px and maxFrameBytes), keys
// as JSON text; JSON out: hello with these limits, a frame answer per frame
// taken, dropped for a frame a newer one replaced, step for H. A message
// breaking these rules, or Config.CameraIdle without a frame, closes that
// connection alone, with the reason.
const (
	maxFrameBytes = 1 << 20
	maxFrameSide  = 1280
	cameraFPS     = 15 // what the page aims to send; the session's pace hint
)

// frameAnswer is the server's word on one frame.
type frameAnswer struct {
	Type      string        `json:"type"`
	Seq       uint32        `json:"seq"`
	Width     int           `json:"w"`
	Height    int           `json:"h"`
	Located   bool          `json:"located"`
	Corners   [4][2]float64 `json:"corners"`
	Box       [2]int        `json:"box"`
	Given     string        `json:"given"`
	Solution  string        `json:"solution"`
	Conflicts []int         `json:"conflicts"`
	Status    string        `json:"status"`
	Auto      bool          `json:"auto"`
	Grids     int           `json:"grids"`  // grids in view, when more than one
	GridAt    int           `json:"gridAt"` // which is followed, from 1 left to right
	ServerMs  float64       `json:"serverMs"`
	// A page the player has started with a pen: the handwritten entries
	// (N² chars, '0' none), the cells of pencil notes, the counts in
	// words; while checking (C) the wrong entries, never otherwise;
	// solved once the page is full and right; fill, the digits Space
	// writes in the cells without ink (N² chars, '0' none); hint, H's
	// sentence (the wrong entry first).
	Entries  string   `json:"entries,omitempty"`
	Notes    []int    `json:"notes,omitempty"`
	Progress string   `json:"progress,omitempty"`
	Checking bool     `json:"checking,omitempty"`
	Mistakes []int    `json:"mistakes,omitempty"`
	Solved   bool     `json:"solved,omitempty"`
	Fill     string   `json:"fill,omitempty"`
	Hint     string   `json:"hint,omitempty"`
	PenHint  *penHint `json:"penHint,omitempty"`
}

// penHint is what the page draws of H's answer on a pen page: the wrong
// entry's cell, or the step's pattern cells and placements (never the
// wrong entry's right digit).
type penHint struct {
	Wrong      *int              `json:"wrong,omitempty"`
	Cells      []int             `json:"cells,omitempty"`
	Placements []logic.Candidate `json:"placements,omitempty"`
}

// frameMsg is a frame on its way to the session: checked, not yet
// decoded (a frame dropped for a newer one costs no decoding).
type frameMsg struct {
	jpg  []byte
	seq  uint32
	recv time.Time
	w, h int
}

// cameraConn is one camera stream: a WebSocket and the live session that
// reads it.
type cameraConn struct {
	conn   *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc
	sends  sync.WaitGroup // drop notices on their way
	frames chan frameMsg  // the newest frame not yet taken (at most one)
	idle   time.Duration  // how long the client may send nothing
	keys   chan int

	mu              sync.Mutex
	goingAway       bool           // the server is shutting down
	last            live.FrameInfo // the latest answer, for "h"
	walk            live.StepWalk  // where H has got to in the puzzle in view (read loop only)
	advice          []logic.Advice // walk's steps as the pages word them
	server          []float64      // per answered frame: ms from receipt to answer
	frameN, dropped int
	dropsOut        int    // drop notices not yet written
	flooded         string // why the server closed a client that does not read, or ""
	// check is whether the client wants entries checked ({"type":
	// "check"}); live's C key toggles, so the answers bring the session
	// round to it: checkSent is the frame count when a C was last sent.
	check     bool
	checkSent int
}

// maxDropsOut is how many drop notices may wait to be written. The page
// keeps at most two frames unanswered, so at 15 frames a second 64 notices
// waiting means some four seconds in which nothing could be written to it:
// a client sending frames without reading the answers, closed before its
// notices pile up in memory.
const maxDropsOut = 64

func (s *Server) streamCount() int {
	s.streamsMu.Lock()
	defer s.streamsMu.Unlock()
	return len(s.streams)
}

// CloseStreams ends every camera stream and room connection (going away)
// and refuses new ones: the first step of a graceful shutdown.
func (s *Server) CloseStreams() {
	defer s.rooms.Close() // rooms tell their players, finished matches are saved
	s.streamsMu.Lock()
	s.closing = true
	for c := range s.streams {
		// Close runs the closing handshake (up to a few seconds for a
		// slow client); the stream's read then ends and with it the
		// session.
		c.mu.Lock()
		c.goingAway = true
		c.mu.Unlock()
		go c.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
	}
	s.streamsMu.Unlock()
}

// camera: GET /ws/camera upgrades to the camera protocol above.
func (s *Server) camera(w http.ResponseWriter, r *http.Request) {
	s.streamsMu.Lock()
	closing := s.closing
	s.streamsMu.Unlock()
	if closing {
		s.writeError(w, r, errorf(http.StatusServiceUnavailable, "the server is shutting down"))
		return
	}
	leave, err := s.guards.cameras.TryEnter(s.guards.gateKey(s.clientOf(r)))
	switch {
	case errors.Is(err, limit.ErrKeyFull):
		s.writeError(w, r, &apiError{Status: http.StatusTooManyRequests, RetryAfter: 5,
			Msg: fmt.Sprintf("%d camera streams are already open from your address: close one first", s.guards.cameras.PerKey())})
		return
	case err != nil:
		s.writeError(w, r, &apiError{Status: http.StatusServiceUnavailable, RetryAfter: 5,
			Msg: fmt.Sprintf("%d camera streams are open, the most this server takes: try again soon", s.cfg.MaxCameraStreams)})
		return
	}
	defer leave()
	// Accept checks that the page comes from this server's own origin.
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered the client
	}
	conn.SetReadLimit(maxFrameBytes)
	ctx, cancel := context.WithCancel(context.Background())
	c := &cameraConn{conn: conn, ctx: ctx, cancel: cancel, frames: make(chan frameMsg, 1), keys: make(chan int, 8), idle: s.cfg.CameraIdle}
	s.streamsMu.Lock()
	s.streams[c] = struct{}{}
	s.streamsMu.Unlock()
	defer func() {
		s.streamsMu.Lock()
		delete(s.streams, c)
		s.streamsMu.Unlock()
		cancel()
	}()
	start := time.Now()
	status, reason := s.runCamera(ctx, c)
	cancel()
	c.sends.Wait()
	conn.Close(status, reason)
	c.logSummary(s, time.Since(start), reason)
}

// runCamera runs the live session over c until the client leaves, breaks
// the protocol, or the server shuts down; it returns the close status.
func (s *Server) runCamera(ctx context.Context, c *cameraConn) (websocket.StatusCode, string) {
	hello, _ := json.Marshal(map[string]any{"type": "hello", "maxSide": maxFrameSide, "maxBytes": maxFrameBytes, "fps": cameraFPS})
	if err := c.conn.Write(ctx, websocket.MessageText, hello); err != nil {
		return websocket.StatusNormalClosure, ""
	}
	var badReason string
	src := &wsSource{frames: c.frames, ctx: ctx, done: ctx.Done(), slots: s.frameSlots, bad: func(reason string) {
		badReason = reason
		go c.conn.Close(websocket.StatusUnsupportedData, reason)
	}, drop: c.drop}
	defer src.release()
	opts := live.Options{
		Pipeline: s.cfg.Pipeline,
		Every:    5, // a recognition every third of a second at 15 fps
		Undrawn:  true,
		NewRecognizer: func() (live.Recognizer, error) {
			return &pooledRecognizer{pool: s.pipes, ctx: ctx}, nil
		},
		OnFrame: func(info live.FrameInfo) {
			src.release() // the frame's work is done; sending the answer needs no core
			c.answer(ctx, src.cur, info)
		},
		Logf: func(format string, args ...any) { s.log.Info("camera: " + fmt.Sprintf(format, args...)) },
	}
	sessionDone := make(chan error, 1)
	go func() {
		_, err := live.Run(src, &keySink{keys: c.keys}, opts)
		sessionDone <- err
	}()
	status, reason := c.readLoop(ctx)
	c.cancel() // ends the session's Read
	err := <-sessionDone
	if badReason != "" {
		status, reason = websocket.StatusUnsupportedData, badReason
	}
	if err != nil {
		s.log.Error("camera session", "err", err)
		if status == websocket.StatusNormalClosure {
			status, reason = websocket.StatusInternalError, "the recogniser failed to start"
		}
	}
	return status, reason
}

// readLoop reads the client's messages, handing frames to the session.
func (c *cameraConn) readLoop(ctx context.Context) (websocket.StatusCode, string) {
	lastFrame := time.Now()
	quietMsg := fmt.Sprintf("no frame received for %v", c.idle)
	for {
		// A client that sends no frame for a while (a phone put away, a
		// network gone, or a client holding a stream's place with
		// keep-alives) is let go, with its session: key messages do not
		// count, so a stream is held only by a camera that is filming.
		idle := false
		timer := time.AfterFunc(c.idle-time.Since(lastFrame), func() {
			c.mu.Lock()
			idle = true
			c.mu.Unlock()
			c.conn.Close(websocket.StatusPolicyViolation, quietMsg)
		})
		typ, data, err := c.conn.Read(ctx)
		timer.Stop()
		if err != nil {
			c.mu.Lock()
			away, quiet, flooded := c.goingAway, idle, c.flooded
			c.mu.Unlock()
			switch {
			case away || ctx.Err() != nil:
				return websocket.StatusGoingAway, "the server is shutting down"
			case flooded != "":
				return websocket.StatusPolicyViolation, flooded
			case quiet:
				return websocket.StatusPolicyViolation, quietMsg
			case strings.Contains(err.Error(), "read limited"):
				// The library has already closed with StatusMessageTooBig.
				return websocket.StatusMessageTooBig, fmt.Sprintf("a message is larger than %d bytes", maxFrameBytes)
			}
			return websocket.StatusNormalClosure, "" // the client went away
		}
		recv := time.Now()
		if typ == websocket.MessageText {
			if reason := c.key(ctx, data); reason != "" {
				return websocket.StatusPolicyViolation, reason
			}
			continue
		}
		f, reason := checkFrame(data)
		if reason != "" {
			return websocket.StatusUnsupportedData, reason
		}
		f.recv = recv
		lastFrame = recv
		c.mu.Lock()
		c.frameN++
		c.mu.Unlock()
		// Keep only the newest frame: an older one still waiting is
		// dropped, and the client told, so it never falls behind.
		select {
		case old := <-c.frames:
			c.drop(old.seq)
		default:
		}
		c.frames <- f
	}
}

// drop tells the client that frame seq was skipped for a newer one, so it
// may send the next. The message goes out on its own goroutine: neither
// the reader nor a session holding a frame slot waits on the network.
func (c *cameraConn) drop(seq uint32) {
	c.mu.Lock()
	c.dropped++
	over := c.dropsOut >= maxDropsOut
	first := over && c.flooded == ""
	if first {
		c.flooded = "frames sent without reading the answers"
	}
	if !over {
		c.dropsOut++
	}
	c.mu.Unlock()
	if first {
		go c.conn.Close(websocket.StatusPolicyViolation, "frames sent without reading the answers")
	}
	if over {
		return
	}
	c.sends.Add(1)
	go func() {
		defer c.sends.Done()
		c.send(c.ctx, map[string]any{"type": "dropped", "seq": seq})
		c.mu.Lock()
		c.dropsOut--
		c.mu.Unlock()
	}()
}

// checkFrame checks one binary frame message (sequence number, a JPEG
// whose header gives a size in bounds and at most pipeline.MaxJPEGScans
// scans: pipeline.CheckImage); reason says what is wrong with a bad one. The pixels are decoded later, by the session, if the frame is
// still the newest when it is free.
func checkFrame(data []byte) (frameMsg, string) {
	if len(data) < 4+3 {
		return frameMsg{}, "a frame is a 4-byte sequence number and a JPEG"
	}
	seq := binary.BigEndian.Uint32(data)
	jpg := data[4:]
	if pipeline.ImageKind(jpg) != "jpeg" {
		return frameMsg{}, fmt.Sprintf("frame %d is not a JPEG", seq)
	}
	cfg, err := pipeline.CheckImage(fmt.Sprintf("frame %d", seq), jpg, int64(maxFrameSide)*int64(maxFrameSide))
	var tl *pipeline.TooLargeError
	var ie *pipeline.ImageError
	switch {
	case errors.As(err, &ie) && ie.Problem == pipeline.TooManyScans:
		return frameMsg{}, fmt.Sprintf("frame %d: %s", seq, ie.Msg)
	case errors.As(err, &ie) && ie.Problem == pipeline.Unreadable:
		return frameMsg{}, fmt.Sprintf("frame %d: bad JPEG header", seq)
	case err != nil && !errors.As(err, &tl) && !errors.As(err, &ie):
		return frameMsg{}, fmt.Sprintf("frame %d: %v", seq, err)
	}
	if cfg.Width > maxFrameSide || cfg.Height > maxFrameSide || cfg.Width < 32 || cfg.Height < 32 {
		return frameMsg{}, fmt.Sprintf("frame %d is %d×%d: scale it to 32..%d pixels a side", seq, cfg.Width, cfg.Height, maxFrameSide)
	}
	return frameMsg{jpg: jpg, seq: seq, w: cfg.Width, h: cfg.Height}, ""
}

// key handles a text message; it returns a reason to close on a bad one.
func (c *cameraConn) key(ctx context.Context, data []byte) string {
	var k struct {
		Type string `json:"type"`
		Key  string `json:"key"`
		On   *bool  `json:"on"`
	}
	if err := json.Unmarshal(data, &k); err != nil || (k.Type != "key" && k.Type != "check") {
		return `a text message must be {"type":"key","key":...} or {"type":"check","on":true|false}`
	}
	if k.Type == "check" {
		if k.On == nil {
			return `a check message needs "on": true or false`
		}
		c.setCheck(*k.On)
		return ""
	}
	switch k.Key {
	case "c", "C":
		c.mu.Lock()
		on := !c.check
		c.mu.Unlock()
		c.setCheck(on)
	case " ", "Tab":
		c.walk.Reset()
		code := ' '
		if k.Key == "Tab" {
			code = '\t'
		}
		select {
		case c.keys <- int(code):
		default: // a flood of keys: drop the extras
		}
	case "h", "H":
		c.mu.Lock()
		info := c.last
		c.mu.Unlock()
		if info.Entries != "" {
			// A pen page: live's hint, from the entries, comes with the
			// frames.
			c.sendKey('h')
			return ""
		}
		msg := nextStep(ctx, &c.walk, &c.advice, info)
		c.send(ctx, msg)
	default:
		return fmt.Sprintf("unknown key %q (want \" \", \"h\", \"c\" or \"Tab\")", k.Key)
	}
	return ""
}

// sendKey passes key to the live session; a flood of keys drops the
// extras.
func (c *cameraConn) sendKey(key int) {
	select {
	case c.keys <- key:
	default:
	}
}

// setCheck records whether the client wants the entries checked and, if
// the session is not so, toggles it (live's C).
func (c *cameraConn) setCheck(on bool) {
	c.mu.Lock()
	c.check = on
	toggle := c.last.Entries != "" && c.last.Checking != on && c.checkSent == 0
	if toggle {
		c.checkSent = max(c.frameN, 1)
	}
	c.mu.Unlock()
	if toggle {
		c.sendKey('c')
	}
}

// checkStep brings the session's checking round to the client's want:
// sent is the frame count when a C was last sent (0: none waiting). It
// returns the new sent and whether to send C now.
func checkStep(checking, want bool, frameN, sent int) (int, bool) {
	switch {
	case checking == want:
		return 0, false
	case sent == 0 || frameN-sent > checkRepeat:
		return max(frameN, 1), true
	}
	return sent, false
}

// penFields fills a's fields of a pen page from info. Mistakes go out
// only while both the client (want) and the session check: a frame judged
// before the client turned checking off leaks neither them nor the
// counts that hold how many are wrong.
func penFields(a *frameAnswer, info live.FrameInfo, want bool) {
	if info.Entries == "" {
		return
	}
	a.Solution = "" // never the answer on a started page: Fill, when asked, is
	a.Entries, a.Notes, a.Progress, a.Solved, a.Fill, a.Hint = info.Entries, info.Notes, info.Progress, info.Solved, info.Fill, info.Hint
	if h := info.PenHint; h != nil {
		switch {
		case h.Wrong != nil:
			cell := h.Wrong.Cell
			a.PenHint = &penHint{Wrong: &cell}
		case h.Step != nil:
			a.PenHint = &penHint{Cells: h.Step.Cells, Placements: h.Step.Placements}
		}
	}
	a.Checking = info.Checking && want
	switch {
	case a.Checking:
		a.Mistakes = info.Mistakes
	case info.Checking && !info.Solved:
		if a.Status == info.Progress {
			a.Status = ""
		}
		a.Progress = ""
	}
}

// checkRepeat is how many frames a C sent to the session may take to
// show; after that it is sent again (it may have been dropped).
const checkRepeat = 30

// nextStep is the answer to H: {"type":"step","step":…,"index":k,
// "total":n,"placed":[digits of the steps before]} or {"type":"step",
// "error":…}. It moves w (live's walk, the one the live window uses) to
// the next step of the puzzle in view, starting again at the first for
// another puzzle or after the last; advice holds the walk's steps as the
// engine words them for the pages.
func nextStep(ctx context.Context, w *live.StepWalk, advice *[]logic.Advice, info live.FrameInfo) map[string]any {
	msg := map[string]any{"type": "step"}
	box := sudoku.Shape{BoxRows: info.Box[0], BoxCols: info.Box[1]}
	if info.Given == "" || !box.Valid() {
		msg["error"] = "No puzzle in view yet: hold the grid steady until it is read."
		return msg
	}
	if !w.Holds(info.Given) || !w.Next() {
		g, err := sudoku.ParseCellGrid(box, info.Given)
		if err != nil {
			msg["error"] = err.Error()
			return msg
		}
		sctx, cancel := context.WithTimeout(ctx, hintTimeout)
		_, steps, _ := logic.SolveSteps(sctx, g)
		cancel()
		adv, err := logic.AdviceFor(g, steps)
		if len(steps) == 0 || err != nil || len(adv) != len(steps) {
			w.Reset()
			msg["error"] = "No logical step found for this puzzle as read."
			return msg
		}
		w.Start(info.Given, steps)
		*advice = adv
	}
	_, k, n, _ := w.Step()
	placed := w.Placed()
	if placed == nil {
		placed = []logic.Candidate{}
	}
	msg["step"], msg["index"], msg["total"], msg["placed"] = (*advice)[k-1], k, n, placed
	return msg
}

// answerOf is the camera's wire form of the session's word on the frame
// f, as the client asked (want: check the entries), without the server's
// time: the one place a FrameInfo becomes the JSON the page reads
// (pinned by TestCameraAnswerGolden).
func answerOf(f frameMsg, info live.FrameInfo, want bool) frameAnswer {
	a := frameAnswer{
		Type: "frame", Seq: f.seq, Width: f.w, Height: f.h, Located: info.Located, Corners: info.Corners,
		Box: info.Box, Given: info.Given, Solution: info.Solution, Conflicts: info.Conflicts,
		Status: info.Status, Auto: info.Auto, Grids: info.Grids, GridAt: info.GridAt,
	}
	if a.Conflicts == nil {
		a.Conflicts = []int{}
	}
	penFields(&a, info, want)
	return a
}

// answer sends the session's word on the frame f.
func (c *cameraConn) answer(ctx context.Context, f frameMsg, info live.FrameInfo) {
	ms := float64(time.Since(f.recv).Microseconds()) / 1000
	c.mu.Lock()
	c.last = info
	c.server = append(c.server, ms)
	want := c.check
	toggle := false
	if info.Entries != "" { // live checks only on a pen page: C elsewhere waits for one
		c.checkSent, toggle = checkStep(info.Checking, want, c.frameN, c.checkSent)
	}
	c.mu.Unlock()
	if toggle {
		c.sendKey('c')
	}
	a := answerOf(f, info, want)
	a.ServerMs = math.Round(ms*100) / 100
	c.send(ctx, a)
}

func (c *cameraConn) send(ctx context.Context, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = c.conn.Write(wctx, websocket.MessageText, b) // a failed write ends the read loop too
}

// logSummary logs the stream's frame counts and the server's share of the
// round trip: from a frame's arrival to its answer leaving.
func (c *cameraConn) logSummary(s *Server, d time.Duration, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ms := slices.Clone(c.server)
	slices.Sort(ms)
	q := func(p float64) float64 {
		if len(ms) == 0 {
			return 0
		}
		return math.Round(ms[min(len(ms)-1, int(p*float64(len(ms))))]*10) / 10
	}
	s.log.Info("camera stream closed", "seconds", math.Round(d.Seconds()*10)/10, "frames", c.frameN,
		"answered", len(ms), "dropped", c.dropped, "server_ms_median", q(0.5), "server_ms_p95", q(0.95), "reason", reason)
}

// wsSource is a live.Source fed by the WebSocket's reader; a frame that
// does not decode ends the stream (bad closes it with the reason). A frame
// is worked on only while the stream holds one of the server's frame
// slots (a limit.Gate, one per core, first come first served), so many
// streams share the cores evenly instead of thrashing them with half-done
// cgo frames; a waiting stream keeps only its newest frame.
type wsSource struct {
	frames <-chan frameMsg
	ctx    context.Context // the stream's: ends with it
	done   <-chan struct{} // ctx.Done()
	bad    func(reason string)
	drop   func(seq uint32) // tells the client a frame was skipped for a newer one
	cur    frameMsg         // the frame last read

	slots    *limit.Gate // the server's frame slots
	mu       sync.Mutex
	giveBack func() // gives back the slot this stream holds, or nil
}

func (w *wsSource) Read(m *gocv.Mat) bool {
	w.release()
	// Wait for a frame, then for a slot; then take the newest frame,
	// which may have replaced that one meanwhile.
	var f frameMsg
	select {
	case f = <-w.frames:
	case <-w.done:
		return false
	}
	giveBack, err := w.slots.Enter(w.ctx, "")
	if err != nil {
		return false
	}
	w.mu.Lock()
	w.giveBack = giveBack
	w.mu.Unlock()
	select {
	case newer := <-w.frames:
		w.drop(f.seq)
		f = newer
	default:
	}
	d, ok := decodeFrame(f)
	if !ok {
		w.bad(fmt.Sprintf("frame %d: the JPEG does not decode", f.seq))
		return false
	}
	// The decoded Mat becomes the session's frame: no copy.
	m.Close()
	*m = d
	f.jpg = nil
	w.cur = f
	return true
}

// release gives back the stream's frame slot, if it holds one.
func (w *wsSource) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.giveBack != nil {
		w.giveBack()
		w.giveBack = nil
	}
}

// decodeFrame decodes a checked camera frame in grey: everything the
// server does with a frame (follow the grid, print its ink, read the
// digits) works on grey, and libjpeg decoding only the luma plane skips
// the chroma planes and the colour conversion. ok is false when the JPEG
// does not decode to the size its header announced. The caller closes m.
func decodeFrame(f frameMsg) (m gocv.Mat, ok bool) {
	d, err := gocv.IMDecode(f.jpg, gocv.IMReadGrayScale)
	if err != nil {
		return gocv.Mat{}, false
	}
	if d.Empty() || d.Cols() != f.w || d.Rows() != f.h {
		d.Close()
		return gocv.Mat{}, false
	}
	return d, true
}

func (w *wsSource) FPS() float64     { return cameraFPS }
func (w *wsSource) Size() (int, int) { return 0, 0 }
func (w *wsSource) Name() string     { return "browser camera" }
func (w *wsSource) Close() error     { return nil }

// keySink is a live.Sink that shows nothing (the page draws) and passes
// on the keys the client sent.
type keySink struct{ keys chan int }

func (k *keySink) Show(gocv.Mat, time.Duration) int {
	select {
	case key := <-k.keys:
		return key
	default:
		return -1
	}
}
func (k *keySink) Close() error { return nil }

// pooledRecognizer is a live.Recognizer that borrows a pipeline from the
// server's pool for each recognition, so fifty streams share a pipeline
// per core instead of holding fifty.
type pooledRecognizer struct {
	pool *pipePool
	ctx  context.Context
}

func (p *pooledRecognizer) ProcessPick(frame gocv.Mat, pick vision.Pick) pipeline.Result {
	pl, put, err := p.pool.get(p.ctx)
	if err != nil {
		return pipeline.Result{Status: pipeline.StatusLoadError, Error: err.Error()}
	}
	defer put()
	return pl.ProcessPick(frame, pick)
}

func (p *pooledRecognizer) Close() error { return nil }

// The browser's camera fuses the frames of a page as live's does: the
// canvases are made and read on a pipeline borrowed like ProcessPick's.
var _ live.CanvasReader = (*pooledRecognizer)(nil)

// Canvas is live.CanvasReader's: frame's view of grid g.
func (p *pooledRecognizer) Canvas(frame gocv.Mat, g vision.Grid, dst *gocv.Mat) error {
	pl, put, err := p.pool.get(p.ctx)
	if err != nil {
		return err
	}
	defer put()
	return pl.Canvas(frame, g, dst)
}

// ReadCanvas is live.CanvasReader's: the puzzle of grid g read from canvas.
func (p *pooledRecognizer) ReadCanvas(canvas gocv.Mat, g vision.Grid, frame image.Point) pipeline.Result {
	pl, put, err := p.pool.get(p.ctx)
	if err != nil {
		return pipeline.Result{Status: pipeline.StatusLoadError, Error: err.Error()}
	}
	defer put()
	return pl.ReadCanvas(canvas, g, frame)
}
