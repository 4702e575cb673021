package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/internal/attack"
	"github.com/sudokuar/sudokuar/vision"
)

// pngHeader returns the start of a PNG file that claims w×h pixels, with a
// body that is no valid image data: a reader that decoded it would fail,
// so refusing it proves the size was taken from the header alone.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8] = 8 // bit depth, grey
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte("not compressed pixels"))
	chunk("IEND", nil)
	return b.Bytes()
}

func kindOf(err error) vision.QualityKind {
	var q *vision.QualityError
	if errors.As(err, &q) {
		return q.Kind
	}
	return 0
}

func TestReadImage(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var good bytes.Buffer
	if err := jpeg.Encode(&good, image.NewGray(image.Rect(0, 0, 320, 240)), nil); err != nil {
		t.Fatal(err)
	}
	goodPath := write("grid.jpg", good.Bytes())
	huge := write("huge.png", pngHeader(20000, 20000))
	tests := []struct {
		name      string
		path      string
		maxPixels int64
		tooLarge  bool   // a *TooLargeError
		want      string // in the message; "" for success
	}{
		{"good", goodPath, 0, false, ""},
		{"missing", filepath.Join(dir, "missing.png"), 0, false, "no such file"},
		{"folder", dir, 0, false, "not a regular file"},
		{"empty", write("empty.jpg", nil), 0, false, "not a regular file"},
		{"not an image", write("notes.jpg", []byte("hello, not an image")), 0, false, "not a JPEG, PNG"},
		{"truncated JPEG", write("broken.jpg", []byte("\xff\xd8\xff\xe0 truncated")), 0, false, "cannot read its size"},
		{"20000x20000 PNG", huge, 0, true, "20000x20000 is 400 MP, over the limit of 50 MP (not decoded)"},
		{"limit raised: then decoded, and its body is broken", huge, 400_000_000, false, "cannot decode"},
		{"a small limit", goodPath, 50_000, true, "320x240 is 0.1 MP, over the limit of 0.1 MP"},
		{"too small", write("tiny.png", pngHeader(20, 20)), 0, false, "20x20 is too small"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadImage(tc.path, tc.maxPixels)
			defer m.Close()
			if tc.want == "" {
				if err != nil || m.Cols() != 320 || m.Rows() != 240 || m.Channels() != 3 {
					t.Fatalf("got %dx%d×%d, %v; want 320x240 BGR", m.Cols(), m.Rows(), m.Channels(), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("err = %v; want it to name %s and say %q", err, tc.path, tc.want)
			}
			var big *TooLargeError
			if errors.As(err, &big) != tc.tooLarge {
				t.Fatalf("err = %T, TooLargeError wanted: %v", err, tc.tooLarge)
			}
			if !tc.tooLarge && kindOf(err) != vision.BadInput {
				t.Fatalf("kind %v, want BadInput", kindOf(err))
			}
		})
	}
}

// TestJPEGFrameSize reads sizes from frame headers Go's decoder refuses
// (12-bit precision, arithmetic coding), after other segments.
func TestJPEGFrameSize(t *testing.T) {
	sof := func(marker byte, w, h uint16) []byte {
		b := []byte{0xff, marker, 0, 11, 12}
		b = binary.BigEndian.AppendUint16(b, h)
		b = binary.BigEndian.AppendUint16(b, w)
		return append(b, 1, 1, 0x11, 0)
	}
	app0 := []byte{0xff, 0xe0, 0, 6, 'J', 'F', 'I', 'F'}
	for _, tc := range []struct {
		name string
		data []byte
		w, h int
		ok   bool
	}{
		{"12-bit extended", append(append([]byte{0xff, 0xd8}, app0...), sof(0xc1, 6000, 9000)...), 6000, 9000, true},
		{"arithmetic, fill bytes", append([]byte{0xff, 0xd8, 0xff, 0xff}, sof(0xc9, 800, 600)...), 800, 600, true},
		{"no frame before the scan", []byte{0xff, 0xd8, 0xff, 0xda, 0, 2}, 0, 0, false},
		{"segment past the end", []byte{0xff, 0xd8, 0xff, 0xe0, 0x7f, 0xff}, 0, 0, false},
		{"not a JPEG", []byte("\x89PNG"), 0, 0, false},
	} {
		w, h, ok := jpegFrameSize(tc.data)
		if w != tc.w || h != tc.h || ok != tc.ok {
			t.Errorf("%s: %d×%d %v, want %d×%d %v", tc.name, w, h, ok, tc.w, tc.h, tc.ok)
		}
	}
}

// FuzzImageSize checks that no header, however broken, makes the size
// readers panic or claim a size they did not find.
func FuzzImageSize(f *testing.F) {
	f.Add(pngHeader(640, 480))
	f.Add([]byte{0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 1, 0, 2, 0, 1, 1, 0x11, 0})
	f.Add([]byte("BM"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Fuzz(func(t *testing.T, b []byte) {
		if w, h, err := imageSize(b); err == nil && (w <= 0 || h <= 0) {
			t.Fatalf("size %dx%d without an error", w, h)
		}
	})
}

// TestJPEGScans counts the scans of real JPEGs (baseline, OpenCV's
// progressive ones, the scan bomb of issue 19) and refuses the bomb
// before decoding; broken files count what is there, never more.
func TestJPEGScans(t *testing.T) {
	var base bytes.Buffer
	if err := jpeg.Encode(&base, image.NewGray(image.Rect(0, 0, 64, 64)), nil); err != nil {
		t.Fatal(err)
	}
	prog, err := attack.ScanBomb(640, 480, 0) // OpenCV's own progressive file, no scan added
	if err != nil {
		t.Fatal(err)
	}
	bomb, err := attack.ScanBomb(1280, 1280, 87_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		data  []byte
		limit int
		want  int
	}{
		{"baseline", base.Bytes(), 0, 1},
		{"progressive", prog, 0, 6},
		{"bomb", bomb, 0, 87_000},
		{"bomb, stop at 101", bomb, MaxJPEGScans + 1, MaxJPEGScans + 1},
		// Cut just before a start of scan: the scans before it count.
		{"bomb cut in the middle", bomb[:bytes.LastIndex(bomb[:len(bomb)/2], []byte{0xff, 0xda})], 0, bytes.Count(bomb[:len(bomb)/2], []byte{0xff, 0xda}) - 1},
		{"not a JPEG", []byte("\x89PNG\r\n\x1a\n"), 0, 0},
		{"a scan header cut short", []byte{0xff, 0xd8, 0xff, 0xda, 0}, 0, 0},
	} {
		if got := JPEGScans(tc.data, tc.limit); got != tc.want {
			t.Errorf("%s: %d scans, want %d", tc.name, got, tc.want)
		}
	}
	t.Logf("the bomb: %d bytes", len(bomb))
	_, err = CheckImage("bomb.jpg", bomb, 0)
	var ie *ImageError
	if !errors.As(err, &ie) || ie.Problem != TooManyScans || !strings.Contains(err.Error(), "bomb.jpg") {
		t.Errorf("CheckImage(bomb): %v, want a TooManyScans *ImageError naming the file", err)
	}
	m, err := DecodeImage("bomb.jpg", bomb, 0)
	m.Close()
	if kindOf(err) != vision.BadInput || !strings.Contains(err.Error(), "scans") {
		t.Errorf("DecodeImage(bomb): %v, want BadInput about scans", err)
	}
	if info, err := CheckImage("prog.jpg", prog, 0); err != nil || info.Scans != 6 || info.Width != 640 {
		t.Errorf("CheckImage(progressive): %+v, %v", info, err)
	}
}

// FuzzJPEGScans: no input makes the scan counter panic, run past the
// limit or count a scan without its marker.
func FuzzJPEGScans(f *testing.F) {
	prog, err := attack.ScanBomb(64, 48, 12)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(prog)
	f.Add([]byte{0xff, 0xd8, 0xff, 0xda, 0, 2, 0xff, 0x00, 0xff, 0xd0, 0xff, 0xda, 0, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		n := JPEGScans(b, 50)
		if n > 50 || n > bytes.Count(b, []byte{0xff, 0xda}) {
			t.Fatalf("%d scans from %d markers", n, bytes.Count(b, []byte{0xff, 0xda}))
		}
	})
}
