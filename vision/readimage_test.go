package vision

import (
	"fmt"

	"gocv.io/x/gocv"
)

// readImage loads a test photo as 8-bit BGR; the caller closes the Mat,
// also on error. Front ends load photos through pipeline.ReadImage, which
// vision's tests cannot import (pipeline imports vision).
func readImage(path string) (gocv.Mat, error) {
	m := gocv.IMRead(path, gocv.IMReadColor)
	if m.Empty() {
		return m, &QualityError{Kind: BadInput, Msg: fmt.Sprintf("read image %s: cannot read or decode it", path)}
	}
	return m, nil
}
