package rooms

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkMove measures one move through a room of four: the message
// checked and decoded, queued, applied to the board, judged and answered
// (a race ack and three progress messages, or a co-op broadcast to four),
// with no socket. Every move changes the board.
func BenchmarkMove(b *testing.B) {
	for _, mode := range []string{Race, Coop} {
		b.Run(mode, func(b *testing.B) {
			hub := NewHub(Config{Puzzles: &seededPuzzles{}, Tick: 10 * time.Millisecond, Countdown: time.Millisecond, Rate: 1e9, Burst: 1e9, OutQueue: 1 << 16})
			defer hub.Close()
			var conns []*Conn
			var puzzle atomic.Pointer[string]
			var answers atomic.Int64
			for k := range 4 {
				c, _ := hub.Connect(fmt.Sprint("p", k))
				go func() {
					for {
						select {
						case m := <-c.Out():
							if k == 0 && puzzle.Load() == nil && strings.Contains(string(m), `"phase":"playing"`) {
								var st State
								json.Unmarshal(m, &st)
								puzzle.Store(&st.Puzzle)
							}
							if strings.HasPrefix(string(m), `{"t":"ack"`) || strings.HasPrefix(string(m), `{"t":"move"`) {
								answers.Add(1)
							}
						case <-c.Done():
							return
						}
					}
				}()
				conns = append(conns, c)
			}
			conns[0].Receive([]byte(`{"t":"create","mode":"` + mode + `"}`))
			for hub.Stats().Rooms == 0 {
				time.Sleep(time.Millisecond)
			}
			var code string
			hub.mu.Lock()
			for k := range hub.rooms {
				code = k
			}
			hub.mu.Unlock()
			for _, c := range conns[1:] {
				c.Receive([]byte(`{"t":"join","code":"` + code + `"}`))
			}
			time.Sleep(20 * time.Millisecond)
			for _, c := range conns {
				c.Receive([]byte(`{"t":"ready","on":true}`))
			}
			for puzzle.Load() == nil {
				time.Sleep(time.Millisecond)
			}
			var free []int
			for i, ch := range *puzzle.Load() {
				if ch == '0' {
					free = append(free, i)
				}
			}
			// Moves that always change their cell: value 1..9 then 0.
			msgs := make([][]byte, len(free)*10)
			for k := range msgs {
				msgs[k], _ = json.Marshal(In{T: "move", Cell: ptr(free[k%len(free)]), Value: ptr((k / len(free)) % 10)})
			}
			answers.Store(0)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				conns[i%4].Receive(msgs[(i/4)%len(msgs)])
				if i%128 == 127 {
					for answers.Load() < int64(i)*9/10 {
						time.Sleep(5 * time.Microsecond)
					}
				}
			}
			for answers.Load() < int64(b.N)*9/10 {
				time.Sleep(5 * time.Microsecond)
			}
		})
	}
}
