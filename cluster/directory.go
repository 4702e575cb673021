package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sudokuar/sudokuar/rooms"
)

// The tables this package owns (room_codes is shared: package journal
// updates its node, epoch and state on a takeover). Every time is the
// database's clock, never a node's.
const schema = `
CREATE TABLE IF NOT EXISTS nodes (
	name    text PRIMARY KEY,
	url     text NOT NULL,
	conns   int,
	rooms   int,
	leaving bool NOT NULL DEFAULT false,
	seen    timestamptz NOT NULL
);
-- down: declared dead by a peer whose connection its port refused, until
-- its next heartbeat (a column added after the first release).
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS down bool NOT NULL DEFAULT false;
CREATE TABLE IF NOT EXISTS room_codes (
	code    text PRIMARY KEY,
	node    text NOT NULL,
	epoch   bigint NOT NULL DEFAULT 1,
	state   text NOT NULL DEFAULT 'open',
	public  jsonb,
	updated timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS room_codes_node ON room_codes (node);
CREATE INDEX IF NOT EXISTS room_codes_public ON room_codes (node) WHERE public IS NOT NULL;
CREATE TABLE IF NOT EXISTS tickets (
	id     text PRIMARY KEY,
	node   text NOT NULL,
	player text NOT NULL,
	name   text NOT NULL,
	mode   text NOT NULL,
	size   int NOT NULL,
	level  text NOT NULL,
	since  timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS move_tokens (
	token  text PRIMARY KEY,
	code   text NOT NULL,
	player text NOT NULL,
	name   text NOT NULL,
	until  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS move_tokens_until ON move_tokens (until);
`

// Advisory lock keys: one for creating the schema (several nodes may
// start at once), one held by the matchmaker leader.
const (
	schemaLock = 7290432
	leaderLock = 7290433
)

// Channels of the notifications, each followed by the hash of the
// schema (channels and advisory locks are the database's, and two
// clusters may share one database in two schemas).
const (
	chanQueue  = "sudokuar_queue_"  // a ticket added or dropped: the leader looks
	chanMatch  = "sudokuar_match_"  // a Match for its node to make
	chanSeated = "sudokuar_seated_" // a room made for tickets: their nodes send them
)

// live is the SQL condition for a live node row n.
const live = `n.seen > now() - interval '3 seconds' AND NOT n.leaving AND NOT n.down`

// defaultPoolConns is the directory's pool size unless the URL sets
// pool_max_conns.
const defaultPoolConns = 16

// Options configure Open.
type Options struct {
	// Node is this node's name (unique among the live nodes) and URL
	// where other nodes send its players.
	Node, URL string
	// Log receives what goes wrong in the background (default: discard).
	Log *slog.Logger
	// Retry is how often the leader lock is tried and a lost listener
	// reconnected (default 1 s).
	Retry time.Duration
}

// Directory is the PostgreSQL rooms.Directory of one node. Make one with
// Open and Close it when the hub has closed.
type Directory struct {
	pool    *pgxpool.Pool
	node    string
	url     string
	log     *slog.Logger
	retry   time.Duration
	events  chan rooms.Event
	leading atomic.Bool
	// listening is set while the listener is LISTENing: a notification
	// sent before that is not heard.
	listening atomic.Bool
	space     int32  // the hash of the schema: the second key of the leader lock
	suffix    string // of the channels' names

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
}

var _ rooms.Directory = (*Directory)(nil)

