package synth

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"testing"

	"gocv.io/x/gocv"

	"github.com/sudokuar/sudokuar/sudoku"
)

func puzzle(t testing.TB, n int, seed int64) sudoku.Grid {
	t.Helper()
	s, err := ShapeFor(n)
	if err != nil {
		t.Fatal(err)
	}
	g, err := RandomPuzzle(s, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRenderIsDeterministic(t *testing.T) {
	pz := puzzle(t, 9, 7)
	opts := DefaultOptions(640, 480, 42)
	a, err := Render(pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Image.Close()
	b, err := Render(pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Image.Close()
	if !bytes.Equal(a.JPEG, b.JPEG) || a.Corners != b.Corners || a.Font != b.Font {
		t.Fatalf("same seed gave different photos (%d vs %d JPEG bytes, corners %v vs %v)", len(a.JPEG), len(b.JPEG), a.Corners, b.Corners)
	}
	opts.Seed = 43
	c, err := Render(pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Image.Close()
	if bytes.Equal(a.JPEG, c.JPEG) || a.Corners == c.Corners {
		t.Fatal("seeds 42 and 43 gave the same photo")
	}
}

// edgeContrast returns the mean grey level in a band just inside the quad's
// edges and in a band just outside them.
func edgeContrast(t *testing.T, img gocv.Mat, q [4]gocv.Point2f) (inside, outside float64) {
	t.Helper()
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(img, &grey, gocv.ColorBGRToGray)
	cx, cy := 0.0, 0.0
	for _, p := range q {
		cx, cy = cx+float64(p.X)/4, cy+float64(p.Y)/4
	}
	at := func(x, y float64) float64 {
		return float64(grey.GetUCharAt(int(math.Round(y)), int(math.Round(x))))
	}
	n := 0
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		ex, ey := float64(b.X-a.X), float64(b.Y-a.Y)
		l := math.Hypot(ex, ey)
		nx, ny := -ey/l, ex/l // a unit normal; flip it to point inwards
		mx, my := float64(a.X)+ex/2, float64(a.Y)+ey/2
		if (cx-mx)*nx+(cy-my)*ny < 0 {
			nx, ny = -nx, -ny
		}
		// Skip the ends: corners are where rounding hurts most.
		for s := 0.15; s <= 0.85; s += 0.01 {
			x, y := float64(a.X)+ex*s, float64(a.Y)+ey*s
			inside += at(x+nx*0.8, y+ny*0.8)
			outside += at(x-nx*2.5, y-ny*2.5)
			n++
		}
	}
	return inside / float64(n), outside / float64(n)
}

// TestCornersMarkTheBorder checks the corners against the pixels: on a clean
// photo the band just inside the corner quad is the printed border (dark),
// the band just outside is paper (light).
func TestCornersMarkTheBorder(t *testing.T) {
	for _, n := range []int{4, 6, 8, 9, 12, 16} {
		for seed := int64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("n%d/seed%d", n, seed), func(t *testing.T) {
				opts := DefaultOptions(640, 480, seed*100+int64(n))
				opts.MaxBlur, opts.MaxNoise, opts.Light, opts.DeskShare = 0, 0, 0, 0
				opts.JPEGMin, opts.JPEGMax = 0, 0
				ph, err := Render(puzzle(t, n, seed), opts)
				if err != nil {
					t.Fatal(err)
				}
				defer ph.Image.Close()
				in, out := edgeContrast(t, ph.Image, ph.Corners)
				if in > out-60 {
					t.Errorf("corners %v: border band %.0f is not darker than the paper outside %.0f", ph.Corners, in, out)
				}
			})
		}
	}
}

func TestGridInViewAndBigEnough(t *testing.T) {
	for _, res := range [][2]int{{640, 480}, {1280, 720}, {480, 640}} {
		for seed := int64(0); seed < 30; seed++ {
			n := []int{4, 6, 8, 9, 12, 16}[seed%6]
			opts := DefaultOptions(res[0], res[1], seed)
			ph, err := Render(puzzle(t, n, seed), opts)
			if err != nil {
				t.Fatalf("%v seed %d: %v", res, seed, err)
			}
			if ph.Image.Cols() != res[0] || ph.Image.Rows() != res[1] || ph.Image.Type() != gocv.MatTypeCV8UC3 {
				t.Errorf("%v seed %d: image %dx%d type %v", res, seed, ph.Image.Cols(), ph.Image.Rows(), ph.Image.Type())
			}
			ph.Image.Close()
			var q [4][2]float64
			for i, c := range ph.Corners {
				if c.X < 0 || c.Y < 0 || c.X >= float32(res[0]) || c.Y >= float32(res[1]) {
					t.Errorf("%v seed %d: corner %d at %v is outside the photo", res, seed, i, c)
				}
				q[i] = [2]float64{float64(c.X), float64(c.Y)}
			}
			short := math.Min(float64(res[0]), float64(res[1]))
			if s, _ := quadSides(q); s < opts.MinSide*short-0.5 {
				t.Errorf("%v seed %d: shortest side %.1f px < %.0f%% of %v", res, seed, s, 100*opts.MinSide, short)
			}
			if want := puzzle(t, n, seed); ph.Truth.Shape != want.Shape || fmt.Sprint(ph.Truth.Cells) != fmt.Sprint(want.Cells) {
				t.Errorf("%v seed %d: truth differs from the puzzle rendered", res, seed)
			}
		}
	}
}

// conflicts reports a value repeated in a row, column or box.
func conflicts(g sudoku.Grid) error {
	n := g.N()
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			v := g.At(r, c)
			if v == 0 {
				continue
			}
			for k := 0; k < n; k++ {
				br := r/g.Shape.BoxRows*g.Shape.BoxRows + k/g.Shape.BoxCols
				bc := c/g.Shape.BoxCols*g.Shape.BoxCols + k%g.Shape.BoxCols
				if (k != c && g.At(r, k) == v) || (k != r && g.At(k, c) == v) || ((br != r || bc != c) && g.At(br, bc) == v) {
					return fmt.Errorf("r%dc%d: %d repeats", r+1, c+1, v)
				}
			}
		}
	}
	return nil
}

