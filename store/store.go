// Package store keeps what `sudokuar serve` must not forget: games in
// progress, results, rooms' matches, daily puzzles, every game a player
// started (statistics), and the leaderboards read from them.
//
// In: plain Game, Result, Match, Daily and Play values. Out: the same read
// back, ranked, listed or summed up. Store is the one seam (no SQL outside
// it): SQLite and PostgreSQL both pass storetest.Run. A game's State is
// opaque here: the front end encodes it.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Kinds of puzzle a game or result belongs to; leaderboards never mix them.
const (
	KindSudoku = "sudoku"
	KindKakuro = "kakuro"
)

// Game statuses.
const (
	StatusPlaying  = "playing"  // in progress
	StatusSolved   = "solved"   // finished by the player, result recorded
	StatusRevealed = "revealed" // the player asked for the solution: no result
	// StatusLost: the game ended at its mistake limit: no result.
	StatusLost = "lost"
	// StatusUnfinished: a seat of a multiplayer match that ended before
	// this player finished (they left, gave up, or the others won first
	// in co-op's absence). It has no result.
	StatusUnfinished = "unfinished"
)

// Modes of play. Leaderboards never mix them: a race time and a team's
// co-op time are not a solo time.
const (
	ModeSolo = "solo" // one player, one board (what a Result with Mode "" means)
	ModeRace = "race" // same puzzle, own boards, first correct finish wins
	ModeCoop = "coop" // one shared board filled together
)

// Game is one puzzle being played by one player.
type Game struct {
	ID       string // random, unguessable; the key
	Kind     string // KindSudoku, KindKakuro
	Player   string // the player's id (a random cookie value), not a name
	Size     string // "9x9", "16x16"; for Kakuro its board size
	Level    string // "easy" … "extreme", or "" for a puzzle the player entered
	Puzzle   string // the givens, in the kind's own one-line text
	Solution string // kept on the server; never sent before the game ends
	State    []byte // the front end's encoding of the board, clock, counters
	Status   string // StatusPlaying, StatusSolved, StatusRevealed
	Created  time.Time
	Updated  time.Time
	// Base, when set, makes UpdateGame and FinishGame conditional: they
	// change the game only if its stored Updated is still Base (the one
	// the change was made from), else ErrConflict: another server changed
	// it meanwhile, and the caller loads it again and retries. Updated
	// must then be after Base (to the millisecond, as stored).
	Base time.Time
}

// Result is one finished game on a leaderboard.
type Result struct {
	ID       int64  // assigned by the store
	GameID   string // the game it finished (at most one result per game)
	Kind     string
	Size     string
	Level    string
	Player   string // the player's id
	Name     string // the name the player gave; shown as text, never as HTML
	Millis   int64  // playing time, pauses excluded
	Hints    int
	Mistakes int
	Finished time.Time
	// Multiplayer results say where they came from; solo ones leave these
	// zero (Mode "" is stored and read back as ModeSolo).
	Mode    string // ModeSolo, ModeRace, ModeCoop
	Match   string // the Match's ID
	Placing int    // 1 = won (every finisher of a co-op match places 1)
	Players int    // how many sat at the match
	// Flag says why a result is not ranked ("" = ranked): it stays in the
	// player's history but never on a leaderboard. See the Flag constants.
	Flag string
	// Daily is the day of the daily puzzle it solved ("" for any other
	// game): a daily result is on that day's leaderboard only.
	Daily string
}

// Flags of an unranked result.
const (
	FlagOwn     = "own"      // the player's own puzzle: they may know its solution
	FlagAssists = "assists"  // mistakes were shown (an assist that reveals the solution)
	FlagTooFast = "too fast" // finished under the puzzle's plausibility floor
	FlagReplay  = "replay"   // a daily puzzle played again: the first game of the day is the ranked one
)

// Board names one leaderboard. Mode "" means ModeSolo. Daily names a
// daily puzzle's board (its day; Size and Level then are the puzzle's);
// "" is every other game's.
type Board struct {
	Kind, Size, Level string
	Mode              string
	Daily             string
}

// Daily is one day's puzzle of a kind, the same for every player.
type Daily struct {
	Day      string // "2006-01-02", UTC
	Kind     string
	Size     string
	Level    string
	Puzzle   string
	Solution string // kept on the server, as a Game's
	Info     []byte // the front end's own data about it (its rating), opaque here
	Created  time.Time
}

// Play is one game a player started, kept for their statistics after the
// game itself is deleted.
type Play struct {
	GameID  string // the key: one play per game
	Player  string
	Kind    string
	Size    string
	Level   string
	Daily   string // the daily puzzle's day, "" for any other game
	Outcome string // OutcomePlaying, OutcomeWon, OutcomeLost
	Millis  int64  // playing time when it ended
	Started time.Time
	Ended   time.Time // zero while playing
}

// Outcomes of a Play. A game left unfinished stays OutcomePlaying.
const (
	OutcomePlaying = "playing"
	OutcomeWon     = "won"  // solved
	OutcomeLost    = "lost" // the solution shown, or the mistake limit reached
)

