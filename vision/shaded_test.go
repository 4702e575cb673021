package vision

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sudokuar/sudokuar/sudoku"
	"github.com/sudokuar/sudokuar/synth"
)

// TestShadedBoxes reads synthetic pages whose alternate boxes are printed
// on a tint (issue 33: magazines in grey or colour), photographed by a
// webcam (640×480, the grid 30–70% of the short side, tilted, turned and
// blurred; world: the training photos' harsher JPEG, noise and print, the
// grid up to 80% and the page's edge in view more often):
// the grid's corners within 3%, its box shape right and every cell's
// emptiness right (a cell on a tint holds no ink). With every line at one
// width only the tint shows the boxes; on main a 6×6, 8×8 or 12×12 so
// printed was read with its boxes turned (3×2, 4×2, 6×2 or 4×3), and the
// faint outer line of a tinted corner box, lost by the line mask near
// the corner, was read as a given there (world, light grey, seed 108).
func TestShadedBoxes(t *testing.T) {
	fonts, err := synth.GoFonts()
	if err != nil {
		t.Fatal(err)
	}
	styles := map[string]synth.LineStyle{}
	for _, st := range synth.ShadedStyles() {
		styles[st.Name] = st
	}
	det := NewDetector(Options{})
	defer det.Close()
	for _, c := range []struct {
		style         string
		n             int
		corners, even bool // the corner boxes shaded; lines of one width
		world         bool // synth.WorldOptions' photos
		seeds         []int64
	}{
		{"shaded-light", 9, false, false, false, []int64{1, 2, 5}},
		{"shaded-grey", 9, true, false, false, []int64{1, 2, 5}},
		{"shaded-dark", 9, false, false, false, []int64{2, 5, 6}},
		{"shaded-grey", 9, false, true, false, []int64{1, 2, 3}},
		{"tint-blue", 9, false, false, false, []int64{1, 2, 5}},
		{"tint-yellow", 9, true, true, false, []int64{1, 2, 3}},
		{"tint-pink", 9, false, true, false, []int64{1, 4, 6}},
		{"shaded-grey", 6, false, true, false, []int64{1, 2, 4}},
		{"tint-pink", 6, true, true, false, []int64{1, 2, 4}},
		{"shaded-light", 8, false, true, false, []int64{1, 2, 4}},
		{"tint-green", 8, true, true, false, []int64{1, 2, 4}},
		{"shaded-dark", 8, false, false, false, []int64{1, 2, 4}},
		{"tint-blue", 12, false, true, false, []int64{1, 2, 3}},
		{"shaded-grey", 12, true, true, false, []int64{1, 2, 3}},
		{"tint-yellow", 12, false, false, false, []int64{1, 2, 3}},
		{"shaded-light", 9, true, true, true, []int64{103, 105, 108}},
		{"shaded-dark", 9, false, false, true, []int64{100, 103, 108}},
		{"tint-green", 9, true, false, true, []int64{101, 104, 108}},
	} {
		st, ok := styles[c.style]
		if !ok {
			t.Fatalf("no style %q in synth.ShadedStyles", c.style)
		}
		st.ShadeCorners, st.Even = c.corners, c.even
		name := fmt.Sprintf("%s %d×%d corners=%v even=%v world=%v", c.style, c.n, c.n, c.corners, c.even, c.world)
		t.Run(name, func(t *testing.T) {
			want, err := synth.ShapeFor(c.n)
			if err != nil {
				t.Fatal(err)
			}
			for _, seed := range c.seeds {
				pz, err := synth.RandomPuzzle(want, seed, 0)
				if err != nil {
					t.Fatal(err)
				}
				o := synth.DefaultOptions(640, 480, seed)
				o.MinSide, o.MaxSide, o.MaxBlur = 0.3, 0.7, 2.2
				if c.world {
					o = synth.WorldOptions(640, 480, seed)
					o.MaxSide, o.DeskShare = 0.8, 0.6
				}
				o.Styles, o.Fonts = []synth.LineStyle{st}, fonts
				ph, err := synth.Render(pz, o)
				if err != nil {
					t.Fatal(err)
				}
				g, cells, err := det.Analyze(ph.Image)
				ph.Image.Close()
				if err != nil {
					t.Errorf("seed %d: %v", seed, err)
					continue
				}
				var corners [4]pt
				for i, p := range ph.Corners {
					corners[i] = pt{float64(p.X), float64(p.Y)}
				}
				if e := cornerError(g.Corners, corners); e > 0.03 {
					t.Errorf("seed %d: corner error %.1f%%", seed, 100*e)
				}
				if g.Shape != want || len(cells) != c.n*c.n {
					t.Errorf("seed %d: shape %v (conf %.2f) with %d cells, want %v", seed, g.Shape, g.ShapeConfidence, len(cells), want)
					continue
				}
				var miss []string
				for i, cell := range cells {
					if cell.Empty != (pz.Cells[i] == 0) {
						miss = append(miss, fmt.Sprintf("r%dc%d (ink %d)", cell.Row+1, cell.Col+1, cell.Ink))
					}
				}
				if len(miss) > 0 {
					t.Errorf("seed %d: emptiness wrong in %s", seed, strings.Join(miss, ", "))
				}
			}
		})
	}
}