func TestRandomPuzzleIsUnique(t *testing.T) {
	for _, n := range []int{4, 6, 8, 9, 12, 16} {
		for seed := int64(0); seed < 3; seed++ {
			s, _ := ShapeFor(n)
			g, err := RandomPuzzle(s, seed, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := conflicts(g); err != nil {
				t.Fatalf("n=%d seed=%d: %v", n, seed, err)
			}
			givens := 0
			for _, v := range g.Cells {
				if v < 0 || v > n {
					t.Fatalf("n=%d seed=%d: a cell holds %d", n, seed, v)
				}
				if v != 0 {
					givens++
				}
			}
			if givens < DefaultClues(n) || givens > DefaultClues(n)+n {
				t.Errorf("n=%d seed=%d: %d givens, want about %d", n, seed, givens, DefaultClues(n))
			}
			if !sudoku.IsUnique(g) {
				t.Errorf("n=%d seed=%d: the puzzle has more than one solution", n, seed)
			}
		}
	}
	if _, err := RandomPuzzle(sudoku.Shape{BoxRows: 3, BoxCols: 2}, 1, 0); err == nil {
		t.Error("a 6x6 grid with 3x2 boxes was accepted")
	}
}

func TestBadInputIsRefused(t *testing.T) {
	good := DefaultOptions(640, 480, 1)
	g9 := puzzle(t, 9, 1)
	seven := sudoku.Grid{Shape: sudoku.Shape{BoxRows: 1, BoxCols: 7}, Cells: make([]int, 49)}
	tall := sudoku.Grid{Shape: sudoku.Shape{BoxRows: 3, BoxCols: 2}, Cells: make([]int, 36)}
	badCell := g9.Clone()
	badCell.Cells[10] = 10
	short := g9.Clone()
	short.Cells = short.Cells[:80]
	cases := []struct {
		name  string
		pz    sudoku.Grid
		edit  func(*Options)
		field string
	}{
		{"size 7", seven, nil, "puzzle"},
		{"6x6 with tall boxes", tall, nil, "puzzle"},
		{"value out of range", badCell, nil, "puzzle"},
		{"80 cells", short, nil, "puzzle"},
		{"zero width", g9, func(o *Options) { o.Width = 0 }, "Width"},
		{"negative height", g9, func(o *Options) { o.Height = -5 }, "Height"},
		{"tilt 90", g9, func(o *Options) { o.MaxTilt = 90 }, "MaxTilt"},
		{"min side zero", g9, func(o *Options) { o.MinSide = 0 }, "MinSide"},
		{"max below min", g9, func(o *Options) { o.MaxSide = 0.3 }, "MaxSide"},
		{"fingers 2", g9, func(o *Options) { o.Fingers = 2 }, "Fingers"},
		{"jpeg 101", g9, func(o *Options) { o.JPEGMax = 101 }, "JPEG"},
		{"jpeg min > max", g9, func(o *Options) { o.JPEGMin = 90; o.JPEGMax = 50 }, "JPEG"},
		{"unloaded font", g9, func(o *Options) { o.Fonts = []Font{{Name: "Nope"}} }, "Fonts"},
		{"impossible size", g9, func(o *Options) { o.MinSide, o.MaxSide, o.MaxTilt, o.MaxRotate = 0.9, 0.9, 60, 45 }, "MinSide"},
		{"weight 0.5", g9, func(o *Options) { o.Variety.Weight = 0.5 }, "Variety.Weight"},
		{"stains 1.5", g9, func(o *Options) { o.Variety.Stains = 1.5 }, "Variety.Stains"},
		{"symbols 7", g9, func(o *Options) { o.Symbols = 7 }, "Symbols"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := good
			if c.edit != nil {
				c.edit(&o)
			}
			ph, err := Render(c.pz, o)
			if err == nil {
				ph.Image.Close()
				t.Fatal("accepted")
			}
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Field != c.field {
				t.Fatalf("error %v: want an *OptionError for field %s", err, c.field)
			}
		})
	}
}

