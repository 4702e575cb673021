package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // header readers for image.DecodeConfig
	_ "image/png"
	"os"

	"gocv.io/x/gocv"
	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/sudokuar/sudokuar/vision"
)

// DefaultMaxPixels is the most pixels an image may have to be decoded:
// 50 megapixels, beyond any phone photo of a page (12 to 50 MP) while a
// decoded 50 MP image still takes only 150 MB. The size is read from the
// file's header before anything is decoded.
const DefaultMaxPixels = 50_000_000

// maxFileBytes bounds the files ReadImage reads into memory.
const maxFileBytes = 64 << 20

// minImageSide is the smallest image side a grid can be found in.
const minImageSide = 32

// TooLargeError reports an image whose header gives more pixels than the
// limit. It was not decoded.
type TooLargeError struct {
	Name          string // the file (or upload) name
	Width, Height int
	Limit         int64 // pixels
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("read image %s: %dx%d is %s, over the limit of %s (not decoded)",
		e.Name, e.Width, e.Height, megapixels(int64(e.Width)*int64(e.Height)), megapixels(e.Limit))
}

// megapixels writes n pixels in megapixels: "400 MP", "0.3 MP".
func megapixels(n int64) string {
	if n >= 10_000_000 {
		return fmt.Sprintf("%d MP", (n+500_000)/1_000_000)
	}
	return fmt.Sprintf("%.1f MP", float64(n)/1e6)
}

// ReadImage loads a photo as an 8-bit BGR Mat, the one way every front end
// reads a picture; the caller closes it, also on error (then empty). Before
// decoding, the file must exist, be 1 B to 64 MB and pass CheckImage (a
// known format, at most maxPixels by its header, 0 or less: DefaultMaxPixels,
// at most MaxJPEGScans scans). Too many pixels give a *TooLargeError; other
// failures and images too small for a grid a BadInput *vision.QualityError
// naming the file.
func ReadImage(path string, maxPixels int64) (gocv.Mat, error) {
	st, err := os.Stat(path)
	if err != nil {
		return gocv.NewMat(), badInput("read image %s: %v", path, unwrapPath(err))
	}
	if st.IsDir() || st.Size() == 0 || st.Size() > maxFileBytes {
		return gocv.NewMat(), badInput("read image %s: not a regular file of 1 B..%d MB", path, maxFileBytes>>20)
	}
	buf, err := os.ReadFile(path)
	if err != nil {
		return gocv.NewMat(), badInput("read image %s: %v", path, unwrapPath(err))
	}
	return DecodeImage(path, buf, maxPixels)
}

// DecodeImage is ReadImage for a picture already in memory (an upload);
// name is used in messages.
func DecodeImage(name string, buf []byte, maxPixels int64) (gocv.Mat, error) {
	if len(buf) > maxFileBytes {
		return gocv.NewMat(), badInput("read image %s: %d bytes (want 1 B..%d MB)", name, len(buf), maxFileBytes>>20)
	}
	if _, err := CheckImage(name, buf, maxPixels); err != nil {
		var ie *ImageError
		if errors.As(err, &ie) {
			return gocv.NewMat(), badInput("%s", ie.Error())
		}
		return gocv.NewMat(), err
	}
	m, err := gocv.IMDecode(buf, gocv.IMReadColor)
	if err != nil || m.Empty() {
		return m, badInput("read image %s: cannot decode", name)
	}
	if m.Cols() < minImageSide || m.Rows() < minImageSide {
		return m, badInput("read image %s: %dx%d is too small", name, m.Cols(), m.Rows())
	}
	return m, nil
}

// ImageInfo is what CheckImage read from an image's header.
type ImageInfo struct {
	Kind          string // "jpeg", "png", "bmp", "tiff" or "webp"
	Width, Height int
	Scans         int // a JPEG's scans (1 for a baseline one); 0 for other kinds
}

// MaxJPEGScans is the most scans a JPEG may have to be decoded. A
// progressive JPEG draws its picture in several scans (libjpeg's default
// script writes 10; the most seen from a camera or an editor is a few
// dozen), and every scan costs a pass over the whole picture, so a small
// file of many thousands of scans passes every other check and takes
// libjpeg seconds to decode (the Tuning table of docs/performance.md).
const MaxJPEGScans = 100

// Problems CheckImage finds, besides too many pixels (*TooLargeError).
const (
	NotImage     = "not an image"   // no known format's signature
	Unreadable   = "unreadable"     // the header does not give a size
	TooSmall     = "too small"      // a side under 32 pixels
	TooManyScans = "too many scans" // a JPEG over MaxJPEGScans
)

// ImageError is an image CheckImage refuses (other than for its pixel
// count): Problem is one of the constants above.
type ImageError struct {
	Name    string
	Problem string
	Msg     string // the details, in words
}

func (e *ImageError) Error() string { return fmt.Sprintf("read image %s: %s", e.Name, e.Msg) }

