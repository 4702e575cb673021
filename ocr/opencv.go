package ocr

import (
	"errors"
	"fmt"
	"sync"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/ocr/digitnet"
	"github.com/sudokuar/sudokuar/vision"
)

// cvClassifier runs the model with OpenCV's DNN module. OpenCV handles any
// batch size with one network.
type cvClassifier struct {
	mu       sync.Mutex // cv::dnn::Net is not safe for concurrent use
	net      gocv.Net
	classes  int // outputs per cell
	channels int // views per cell (1 for the digit models)
}

// NewOpenCV returns a Classifier that runs the ONNX model in data with
// OpenCV DNN. The bytes are checked first (OpenCV aborts the process on
// models it cannot parse); a model that is not a sudokuar digit model gives
// a *ModelError. Close it (or call CloseClassifier) to free the network.
func NewOpenCV(data []byte) (Classifier, error) {
	k, err := validate(data)
	if err != nil {
		return nil, err
	}
	return open(data, k, 1, BackendOpenCV)
}

func newOpenCV(data []byte, k, channels int) (*cvClassifier, error) {
	net, err := gocv.ReadNetFromONNXBytes(data)
	if err != nil {
		return nil, &ModelError{Err: fmt.Errorf("opencv: %w", err)}
	}
	if net.Empty() {
		net.Close()
		return nil, &ModelError{Err: errors.New("opencv: empty network")}
	}
	return &cvClassifier{net: net, classes: k, channels: channels}, nil
}

// Close frees the OpenCV network.
func (c *cvClassifier) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.net.Close()
}

// Classify implements Classifier.
func (c *cvClassifier) Classify(cells [][]float32) ([][]float32, error) {
	if err := checkCells(cells, c.channels); err != nil {
		return nil, err
	}
	if len(cells) == 0 {
		return nil, nil
	}
	n := len(cells)
	blob := gocv.NewMatWithSizes([]int{n, c.channels, vision.CellSize, vision.CellSize}, gocv.MatTypeCV32F)
	defer blob.Close()
	in, err := blob.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("opencv input blob: %w", err)
	}
	per := c.channels * CellLen
	if len(in) != n*per {
		return nil, fmt.Errorf("opencv input blob has %d floats, want %d", len(in), n*per)
	}
	for i, cell := range cells {
		copy(in[i*per:], cell)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.net.SetInput(blob, digitnet.InputName)
	out := c.net.Forward(digitnet.OutputName)
	defer out.Close()
	logits, err := out.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("opencv output: %w", err)
	}
	if len(logits) != n*c.classes {
		return nil, fmt.Errorf("opencv output has %d values, want %d", len(logits), n*c.classes)
	}
	return softmax(logits, n, c.classes), nil
}

// Glyphs reports how many glyph classes the model reads.
func (c *cvClassifier) Glyphs() int { return c.classes }
