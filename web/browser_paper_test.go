package web

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudokuar/sudokuar/internal/testenv"
	"github.com/sudokuar/sudokuar/sudoku"
)

// penPage is a held-out pen-filled photo of ../shared's wicht-mixed-train
// (the first name of testdata/live/wicht-holdout.list that is there) with
// its printed givens (.dat) and handwritten entries (.pen).
type penPage struct {
	photo          string
	given, entries []int
	solution       []int
	swapped        [2]int // two entries exchanged: both wrong
	unsure         int    // a right entry the stand-in is not sure of
	dropped        []int  // entries left out: the page is not finished
	wantBoard      string // the game's board once carried over
	wantWrong      []int
	progress       string
}

func loadPenPage(t *testing.T) penPage {
	t.Helper()
	dir := testenv.Shared(t, "datasets/wicht-mixed-train")
	f, err := os.Open(testenv.Committed(t, "testdata/live/wicht-holdout.list"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var p penPage
	for sc := bufio.NewScanner(f); sc.Scan() && p.photo == ""; {
		base := strings.TrimSuffix(filepath.Base(strings.TrimSpace(sc.Text())), ".jpg")
		if _, err := os.Stat(filepath.Join(dir, base+".pen")); err == nil {
			p.photo = filepath.Join(dir, base+".jpg")
		}
	}
	if p.photo == "" {
		testenv.Missing(t, "no held-out page of testdata/live/wicht-holdout.list in "+dir)
	}
	g, err := sudoku.ReadDatFile(strings.TrimSuffix(p.photo, ".jpg") + ".dat")
	if err != nil {
		t.Fatal(err)
	}
	pen, err := sudoku.ReadDatFile(strings.TrimSuffix(p.photo, ".jpg") + ".pen")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sudoku.Solve(g)
	if err != nil {
		t.Fatal(err)
	}
	p.given, p.entries, p.solution = g.Cells, slices.Clone(pen.Cells), sol.Cells
	// A page half done with two mistakes: the last row's entries left
	// out, and the first two different entries of row 2 exchanged.
	for i := 72; i < 81; i++ {
		if p.entries[i] != 0 {
			p.entries[i] = 0
			p.dropped = append(p.dropped, i)
		}
	}
	a := -1
	for i := 9; i < 18; i++ {
		if p.entries[i] == 0 {
			continue
		}
		if a < 0 {
			a = i
		} else if p.entries[i] != p.entries[a] {
			p.swapped = [2]int{a, i}
			break
		}
	}
	p.entries[p.swapped[0]], p.entries[p.swapped[1]] = p.entries[p.swapped[1]], p.entries[p.swapped[0]]
	p.unsure = -1
	for i := 18; i < 27 && p.unsure < 0; i++ {
		if p.entries[i] != 0 {
			p.unsure = i
		}
	}
	board := slices.Clone(p.given)
	for i, v := range p.entries {
		if v != 0 {
			board[i] = v
		}
	}
	p.wantBoard = sudoku.CellString(board)
	p.wantWrong = []int{p.swapped[0], p.swapped[1]}
	slices.Sort(p.wantWrong)
	n := 0
	for _, v := range p.entries {
		if v != 0 {
			n++
		}
	}
	p.progress = fmt.Sprintf("%d entries, 2 wrong, %d cells to go", n, len(p.dropped))
	return p
}

// penConfig is a server that reads with the embedded pen models (the
// default).
func penConfig() Config { return Config{} }

// standIn answers /api/scan for the pen page as the pen-aware reader will
// (PAPER-CONTRACT.md's fields) from the page's truth, until that reader
// exists: the grid is found by the real pipeline, the rest comes from
// p. Every other request goes to h untouched.
func standIn(t *testing.T, h http.Handler, p penPage) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/scan" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var v map[string]any
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &v) != nil || v["found"] != true {
			t.Errorf("the real scan of %s: %d %.300s: want the grid found", p.photo, rec.Code, rec.Body)
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		for _, k := range []string{"conflicts", "check", "changed", "conf", "grids", "rating", "level"} {
			delete(v, k)
		}
		v["given"], v["solution"], v["status"], v["box"] = sudoku.CellString(p.given), sudoku.CellString(p.solution), "solved", []int{3, 3}
		v["entries"], v["mistakes"], v["progress"] = sudoku.CellString(p.entries), p.wantWrong, p.progress
		v["entry_check"] = []map[string]any{{"cell": p.unsure, "name": sudoku.CellName(p.unsure, 9), "reason": "read 4 (p=0.61)"}}
		v["clashes"] = clashes(p.given, p.entries)
		v["notes"] = []int{p.dropped[0]} // pencil notes in a cell left open
		b, _ := json.Marshal(v)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
}

// clashes lists the entries equal to a given or another entry in their
// row, column or box (9×9).
func clashes(given, entries []int) []int {
	board := slices.Clone(given)
	for i, v := range entries {
		if v != 0 {
			board[i] = v
		}
	}
	var out []int
	for i, v := range entries {
		if v == 0 {
			continue
		}
		for j := range 81 {
			same := j/9 == i/9 || j%9 == i%9 || (j/27 == i/27 && j%9/3 == i%9/3)
			if j != i && same && board[j] == v {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// TestBrowserContinueHere uploads a held-out pen-filled photo: the page
// tells printed from handwritten digits, says nothing of right or wrong
// until "Check my entries" marks the two wrong entries red and names the
// unsure one, and Continue here opens a game of the printed givens whose
// board holds the entries, the wrong ones hidden. The page stays within
// a 360×740 phone's width and axe-clean.
func TestBrowserContinueHere(t *testing.T) {
	p := loadPenPage(t)
	ts := startServer(t, filepath.Join(t.TempDir(), "paper.db"), "127.0.0.1:0")
	hs := httptest.NewServer(standIn(t, ts.web.Handler(), p))
	t.Cleanup(hs.Close)
	b := newBrowser(t, 1280, 1000)
	b.run("open upload", chromedp.Navigate(hs.URL+"/upload"))
	b.waitJS("the form", `!!document.getElementById('photo')`, 10*time.Second)
	b.run("choose the pen page", chromedp.SetUploadFiles(`#photo`, []string{p.photo}, chromedp.ByQuery))
	b.waitJS("the page read as started", `!document.getElementById('paper').hidden && document.getElementById('paper-read').textContent.startsWith('A started page')`, 60*time.Second)
	b.waitJS("the givens judged", `!document.getElementById('continue').disabled`, 10*time.Second)

	type cellState struct {
		Text  string `json:"t"`
		Given bool   `json:"g"`
		Pen   bool   `json:"p"`
		Wrong bool   `json:"w"`
		Check bool   `json:"u"`
		Notes bool   `json:"n"`
		Label string `json:"l"`
	}
	cells := func() []cellState {
		var out []cellState
		b.eval(`Array.from(document.querySelectorAll('#board .cell'), (c) => ({t: c.textContent, g: c.classList.contains('given'),
		  p: c.classList.contains('pen'), w: c.classList.contains('wrong'), u: c.classList.contains('unsure'),
		  n: c.classList.contains('notes'), l: c.getAttribute('aria-label')}))`, &out)
		if len(out) != 81 {
			t.Fatalf("the board has %d cells", len(out))
		}
		return out
	}
	for i, c := range cells() {
		switch {
		case p.given[i] != 0 && (!c.Given || c.Text != fmt.Sprint(p.given[i])):
			t.Errorf("%s shows %+v, want the printed %d", sudoku.CellName(i, 9), c, p.given[i])
		case p.entries[i] != 0 && (!c.Pen || c.Given || c.Text != fmt.Sprint(p.entries[i])):
			t.Errorf("%s shows %+v, want the handwritten %d", sudoku.CellName(i, 9), c, p.entries[i])
		case c.Wrong || c.Check:
			t.Errorf("%s is marked %+v before any check", sudoku.CellName(i, 9), c)
		case c.Notes != (i == p.dropped[0]) || (c.Notes && !strings.HasSuffix(c.Label, "pencil notes")):
			t.Errorf("%s: %+v, want notes only in %s", sudoku.CellName(i, 9), c, sudoku.CellName(p.dropped[0], 9))
		}
	}
	var text, wrongDrawn string
	b.eval(`document.getElementById('side').innerText`, &text)
	if strings.Contains(text, "wrong") || strings.Contains(text, sudoku.CellName(p.swapped[0], 9)) {
		t.Errorf("before the check the page says %q: it must not tell right from wrong", text)
	}
	b.eval(`document.getElementById('photo-canvas').dataset.wrong`, &wrongDrawn)
	if wrongDrawn != "0" {
		t.Errorf("before the check %s red marks are drawn on the photo", wrongDrawn)
	}
	b.shot("upload-pen")

	b.run("check my entries", chromedp.Click(`#check-entries`, chromedp.ByID))
	b.waitJS("the check", `document.getElementById('paper-msg').textContent.includes('Wrong (marked red)')`, 10*time.Second)
	var wrong []int
	for i, c := range cells() {
		if c.Wrong {
			wrong = append(wrong, i)
		}
		if c.Check != (i == p.unsure) {
			t.Errorf("%s: to check %v, want %v", sudoku.CellName(i, 9), c.Check, i == p.unsure)
		}
	}
	if !slices.Equal(wrong, p.wantWrong) {
		t.Errorf("marked wrong: %v, want %v", wrong, p.wantWrong)
	}
	b.eval(`document.getElementById('paper-msg').textContent`, &text)
	for _, want := range []string{sudoku.CellName(p.wantWrong[0], 9), sudoku.CellName(p.wantWrong[1], 9), "check " + sudoku.CellName(p.unsure, 9), p.progress} {
		if !strings.Contains(strings.ToLower(text), strings.ToLower(want)) {
			t.Errorf("the check says %q, want %q in it", text, want)
		}
	}
	b.eval(`document.getElementById('photo-canvas').dataset.wrong`, &wrongDrawn)
	if wrongDrawn != "2" {
		t.Errorf("after the check %s red marks on the photo, want 2", wrongDrawn)
	}
	b.shot("upload-pen-checked")

	// At a phone's size, touch: nothing overflows, axe finds nothing.
	emulate(b, layoutWindow{name: "phone-360", w: 360, h: 740, phone: true})
	b.waitJS("settled", settledJS, 10*time.Second)
	var flaws []string
	b.eval(fmt.Sprintf("%s(%v)", auditJS, true), &flaws)
	if len(flaws) > 0 {
		t.Errorf("layout flaws at 360×740: %q", flaws)
	}
	if v := b.axe(axeSource(t)); len(v) > 0 {
		t.Errorf("axe: %q", v)
	}
	b.viewShot("upload-pen-phone")

	b.run("hide the check", chromedp.Click(`#check-entries`, chromedp.ByID))
	b.waitJS("hidden again", `document.querySelectorAll('#board .cell.wrong').length === 0`, 10*time.Second)
	b.run("continue here", chromedp.Click(`#continue`, chromedp.ByID))
	b.waitJS("the game", `location.pathname.startsWith('/play/') && document.querySelectorAll('#board .cell').length === 81`, 20*time.Second)
	b.waitJS("the board drawn", `Array.from(document.querySelectorAll('#board .cell'), (c) => c.textContent || '0').join('') === `+fmt.Sprintf("%q", p.wantBoard), 10*time.Second)
	var game struct {
		Puzzle   string `json:"puzzle"`
		Own      bool   `json:"own"`
		Wrong    []int  `json:"wrong"`
		Mistakes *int   `json:"mistakes"`
		CanUndo  bool   `json:"canUndo"`
	}
	b.run("the game's view", chromedp.Evaluate(`fetch('/api/games/' + location.pathname.split('/').pop()).then((r) => r.json())`, &game, awaitPromise))
	if game.Puzzle != sudoku.CellString(p.given) || !game.Own || len(game.Wrong) != 0 || game.Mistakes != nil || !game.CanUndo {
		t.Errorf("the game: %+v, want the printed givens, own, no wrong shown, no mistakes counted, the entries undoable", game)
	}
	var shownWrong int
	b.eval(`document.querySelectorAll('#board .cell.wrong').length`, &shownWrong)
	if shownWrong != 0 {
		t.Errorf("the game shows %d wrong cells before any check", shownWrong)
	}
	b.shot("continue-here-game")
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}

// TestBrowserCameraPaper points the fake camera at a held-out pen-filled
// page (finished and right) with the pen model: the page offers Check my
// entries, nothing tells right from wrong or carries the solution until
// asked, C turns checking on through {"type":"check"}, no entry is called
// wrong, and the "Solved" banner shows as the frames say. With a reader
// that finds no handwriting it skips, saying so.
func TestBrowserCameraPaper(t *testing.T) {
	p := loadPenPage(t)
	y4m := filepath.Join(t.TempDir(), "pen.y4m")
	if err := writeY4M(y4m, decodeFile(t, p.photo), 1280, 720, 2); err != nil {
		t.Fatal(err)
	}
	ts := startServerConfig(t, filepath.Join(t.TempDir(), "campen.db"), "127.0.0.1:0", penConfig())
	b := newBrowser(t, 1000, 1200,
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", y4m),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
	)
	b.run("open the camera", chromedp.Navigate(ts.URL+"/camera"))
	b.waitJS("the grid read", `window.sudokuarCamera && window.sudokuarCamera.last && window.sudokuarCamera.last.given !== ''`, 30*time.Second)
	var pen int
	deadline := time.Now().Add(20 * time.Second)
	for pen == 0 && time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		b.eval(`window.sudokuarCamera.pen`, &pen)
	}
	if pen == 0 {
		var st string
		b.eval(`JSON.stringify({status: window.sudokuarCamera.last.status, given: window.sudokuarCamera.last.given})`, &st)
		t.Logf("the last frame: %s", st)
		b.shot("camera-pen-unread")
		t.Skip("no entries in 20 s of frames: the camera session read no pen page")
	}
	b.waitJS("Check my entries offered", `!document.getElementById('check').hidden`, 5*time.Second)
	time.Sleep(2 * time.Second) // frames unasked, to catch a leak
	b.run("C", chromedp.KeyEvent("c"))
	b.waitJS("checking on", `window.sudokuarCamera.last.checking === true`, 15*time.Second)
	// The banner says what the frames say; the page is all right, so a
	// check calls nothing wrong.
	b.waitJS("the banner as the frame says", `document.getElementById('solved').hidden === !window.sudokuarCamera.last.solved`, 5*time.Second)
	var last struct {
		Progress string `json:"progress"`
		Mistakes []int  `json:"mistakes"`
		Solved   bool   `json:"solved"`
	}
	time.Sleep(2 * time.Second) // a few checked frames
	b.eval(`window.sudokuarCamera.last`, &last)
	if len(last.Mistakes) > 0 {
		t.Errorf("right entries called wrong on the camera: %v (%s)", last.Mistakes, last.Progress)
	}
	t.Logf("checking: %q, solved %v", last.Progress, last.Solved)
	var leaks int
	b.eval(`window.sudokuarCamera.leaks`, &leaks)
	if leaks > 0 {
		t.Errorf("%d pen-page frames carried mistakes unasked or the solution", leaks)
	}
	b.shot("camera-pen-checked")
	b.run("C again", chromedp.Click(`#check`, chromedp.ByID))
	b.waitJS("checking off", `window.sudokuarCamera.last.checking !== true`, 15*time.Second)
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}

// TestBrowserUploadPenReal uploads the held-out pen page to the real
// reader (no stand-in): the page shows it as started, and a check calls
// no entry wrong (the page's entries are all right: a false alarm is the
// worst answer here). It skips while the reader finds no handwriting.
func TestBrowserUploadPenReal(t *testing.T) {
	p := loadPenPage(t)
	ts := startServerConfig(t, filepath.Join(t.TempDir(), "penreal.db"), "127.0.0.1:0", penConfig())
	b := newBrowser(t, 1280, 1000)
	b.run("open upload", chromedp.Navigate(ts.URL+"/upload"))
	b.waitJS("the form", `!!document.getElementById('photo')`, 10*time.Second)
	b.run("choose the pen page", chromedp.SetUploadFiles(`#photo`, []string{p.photo}, chromedp.ByQuery))
	b.waitJS("the photo read", `document.getElementById('scan-msg').textContent !== 'Reading the photo…' && document.getElementById('scan-msg').textContent !== ''`, 60*time.Second)
	var started bool
	b.eval(`!document.getElementById('paper').hidden`, &started)
	if !started {
		t.Skip("the reader found no handwriting on the pen page: this test needs the pen model wired into the pipeline")
	}
	b.waitJS("the givens judged", `document.getElementById('verdict').textContent !== 'Checking…'`, 10*time.Second)
	b.run("check my entries", chromedp.Click(`#check-entries`, chromedp.ByID))
	b.waitJS("the check", `document.getElementById('paper-msg').textContent !== ''`, 10*time.Second)
	var wrong []int
	b.eval(`Array.from(document.querySelectorAll('#board .cell')).flatMap((c, i) => c.classList.contains('wrong') && c.classList.contains('pen') ? [i] : [])`, &wrong)
	var msg string
	b.eval(`document.getElementById('paper-msg').textContent`, &msg)
	if len(wrong) > 0 {
		t.Errorf("right entries called wrong: %v (%s)", wrong, msg)
	}
	t.Logf("the check says: %s", msg)
	b.shot("upload-pen-real")
}