func TestFonts(t *testing.T) {
	gofonts, err := GoFonts()
	if err != nil {
		t.Fatal(err)
	}
	if len(gofonts) < 6 {
		t.Fatalf("%d Go fonts", len(gofonts))
	}
	all, err := Fonts(true)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range all {
		if names[f.Name] || f.Licence == "" || f.Family == "" {
			t.Errorf("font %+v: duplicate name or missing licence/family", f)
		}
		names[f.Name] = true
	}
	if _, err := os.Stat("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"); err == nil && !names["DejaVuSans"] {
		t.Error("DejaVuSans is installed but not listed")
	}
	if _, err := os.Stat("/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"); err == nil && !names["NimbusSans-Regular"] {
		t.Error("NimbusSans-Regular (CFF OpenType) is installed but not listed")
	}
	if names["D050000L"] {
		t.Error("the dingbat face D050000L is listed")
	}
	if _, err := LoadFont("/nonexistent/font.ttf", "x"); err == nil {
		t.Error("LoadFont of a missing file succeeded")
	}
	t.Logf("%d fonts (%d Go)", len(all), len(gofonts))
	// Every listed face must be able to print a whole 16×16 puzzle.
	pz := puzzle(t, 16, 3)
	for i, f := range all {
		if i%7 != 0 && i >= len(gofonts) {
			continue // a sample of the system faces keeps the test quick
		}
		opts := DefaultOptions(320, 240, int64(i))
		opts.Fonts = []Font{f}
		ph, err := Render(pz, opts)
		if err != nil {
			t.Errorf("font %s: %v", f.Name, err)
			continue
		}
		ph.Image.Close()
		if ph.Font != f.Name {
			t.Errorf("rendered with %s, want %s", ph.Font, f.Name)
		}
	}
}

