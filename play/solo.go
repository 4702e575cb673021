package play

import (
	"context"
	"encoding/json"
	"errors"
	"hash/maphash"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/sudokuar/sudokuar/game"
	"github.com/sudokuar/sudokuar/store"
)

// Solo plays single-player games kept in a store, Sudoku and Kakuro
// alike: the rules every action follows whatever the kind (whose game it
// is, when it is over, naming a finish, the history cap, storing the
// result with the game, the player's statistics). Every action loads the
// game, changes it and stores it before it answers, so a reload or a
// restart never loses a move. Refusals are *Error values.
type Solo struct {
	Store store.Store
	Log   *slog.Logger // failures that do not refuse the action (nil: none)
	Now   func() time.Time

	locks [64]sync.Mutex // actions on one game run one at a time
	seed  maphash.Seed
	once  sync.Once
}

// Game is a stored solo game loaded for one action: what Solo needs of a
// kind's game.
type Game interface {
	Record() *store.Game // the stored game; an action may change its Status
	Session() *Session
	Board() *game.Game // its history is capped before each save
	// Allow refuses action by the kind's own rules, once Solo's passed
	// (Sudoku's paused game takes few actions).
	Allow(action string) error
	// State is what to store as JSON in Record().State: the session and
	// the board's snapshot as it is now.
	State() any
}

// Actor is who asks for an action: their player id and the name they are
// remembered by ("" if none), used when their move finishes the game.
type Actor struct {
	Player string
	Name   string
}

// Request is one action asked of a game.
type Request struct {
	ID, Action string
	Who        Actor
	// Name is a name sent with the action: a finish records it, else
	// Who.Name.
	Name string
}

// Done is a game after an action, stored: Result is set when the action
// recorded the game's result (a named finish), and Rank is then its
// place (Solo.Rank).
type Done[G Game] struct {
	Game   G
	Now    time.Time
	Result *store.Result
	Rank   int
}

// Act runs apply on the game req names, loaded by load, under the game's
// lock, stores the game and returns it. The common rules come first: only
// the game's player acts, and on a game over only to name its finish;
// then the game's Allow, then apply.
func Act[G Game](ctx context.Context, s *Solo, req Request, load func(ctx context.Context, id string) (G, error), apply func(g G, now time.Time) error) (Done[G], error) {
	mu := s.lock(req.ID)
	mu.Lock()
	defer mu.Unlock()
	return Retried(ctx, func() (Done[G], error) { return actOnce(ctx, s, req, load, apply) })
}

// Run is Act with a Rule: it runs rule with a on the game req names,
// and returns the game stored and what the rule found. A result the
// action records comes with its rank.
func Run[G Played](ctx context.Context, s *Solo, req Request, load func(ctx context.Context, id string) (G, error), rule Rule, a Args) (Done[G], Found, error) {
	var found Found
	d, err := Act(ctx, s, req, load, func(g G, now time.Time) error {
		var err error
		found, err = rule(g, a, now)
		return err
	})
	if err != nil {
		return Done[G]{}, Found{}, err
	}
	if d.Result != nil {
		d.Rank = s.Rank(ctx, *d.Game.Record(), d.Game.Session())
	}
	return d, found, nil
}

// actOnce is one try of Act (the game's lock held).
func actOnce[G Game](ctx context.Context, s *Solo, req Request, load func(ctx context.Context, id string) (G, error), apply func(g G, now time.Time) error) (Done[G], error) {
	g, err := load(ctx, req.ID)
	if err != nil {
		return Done[G]{}, err
	}
	rec, sess := g.Record(), g.Session()
	if err := allowed(rec, sess, req); err != nil {
		return Done[G]{}, err
	}
	if err := g.Allow(req.Action); err != nil {
		return Done[G]{}, err
	}
	now := s.Now()
	wasOn := rec.Status == store.StatusPlaying
	if err := apply(g, now); err != nil {
		return Done[G]{}, err
	}
	if rec.Status == store.StatusSolved && sess.Name == "" {
		sess.Name = nameOr(req.Name, req.Who.Name) // a finish by a remembered player
	}
	g.Board().TrimHistory(MaxHistory)
	res, err := s.write(ctx, rec, g.State(), now, sess)
	if err != nil {
		return Done[G]{}, err
	}
	if wasOn && rec.Status != store.StatusPlaying {
		s.ended(ctx, *rec, sess, now)
	}
	return Done[G]{Game: g, Now: now, Result: res}, nil
}

// allowed checks the rules every kind shares: the player's own game, and
// a game over takes only the naming of its finish.
func allowed(rec *store.Game, sess *Session, req Request) error {
	if req.Who.Player != rec.Player {
		return Refuse(Forbidden, "this game belongs to another browser: you can watch it, or start your own")
	}
	if rec.Status == store.StatusSolved && (req.Action == "name" || req.Action == "submit") && sess.Name == "" {
		return nil
	}
	if rec.Status != store.StatusPlaying {
		return Refuse(Conflict, "the game is over (%s)", rec.Status)
	}
	return nil
}

