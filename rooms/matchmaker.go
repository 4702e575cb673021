package rooms

import (
	"sync"
	"sync/atomic"
	"time"
)

// matchmaker keeps one queue per kind of game (mode, size, level) and
// turns waiting players into rooms: four at once, or whoever is there
// (two or three) once the first has waited QuickFill, or a player alone
// after QuickAlone. It is one goroutine owning the queues, like a room.
type matchmaker struct {
	h      *Hub
	in     chan mmReq
	quit   chan struct{}
	done   chan struct{}
	once   sync.Once
	queued atomic.Int64
}

type mmReq struct {
	conn   *Conn
	name   string
	ask    int64 // the connection's request number (Conn.asked)
	set    Settings
	cancel bool
}

type ticket struct {
	conn *Conn
	name string
	ask  int64
	at   time.Time
}

func newMatchmaker(h *Hub) *matchmaker {
	m := &matchmaker{h: h, in: make(chan mmReq, 1024), quit: make(chan struct{}), done: make(chan struct{})}
	go m.run()
	return m
}

// enqueue puts c in the queue for set (leaving any other queue).
func (m *matchmaker) enqueue(c *Conn, name string, set Settings, ask int64) {
	set.Public, set.Quick = false, true
	if m.h.cl != nil {
		m.h.cl.enqueue(c, name, set, ask)
		return
	}
	m.send(mmReq{conn: c, name: name, set: set, ask: ask})
}

// cancel takes c out of the queue it is in, if any.
func (m *matchmaker) cancel(c *Conn) {
	if m.h.cl != nil {
		m.h.cl.cancel(c)
		return
	}
	m.send(mmReq{conn: c, cancel: true})
}

func (m *matchmaker) send(r mmReq) {
	select {
	case m.in <- r:
	case <-m.done:
	}
}

func (m *matchmaker) waiting() int {
	if m.h.cl != nil {
		return m.h.cl.waiting()
	}
	return int(m.queued.Load())
}

func (m *matchmaker) stop() {
	m.once.Do(func() { close(m.quit) })
	<-m.done
}

func (m *matchmaker) run() {
	defer close(m.done)
	queues := map[Settings][]ticket{}
	where := map[*Conn]Settings{}
	t := time.NewTicker(m.h.cfg.Tick)
	defer t.Stop()
	remove := func(c *Conn) {
		set, ok := where[c]
		if !ok {
			return
		}
		delete(where, c)
		q := queues[set]
		for i, tk := range q {
			if tk.conn == c {
				queues[set] = append(q[:i:i], q[i+1:]...)
				break
			}
		}
		if len(queues[set]) == 0 {
			delete(queues, set)
		}
	}
	// start makes a room of the first n tickets of set's queue.
	start := func(set Settings, n int) {
		q := queues[set]
		group := make([]joinReq, 0, n)
		for _, tk := range q[:n] {
			delete(where, tk.conn)
			group = append(group, joinReq{conn: tk.conn, name: tk.name, quick: true, ask: tk.ask})
		}
		queues[set] = append([]ticket(nil), q[n:]...)
		if len(queues[set]) == 0 {
			delete(queues, set)
		}
		if _, err := m.h.create(set, group, nil); err != nil {
			for _, j := range group {
				j.conn.sendError(0, ErrClosing, "%v", err)
			}
		}
	}
	count := func() {
		m.queued.Store(int64(len(where)))
	}
	for {
		select {
		case <-m.quit:
			return
		case r := <-m.in:
			remove(r.conn)
			if !r.cancel {
				select {
				case <-r.conn.done:
					count()
					continue // gone before its turn
				default:
				}
				where[r.conn] = r.set
				queues[r.set] = append(queues[r.set], ticket{conn: r.conn, name: r.name, ask: r.ask, at: m.h.now()})
				if q := queues[r.set]; len(q) >= m.h.cfg.MaxSeats {
					start(r.set, m.h.cfg.MaxSeats)
				} else {
					for _, tk := range q {
						tk.conn.sendJSON(Queued{T: "queued", Mode: r.set.Mode, Size: r.set.Shape.N(), Level: r.set.Level.String(), Waiting: len(q)})
					}
				}
			}
			count()
		case <-t.C:
			now := m.h.now()
			for set, q := range queues {
				wait := now.Sub(q[0].at)
				if (len(q) >= 2 && wait >= m.h.cfg.QuickFill) || wait >= m.h.cfg.QuickAlone {
					start(set, min(len(q), m.h.cfg.MaxSeats))
				}
			}
			count()
		}
	}
}