// CheckImage is the one check of an image's bytes before any decoder
// sees them (files, uploads, camera frames): a JPEG, PNG, BMP, TIFF or
// WebP signature; a header giving a size of at least 32×32 and at most
// maxPixels (0 or less: DefaultMaxPixels), else a *TooLargeError; and
// for a JPEG at most MaxJPEGScans scans, counted from the markers.
// Other refusals are *ImageError; name is used in messages.
func CheckImage(name string, buf []byte, maxPixels int64) (ImageInfo, error) {
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	info := ImageInfo{Kind: ImageKind(buf)}
	if len(buf) == 0 || info.Kind == "" {
		return info, &ImageError{Name: name, Problem: NotImage, Msg: "not a JPEG, PNG, BMP, TIFF or WebP file"}
	}
	w, h, err := imageSize(buf)
	if err != nil {
		return info, &ImageError{Name: name, Problem: Unreadable, Msg: fmt.Sprintf("cannot read its size from the header (%v)", err)}
	}
	info.Width, info.Height = w, h
	if int64(w)*int64(h) > maxPixels {
		return info, &TooLargeError{Name: name, Width: w, Height: h, Limit: maxPixels}
	}
	if w < minImageSide || h < minImageSide {
		return info, &ImageError{Name: name, Problem: TooSmall, Msg: fmt.Sprintf("%dx%d is too small", w, h)}
	}
	if info.Kind == "jpeg" {
		info.Scans = JPEGScans(buf, MaxJPEGScans+1)
		if info.Scans > MaxJPEGScans {
			return info, &ImageError{Name: name, Problem: TooManyScans,
				Msg: fmt.Sprintf("a progressive JPEG of more than %d scans (each costs a pass over the picture): save it as a baseline JPEG", MaxJPEGScans)}
		}
	}
	return info, nil
}

// JPEGScans counts the start-of-scan markers of a JPEG, stopping at
// limit (limit <= 0: all), without decoding anything (see walkJPEG).
// Truncated or broken data ends the count where it breaks: the decoder
// refuses such files later, and the count only needs to bound the work
// the decoder will do.
func JPEGScans(b []byte, limit int) int {
	scans := 0
	walkJPEG(b, func(m byte, _ []byte) bool {
		if m == 0xda {
			scans++
		}
		return limit <= 0 || scans < limit
	})
	return scans
}

// walkJPEG calls visit with each marker segment of a JPEG (the marker
// and the segment's bytes after its length) until visit returns false or
// the data ends or breaks. It walks the segments by their lengths and
// skips each scan's entropy-coded data, where a 0xFF byte is followed by
// 0x00 (a stuffed data byte), a restart marker or another 0xFF.
func walkJPEG(b []byte, visit func(marker byte, seg []byte) bool) {
	if len(b) < 2 || b[0] != 0xff || b[1] != 0xd8 {
		return
	}
	for i := 2; i+1 < len(b); {
		if b[i] != 0xff {
			return
		}
		m := b[i+1]
		switch {
		case m == 0xff: // fill byte
			i++
			continue
		case m == 0xd8 || m == 0x01 || m >= 0xd0 && m <= 0xd7: // markers without a length
			i += 2
			continue
		case m == 0xd9: // end of image
			visit(m, nil)
			return
		}
		if i+4 > len(b) {
			return
		}
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if n < 2 || i+2+n > len(b) {
			return
		}
		if !visit(m, b[i+4:i+2+n]) {
			return
		}
		i += 2 + n
		if m == 0xda {
			if i = skipEntropy(b, i); i < 0 {
				return
			}
		}
	}
}

// skipEntropy returns the index of the marker that ends the entropy-coded
// data starting at i, or -1 when the data ends first.
func skipEntropy(b []byte, i int) int {
	for i < len(b) {
		j := bytes.IndexByte(b[i:], 0xff)
		if j < 0 || i+j+1 >= len(b) {
			return -1
		}
		i += j
		switch next := b[i+1]; {
		case next == 0xff:
			i++ // fill bytes before a marker
		case next == 0x00 || next >= 0xd0 && next <= 0xd7:
			i += 2
		default:
			return i
		}
	}
	return -1
}

func badInput(format string, args ...any) error {
	return &vision.QualityError{Kind: vision.BadInput, Msg: fmt.Sprintf(format, args...)}
}

// unwrapPath drops the *os.PathError's own copy of the path, which the
// message already names.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// ImageKind names an image's format by its first bytes ("jpeg", "png",
// "bmp", "tiff", "webp"), or "" for anything else: only these reach a
// decoder.
func ImageKind(b []byte) string {
	has := func(sig string) bool { return len(b) >= len(sig) && string(b[:len(sig)]) == sig }
	switch {
	case has("\xff\xd8\xff"):
		return "jpeg"
	case has("\x89PNG\r\n\x1a\n"):
		return "png"
	case has("BM"):
		return "bmp"
	case has("II*\x00"), has("MM\x00*"):
		return "tiff"
	case has("RIFF") && len(b) >= 12 && string(b[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// imageSize reads an image's width and height from its header, without
// decoding its pixels. JPEG variants Go does not decode (12-bit,
// arithmetic coding) still give their size from the frame header.
func imageSize(buf []byte) (int, int, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(buf))
	if err == nil {
		return cfg.Width, cfg.Height, nil
	}
	if w, h, ok := jpegFrameSize(buf); ok {
		return w, h, nil
	}
	return 0, 0, err
}

// jpegFrameSize walks a JPEG's markers to its start-of-frame header and
// returns the size it gives.
func jpegFrameSize(b []byte) (w, h int, ok bool) {
	walkJPEG(b, func(m byte, seg []byte) bool {
		// SOF0..SOF15, except DHT (c4), JPG (c8) and DAC (cc); a scan or
		// the end before any means there is no frame header.
		switch {
		case m == 0xda || m == 0xd9:
			return false
		case m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc:
			if len(seg) >= 5 {
				h = int(binary.BigEndian.Uint16(seg[1:]))
				w = int(binary.BigEndian.Uint16(seg[3:]))
				ok = w > 0 && h > 0
			}
			return false
		}
		return true
	})
	if !ok {
		return 0, 0, false
	}
	return w, h, true
}
