package vision

import (
	"fmt"
	"os"

	"gocv.io/x/gocv"
)

// maxFileBytes bounds what ReadImage will decode, so a huge file cannot
// exhaust memory.
const maxFileBytes = 64 << 20

// ReadImage loads an image file as an 8-bit BGR Mat. The caller closes the
// returned Mat, also on error (it is then empty or unusable).
// A missing file, a file that is not a decodable image, or one too small
// to hold a grid gives a *QualityError of kind BadInput naming the path.
// Large images are returned as they are: Detector downscales them.
func ReadImage(path string) (gocv.Mat, error) {
	st, err := os.Stat(path)
	if err != nil {
		return gocv.NewMat(), &QualityError{Kind: BadInput, Msg: fmt.Sprintf("read image %s: %v", path, err)}
	}
	if st.IsDir() || st.Size() == 0 || st.Size() > maxFileBytes {
		return gocv.NewMat(), qualityErr(BadInput, "read image %s: not a regular file of 1 B..%d MB", path, maxFileBytes>>20)
	}
	buf, err := os.ReadFile(path)
	if err != nil {
		return gocv.NewMat(), &QualityError{Kind: BadInput, Msg: fmt.Sprintf("read image %s: %v", path, err)}
	}
	if !looksLikeImage(buf) {
		return gocv.NewMat(), qualityErr(BadInput, "read image %s: not a JPEG, PNG, BMP, TIFF or WebP file", path)
	}
	m, err := gocv.IMDecode(buf, gocv.IMReadColor)
	if err != nil || m.Empty() {
		return m, qualityErr(BadInput, "read image %s: cannot decode", path)
	}
	if m.Cols() < minFrameSide || m.Rows() < minFrameSide {
		return m, qualityErr(BadInput, "read image %s: %dx%d is too small", path, m.Cols(), m.Rows())
	}
	return m, nil
}

// looksLikeImage checks the magic bytes of the formats we expect, so that
// arbitrary files never reach the decoders.
func looksLikeImage(b []byte) bool {
	has := func(sig string) bool { return len(b) >= len(sig) && string(b[:len(sig)]) == sig }
	switch {
	case has("\xff\xd8\xff"), has("\x89PNG\r\n\x1a\n"), has("BM"), has("II*\x00"), has("MM\x00*"):
		return true
	case has("RIFF") && len(b) >= 12 && string(b[8:12]) == "WEBP":
		return true
	}
	return false
}