// TestShadedWorld measures 9×9 pages with tinted boxes in the training
// photos' harsher look (synth.WorldOptions at 640×480: JPEG down to 15,
// print weight, stains, glare, the page's edge often in view), grey and
// blue, the corner boxes shaded or not, every line at one width: how
// many are read as a 9×9 with corners within 3%; how many are read,
// without a quality flag, from a quadrilateral off the grid, as another
// size (a 10×10 or 8×8) or as a 9×9 (the worst: it reads, and may solve,
// a wrong puzzle); and on how many cells of the grids read right and not
// flagged the emptiness is wrong. The target is all right;
// the floors are today's figures (docs/performance.md), so a regression
// fails while the gap stays in the log.
func TestShadedWorld(t *testing.T) {
	fonts, err := synth.GoFonts()
	if err != nil {
		t.Fatal(err)
	}
	det := NewDetector(Options{})
	defer det.Close()
	want := sudoku.Shape{BoxRows: 3, BoxCols: 3}
	var photos, right, otherSize, offGrid, cellsWrong int
	for _, st := range synth.ShadedStyles() {
		if st.Name != "shaded-grey" && st.Name != "tint-blue" {
			continue
		}
		// Every line at one width, as the magazines that shade their
		// boxes print them (others-train/wizardxz-1).
		st.Even, st.Thin = true, 0.03
		for _, corners := range []bool{false, true} {
			{
				st.ShadeCorners = corners
				for seed := int64(100); seed < 130; seed++ {
					pz, err := synth.RandomPuzzle(want, seed, 0)
					if err != nil {
						t.Fatal(err)
					}
					o := synth.WorldOptions(640, 480, seed)
					o.MaxSide, o.DeskShare = 0.8, 0.6
					o.Styles, o.Fonts = []synth.LineStyle{st}, fonts
					ph, err := synth.Render(pz, o)
					if err != nil {
						t.Fatal(err)
					}
					g, cells, err := det.Analyze(ph.Image)
					ph.Image.Close()
					photos++
					name := fmt.Sprintf("%s corners=%v seed %d", st.Name, corners, seed)
					var q [4]pt
					for i, p := range ph.Corners {
						q[i] = pt{float64(p.X), float64(p.Y)}
					}
					read := len(cells) == 81 && cornerError(g.Corners, q) <= 0.03
					switch {
					case len(cells) > 0 && g.Shape != want && err == nil:
						otherSize++
						t.Logf("%s: read as %v (%v)", name, g.Shape, g.Via)
					case len(cells) > 0 && err == nil && cornerError(g.Corners, q) > 0.1:
						offGrid++
						t.Logf("%s: read off the grid, corner error %.1f%% (%v)", name, 100*cornerError(g.Corners, q), g.Via)
					case read:
						right++
					default:
						t.Logf("%s: corner error %.1f%%, %d cells: %v", name, 100*cornerError(g.Corners, q), len(cells), err)
					}
					if read && err == nil {
						for i, c := range cells {
							if c.Empty != (pz.Cells[i] == 0) {
								cellsWrong++
								t.Logf("%s: r%dc%d emptiness wrong (ink %d)", name, c.Row+1, c.Col+1, c.Ink)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("shaded 9×9 world photos %d: read right %d; unflagged, read as another size %d, as a 9×9 off the grid %d; cells with emptiness wrong %d",
		photos, right, otherSize, offGrid, cellsWrong)
	if photos == 120 && (right < 103 || otherSize > 3 || offGrid > 2 || cellsWrong > 9) {
		t.Errorf("regression: right %d (floor 103), another size %d (at most 3), off the grid %d (at most 2), emptiness wrong %d (at most 9)",
			right, otherSize, offGrid, cellsWrong)
	}
}