// Open connects to the database at url (its own connection pool, of
// defaultPoolConns unless url sets pool_max_conns), makes
// the tables if they are missing, and joins the cluster as o.Node. A node
// of that name that is alive (its heartbeat under 3 s old) is refused:
// two processes must never share a name.
func Open(ctx context.Context, url string, o Options) (*Directory, error) {
	if o.Node == "" || o.URL == "" {
		return nil, errors.New("cluster: a node needs a name and a URL")
	}
	if len(o.Node) > 100 || len(o.URL) > 500 {
		return nil, errors.New("cluster: the node's name (100) or URL (500 bytes) is too long")
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, errors.New("cluster: PostgreSQL: the connection string does not parse")
	}
	if !strings.Contains(url, "pool_max_conns") {
		// pgx's default (4 on two cores) is too few for a node's bursts:
		// 250 rooms claimed at once, the journal's writer, the listener
		// and the leader's session each hold one.
		cfg.MaxConns = defaultPoolConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("cluster: PostgreSQL: %w", err)
	}
	d := &Directory{pool: pool, node: o.Node, url: o.URL, log: o.Log, retry: o.Retry, events: make(chan rooms.Event, 1024)}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.retry <= 0 {
		d.retry = time.Second
	}
	if err := d.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := pool.QueryRow(ctx, `SELECT hashtext(current_schema())`).Scan(&d.space); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cluster: PostgreSQL: %w", err)
	}
	d.suffix = fmt.Sprintf("%08x", uint32(d.space))
	if err := d.register(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	d.wg.Add(2)
	go d.listen()
	go d.elect()
	return d, nil
}

func (d *Directory) migrate(ctx context.Context) error {
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("cluster: PostgreSQL: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }() // after Commit: pgx.ErrTxClosed
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))`, schemaLock); err != nil {
		return fmt.Errorf("cluster: schema lock: %w", err)
	}
	if _, err := tx.Exec(ctx, schema); err != nil {
		return fmt.Errorf("cluster: creating the tables: %w", err)
	}
	return tx.Commit(ctx)
}

// register inserts this node's row, or takes over the row of a dead node
// of the same name (this node, restarted): the rooms that name held are
// handed over, since this process has none of them.
func (d *Directory) register(ctx context.Context) error {
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("cluster: PostgreSQL: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }() // after Commit: pgx.ErrTxClosed
	var name string
	err = tx.QueryRow(ctx, `
		INSERT INTO nodes (name, url, conns, rooms, seen) VALUES ($1, $2, 0, 0, now())
		ON CONFLICT (name) DO UPDATE SET url = excluded.url, conns = 0, rooms = 0, leaving = false, down = false, seen = now()
		WHERE nodes.seen <= now() - interval '3 seconds' OR nodes.leaving OR nodes.down
		RETURNING name`, d.node, d.url).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		var url string
		var ago float64
		if err := tx.QueryRow(ctx, `SELECT url, extract(epoch FROM now() - seen) FROM nodes WHERE name = $1`, d.node).Scan(&url, &ago); err != nil {
			return fmt.Errorf("cluster: node %q: %w", d.node, err)
		}
		return fmt.Errorf("cluster: a node named %q (at %s) is alive: it beat %.1f s ago; give this one another --node name, or stop that one first", d.node, url, ago)
	}
	if err != nil {
		return fmt.Errorf("cluster: registering node %q: %w", d.node, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE room_codes SET state = 'handing', updated = now() WHERE node = $1`, d.node); err != nil {
		return fmt.Errorf("cluster: handing over the rooms of node %q's last run: %w", d.node, err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM tickets WHERE node = $1`, d.node); err != nil {
		return fmt.Errorf("cluster: dropping the tickets of node %q's last run: %w", d.node, err)
	}
	return tx.Commit(ctx)
}

// Pool is the directory's connection pool (package journal shares it).
func (d *Directory) Pool() *pgxpool.Pool { return d.pool }

// Beat updates this node's row (re-inserting it if a peer dropped it as
// dead after a long stall) and clears what has expired: tokens; and, on
// the leader, the tickets of dead nodes and the rows of nodes dead for
// ten minutes with their room codes.
func (d *Directory) Beat(ctx context.Context, load rooms.Load) error {
	tag, err := d.pool.Exec(ctx, `UPDATE nodes SET conns = $2, rooms = $3, seen = now(), down = false WHERE name = $1`, d.node, load.Conns, load.Rooms)
	if err != nil {
		return fmt.Errorf("cluster: heartbeat: %w", err)
	}
	if tag.RowsAffected() == 0 {
		if _, err := d.pool.Exec(ctx, `INSERT INTO nodes (name, url, conns, rooms, seen) VALUES ($1, $2, $3, $4, now()) ON CONFLICT (name) DO NOTHING`,
			d.node, d.url, load.Conns, load.Rooms); err != nil {
			return fmt.Errorf("cluster: heartbeat: %w", err)
		}
	}
	if _, err := d.pool.Exec(ctx, `DELETE FROM move_tokens WHERE until < now()`); err != nil {
		return fmt.Errorf("cluster: expiring tokens: %w", err)
	}
	if !d.leading.Load() {
		return nil
	}
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM tickets t WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.name = t.node AND ` + live + `)`)
	b.Queue(`DELETE FROM room_codes c WHERE c.updated < now() - interval '10 minutes'
		AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.name = c.node AND n.seen > now() - interval '10 minutes')`)
	b.Queue(`DELETE FROM nodes WHERE seen < now() - interval '10 minutes'`)
	if err := d.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("cluster: clearing dead nodes: %w", err)
	}
	return nil
}

