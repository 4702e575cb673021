package ocr

import (
	"fmt"
	"sync"

	onnx "github.com/owulveryck/onnx-go"
	"github.com/owulveryck/onnx-go/backend/x/gorgonnx"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/sudokuar/sudokuar/vision"
)

// batchSizes are the batch sizes the Go backend builds graphs for. onnx-go
// fixes every tensor shape when its gorgonia graph is first run, so one
// graph serves one batch size; a batch is padded with blank cells up to the
// next size, and a padded cell costs as much as a real one. The sizes go in
// steps of 4 up to a full 9×9 grid (81): a printed grid's givens and a pen
// page's second batches (the second pen model's cells, the other views)
// fill any part of it. Larger batches are split into chunks of 81. There
// is no size 1:
// with a batch of one, gorgonnx's output differed from the training graph
// and from OpenCV by up to 0.02 (TestBackendsAgreeWithTrainingGraph), so a
// single cell is padded to 4.
var batchSizes = [...]int{4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76, 81}

// goClassifier runs the model with onnx-go's gorgonia backend. Graphs are
// built lazily, once per batch size, and reused.
type goClassifier struct {
	data     []byte
	classes  int        // outputs per cell
	channels int        // views per cell (1 for the digit models)
	mu       sync.Mutex // a gorgonia graph holds its input and output in place
	graphs   map[int]*goGraph
	plain    bool // run with gorgonia's own engine, not goEngine (tests compare the two)
}

type goGraph struct {
	model   *onnx.Model
	backend *gorgonnx.Graph
	input   []float32 // backing of the input tensor, refilled per call
}

// NewGo returns a Classifier that runs the ONNX model in data with onnx-go
// (pure Go). The bytes are checked first; a model that is not a sudokuar
// digit model gives a *ModelError.
func NewGo(data []byte) (Classifier, error) {
	k, err := validate(data)
	if err != nil {
		return nil, err
	}
	return open(data, k, 1, BackendGo)
}

func newGo(data []byte, k, channels int) (*goClassifier, error) {
	c := &goClassifier{data: append([]byte(nil), data...), classes: k, channels: channels, graphs: map[int]*goGraph{}}
	// Build the smallest graph now so that a model onnx-go cannot run fails
	// here rather than on the first frame.
	if _, err := c.graph(batchSizes[0]); err != nil {
		return nil, err
	}
	return c, nil
}

// graph returns the graph for batch size n, building it on first use.
func (c *goClassifier) graph(n int) (g *goGraph, err error) {
	if g, ok := c.graphs[n]; ok {
		return g, nil
	}
	// onnx-go panics on some malformed graphs instead of returning errors.
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, &ModelError{Err: fmt.Errorf("onnx-go: %v", r)}
		}
	}()
	backend := gorgonnx.NewGraph()
	model := onnx.NewModel(backend)
	if err := model.UnmarshalBinary(c.data); err != nil {
		return nil, &ModelError{Err: fmt.Errorf("onnx-go: %w", err)}
	}
	g = &goGraph{model: model, backend: backend, input: make([]float32, n*c.channels*CellLen)}
	in := tensor.New(tensor.WithShape(n, c.channels, vision.CellSize, vision.CellSize), tensor.WithBacking(g.input))
	if err := model.SetInput(0, in); err != nil {
		return nil, &ModelError{Err: fmt.Errorf("onnx-go set input: %w", err)}
	}
	if !c.plain { // the graph's machine runs with goEngine
		eg, err := backend.GetExprGraph()
		if err != nil {
			return nil, &ModelError{Err: fmt.Errorf("onnx-go graph: %w", err)}
		}
		backend.SetVM(gorgonia.NewTapeMachine(eg, gorgonia.WithEngine(&goEngine{})))
	}
	if err := backend.Run(); err != nil {
		return nil, &ModelError{Err: fmt.Errorf("onnx-go run: %w", err)}
	}
	c.graphs[n] = g
	return g, nil
}

// Classify implements Classifier.
func (c *goClassifier) Classify(cells [][]float32) ([][]float32, error) {
	if err := checkCells(cells, c.channels); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]float32, 0, len(cells))
	for start := 0; start < len(cells); start += 81 {
		end := min(start+81, len(cells))
		p, err := c.classify(cells[start:end])
		if err != nil {
			return nil, err
		}
		out = append(out, p...)
	}
	return out, nil
}

func (c *goClassifier) classify(cells [][]float32) ([][]float32, error) {
	if len(cells) == 0 {
		return nil, nil
	}
	size := batchSizes[len(batchSizes)-1]
	for _, s := range batchSizes {
		if s >= len(cells) {
			size = s
			break
		}
	}
	g, err := c.graph(size)
	if err != nil {
		return nil, err
	}
	// The input tensor's backing array is the graph's own input: overwrite
	// it in place and rerun.
	for i := range g.input {
		g.input[i] = 0
	}
	for i, cell := range cells {
		copy(g.input[i*c.channels*CellLen:], cell)
	}
	in := tensor.New(tensor.WithShape(size, c.channels, vision.CellSize, vision.CellSize), tensor.WithBacking(g.input))
	if err := g.model.SetInput(0, in); err != nil {
		return nil, fmt.Errorf("onnx-go set input: %w", err)
	}
	if err := g.backend.Run(); err != nil {
		return nil, fmt.Errorf("onnx-go run: %w", err)
	}
	outs, err := g.model.GetOutputTensors()
	if err != nil {
		return nil, fmt.Errorf("onnx-go output: %w", err)
	}
	logits, ok := outs[0].Data().([]float32)
	if !ok || len(logits) != size*c.classes {
		return nil, fmt.Errorf("onnx-go output: got %T of %d values, want %d float32", outs[0].Data(), len(logits), size*c.classes)
	}
	return softmax(logits, len(cells), c.classes), nil
}

// Glyphs reports how many glyph classes the model reads.
func (c *goClassifier) Glyphs() int { return c.classes }
