// Package attack builds the hostile inputs a stranger sent the server in
// issue 19, for the tests and benchmarks that play those attacks: a
// 16×16 puzzle the solution counter cannot settle, and a progressive JPEG
// of tens of thousands of scans.
//
// In: how big an input to build. Out: its bytes or text. Nothing here
// attacks anything: the callers send the inputs.
package attack

import (
	"bytes"
	"errors"
	"fmt"

	"gocv.io/x/gocv"
)

// Unsolvable16 is a 16×16 the exact-cover counter cannot settle: a janko.at
// puzzle (Gecode's 16×16 examples) with 61 of its solution's digits kept
// and one changed to a digit that clashes with no given. Counting its
// solutions runs for minutes: the kind of puzzle that kept /api/analyze busy.
const Unsolvable16 = "...95..73....2...4....6....8....5........F.........7A..G.....B...3......75F.4.....G.8.....4....................9..5..........A87C71...F....3.....5....8...26.....G.................A.35...B7...............A.7.48.BE.DA............G6.4.C1.B...839...8....6....."

// ScanBomb returns a grey w×h progressive JPEG with scans scans: OpenCV
// writes a flat picture progressively (6 scans), and its smallest scan (12
// bytes, which a decoder still applies to every block) is repeated. libjpeg
// accepts it with a warning and takes seconds to decode one the size of an
// upload (docs/performance.md, Tuning: pipeline.CheckImage's scan limit).
func ScanBomb(w, h, scans int) ([]byte, error) {
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC1)
	defer m.Close()
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegProgressive, 1})
	if err != nil {
		return nil, fmt.Errorf("attack: encode a progressive JPEG: %w", err)
	}
	b := bytes.Clone(buf.GetBytes())
	buf.Close()
	if len(b) < 4 || !bytes.HasSuffix(b, []byte{0xff, 0xd9}) {
		return nil, errors.New("attack: OpenCV's JPEG does not end with EOI")
	}
	// The scans, from each start-of-scan marker to the next (or EOI).
	sos := []byte{0xff, 0xda}
	var starts []int
	for i := 0; ; {
		j := bytes.Index(b[i:], sos)
		if j < 0 {
			break
		}
		starts = append(starts, i+j)
		i += j + 2
	}
	if len(starts) == 0 {
		return nil, errors.New("attack: no scan in OpenCV's JPEG")
	}
	starts = append(starts, len(b)-2)
	var small []byte
	for k := 0; k+1 < len(starts); k++ {
		if s := b[starts[k]:starts[k+1]]; small == nil || len(s) < len(small) {
			small = s
		}
	}
	out := bytes.Clone(b[:len(b)-2])
	for n := len(starts) - 1; n < scans; n++ {
		out = append(out, small...)
	}
	return append(out, 0xff, 0xd9), nil
}