// Claim records code as this node's.
func (d *Directory) Claim(ctx context.Context, code string) error {
	_, err := d.pool.Exec(ctx, `INSERT INTO room_codes (code, node, updated) VALUES ($1, $2, now())`, code, d.node)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return rooms.ErrCodeTaken
	}
	if err != nil {
		return fmt.Errorf("cluster: claiming room %s: %w", code, err)
	}
	return nil
}

// Lookup says which node holds code.
func (d *Directory) Lookup(ctx context.Context, code string) (rooms.Owner, error) {
	var o rooms.Owner
	var url *string
	var seen *time.Time
	err := d.pool.QueryRow(ctx, `
		SELECT c.node, n.url, coalesce(`+live+`, false), c.state = 'handing', n.seen
		FROM room_codes c LEFT JOIN nodes n ON n.name = c.node WHERE c.code = $1`, code).Scan(&o.Node, &url, &o.Live, &o.Handing, &seen)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, rooms.ErrNoCode
	}
	if err != nil {
		return o, fmt.Errorf("cluster: looking up room %s: %w", code, err)
	}
	if url != nil {
		o.URL = *url
	}
	if seen != nil {
		o.Seen = *seen
	}
	return o, nil
}

// Down marks node dead while its heartbeat is still seen: one
// conditional update, undone by the node's next Beat. A node gone from
// the table is down already.
func (d *Directory) Down(ctx context.Context, node string, seen time.Time) (bool, error) {
	var down bool
	err := d.pool.QueryRow(ctx, `UPDATE nodes SET down = down OR seen = $2 WHERE name = $1 RETURNING down`, node, seen).Scan(&down)
	if errors.Is(err, pgx.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("cluster: declaring node %s down: %w", node, err)
	}
	return down, nil
}

// Publish writes the public summaries of this node's rooms.
func (d *Directory) Publish(ctx context.Context, list []rooms.Listing) error {
	if len(list) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	for _, l := range list {
		var info []byte
		if l.Listed {
			info, _ = json.Marshal(l.Info)
		}
		b.Queue(`UPDATE room_codes SET public = $3, updated = now() WHERE code = $1 AND node = $2`, l.Code, d.node, info)
	}
	if err := d.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("cluster: publishing %d rooms: %w", len(list), err)
	}
	return nil
}

// Release forgets codes of this node.
func (d *Directory) Release(ctx context.Context, codes []string) error {
	if len(codes) == 0 {
		return nil
	}
	if _, err := d.pool.Exec(ctx, `DELETE FROM room_codes WHERE code = ANY($1) AND node = $2`, codes, d.node); err != nil {
		return fmt.Errorf("cluster: releasing %d rooms: %w", len(codes), err)
	}
	return nil
}

