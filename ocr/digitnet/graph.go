package digitnet

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// net is the gorgonia expression graph for one fixed batch size.
type net struct {
	g       *G.ExprGraph
	batch   int
	x       *G.Node // [batch,In,28,28]
	logits  *G.Node // [batch,10]
	learn   G.Nodes // in Weights.params order
	y       *G.Node // one-hot labels [batch,10]; training graphs only
	loss    *G.Node // mean cross-entropy; training graphs only
	machine G.VM
}

// build makes the graph for w with the given batch size. With train set, it
// adds the loss and its gradients.
func build(w *Weights, batch int, train bool) (*net, error) {
	a := w.Arch
	g := G.NewGraph()
	n := &net{g: g, batch: batch}
	ps := w.params()
	for _, p := range ps {
		shape := make([]int, len(p.dims))
		for i, d := range p.dims {
			shape[i] = int(d)
		}
		// Biases are kept as [1,k] so that BroadcastAdd can spread them.
		if len(shape) == 1 {
			shape = []int{1, shape[0]}
		}
		data := make([]float32, len(*p.data))
		copy(data, *p.data)
		// Fully connected weights are [out,in] in the file; the graph
		// multiplies by [in,out].
		if p.fc {
			data = transpose(data, shape[0], shape[1])
			shape[0], shape[1] = shape[1], shape[0]
		}
		t := tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
		n.learn = append(n.learn, G.NodeFromAny(g, t, G.WithName(p.name)))
	}
	c1w, c1b, c2w, c2b, f1w, f1b, f2w, f2b := n.learn[0], n.learn[1], n.learn[2], n.learn[3], n.learn[4], n.learn[5], n.learn[6], n.learn[7]
	n.x = G.NewTensor(g, tensor.Float32, 4, G.WithShape(batch, a.Channels(), Side, Side), G.WithName("x"))

	convBlock := func(in, w, b *G.Node, ch int) (*G.Node, error) {
		c, err := G.Conv2d(in, w, tensor.Shape{3, 3}, []int{1, 1}, []int{2, 2}, []int{1, 1})
		if err != nil {
			return nil, err
		}
		b4, err := G.Reshape(b, tensor.Shape{1, ch, 1, 1})
		if err != nil {
			return nil, err
		}
		c, err = G.BroadcastAdd(c, b4, nil, []byte{0, 2, 3})
		if err != nil {
			return nil, err
		}
		return G.Rectify(c)
	}
	h, err := convBlock(n.x, c1w, c1b, a.C1)
	if err != nil {
		return nil, fmt.Errorf("conv1: %w", err)
	}
	if h, err = convBlock(h, c2w, c2b, a.C2); err != nil {
		return nil, fmt.Errorf("conv2: %w", err)
	}
	if h, err = G.Reshape(h, tensor.Shape{batch, a.flat()}); err != nil {
		return nil, fmt.Errorf("flatten: %w", err)
	}
	dense := func(in, w, b *G.Node) (*G.Node, error) {
		m, err := G.Mul(in, w)
		if err != nil {
			return nil, err
		}
		return G.BroadcastAdd(m, b, nil, []byte{0})
	}
	if h, err = dense(h, f1w, f1b); err != nil {
		return nil, fmt.Errorf("fc1: %w", err)
	}
	if h, err = G.Rectify(h); err != nil {
		return nil, err
	}
	if n.logits, err = dense(h, f2w, f2b); err != nil {
		return nil, fmt.Errorf("fc2: %w", err)
	}
	if !train {
		n.machine = G.NewTapeMachine(g)
		return n, nil
	}
	n.y = G.NewMatrix(g, tensor.Float32, G.WithShape(batch, a.Outputs()), G.WithName("y"))
	logp, err := G.LogSoftMax(n.logits)
	if err != nil {
		return nil, err
	}
	ll, err := G.HadamardProd(logp, n.y)
	if err != nil {
		return nil, err
	}
	s, err := G.Sum(ll)
	if err != nil {
		return nil, err
	}
	if n.loss, err = G.Div(s, G.NewConstant(float32(-batch))); err != nil {
		return nil, err
	}
	if _, err = G.Grad(n.loss, n.learn...); err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	n.machine = G.NewTapeMachine(g, G.BindDualValues(n.learn...))
	return n, nil
}

