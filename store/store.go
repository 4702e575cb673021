// Package store keeps what `sudokuar serve` must not forget: games in
// progress (so a page reload or a server restart loses nothing), finished
// results, and the leaderboards and histories read from them.
//
// In: plain Game and Result values. Out: the same values read back, ranked
// for a leaderboard or listed for one player. The Store interface is the
// seam: web (and later rooms) use only it, never SQL. The embedded default
// is SQLite (OpenSQLite, pure Go through modernc.org/sqlite); a PostgreSQL
// implementation can sit beside it behind the same interface, with the same
// tests (see storetest.go: RunTests takes any Store).
//
// A game's State is opaque to the store: the front end that plays it
// decides its encoding (JSON). The store only keeps it, with the columns a
// query needs (kind, size, level, status, player) beside it.
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
}

// Board names one leaderboard.
type Board struct {
	Kind, Size, Level string
}

// Store is the storage every front end shares. Implementations are safe
// for concurrent use.
type Store interface {
	// CreateGame stores a new game; its ID must be new.
	CreateGame(ctx context.Context, g Game) error
	// Game returns the game with this id, or an error wrapping ErrNotFound.
	Game(ctx context.Context, id string) (Game, error)
	// UpdateGame replaces the stored State, Status and Updated of g.ID
	// (the rest of a game never changes). ErrNotFound if there is none.
	UpdateGame(ctx context.Context, g Game) error
	// FinishGame stores g (as UpdateGame) and adds r for it, in one
	// transaction: a game is scored once or not at all. A second result
	// for the same game gives ErrDuplicate. r.ID is ignored.
	FinishGame(ctx context.Context, g Game, r Result) (Result, error)
	// Leaderboard lists the best results on b: fastest first, then fewer
	// hints, fewer mistakes, earlier. limit <= 0 means 20.
	Leaderboard(ctx context.Context, b Board, limit int) ([]Result, error)
	// History lists one player's results, newest first, on every board.
	History(ctx context.Context, player string, limit int) ([]Result, error)
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
)

// MaxNameRunes bounds a player's name.
const MaxNameRunes = 32

// NameError reports a player name that cannot be stored.
type NameError struct {
	Name   string
	Reason string
}

func (e *NameError) Error() string { return fmt.Sprintf("player name %q: %s", e.Name, e.Reason) }

// CleanName trims a player's name and checks it: 1 to MaxNameRunes
// characters of valid UTF-8 with no control characters. The name is kept
// as typed otherwise (markup included: pages print it as text).
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
	for _, r := range n {
		if unicode.IsControl(r) {
			return "", &NameError{Name: name, Reason: "contains a control character"}
		}
	}
	return n, nil
}

// limitOr returns limit, or def when limit is not positive, capped at 1000.
func limitOr(limit, def int) int {
	if limit <= 0 {
		return def
	}
	return min(limit, 1000)
}
