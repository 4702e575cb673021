package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/store"
)

// BenchmarkCameraStreams runs N camera streams against one server on
// loopback, each sending a real photo as 1280×720 JPEG frames at 10 per
// second with at most two waiting (as the page does), and reports the
// answer latency (frame sent -> answer received), the answered frames per
// second per stream (median, and the slowest and fastest stream: fifty
// streams should slow down evenly) and the frames the server dropped to
// stay current.
//
// Two cameras: "still" sends the same picture every time (a phone on a
// stand: the server sees nothing moved and skips following the grid);
// "moving" sends the page drifting a few pixels and zooming slightly
// every frame (a phone in the hand: every frame is followed afresh).
//
//	go test -run '^$' -bench CameraStreams -benchtime 1x ./web
//
// Each run lasts SUDOKUAR_CAMLOAD_SECONDS (default 10).
func BenchmarkCameraStreams(b *testing.B) {
	secs := loadSeconds()
	photoPath, want := cameraPhoto(b)
	photo := decodeFile(b, photoPath)
	still := [][]byte{jpegFrame(b, photo, 1280, 720)}
	var moving [][]byte
	for k := range 12 {
		a := 2 * math.Pi * float64(k) / 12
		moving = append(moving, jpegFrameAt(b, photo, 1280, 720, 8*math.Cos(a), 8*math.Sin(a), 1+0.015*math.Sin(2*a)))
	}
	for _, cam := range []struct {
		name   string
		frames [][]byte
	}{{"still", still}, {"moving", moving}} {
		for _, n := range []int{1, 10, 50} {
			b.Run(fmt.Sprintf("%s/streams=%d", cam.name, n), func(b *testing.B) {
				a := newBenchServer(b)
				for range b.N {
					r := cameraLoad(b, a, n, cam.frames, want, time.Duration(secs)*time.Second)
					b.ReportMetric(r.median, "ms-median")
					b.ReportMetric(r.p95, "ms-p95")
					b.ReportMetric(r.fps, "fps/stream")
					b.ReportMetric(r.fpsMin, "fps-slowest")
					b.ReportMetric(r.solvedShare*100, "%-solved")
					b.ReportMetric(r.cpuPerFrame, "cpu-ms/frame")
					b.Logf("%s camera, %d streams, %d s: answer median %.1f ms, p95 %.1f ms; %.1f answered frames/s per stream (10 offered; slowest stream %.1f, fastest %.1f), %.1f dropped/s in all; %.0f%% of answers carried the right solution; %.1f ms of CPU per answered frame",
						cam.name, n, secs, r.median, r.p95, r.fps, r.fpsMin, r.fpsMax, r.dropped, r.solvedShare*100, r.cpuPerFrame)
				}
			})
		}
	}
}

type loadResult struct {
	median, p95, fps, dropped, solvedShare float64
	fpsMin, fpsMax                         float64 // the slowest and the fastest stream
	cpuPerFrame                            float64 // ms of process CPU (server and clients) per answered frame
}

func newBenchServer(b *testing.B) *apiServer {
	st := benchStore(b)
	srv, err := New(Config{Store: st, MaxCameraStreams: 100, Limits: Limits{Off: true}})
	if err != nil {
		b.Fatal(err)
	}
	a := &apiServer{web: srv, store: st}
	a.Server = newHTTPTest(srv)
	b.Cleanup(func() { a.Close(); srv.Close(); st.Close() })
	return a
}

// cameraLoad runs n streams for d and gathers their figures.
func cameraLoad(b *testing.B, a *apiServer, n int, frames [][]byte, want string, d time.Duration) loadResult {
	var mu sync.Mutex
	var lat []float64
	answered, dropped, solved := 0, 0, 0
	perStream := make([]int, n)
	var wg sync.WaitGroup
	cpu0 := cputime.Process()
	start := time.Now()
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dialCamera(b, a.URL)
			next := k // each stream starts at its own place in the motion
			defer c.conn.CloseNow()
			sent := map[uint32]time.Time{}
			var smu sync.Mutex
			done := make(chan struct{})
			go func() { // reader
				defer close(done)
				for {
					_, data, err := c.conn.Read(context.Background())
					if err != nil {
						return
					}
					var m struct {
						Type     string
						Seq      uint32
						Solution string
					}
					if json.Unmarshal(data, &m) != nil {
						continue
					}
					smu.Lock()
					t0, ok := sent[m.Seq]
					delete(sent, m.Seq)
					smu.Unlock()
					mu.Lock()
					switch {
					case m.Type == "dropped":
						dropped++
					case m.Type == "frame" && ok:
						answered++
						perStream[k]++
						lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
						if m.Solution == want {
							solved++
						}
					}
					mu.Unlock()
				}
			}()
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for time.Since(start) < d {
				<-tick.C
				smu.Lock()
				busy := len(sent) >= 2
				smu.Unlock()
				if busy {
					continue
				}
				c.seq++
				frame := frames[next%len(frames)]
				next++
				msg := append([]byte{byte(c.seq >> 24), byte(c.seq >> 16), byte(c.seq >> 8), byte(c.seq)}, frame...)
				smu.Lock()
				sent[c.seq] = time.Now()
				smu.Unlock()
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				err := c.conn.Write(ctx, websocket.MessageBinary, msg)
				cancel()
				if err != nil {
					return
				}
			}
			time.Sleep(500 * time.Millisecond) // let the last answers land
			c.conn.Close(websocket.StatusNormalClosure, "")
			<-done
		}()
	}
	wg.Wait()
	el := d.Seconds()
	r := loadResult{median: quantile(lat, 0.5), p95: quantile(lat, 0.95), fps: float64(answered) / el / float64(n), dropped: float64(dropped) / el}
	r.fpsMin, r.fpsMax = float64(slices.Min(perStream))/el, float64(slices.Max(perStream))/el
	if answered > 0 {
		r.solvedShare = float64(solved) / float64(answered)
		r.cpuPerFrame = float64((cputime.Process() - cpu0).Microseconds()) / 1000 / float64(answered)
	}
	return r
}

func benchStore(b *testing.B) *store.SQLite {
	st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	return st
}

func newHTTPTest(srv *Server) *httptest.Server { return httptest.NewServer(srv.Handler()) }