func nameOr(names ...string) string {
	for _, n := range names {
		if c, err := store.CleanName(n); err == nil {
			return c
		}
	}
	return ""
}

func (s *Solo) lock(id string) *sync.Mutex {
	s.once.Do(func() { s.seed = maphash.MakeSeed() })
	return &s.locks[maphash.String(s.seed, id)%uint64(len(s.locks))]
}

// conflictRetries is how many times an action is run again when another
// server changed the game between its read and its write.
const conflictRetries = 8

// conflictWait bounds the random wait before an action runs again after
// a conflict (so a refused move costs its player at most about 0.2 s).
const conflictWait = 32 * time.Millisecond

// Retried runs f, and again while it fails with store.ErrConflict: the
// lock per game is this process's, so two servers sharing a database may
// act on one game at once; the store lets one write win and the other
// reads the game again. Before each new try it waits a random moment
// that grows with the tries (at most conflictWait): run again at once,
// the loser reads just before the other server's next write of a burst
// of moves and loses again, in step, every time. It gives up after
// conflictRetries, or when ctx ends.
func Retried[T any](ctx context.Context, f func() (T, error)) (T, error) {
	for i := 0; ; i++ {
		v, err := f()
		if !errors.Is(err, store.ErrConflict) {
			return v, err
		}
		if i == conflictRetries {
			return v, Refuse(Conflict, "the game kept changing on another server at the same moment: try again")
		}
		wait := time.Duration(rand.Int64N(int64(min(time.Millisecond<<i, conflictWait)) + 1))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return v, ctx.Err()
		}
	}
}

// write stores rec with state (JSON) as of now; a solved game that is
// named gets its result too, in the same transaction, and returns it.
func (s *Solo) write(ctx context.Context, rec *store.Game, state any, now time.Time, sess *Session) (*store.Result, error) {
	var err error
	if rec.State, err = json.Marshal(state); err != nil {
		return nil, err
	}
	// The write is conditional on the game being as it was read (see
	// Retried); its new Updated is after the one read, to the stored
	// millisecond, so two writes from one version never both pass.
	rec.Base, rec.Updated = rec.Updated, now
	if rec.Updated.UnixMilli() <= rec.Base.UnixMilli() {
		rec.Updated = time.UnixMilli(rec.Base.UnixMilli() + 1)
	}
	if rec.Status != store.StatusSolved || sess.Name == "" {
		return nil, s.Store.UpdateGame(ctx, *rec)
	}
	r, err := s.Store.FinishGame(ctx, *rec, sess.Result(*rec))
	if errors.Is(err, store.ErrDuplicate) {
		return nil, Refuse(Conflict, "the game is over and its result recorded")
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Create stores a new game rec, its state (JSON) set, and counts it in
// its player's statistics as a game started.
func (s *Solo) Create(ctx context.Context, rec store.Game, sess *Session) error {
	if err := s.Store.CreateGame(ctx, rec); err != nil {
		return err
	}
	s.recordPlay(ctx, store.Play{GameID: rec.ID, Player: rec.Player, Kind: rec.Kind, Size: rec.Size, Level: rec.Level,
		Daily: sess.Daily, Outcome: store.OutcomePlaying, Started: rec.Created})
	return nil
}

// recordPlay keeps a play for the player's statistics. A failure is
// logged, not returned: the game itself is stored, and a move must not
// look refused for a counter's sake.
func (s *Solo) recordPlay(ctx context.Context, pl store.Play) {
	if err := s.Store.RecordPlay(ctx, pl); err != nil && s.Log != nil {
		s.Log.Error("record a play", "game", pl.GameID, "err", err)
	}
}

// ended records the end of game rec (its status over) in the player's
// statistics.
func (s *Solo) ended(ctx context.Context, rec store.Game, sess *Session, now time.Time) {
	outcome := store.OutcomeLost
	if rec.Status == store.StatusSolved {
		outcome = store.OutcomeWon
	}
	s.recordPlay(ctx, store.Play{GameID: rec.ID, Player: rec.Player, Kind: rec.Kind, Size: rec.Size, Level: rec.Level,
		Daily: sess.Daily, Outcome: outcome, Millis: sess.ElapsedMs, Started: rec.Created, Ended: now})
}

// Rank is a solved game's place on its leaderboard (0: unranked, not yet
// named, or beyond the first 100).
func (s *Solo) Rank(ctx context.Context, rec store.Game, sess *Session) int {
	if sess.Flag != "" || sess.Name == "" {
		return 0
	}
	list, err := s.Store.Leaderboard(ctx, store.Board{Kind: rec.Kind, Size: rec.Size, Level: rec.Level, Daily: sess.Daily}, 100)
	if err != nil {
		return 0
	}
	for k, r := range list {
		if r.GameID == rec.ID {
			return k + 1
		}
	}
	return 0
}
