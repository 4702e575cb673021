package web

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/image/draw"
)

// camClient is a camera page in Go: it sends frames and reads answers.
type camClient struct {
	t    testing.TB
	conn *websocket.Conn
	seq  uint32
}

func dialCamera(t testing.TB, url string) *camClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/ws/camera", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	c := &camClient{t: t, conn: conn}
	if m := c.read(); m["type"] != "hello" {
		t.Fatalf("first message %v, want hello", m)
	}
	return c
}

// read returns the next message, or nil once the connection is closed.
func (c *camClient) read() map[string]any {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, data, err := c.conn.Read(ctx)
	if err != nil {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatalf("answer is not JSON: %q", data)
	}
	return m
}

// closeStatus reads until the connection closes and returns its status.
func (c *camClient) closeStatus() (websocket.StatusCode, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, _, err := c.conn.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code, ce.Reason
			}
			return -1, err.Error()
		}
	}
}

func (c *camClient) send(typ websocket.MessageType, data []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.conn.Write(ctx, typ, data)
}

func (c *camClient) sendFrame(jpg []byte) uint32 {
	c.seq++
	msg := make([]byte, 4+len(jpg))
	binary.BigEndian.PutUint32(msg, c.seq)
	copy(msg[4:], jpg)
	if err := c.send(websocket.MessageBinary, msg); err != nil {
		c.t.Fatalf("send frame: %v", err)
	}
	return c.seq
}

// frameAnswerFor reads until the answer to seq comes (skipping others).
func (c *camClient) frameAnswerFor(seq uint32) map[string]any {
	for {
		m := c.read()
		if m == nil {
			c.t.Fatalf("connection closed waiting for frame %d", seq)
		}
		if uint32(m["seq"].(float64)) == seq {
			return m
		}
	}
}

// jpegFrame encodes photo scaled into a w×h frame, as the page sends it.
func jpegFrame(t testing.TB, photo image.Image, w, h int) []byte {
	return jpegFrameAt(t, photo, w, h, 0, 0, 1)
}

// jpegFrameAt is jpegFrame with the photo moved by (dx, dy) pixels and
// zoomed by zoom: a camera held in the hand.
func jpegFrameAt(t testing.TB, photo image.Image, w, h int, dx, dy, zoom float64) []byte {
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(color.RGBA{110, 110, 110, 255}), image.Point{}, draw.Src)
	pb := photo.Bounds()
	k := min(float64(w)/float64(pb.Dx()), float64(h)/float64(pb.Dy())) * zoom
	dw, dh := int(float64(pb.Dx())*k), int(float64(pb.Dy())*k)
	x0, y0 := (w-dw)/2+int(math.Round(dx)), (h-dh)/2+int(math.Round(dy))
	draw.CatmullRom.Scale(canvas, image.Rect(x0, y0, x0+dw, y0+dh), photo, pb, draw.Src, nil)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, canvas, &jpeg.Options{Quality: 70}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCameraProtocol streams a real photo over the WebSocket and checks