// Stat is one player's figures on one board (kind, size, level).
type Stat struct {
	Kind, Size, Level  string
	Started, Won, Lost int
	// BestMillis and TotalMillis are over the games won (the average is
	// TotalMillis / Won).
	BestMillis, TotalMillis int64
	// Streak is the games won in a row on this board, up to the latest;
	// BestStreak the longest such run.
	Streak, BestStreak int
}

// Stats is a player's statistics.
type Stats struct {
	Boards             []Stat // by kind, size, then level as stored
	Streak, BestStreak int    // games won in a row, every board together
	// DailySolved counts the days whose puzzle the player solved;
	// DailyStreak the days in a row up to today (or yesterday, today's
	// still to come), BestDailyStreak the longest run.
	DailySolved, DailyStreak, BestDailyStreak int
}

// MaxStreakPlays bounds how many of a player's latest ended games the
// streaks look at (the counts and times take every game).
const MaxStreakPlays = 5000

// Match is one finished multiplayer game: the puzzle, when it ran by the
// server's clock, and every seat with its outcome.
type Match struct {
	ID      string // random, unguessable; the key
	Mode    string // ModeRace or ModeCoop
	Kind    string
	Size    string
	Level   string
	Puzzle  string // the givens, in the kind's one-line text
	Room    string // the room's join code, for the record
	Started time.Time
	Ended   time.Time
	Seats   []Seat // in seat order
}

// Seat is one player's part in a Match.
type Seat struct {
	GameID   string // set by SaveMatch: the Game row that keeps State
	Player   string // the player's id
	Name     string // shown as text, never as HTML
	Placing  int    // 1.. for those who finished; 0 did not finish
	Millis   int64  // time from the start to this player's finish (0: none)
	Filled   int    // cells filled when the match ended
	Mistakes int
	Hints    int
	Flag     string // why the seat's result is not ranked ("": ranked)
	// State is the front end's record of the seat's board and the moves
	// played on it (read back by Match, not by PlayerMatches).
	State []byte
}

