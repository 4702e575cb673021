package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sudokuar/sudokuar/rooms"
)

// The journal's tables: each room's last snapshot and the entries written
// since, both written only under the room's epoch in room_codes (the
// directory's table, whose node, epoch and state a takeover changes).
const journalSchema = `
CREATE TABLE IF NOT EXISTS room_snapshots (
	code    text PRIMARY KEY,
	epoch   bigint NOT NULL,
	data    bytea NOT NULL,
	updated timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS room_journal (
	code text NOT NULL,
	seq  bigint NOT NULL,
	data bytea NOT NULL,
	PRIMARY KEY (code, seq)
);
`

// Journal is the PostgreSQL rooms.Journal: every node's rooms' snapshots
// and journals in one database, so any node can take a room over.
type Journal struct {
	pool *pgxpool.Pool
}

var _ rooms.Journal = (*Journal)(nil)

// NewJournal makes the journal's tables if they are missing (and the
// directory's, which it shares) and returns the journal on pool (a
// Directory's Pool, or one of its own).
func NewJournal(ctx context.Context, pool *pgxpool.Pool) (*Journal, error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: journal: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }() // after Commit: a no-op
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))`, schemaLock); err != nil {
		return nil, fmt.Errorf("cluster: journal: schema lock: %w", err)
	}
	if _, err := tx.Exec(ctx, schema+journalSchema); err != nil {
		return nil, fmt.Errorf("cluster: journal: creating the tables: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("cluster: journal: %w", err)
	}
	return &Journal{pool: pool}, nil
}

// Write implements rooms.Journal: the batch is one pipeline, one round
// trip, run by PostgreSQL as one implicit transaction. It first reads the
// rooms' rows in room_codes FOR SHARE, so a takeover (which updates the
// row) waits for it, and it, if the takeover came first, sees the new
// epoch; every write then joins room_codes on (code, epoch, node), so
// nothing is ever written under an epoch that has moved on, and the rows
// read say which rooms were refused.
func (j *Journal) Write(ctx context.Context, node string, batch []rooms.Record) (map[string]bool, error) {
	if len(batch) == 0 {
		return nil, nil
	}
	var codes, opens []string
	seen := map[string]bool{}
	var w batchArrays
	for _, r := range batch {
		if !seen[r.Code] {
			seen[r.Code] = true
			codes = append(codes, r.Code)
		}
		if r.Open {
			opens = append(opens, r.Code)
		}
		w.add(r)
	}
	b := &pgx.Batch{}
	if len(opens) > 0 {
		b.Queue(`INSERT INTO room_codes (code, node, updated) SELECT c, $2, now() FROM unnest($1::text[]) AS c
			ON CONFLICT (code) DO NOTHING`, opens, node)
	}
	b.Queue(`SELECT code, epoch FROM room_codes WHERE code = ANY($1) AND node = $2 FOR SHARE`, codes, node)
	w.queue(b, node)
	br := j.pool.SendBatch(ctx, b)
	defer br.Close()
	if len(opens) > 0 {
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("cluster: journal: opening %d rooms: %w", len(opens), err)
		}
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("cluster: journal: %w", err)
	}
	epochs := map[string]int64{}
	for rows.Next() {
		var code string
		var epoch int64
		if err := rows.Scan(&code, &epoch); err != nil {
			rows.Close()
			return nil, fmt.Errorf("cluster: journal: %w", err)
		}
		epochs[code] = epoch
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("cluster: journal: %w", err)
	}
	if err := br.Close(); err != nil { // the writes, and the commit
		return nil, fmt.Errorf("cluster: journal: writing %d records: %w", len(batch), err)
	}
	refused := map[string]bool{}
	for _, r := range batch {
		if e, ok := epochs[r.Code]; !ok || e != r.Epoch {
			refused[r.Code] = true
		}
	}
	return refused, nil
}

// batchArrays are a batch's records as columns, for unnest: the last
// snapshot of each room, the entries after it, the rooms dropped.
type batchArrays struct {
	snap               map[string]int // index in the snapshot columns, by code
	snapCode           []string
	snapEpoch, snapSeq []int64
	snapData           [][]byte
	entCode            []string
	entEpoch, entSeq   []int64
	entData            [][]byte
	dropCode           []string
	dropEpoch          []int64
	dropped            map[string]bool
}

func (w *batchArrays) add(r rooms.Record) {
	if w.snap == nil {
		w.snap, w.dropped = map[string]int{}, map[string]bool{}
	}
	switch r.Kind {
	case rooms.RecSnapshot:
		if k, ok := w.snap[r.Code]; ok {
			w.snapEpoch[k], w.snapSeq[k], w.snapData[k] = r.Epoch, r.Seq, r.Data
			return
		}
		w.snap[r.Code] = len(w.snapCode)
		w.snapCode, w.snapEpoch, w.snapSeq, w.snapData = append(w.snapCode, r.Code), append(w.snapEpoch, r.Epoch),
			append(w.snapSeq, r.Seq), append(w.snapData, r.Data)
	case rooms.RecEntry:
		w.entCode, w.entEpoch, w.entSeq, w.entData = append(w.entCode, r.Code), append(w.entEpoch, r.Epoch),
			append(w.entSeq, r.Seq), append(w.entData, r.Data)
	case rooms.RecDrop:
		if !w.dropped[r.Code] {
			w.dropped[r.Code] = true
			w.dropCode, w.dropEpoch = append(w.dropCode, r.Code), append(w.dropEpoch, r.Epoch)
		}
	}
}

// owned is the join that keeps a write to the rows whose room is still
// node's under the record's epoch (s.c, s.e: the record's code and epoch).
const owned = `JOIN room_codes rc ON rc.code = s.c AND rc.epoch = s.e AND rc.node = `

// queue adds the batch's writes to b: snapshots (each replacing the
// entries it covers), entries newer than their room's snapshot, drops.
func (w *batchArrays) queue(b *pgx.Batch, node string) {
	if len(w.snapCode) > 0 {
		b.Queue(`INSERT INTO room_snapshots (code, epoch, data, updated)
			SELECT s.c, s.e, s.d, now() FROM unnest($1::text[], $2::bigint[], $3::bytea[]) AS s(c, e, d) `+owned+`$4
			ON CONFLICT (code) DO UPDATE SET epoch = excluded.epoch, data = excluded.data, updated = excluded.updated`,
			w.snapCode, w.snapEpoch, w.snapData, node)
		b.Queue(`DELETE FROM room_journal j USING unnest($1::text[], $2::bigint[], $3::bigint[]) AS s(c, e, q) `+owned+`$4
			WHERE j.code = s.c AND j.seq <= s.q`, w.snapCode, w.snapEpoch, w.snapSeq, node)
	}
	var code []string
	var epoch, seq []int64
	var data [][]byte
	for k, c := range w.entCode {
		if i, ok := w.snap[c]; (ok && w.entSeq[k] <= w.snapSeq[i]) || w.dropped[c] {
			continue
		}
		code, epoch, seq, data = append(code, c), append(epoch, w.entEpoch[k]), append(seq, w.entSeq[k]), append(data, w.entData[k])
	}
	if len(code) > 0 {
		b.Queue(`INSERT INTO room_journal (code, seq, data)
			SELECT s.c, s.q, s.d FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[]) AS s(c, e, q, d) `+owned+`$5
			ON CONFLICT (code, seq) DO NOTHING`, code, epoch, seq, data, node)
	}
	if len(w.dropCode) > 0 {
		for _, table := range []string{"room_snapshots", "room_journal"} {
			b.Queue(`DELETE FROM `+table+` t USING unnest($1::text[], $2::bigint[]) AS s(c, e) `+owned+`$3 WHERE t.code = s.c`,
				w.dropCode, w.dropEpoch, node)
		}
	}
}

// Claim implements rooms.Journal with the one conditional update of the
// contract (docs/scaling.md): the row changes hands only if its epoch is
// still the one read in the same statement and its node is handing over,
// dead (no heartbeat for 3 s) or gone from nodes. Two nodes racing both
// read epoch e; the first to update makes it e+1, and the second's update,
// re-checked on the new row, matches nothing. The time away is the
// database's: from the handover, or the owner's last heartbeat.
func (j *Journal) Claim(ctx context.Context, code, node string) (rooms.Claimed, bool, error) {
	var c rooms.Claimed
	var awayS float64
	err := j.pool.QueryRow(ctx, `
		WITH cur AS MATERIALIZED (
			SELECT c.epoch, c.state, c.updated, n.seen FROM room_codes c LEFT JOIN nodes n ON n.name = c.node WHERE c.code = $1)
		UPDATE room_codes SET node = $2, epoch = room_codes.epoch + 1, state = 'open', updated = now()
		FROM cur
		WHERE room_codes.code = $1 AND room_codes.epoch = cur.epoch
			AND (room_codes.state = 'handing'
				OR room_codes.node IN (SELECT name FROM nodes WHERE seen < now() - interval '3 seconds' OR down)
				OR room_codes.node NOT IN (SELECT name FROM nodes))
		RETURNING room_codes.epoch,
			greatest(0, extract(epoch FROM now() - CASE WHEN cur.state = 'handing' THEN cur.updated ELSE coalesce(cur.seen, cur.updated) END))::float8`,
		code, node).Scan(&c.Epoch, &awayS)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("cluster: journal: claiming room %s: %w", code, err)
	}
	c.Away = time.Duration(awayS * float64(time.Second))
	return c, true, nil
}

// Load implements rooms.Journal.
func (j *Journal) Load(ctx context.Context, code string) ([]byte, [][]byte, error) {
	var snap []byte
	err := j.pool.QueryRow(ctx, `SELECT data FROM room_snapshots WHERE code = $1`, code).Scan(&snap)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: journal: loading room %s: %w", code, err)
	}
	rows, err := j.pool.Query(ctx, `SELECT data FROM room_journal WHERE code = $1 ORDER BY seq LIMIT $2`, code, maxEntries+1)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: journal: loading room %s: %w", code, err)
	}
	entries, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: journal: loading room %s: %w", code, err)
	}
	return snap, entries, nil
}

// maxEntries bounds the entries loaded for one room (rooms refuses more
// than its own bound: one more is read to tell).
const maxEntries = 20_000

// Hand implements rooms.Journal.
func (j *Journal) Hand(ctx context.Context, node string) error {
	if _, err := j.pool.Exec(ctx, `UPDATE room_codes SET state = 'handing', updated = now() WHERE node = $1`, node); err != nil {
		return fmt.Errorf("cluster: journal: handing over node %s's rooms: %w", node, err)
	}
	return nil
}
