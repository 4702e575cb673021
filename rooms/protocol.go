package rooms

import (
	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/logic"
)

// The protocol (docs/api.md lists every message both ways): each message is
// one JSON object whose "t" names it; a client numbers the messages it
// wants answered with "seq", and the answer or error carries it back. The
// server sends "welcome", then "state" whenever the room changes shape, and
// small events between.

// In is a message from a client. Which fields count depends on T.
type In struct {
	T      string `json:"t"`
	Seq    int64  `json:"seq,omitempty"`
	Name   string `json:"name,omitempty"`
	Code   string `json:"code,omitempty"`
	Mode   string `json:"mode,omitempty"`
	Size   int    `json:"size,omitempty"`
	Level  string `json:"level,omitempty"`
	Public bool   `json:"public,omitempty"`
	Watch  bool   `json:"watch,omitempty"`
	On     *bool  `json:"on,omitempty"`
	Cell   *int   `json:"cell,omitempty"`
	Value  *int   `json:"value,omitempty"`
	// Seat: for kick, the seat voted out; for a move, whose board it is
	// meant for (it must be the sender's own: there is no other).
	Seat *int   `json:"seat,omitempty"`
	Grid string `json:"grid,omitempty"`
	// Clear (move): take the value out of the peers' pencil marks too.
	Clear bool `json:"clear,omitempty"`
	// Stage (hint): 1 or 0 a new hint; 2 and 3 the open hint's pattern
	// and answer (see HintMsg).
	Stage int `json:"stage,omitempty"`
	// Token (join): the one-time token of a "moved" message.
	Token string `json:"token,omitempty"`
}

// Modes of play.
const (
	Race = "race" // same puzzle, own boards, first correct finish wins
	Coop = "coop" // one shared board filled together
)

// Phases of a room.
const (
	PhaseLobby     = "lobby"     // seats fill, players get ready
	PhaseCountdown = "countdown" // everyone is ready: the start is announced
	PhasePlaying   = "playing"
	PhaseOver      = "over" // ranking shown; "again" starts a new lobby
)

// Error codes in an "error" message, for programs; Msg says it in words.
const (
	ErrBad       = "bad"        // the message does not parse or misses a field
	ErrRate      = "rate"       // over the message budget: dropped
	ErrNoRoom    = "no-room"    // no room with that code, or not in a room
	ErrFull      = "full"       // no seat and no place to watch
	ErrNotNow    = "not-now"    // not in this phase of the game
	ErrNotYours  = "not-yours"  // another player's board, or a watcher playing
	ErrFixed     = "fixed"      // the cell is a given
	ErrNoHints   = "no-hints"   // all hints used, or none to give
	ErrNotPlayed = "not-played" // a finish grid that is not the board played
	ErrNotSolved = "not-solved" // the board played is not the solution yet
	ErrOver      = "over"       // the game has ended
	ErrBusy      = "busy"       // the room's queue is full: try again
	ErrBanned    = "banned"     // voted out of this room
	ErrClosing   = "closing"    // the server is shutting down
)

// Welcome is the first message on a connection: the limits it lives by.
type Welcome struct {
	T           string  `json:"t"`           // "welcome"
	Rate        float64 `json:"rate"`        // messages per second, sustained
	Burst       int     `json:"burst"`       // messages at once
	MaxBytes    int     `json:"maxBytes"`    // the largest message
	MaxHints    int     `json:"maxHints"`    // per player per game
	ReconnectMs int64   `json:"reconnectMs"` // how long a seat waits for its player
	MaxSeats    int     `json:"maxSeats"`
}

// Error answers a message the server refused.
type Error struct {
	T    string `json:"t"` // "error"
	Seq  int64  `json:"seq,omitempty"`
	Code string `json:"code"`
	Msg  string `json:"msg"`
}

// RoomInfo is a public room in the "rooms" list.
type RoomInfo struct {
	Code    string `json:"code"`
	Mode    string `json:"mode"`
	Size    int    `json:"size"`
	Level   string `json:"level"`
	Players int    `json:"players"`
	Max     int    `json:"max"`
	Phase   string `json:"phase"`
}

// RoomList answers "list".
type RoomList struct {
	T     string     `json:"t"` // "rooms"
	Rooms []RoomInfo `json:"rooms"`
}

// Queued answers "quick": the player waits for others.
type Queued struct {
	T       string `json:"t"` // "queued"
	Mode    string `json:"mode"`
	Size    int    `json:"size"`
	Level   string `json:"level"`
	Waiting int    `json:"waiting"` // players in this queue, you included
}

// State is the whole room as one connection may see it.
type State struct {
	T        string     `json:"t"` // "state"
	Code     string     `json:"code"`
	Mode     string     `json:"mode"`
	Size     int        `json:"size"`
	Box      [2]int     `json:"box"` // rows and columns of a box
	Level    string     `json:"level"`
	Rating   float64    `json:"rating,omitempty"`
	Public   bool       `json:"public"`
	Quick    bool       `json:"quick"`
	Phase    string     `json:"phase"`
	StartsIn int64      `json:"startsIn,omitempty"` // ms until the start (countdown)
	Elapsed  int64      `json:"elapsedMs"`          // ms since the start, by the server's clock
	You      int        `json:"you"`                // your seat, or -1 when watching
	Seats    []SeatView `json:"seats"`
	Watchers int        `json:"watchers"`
	MaxHints int        `json:"maxHints"`
	Game     int        `json:"game"`             // games played in this room, this one included
	Puzzle   string     `json:"puzzle,omitempty"` // the givens, once the game has started
	// Board is your board in a race, the shared one in co-op (with your
	// own pencil marks). Watchers of a race get none: only progress.
	Board    *BoardView `json:"board,omitempty"`
	Results  []Placing  `json:"results,omitempty"`  // once over
	Solution string     `json:"solution,omitempty"` // once over, never before
	Seq      int64      `json:"seq,omitempty"`      // answering a sync
}