// run sets the input batch and runs the machine once.
func (n *net) run(x []float32) error {
	ch := n.x.Shape()[1]
	if len(x) != n.batch*ch*Side*Side {
		return fmt.Errorf("batch has %d values, want %d", len(x), n.batch*ch*Side*Side)
	}
	if err := G.Let(n.x, tensor.New(tensor.WithShape(n.batch, ch, Side, Side), tensor.WithBacking(x))); err != nil {
		return err
	}
	n.machine.Reset()
	return n.machine.RunAll()
}

// Forward runs the gorgonia graph (the training graph without the loss) on
// count cells stored back to back in x and returns count×Outputs logits. It is
// the reference the ONNX readers are checked against.
func Forward(w Weights, x []float32, count int) ([]float32, error) {
	n, err := build(&w, count, false)
	if err != nil {
		return nil, err
	}
	defer n.machine.Close()
	if err := n.run(x); err != nil {
		return nil, err
	}
	out := n.logits.Value().Data().([]float32)
	return append([]float32(nil), out...), nil
}

// Trainer runs Adam steps on a fixed batch size.
type Trainer struct {
	w      Weights
	n      *net
	solver G.Solver
}

// NewTrainer starts training from w with the given batch size and learning
// rate.
func NewTrainer(w Weights, batch int, lr float64) (*Trainer, error) {
	n, err := build(&w, batch, true)
	if err != nil {
		return nil, err
	}
	return &Trainer{w: w, n: n, solver: G.NewAdamSolver(G.WithLearnRate(lr))}, nil
}

// SetLearnRate changes the step size for later steps (for a schedule).
func (t *Trainer) SetLearnRate(lr float64) {
	if s, ok := t.solver.(*G.AdamSolver); ok {
		G.WithLearnRate(lr)(s)
	}
}

// Step does one forward/backward pass and one Adam update on a batch of
// images x (batch×In×28×28) with labels y (0..Outputs-1). It returns the mean loss and
// how many of the batch the network got right before the update.
func (t *Trainer) Step(x []float32, y []int) (float64, int, error) {
	if len(y) != t.n.batch {
		return 0, 0, fmt.Errorf("batch has %d labels, want %d", len(y), t.n.batch)
	}
	k := t.w.Arch.Outputs()
	onehot := make([]float32, t.n.batch*k)
	for i, c := range y {
		if c < 0 || c >= k {
			return 0, 0, fmt.Errorf("label %d of sample %d out of range", c, i)
		}
		onehot[i*k+c] = 1
	}
	if err := G.Let(t.n.y, tensor.New(tensor.WithShape(t.n.batch, k), tensor.WithBacking(onehot))); err != nil {
		return 0, 0, err
	}
	if err := t.n.run(x); err != nil {
		return 0, 0, err
	}
	logits := t.n.logits.Value().Data().([]float32)
	correct := 0
	for i, c := range y {
		if Argmax(logits[i*k:(i+1)*k]) == c {
			correct++
		}
	}
	loss := float64(t.n.loss.Value().Data().(float32))
	if math.IsNaN(loss) {
		return loss, correct, fmt.Errorf("loss is NaN")
	}
	if err := t.solver.Step(G.NodesToValueGrads(t.n.learn)); err != nil {
		return 0, 0, err
	}
	return loss, correct, nil
}

// Weights returns a copy of the current parameters.
func (t *Trainer) Weights() Weights {
	w := Weights{Arch: t.w.Arch}
	for i, p := range w.params() {
		v := append([]float32(nil), t.n.learn[i].Value().Data().([]float32)...)
		if p.fc {
			v = transpose(v, int(p.dims[1]), int(p.dims[0]))
		}
		*p.data = v
	}
	return w
}

// Close releases the training machine.
func (t *Trainer) Close() { t.n.machine.Close() }

// Argmax returns the index of the largest value.
func Argmax(v []float32) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// transpose returns the [cols,rows] transposition of the row-major
// [rows,cols] matrix m.
func transpose(m []float32, rows, cols int) []float32 {
	t := make([]float32, len(m))
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			t[c*rows+r] = m[r*cols+c]
		}
	}
	return t
}