func TestSymbols(t *testing.T) {
	for _, c := range []struct {
		s    Symbols
		v    int
		want string
	}{{Numbers, 7, "7"}, {Numbers, 10, "10"}, {Numbers, 16, "16"}, {Letters, 9, "9"}, {Letters, 10, "A"}, {Letters, 16, "G"}} {
		if got := c.s.Symbol(c.v); got != c.want {
			t.Errorf("%v.Symbol(%d) = %q, want %q", c.s, c.v, got, c.want)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	for _, res := range [][2]int{{640, 480}, {1280, 720}} {
		b.Run(fmt.Sprintf("%dx%d", res[0], res[1]), func(b *testing.B) {
			pz := puzzle(b, 9, 1)
			fonts, err := GoFonts()
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				opts := DefaultOptions(res[0], res[1], int64(i))
				opts.Fonts = fonts
				ph, err := Render(pz, opts)
				if err != nil {
					b.Fatal(err)
				}
				ph.Image.Close()
			}
		})
	}
}

// TestCellCorners checks the cell geometry against the pixels of clean
// photos: empty cells are paper in the middle with lines on their edges,
// and given cells have ink near their middle.
func TestCellCorners(t *testing.T) {
	var classic []LineStyle
	for _, s := range LineStyles() {
		if s.Name == "classic" || s.Name == "bold" {
			classic = append(classic, s)
		}
	}
	for _, n := range []int{4, 9, 16} {
		opts := DefaultOptions(1280, 720, int64(n))
		opts.MaxBlur, opts.MaxNoise, opts.Light, opts.JPEGMin, opts.JPEGMax = 0, 0, 0, 0, 0
		opts.Styles = classic
		ph, err := Render(puzzle(t, n, 9), opts)
		if err != nil {
			t.Fatal(err)
		}
		grey := gocv.NewMat()
		gocv.CvtColor(ph.Image, &grey, gocv.ColorBGRToGray)
		at := func(p gocv.Point2f) float64 {
			return float64(grey.GetUCharAt(int(math.Round(float64(p.Y))), int(math.Round(float64(p.X)))))
		}
		mid := func(a, b gocv.Point2f) gocv.Point2f { return gocv.Point2f{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2} }
		var centre, edge, inked float64
		var empties, givens int
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				q := ph.CellCorners(r, c)
				ctr := mid(q[0], q[2])
				if ph.Truth.At(r, c) == 0 {
					centre += at(ctr)
					edge += (at(mid(q[0], q[1])) + at(mid(q[1], q[2])) + at(mid(q[2], q[3])) + at(mid(q[3], q[0]))) / 4
					empties++
					continue
				}
				// The darkest pixel in the middle third of a given cell.
				darkest := 255.0
				for i := 1; i <= 5; i++ {
					for j := 1; j <= 5; j++ {
						fx, fy := float32(i)/6, float32(j)/6
						top := gocv.Point2f{X: q[0].X + (q[1].X-q[0].X)*fx, Y: q[0].Y + (q[1].Y-q[0].Y)*fx}
						bot := gocv.Point2f{X: q[3].X + (q[2].X-q[3].X)*fx, Y: q[3].Y + (q[2].Y-q[3].Y)*fx}
						darkest = math.Min(darkest, at(gocv.Point2f{X: top.X + (bot.X-top.X)*fy, Y: top.Y + (bot.Y-top.Y)*fy}))
					}
				}
				inked += darkest
				givens++
			}
		}
		grey.Close()
		ph.Image.Close()
		centre, edge, inked = centre/float64(empties), edge/float64(empties), inked/float64(givens)
		if centre < edge+40 || centre < inked+60 {
			t.Errorf("n=%d: empty centres %.0f, cell edges %.0f, given cells' ink %.0f: cells are not where CellCorners says", n, centre, edge, inked)
		}
	}
}