// SeatView is one seat as everyone sees it: never its digits.
type SeatView struct {
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Ready    bool   `json:"ready"`
	Online   bool   `json:"online"`
	AwayMs   int64  `json:"awayMs,omitempty"`   // ms the seat still waits for its player
	Filled   int    `json:"filled"`             // cells filled (race: on their own board)
	Mistakes *int   `json:"mistakes,omitempty"` // once the game is over: during play it would tell right from wrong
	Hints    int    `json:"hints"`
	Place    int    `json:"place,omitempty"` // 1.. once finished
	Ms       int64  `json:"ms,omitempty"`    // their time, once finished
	Out      string `json:"out,omitempty"`   // why they stopped: left, gave up, dropped, voted out
	Votes    int    `json:"votes,omitempty"` // votes to remove them
}

// BoardView is a board's cells and what the server says of them.
type BoardView struct {
	V         int64        `json:"v"`     // the board's version: moves applied so far
	Cells     string       `json:"cells"` // '0' empty, 'A' = 10 …
	Marks     []game.Marks `json:"marks"` // your pencil marks, bit v = value v
	Wrong     []int        `json:"wrong"` // entries that are not the solution's: once the game is over
	Conflicts []int        `json:"conflicts"`
	Filled    int          `json:"filled"`
	Total     int          `json:"total"`
	CanUndo   bool         `json:"canUndo"`
	CanRedo   bool         `json:"canRedo"`
}

// Change is one cell a move changed.
type Change struct {
	Cell  int        `json:"cell"`
	Value int        `json:"value"`
	Marks game.Marks `json:"marks,omitempty"`
}

// Move is a change to a board: "move" broadcast in co-op, "ack" to the
// mover in a race.
type Move struct {
	T         string   `json:"t"`
	V         int64    `json:"v"`    // the board's version after it
	Seat      int      `json:"seat"` // who moved
	Seq       int64    `json:"seq,omitempty"`
	Changes   []Change `json:"changes"`
	Wrong     []int    `json:"wrong"` // always empty: a game on tells nothing of right and wrong
	Conflicts []int    `json:"conflicts"`
	Filled    int      `json:"filled"`
	CanUndo   bool     `json:"canUndo,omitempty"`
	CanRedo   bool     `json:"canRedo,omitempty"`
}

// Progress is another race player's counts.
type Progress struct {
	T      string `json:"t"` // "progress"
	Seat   int    `json:"seat"`
	Filled int    `json:"filled"`
	Hints  int    `json:"hints"`
}

// HintMsg answers "hint": the step as advice, the stage asked for (1 the
// nudge, 2 the pattern, 3 the answer, already played as moves), hints used
// of Max and stages shown over all hints.
type HintMsg struct {
	T      string       `json:"t"` // "hint"
	Seq    int64        `json:"seq,omitempty"`
	Step   logic.Advice `json:"step"`
	Stage  int          `json:"stage"`
	Used   int          `json:"used"`
	Stages int          `json:"stages"`
	Max    int          `json:"max"`
}

// Finish announces a player who finished (race) or the team (co-op).
type Finish struct {
	T     string `json:"t"` // "finish"
	Seat  int    `json:"seat"`
	Place int    `json:"place"`
	Ms    int64  `json:"ms"`
}

// Placing is one line of the ranking.
type Placing struct {
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Place    int    `json:"place"` // 0: did not finish
	Ms       int64  `json:"ms"`
	Filled   int    `json:"filled"`
	Mistakes int    `json:"mistakes"`
	Hints    int    `json:"hints"`
	Out      string `json:"out,omitempty"`
	// Flag says why a finish is not ranked (store.FlagTooFast).
	Flag string `json:"flag,omitempty"`
}

// Over ends a game: the ranking, and the solution at last.
type Over struct {
	T        string    `json:"t"` // "over"
	Results  []Placing `json:"results"`
	Solution string    `json:"solution"`
	Ms       int64     `json:"ms"` // the game's length
}

// Vote tells the room that someone wants a seat removed.
type Vote struct {
	T     string `json:"t"` // "vote"
	Seat  int    `json:"seat"`
	Votes int    `json:"votes"`
	Need  int    `json:"need"`
}

// Moved sends a client to the node that holds its room: it reconnects
// its WebSocket to URL + "/ws/rooms" (or opens URL + "/rooms/" + Code) and
// sends {"t":"join","code":Code,"token":Token}. The token is spent once,
// within TokenLife, and names the player, so the seat is kept on a node
// that never saw the player's cookie.
type Moved struct {
	T     string `json:"t"` // "moved"
	Seq   int64  `json:"seq,omitempty"`
	Code  string `json:"code"`
	URL   string `json:"url"`
	Token string `json:"token"`
}

// Notice is "left", "kicked", "closed" or "replaced": this connection is
// no longer in the room, and why.
type Notice struct {
	T   string `json:"t"`
	Msg string `json:"msg"`
}
