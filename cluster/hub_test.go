package cluster

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/rooms"
)

// client is a connection to a hub as a test drives it.
type client struct {
	t    *testing.T
	conn *rooms.Conn
}

func connect(t *testing.T, h *rooms.Hub, player string) *client {
	t.Helper()
	c, err := h.Connect(player)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &client{t: t, conn: c}
}

func (c *client) send(in rooms.In) {
	b, _ := json.Marshal(in)
	c.conn.Receive(b)
}

// expect returns the next message of type typ, decoded into v, skipping
// others (a minute at most: a bound for a hung test).
func (c *client) expect(typ string, v any) {
	c.t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case b := <-c.conn.Out():
			var m struct{ T string }
			json.Unmarshal(b, &m)
			if m.T == typ {
				if err := json.Unmarshal(b, v); err != nil {
					c.t.Fatal(err)
				}
				return
			}
		case <-deadline:
			c.t.Fatalf("no %q message", typ)
		}
	}
}

// state returns the next state that ok accepts.
func (c *client) state(ok func(rooms.State) bool) rooms.State {
	c.t.Helper()
	for {
		var st rooms.State
		c.expect("state", &st)
		if ok(st) {
			return st
		}
	}
}

// hubs starts n hubs, nodes "h0"…, each with its own directory on url.
func hubs(t *testing.T, url string, n int) []*rooms.Hub {
	t.Helper()
	hs := make([]*rooms.Hub, n)
	for i := range hs {
		name := fmt.Sprintf("h%d", i)
		d := open(t, url, name)
		hs[i] = rooms.NewHub(rooms.Config{Node: name, URL: "http://" + name, Directory: d,
			QuickFill: 300 * time.Millisecond, Countdown: 10 * time.Millisecond})
		t.Cleanup(hs[i].Close) // before d.Close: cleanups run last first
	}
	return hs
}

// TestPostgresHubs: three hubs, each a node on one PostgreSQL. A room made
// on one is joined through another (moved, then the token), is listed on
// the third, and quick match seats players of all three in one room.
func TestPostgresHubs(t *testing.T) {
	url, _ := testDB(t)
	hs := hubs(t, url, 3)
	ada := connect(t, hs[0], "ada")
	ada.send(rooms.In{T: "create", Mode: rooms.Coop, Public: true, Name: "Ada"})
	st := ada.state(func(rooms.State) bool { return true })
	bob := connect(t, hs[1], "bob")
	bob.send(rooms.In{T: "join", Code: st.Code, Name: "Bob"})
	var mv rooms.Moved
	bob.expect("moved", &mv)
	if mv.URL != "http://h0" {
		t.Fatalf("moved: %+v", mv)
	}
	bob0 := connect(t, hs[0], "bob-h0")
	bob0.send(rooms.In{T: "join", Code: mv.Code, Token: mv.Token})
	st2 := bob0.state(func(s rooms.State) bool { return s.You >= 0 })
	if st2.Seats[st2.You].Name != "Bob" {
		t.Errorf("bob sits as %q", st2.Seats[st2.You].Name)
	}
	waitFor(t, "the room listed on h2", func() bool {
		l := hs[2].PublicRooms()
		return len(l) == 1 && l[0].Code == st.Code && l[0].Players == 2
	})

	cs := make([]*client, 6)
	for i := range cs {
		cs[i] = connect(t, hs[i%3], fmt.Sprintf("q%d", i))
		cs[i].send(rooms.In{T: "quick", Mode: rooms.Race, Level: "easy", Name: fmt.Sprintf("Q%d", i)})
	}
	// Six players: a room of four at once, then one of two after
	// QuickFill. Each player ends up playing, through moved or not: each
	// follows its own messages, as a page would.
	got := make(chan string, len(cs))
	for i, c := range cs {
		go func() {
			for {
				m, ok := c.next()
				switch {
				case !ok:
					got <- "none"
					return
				case m.T == "moved":
					h := hs[m.URL[len("http://h")]-'0']
					nc, err := h.Connect(fmt.Sprintf("q%d-moved", i))
					if err != nil {
						got <- err.Error()
						return
					}
					defer nc.Close()
					c = &client{t: t, conn: nc}
					c.send(rooms.In{T: "join", Code: m.Code, Token: m.Token})
				case m.T == "state" && m.Phase == rooms.PhasePlaying:
					got <- m.Code
					return
				}
			}
		}()
	}
	codes := map[string]int{}
	for range cs {
		codes[<-got]++
	}
	sizes := []int{}
	for _, n := range codes {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int{2, 4}) || codes["none"] > 0 {
		t.Errorf("rooms of the quick match: %v, want one of 4 and one of 2", codes)
	}
}

// next returns the next message's type and the fields of "moved" and
// "state" the tests look at; false after a minute (a hung test).
func (c *client) next() (m struct{ T, Code, URL, Token, Phase string }, ok bool) {
	select {
	case b := <-c.conn.Out():
		json.Unmarshal(b, &m)
		return m, true
	case <-time.After(time.Minute):
		return m, false
	}
}