// Public lists the listed lobbies with a free seat of every live node.
func (d *Directory) Public(ctx context.Context, limit int) ([]rooms.RoomInfo, error) {
	rows, err := d.pool.Query(ctx, `
		SELECT c.public FROM room_codes c JOIN nodes n ON n.name = c.node
		WHERE c.public IS NOT NULL AND c.state = 'open' AND `+live+`
		AND c.public->>'phase' = 'lobby' AND (c.public->>'players')::int < (c.public->>'max')::int
		ORDER BY (c.public->>'players')::int DESC, c.code LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("cluster: public rooms: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (rooms.RoomInfo, error) {
		var info rooms.RoomInfo
		err := r.Scan(&info)
		return info, err
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: public rooms: %w", err)
	}
	if list == nil {
		list = []rooms.RoomInfo{}
	}
	return list, nil
}

// newToken is 128 random bits in hex.
func newToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// Grant stores a one-time token for g, good for rooms.TokenLife.
func (d *Directory) Grant(ctx context.Context, g rooms.Grant) (string, error) {
	toks, err := d.GrantAll(ctx, []rooms.Grant{g})
	if err != nil {
		return "", err
	}
	return toks[0], nil
}

// GrantAll stores the tokens of many grants in one statement.
func (d *Directory) GrantAll(ctx context.Context, gs []rooms.Grant) ([]string, error) {
	toks := make([]string, len(gs))
	codes, players, names := make([]string, len(gs)), make([]string, len(gs)), make([]string, len(gs))
	for i, g := range gs {
		toks[i], codes[i], players[i], names[i] = newToken(), g.Code, g.Player, g.Name
	}
	if _, err := d.pool.Exec(ctx, `INSERT INTO move_tokens (token, code, player, name, until)
		SELECT t, c, p, n, now() + make_interval(secs => $5) FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS g(t, c, p, n)`,
		toks, codes, players, names, rooms.TokenLife.Seconds()); err != nil {
		return nil, fmt.Errorf("cluster: granting %d tokens: %w", len(gs), err)
	}
	return toks, nil
}

// Redeem spends a token for code.
func (d *Directory) Redeem(ctx context.Context, code, token string) (rooms.Grant, error) {
	g := rooms.Grant{Code: code}
	if len(token) != 32 {
		return g, rooms.ErrBadToken
	}
	err := d.pool.QueryRow(ctx, `DELETE FROM move_tokens WHERE token = $1 AND code = $2 AND until > now() RETURNING player, name`,
		token, code).Scan(&g.Player, &g.Name)
	if errors.Is(err, pgx.ErrNoRows) {
		return g, rooms.ErrBadToken
	}
	if err != nil {
		return g, fmt.Errorf("cluster: redeeming a token: %w", err)
	}
	return g, nil
}

// AddTicket queues t (as this node's) and nudges the leader.
func (d *Directory) AddTicket(ctx context.Context, t rooms.Ticket) error {
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO tickets (id, node, player, name, mode, size, level, since) VALUES ($1, $2, $3, $4, $5, $6, $7, now())
		ON CONFLICT (id) DO NOTHING`, t.ID, d.node, t.Player, t.Name, t.Mode, t.Size, t.Level)
	b.Queue(`SELECT pg_notify($1, '')`, chanQueue+d.suffix)
	if err := d.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("cluster: queueing a ticket: %w", err)
	}
	return nil
}

// DropTicket takes this node's ticket id out of the queue.
func (d *Directory) DropTicket(ctx context.Context, id string) error {
	tag, err := d.pool.Exec(ctx, `DELETE FROM tickets WHERE id = $1 AND node = $2`, id, d.node)
	if err != nil {
		return fmt.Errorf("cluster: dropping a ticket: %w", err)
	}
	if tag.RowsAffected() > 0 {
		if _, err := d.pool.Exec(ctx, `SELECT pg_notify($1, '')`, chanQueue+d.suffix); err != nil {
			return fmt.Errorf("cluster: dropping a ticket: %w", err)
		}
	}
	return nil
}