// Store is the storage every front end shares. Implementations are safe
// for concurrent use.
type Store interface {
	// CreateGame stores a new game; its ID must be new.
	CreateGame(ctx context.Context, g Game) error
	// Game returns the game with this id, or an error wrapping ErrNotFound.
	Game(ctx context.Context, id string) (Game, error)
	// UpdateGame replaces the stored State, Status and Updated of g.ID
	// (the rest of a game never changes). ErrNotFound if there is none;
	// ErrConflict if g.Base is set and the stored Updated is not it.
	UpdateGame(ctx context.Context, g Game) error
	// FinishGame stores g (as UpdateGame) and adds r for it, in one
	// transaction: a game is scored once or not at all. A second result
	// for the same game gives ErrDuplicate. r.ID is ignored.
	FinishGame(ctx context.Context, g Game, r Result) (Result, error)
	// Leaderboard lists the best ranked results (Flag "") on b: fastest
	// first, then fewer hints, fewer mistakes, earlier. limit <= 0 means 20.
	Leaderboard(ctx context.Context, b Board, limit int) ([]Result, error)
	// History lists one player's results, newest first, on every board,
	// flagged ones included.
	History(ctx context.Context, player string, limit int) ([]Result, error)
	// SaveMatch stores a finished multiplayer match in one transaction: the
	// match, a Game per seat (its State, status solved or unfinished) and
	// a Result for each seat that finished (Mode, Match, Placing and
	// Players set), so finishers appear on their mode's leaderboard and in
	// their history. A second save of the same ID gives ErrDuplicate. It
	// returns m with each seat's GameID.
	SaveMatch(ctx context.Context, m Match) (Match, error)
	// Match returns one match with its seats and their States, or an
	// error wrapping ErrNotFound.
	Match(ctx context.Context, id string) (Match, error)
	// PlayerMatches lists the matches a player sat at, newest first, with
	// every seat (States left out). limit <= 0 means 20.
	PlayerMatches(ctx context.Context, player string, limit int) ([]Match, error)
	// Daily returns day's puzzle of kind, or an error wrapping
	// ErrNotFound.
	Daily(ctx context.Context, day, kind string) (Daily, error)
	// SaveDaily stores d unless its day and kind have a puzzle already,
	// and returns the one stored: two servers making a day's puzzle at
	// once both play the first one written.
	SaveDaily(ctx context.Context, d Daily) (Daily, error)
	// RecordPlay keeps p: a new game (OutcomePlaying), or how it ended.
	// A play that has ended never changes again, so recording an end
	// twice counts it once.
	RecordPlay(ctx context.Context, p Play) error
	// DailyPlays lists a player's plays of day's puzzles, oldest first.
	DailyPlays(ctx context.Context, player, day string) ([]Play, error)
	// PlayerStats sums up a player's plays; now places today for the
	// daily streak.
	PlayerStats(ctx context.Context, player string, now time.Time) (Stats, error)
	// Ping checks that the store answers.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// Expirer is a Store that can forget the games nobody plays any more. It
// stands beside Store rather than in it so that a store without it still
// serves; web expires games when its store has it.
type Expirer interface {
	// ExpireGames deletes the games that were not solved (still playing,
	// or whose solution was revealed) and were last changed before idle,
	// or never changed since they were created before unplayed. A solved
	// game and every result stay, whatever their age. It returns how many
	// games it deleted.
	ExpireGames(ctx context.Context, idle, unplayed time.Time) (int64, error)
}

// Errors a Store returns (wrapped); test them with errors.Is.
var (
	ErrNotFound  = errors.New("store: not found")
	ErrDuplicate = errors.New("store: already exists")
	// ErrConflict: a conditional update (Game.Base) found the game
	// changed since it was read.
	ErrConflict = errors.New("store: changed meanwhile")
)

// MaxNameRunes bounds a player's name.
const MaxNameRunes = 32

// NameError reports a player name that cannot be stored.
type NameError struct {
	Name   string
	Reason string
}

func (e *NameError) Error() string { return fmt.Sprintf("player name %q: %s", e.Name, e.Reason) }

// CleanName trims a player's name and checks it: 1 to MaxNameRunes runes
// of valid UTF-8, something visible, no control (Cc) or format characters
// (Cf: bidi overrides such as U+202E, zero-width spaces), and at most
// MaxCombining combining marks on one character, so a name cannot lie about
// itself on a leaderboard. Markup is kept (pages print names as text).
// Every place that takes a name calls it.
func CleanName(name string) (string, error) {
	n := strings.TrimSpace(name)
	switch {
	case !utf8.ValidString(n):
		return "", &NameError{Name: name, Reason: "not valid UTF-8"}
	case n == "":
		return "", &NameError{Name: name, Reason: "empty"}
	case utf8.RuneCountInString(n) > MaxNameRunes:
		return "", &NameError{Name: name, Reason: fmt.Sprintf("longer than %d characters", MaxNameRunes)}
	}
	marks, visible := 0, false
	for _, r := range n {
		switch {
		case unicode.IsControl(r):
			return "", &NameError{Name: name, Reason: "contains a control character"}
		case unicode.Is(unicode.Cf, r):
			return "", &NameError{Name: name, Reason: fmt.Sprintf("contains the invisible format character U+%04X (text direction or zero-width)", r)}
		case unicode.In(r, unicode.Mn, unicode.Me):
			if marks++; marks > MaxCombining {
				return "", &NameError{Name: name, Reason: fmt.Sprintf("more than %d combining marks on one character", MaxCombining)}
			}
			continue
		}
		marks = 0
		if !unicode.IsSpace(r) {
			visible = true
		}
	}
	if !visible {
		return "", &NameError{Name: name, Reason: "nothing visible in it"}
	}
	return n, nil
}

// MaxCombining is the most combining marks CleanName takes on one
// character: enough for any written language (Vietnamese stacks two,
// Hebrew with cantillation three), not for a "Zalgo" tower.
const MaxCombining = 4

// mode returns the stored form of a Result's or Board's mode.
func mode(m string) string {
	if m == "" {
		return ModeSolo
	}
	return m
}

// checkMatch refuses a Match that cannot be stored sensibly.
func checkMatch(m Match) error {
	switch {
	case m.ID == "":
		return errors.New("store: match without an ID")
	case m.Mode != ModeRace && m.Mode != ModeCoop:
		return fmt.Errorf("store: match %s: mode %q, want %q or %q", m.ID, m.Mode, ModeRace, ModeCoop)
	case len(m.Seats) == 0:
		return fmt.Errorf("store: match %s: no seats", m.ID)
	}
	return nil
}

// seatGame is the Game row that keeps seat i of m.
func seatGame(m Match, i int) Game {
	s := m.Seats[i]
	status := StatusUnfinished
	if s.Placing > 0 {
		status = StatusSolved
	}
	state := s.State
	if state == nil {
		state = []byte("{}")
	}
	return Game{
		ID: fmt.Sprintf("%s.%d", m.ID, i), Kind: m.Kind, Player: s.Player, Size: m.Size, Level: m.Level,
		Puzzle: m.Puzzle, State: state, Status: status, Created: m.Started, Updated: m.Ended,
	}
}

// seatResult is the Result of a seat that finished.
func seatResult(m Match, i int) Result {
	s := m.Seats[i]
	return Result{
		GameID: fmt.Sprintf("%s.%d", m.ID, i), Kind: m.Kind, Size: m.Size, Level: m.Level, Player: s.Player,
		Name: s.Name, Millis: s.Millis, Hints: s.Hints, Mistakes: s.Mistakes,
		Finished: m.Started.Add(time.Duration(s.Millis) * time.Millisecond),
		Mode:     m.Mode, Match: m.ID, Placing: s.Placing, Players: len(m.Seats), Flag: s.Flag,
	}
}

// limitOr returns limit, or def when limit is not positive, capped at 1000.
func limitOr(limit, def int) int {
	if limit <= 0 {
		return def
	}
	return min(limit, 1000)
}