// TestConcurrentRender renders from several goroutines sharing one font
// list (as cmd/synth and the training code do) and expects the same photos
// as one goroutine makes.
func TestConcurrentRender(t *testing.T) {
	fonts, err := Fonts(true)
	if err != nil {
		t.Fatal(err)
	}
	pz := puzzle(t, 9, 4)
	render := func(seed int64) []byte {
		opts := DefaultOptions(320, 240, seed)
		opts.Fonts = fonts
		ph, err := Render(pz, opts)
		if err != nil {
			t.Error(err)
			return nil
		}
		ph.Image.Close()
		return ph.JPEG
	}
	const n = 12
	want := make([][]byte, n)
	for i := range want {
		want[i] = render(int64(i))
	}
	got := make([][]byte, n)
	done := make(chan int)
	for i := 0; i < n; i++ {
		go func(i int) {
			got[i] = render(int64(i))
			done <- i
		}(i)
	}
	for i := 0; i < n; i++ {
		<-done
	}
	for i := range want {
		if !bytes.Equal(want[i], got[i]) {
			t.Errorf("seed %d: concurrent render differs from the serial one", i)
		}
	}
}

// TestFingers checks a thumb changes the photo, not the truth: the same
// seed with and without it gives the same corners and a different image,
// and the thumb's skin shows near the grid.
func TestFingers(t *testing.T) {
	for seed := int64(0); seed < 6; seed++ {
		pz := puzzle(t, 9, seed)
		opts := DefaultOptions(640, 480, seed)
		opts.JPEGMin, opts.JPEGMax = 0, 0
		plain, err := Render(pz, opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.Fingers = 1
		held, err := Render(pz, opts)
		if err != nil {
			plain.Image.Close()
			t.Fatal(err)
		}
		if held.Corners != plain.Corners {
			t.Errorf("seed %d: the thumb moved the corners", seed)
		}
		diff := gocv.NewMat()
		gocv.AbsDiff(plain.Image, held.Image, &diff)
		grey := gocv.NewMat()
		gocv.CvtColor(diff, &grey, gocv.ColorBGRToGray)
		changed := gocv.CountNonZero(grey)
		grey.Close()
		diff.Close()
		plain.Image.Close()
		held.Image.Close()
		// A thumb is at least 0.16 of the grid side wide: thousands of
		// pixels; the rest of the photo (page, light, noise) is the same.
		if changed < 2000 || changed > 640*480/3 {
			t.Errorf("seed %d: %d pixels differ with a thumb", seed, changed)
		}
	}
}

// TestVariety: WorldOptions' photos are deterministic, differ from the
// plain ones, and every effect (weights, plain 1s, barred 7s, stains,
// glare, a screen) renders without error; a zero Variety leaves a photo's
// bytes as DefaultOptions makes them.
func TestVariety(t *testing.T) {
	pz := puzzle(t, 9, 7)
	plain := DefaultOptions(640, 480, 42)
	a, err := Render(pz, plain)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Image.Close()
	zero := plain
	zero.Variety = Variety{}
	b, err := Render(pz, zero)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Image.Close()
	if !bytes.Equal(a.JPEG, b.JPEG) {
		t.Error("a zero Variety changed the photo")
	}
	for _, v := range []Variety{
		{Weight: 0.05, PlainOnes: 1, BarSevens: 1},
		{Weight: 0.05, Stains: 1, Glare: 1},
		{Screen: 1},
	} {
		o := WorldOptions(640, 480, 42)
		o.Variety = v
		x, err := Render(pz, o)
		if err != nil {
			t.Fatalf("%+v: %v", v, err)
		}
		y, err := Render(pz, o)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x.JPEG, y.JPEG) {
			t.Errorf("%+v: same seed gave different photos", v)
		}
		if bytes.Equal(x.JPEG, a.JPEG) {
			t.Errorf("%+v: the photo did not change", v)
		}
		x.Image.Close()
		y.Image.Close()
	}
}

// TestZeroBasedPage: a 16×16 page in 0..F prints a 0 and letters up to F.
func TestZeroBasedPage(t *testing.T) {
	pz := puzzle(t, 16, 3)
	o := DefaultOptions(1280, 720, 5)
	o.Symbols = ZeroBased
	ph, err := Render(pz, o)
	if err != nil {
		t.Fatal(err)
	}
	ph.Image.Close()
	if ZeroBased.Symbol(1) != "0" || ZeroBased.Symbol(16) != "F" {
		t.Errorf("0..F symbols: %q..%q", ZeroBased.Symbol(1), ZeroBased.Symbol(16))
	}
}