// Queued lists the ids of this node's tickets in the queue.
func (d *Directory) Queued(ctx context.Context) ([]string, error) {
	rows, err := d.pool.Query(ctx, `SELECT id FROM tickets WHERE node = $1`, d.node)
	if err != nil {
		return nil, fmt.Errorf("cluster: queued tickets: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("cluster: queued tickets: %w", err)
	}
	return ids, nil
}

// Leading reports whether this node holds the leader lock.
func (d *Directory) Leading() bool { return d.leading.Load() }

// Tickets lists the tickets of live nodes, oldest first; Since is on this
// node's clock (the database says how old each is).
func (d *Directory) Tickets(ctx context.Context, limit int) ([]rooms.Ticket, error) {
	now := time.Now()
	rows, err := d.pool.Query(ctx, `
		SELECT t.id, t.node, t.player, t.name, t.mode, t.size, t.level, extract(epoch FROM now() - t.since)
		FROM tickets t JOIN nodes n ON n.name = t.node WHERE `+live+`
		ORDER BY t.since, t.id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("cluster: tickets: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (rooms.Ticket, error) {
		var t rooms.Ticket
		var age float64
		err := r.Scan(&t.ID, &t.Node, &t.Player, &t.Name, &t.Mode, &t.Size, &t.Level, &age)
		t.Since = now.Add(-time.Duration(age * float64(time.Second)))
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: tickets: %w", err)
	}
	return list, nil
}

// Match deletes m's tickets and announces m in one transaction.
func (d *Directory) Match(ctx context.Context, m rooms.Match) error {
	ids := make([]string, len(m.Tickets))
	for i, t := range m.Tickets {
		ids[i] = t.ID
	}
	payload, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(payload) > 7900 {
		return fmt.Errorf("cluster: a match of %d bytes does not fit a notification", len(payload))
	}
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("cluster: match: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }() // after Commit: pgx.ErrTxClosed
	tag, err := tx.Exec(ctx, `DELETE FROM tickets WHERE id = ANY($1)`, ids)
	if err != nil {
		return fmt.Errorf("cluster: match: %w", err)
	}
	if int(tag.RowsAffected()) != len(ids) {
		return rooms.ErrTicketGone
	}
	if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, chanMatch+d.suffix, string(payload)); err != nil {
		return fmt.Errorf("cluster: match: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("cluster: match: %w", err)
	}
	return nil
}

// Seated tells the players' nodes that s's room is made.
func (d *Directory) Seated(ctx context.Context, s rooms.Seated) error {
	payload, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if _, err := d.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, chanSeated+d.suffix, string(payload)); err != nil {
		return fmt.Errorf("cluster: seated: %w", err)
	}
	return nil
}

// Events is the news for this node; closed by Close.
func (d *Directory) Events() <-chan rooms.Event { return d.events }

// Nodes lists the live nodes, by name.
func (d *Directory) Nodes(ctx context.Context) ([]rooms.NodeInfo, error) {
	rows, err := d.pool.Query(ctx, `SELECT name, url, coalesce(conns, 0), coalesce(rooms, 0) FROM nodes n WHERE `+live+` ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("cluster: nodes: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (rooms.NodeInfo, error) {
		var n rooms.NodeInfo
		err := r.Scan(&n.Name, &n.URL, &n.Conns, &n.Rooms)
		return n, err
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: nodes: %w", err)
	}
	return list, nil
}

// Close stops the listener and the election (letting the lock go),
// deletes this node's row and tickets, and closes the pool. The room
// codes it still holds stay for a successor to take over.
func (d *Directory) Close() error {
	var err error
	d.once.Do(func() {
		d.cancel()
		d.wg.Wait()
		close(d.events)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b := &pgx.Batch{}
		b.Queue(`DELETE FROM tickets WHERE node = $1`, d.node)
		b.Queue(`DELETE FROM nodes WHERE name = $1`, d.node)
		if e := d.pool.SendBatch(ctx, b).Close(); e != nil {
			err = fmt.Errorf("cluster: leaving: %w", e)
		}
		d.pool.Close()
	})
	return err
}

// emit passes e to the hub, or drops it when the hub is that far behind
// (the leader looks at the queue every second anyway).
func (d *Directory) emit(e rooms.Event) {
	select {
	case d.events <- e:
	default:
		d.log.Warn("cluster: the hub is behind: an event was dropped")
	}
}

// sleep waits for the retry interval, or reports false when closing.
func (d *Directory) sleep() bool {
	select {
	case <-d.ctx.Done():
		return false
	case <-time.After(d.retry):
		return true
	}
}

// listen holds a connection LISTENing on the three channels and turns
// notifications into events, reconnecting when the connection drops
// (and nudging then: a ticket may have come meanwhile).
func (d *Directory) listen() {
	defer d.wg.Done()
	for {
		if err := d.listenOnce(); err != nil && d.ctx.Err() == nil {
			d.log.Warn("cluster: listener", "err", err)
		}
		if !d.sleep() {
			return
		}
	}
}

func (d *Directory) listenOnce() error {
	conn, err := d.pool.Acquire(d.ctx)
	if err != nil {
		return err
	}
	// A listening connection is never given back to the pool.
	pc := conn.Hijack()
	defer pc.Close(context.Background())
	for _, ch := range []string{chanQueue, chanMatch, chanSeated} {
		if _, err := pc.Exec(d.ctx, "LISTEN "+ch+d.suffix); err != nil {
			return err
		}
	}
	d.listening.Store(true)
	defer d.listening.Store(false)
	d.emit(rooms.Event{Nudge: true})
	for {
		n, err := pc.WaitForNotification(d.ctx)
		if err != nil {
			return err
		}
		d.notified(n)
	}
}

// notified handles one notification.
func (d *Directory) notified(n *pgconn.Notification) {
	switch n.Channel {
	case chanQueue + d.suffix:
		if d.leading.Load() {
			d.emit(rooms.Event{Nudge: true})
		}
	case chanMatch + d.suffix:
		var m rooms.Match
		if err := json.Unmarshal([]byte(n.Payload), &m); err != nil {
			d.log.Error("cluster: a match that does not parse", "err", err)
			return
		}
		if m.Node == d.node {
			d.emit(rooms.Event{Match: &m})
			return
		}
		var taken []string
		for _, t := range m.Tickets {
			if t.Node == d.node {
				taken = append(taken, t.ID)
			}
		}
		if len(taken) > 0 {
			d.emit(rooms.Event{Taken: taken})
		}
	case chanSeated + d.suffix:
		var s rooms.Seated
		if err := json.Unmarshal([]byte(n.Payload), &s); err != nil {
			d.log.Error("cluster: a seated notice that does not parse", "err", err)
			return
		}
		mine := s.Tickets[:0:0]
		for _, t := range s.Tickets {
			if t.Node == d.node {
				mine = append(mine, t)
			}
		}
		if len(mine) > 0 {
			s.Tickets = mine
			d.emit(rooms.Event{Seated: &s})
		}
	}
}

// elect tries the leader lock on a connection of its own every Retry;
// once it holds it, it checks the connection every Retry and stops
// leading as soon as the session is gone (the lock went with it).
func (d *Directory) elect() {
	defer d.wg.Done()
	defer d.leading.Store(false)
	for {
		if err := d.electOnce(); err != nil && d.ctx.Err() == nil {
			d.log.Warn("cluster: leader election", "err", err)
		}
		d.leading.Store(false)
		if !d.sleep() {
			return
		}
	}
}

func (d *Directory) electOnce() error {
	conn, err := d.pool.Acquire(d.ctx)
	if err != nil {
		return err
	}
	pc := conn.Hijack() // the lock lives with this session: never pooled
	defer pc.Close(context.Background())
	for {
		var got bool
		ctx, cancel := context.WithTimeout(d.ctx, 5*time.Second)
		if d.leading.Load() {
			err = pc.Ping(ctx)
			got = err == nil
		} else {
			err = pc.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, leaderLock, d.space).Scan(&got)
		}
		cancel()
		if err != nil {
			return err
		}
		if got && !d.leading.Swap(true) {
			d.emit(rooms.Event{Nudge: true}) // the new leader looks at the queue at once
		}
		if !d.sleep() {
			return nil
		}
	}
}