// the answers; then breaks the protocol in every way listed in the
// camera's doc comment: each bad client is closed with a reason, and a
// good client beside them keeps its answers.
func TestCameraProtocol(t *testing.T) {
	a := newAPIServer(t, Config{MaxCameraStreams: 8, Limits: Limits{CameraPerClient: 16}})
	photoPath, want := cameraPhoto(t)
	frame := jpegFrame(t, decodeFile(t, photoPath), 1280, 720)

	good := dialCamera(t, a.URL)
	var last map[string]any
	deadline := time.Now().Add(eventTimeout)
	for time.Now().Before(deadline) {
		last = good.frameAnswerFor(good.sendFrame(frame))
		if last["solution"] == want {
			break
		}
	}
	if last["solution"] != want || last["located"] != true || last["w"] != 1280.0 || last["status"] != "solved" {
		t.Fatalf("the good client never got the solution: %v", last)
	}
	// Space turns auto-solve off: givens only.
	if err := good.send(websocket.MessageText, []byte(`{"type":"key","key":" "}`)); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		last = good.frameAnswerFor(good.sendFrame(frame))
	}
	if last["auto"] != false || last["solution"] != "" || last["given"] == "" {
		t.Errorf("auto-solve off: %v", last)
	}
	// H walks through the logical solution: step 1, then step 2 with the
	// digits of step 1 placed.
	stepAnswer := func() map[string]any {
		if err := good.send(websocket.MessageText, []byte(`{"type":"key","key":"h"}`)); err != nil {
			t.Fatal(err)
		}
		for {
			if m := good.read(); m == nil || m["type"] == "step" {
				return m
			}
		}
	}
	m1, m2 := stepAnswer(), stepAnswer()
	st, _ := m1["step"].(map[string]any)
	if st == nil || st["sentence"] == "" || m1["index"] != 1.0 || m1["total"].(float64) < 20 {
		t.Errorf("first H: %v", m1)
	}
	placed1 := len(st["placements"].([]any))
	if m2["index"] != 2.0 || len(m2["placed"].([]any)) != placed1 {
		t.Errorf("second H: %v (the first placed %d digits)", m2, placed1)
	}

	small := jpegFrame(t, decodeFile(t, photoPath), 320, 240)
	// A JPEG cut short after its header decodes partly (libjpeg fills in
	// grey): the frame is answered and the stream goes on.
	cut := good.sendFrame(frame[:len(frame)/3])
	if m := good.frameAnswerFor(cut); m["type"] != "frame" {
		t.Errorf("a truncated JPEG: %v", m)
	}
	wide := jpegFrame(t, decodeFile(t, photoPath), 1600, 400)
	for _, c := range []struct {
		name   string
		typ    websocket.MessageType
		data   []byte
		status websocket.StatusCode
		reason string
	}{
		{"oversized", websocket.MessageBinary, bytes.Repeat([]byte{0xff}, 2<<20), websocket.StatusMessageTooBig, ""},
		{"not a JPEG", websocket.MessageBinary, append([]byte{0, 0, 0, 1}, []byte("\x89PNG\r\n\x1a\nxxxxxxxx")...), websocket.StatusUnsupportedData, "not a JPEG"},
		{"too short", websocket.MessageBinary, []byte{1, 2}, websocket.StatusUnsupportedData, "sequence number"},
		{"broken JPEG", websocket.MessageBinary, append([]byte{0, 0, 0, 1}, small[:40]...), websocket.StatusUnsupportedData, "frame 1"},
		{"too wide", websocket.MessageBinary, append([]byte{0, 0, 0, 7}, wide...), websocket.StatusUnsupportedData, "1600×400"},
		{"text garbage", websocket.MessageText, []byte("{{{"), websocket.StatusPolicyViolation, "type"},
		{"unknown key", websocket.MessageText, []byte(`{"type":"key","key":"rm -rf"}`), websocket.StatusPolicyViolation, "unknown key"},
		{"check without on", websocket.MessageText, []byte(`{"type":"check"}`), websocket.StatusPolicyViolation, `needs "on"`},
		{"check not a bool", websocket.MessageText, []byte(`{"type":"check","on":"yes"}`), websocket.StatusPolicyViolation, "type"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := dialCamera(t, a.URL)
			bad.send(c.typ, c.data) // an oversized write may fail as the server closes
			code, reason := bad.closeStatus()
			if code != c.status || !strings.Contains(reason, c.reason) {
				t.Errorf("closed with %v %q, want %v %q", code, reason, c.status, c.reason)
			}
			// The good client is unaffected.
			if m := good.frameAnswerFor(good.sendFrame(frame)); m["located"] != true {
				t.Errorf("the good client after %s: %v", c.name, m)
			}
		})
	}

	// The stream cap answers 503 (as JSON) instead of upgrading. The bad
	// streams above give their places back when their handlers return,
	// which a busy machine may not have done yet: wait for the good
	// client's place alone to be held.
	for deadline := time.Now().Add(eventTimeout); a.web.guards.cameras.InUse() > 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	var extra []*camClient
	for range 7 {
		extra = append(extra, dialCamera(t, a.URL))
	}
	_, res, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(a.URL, "http")+"/ws/camera", nil)
	if err == nil || res == nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a ninth stream: %v %v, want 503", err, res)
	}
	// Shutting down tells every stream the server is going away.
	a.web.CloseStreams()
	for _, c := range append(extra, good) {
		if code, _ := c.closeStatus(); code != websocket.StatusGoingAway {
			t.Errorf("after CloseStreams: closed with %v, want going away", code)
		}
	}
}

// TestCameraIdle lets go of a client that sends nothing.
func TestCameraIdle(t *testing.T) {
	a := newAPIServer(t, Config{CameraIdle: 500 * time.Millisecond})
	quiet := dialCamera(t, a.URL)
	code, reason := quiet.closeStatus()
	if code != websocket.StatusPolicyViolation || !strings.Contains(reason, "no frame received for 500ms") {
		t.Errorf("a quiet client: closed with %v %q", code, reason)
	}
	deadline := time.Now().Add(eventTimeout)
	for a.web.streamCount() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := a.web.streamCount(); n != 0 {
		t.Errorf("%d streams still counted after the close", n)
	}
}
