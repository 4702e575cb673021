package web

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserUpload uploads a real photo through the page, fixes nothing
// and solves: the recognised grid must be the true one and the solution
// drawn on the photo. A file that is not an image and a photo without a
// grid get their clear messages.
func TestBrowserUpload(t *testing.T) {
	photo, want := cameraPhoto(t)
	ts := startServer(t, filepath.Join(t.TempDir(), "upload.db"), "127.0.0.1:0")
	b := newBrowser(t, 1280, 1000)
	b.run("open upload", chromedp.Navigate(ts.URL+"/upload"))
	b.waitJS("the form", `!!document.getElementById('photo')`, 10*time.Second)
	b.run("choose the photo", chromedp.SetUploadFiles(`#photo`, []string{photo}, chromedp.ByQuery))
	b.waitJS("the photo read and solved", `document.getElementById('scan-msg').textContent.startsWith('Solved') && Number(document.getElementById('photo-canvas').dataset.drawn) > 0`, 60*time.Second)
	b.waitJS("the verdict", `document.getElementById('verdict').textContent.startsWith('One solution')`, 10*time.Second)
	// The verdict repaints the photo: the solution stays drawn on it.
	var drawn string
	b.eval(`document.getElementById('photo-canvas').dataset.drawn`, &drawn)
	if drawn == "" || drawn == "0" {
		t.Errorf("after the verdict the photo shows %q solution digits, want them still drawn", drawn)
	}

	// The editable grid holds the givens as read: all the true ones.
	var cells []string
	b.eval(`Array.from(document.querySelectorAll('#board .cell'), (c) => c.textContent)`, &cells)
	if len(cells) != 81 {
		t.Fatalf("the grid has %d cells", len(cells))
	}
	for i, c := range cells {
		if c != "" && c != string(want[i]) {
			t.Errorf("cell %d reads %q, the solution has %c", i, c, want[i])
		}
	}
	b.run("solve", chromedp.Click(`#solve`, chromedp.ByQuery))
	b.waitJS("solved by dlx", `document.getElementById('msg').textContent.startsWith('Solved by dlx')`, 10*time.Second)
	b.eval(`Array.from(document.querySelectorAll('#board .cell'), (c) => c.textContent).join('')`, new(string))
	var all string
	b.eval(`Array.from(document.querySelectorAll('#board .cell'), (c) => c.textContent).join('')`, &all)
	if all != want {
		t.Errorf("after Solve the grid shows %q, want %q", all, want)
	}
	b.shot("upload-solved")

	// Not an image.
	dir := t.TempDir()
	txt := filepath.Join(dir, "notes.txt")
	os.WriteFile(txt, []byte("shopping: eggs, milk"), 0o644)
	b.run("choose a text file", chromedp.SetUploadFiles(`#photo`, []string{txt}, chromedp.ByQuery))
	b.waitJS("not an image", `document.getElementById('scan-msg').textContent.includes('not an image')`, 20*time.Second)
	// A picture without a grid.
	blank := filepath.Join(dir, "wall.png")
	img := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for y := range 300 {
		for x := range 400 {
			img.Set(x, y, color.RGBA{uint8(200 + x%20), 190, 180, 255})
		}
	}
	f, _ := os.Create(blank)
	png.Encode(f, img)
	f.Close()
	b.run("choose a blank picture", chromedp.SetUploadFiles(`#photo`, []string{blank}, chromedp.ByQuery))
	b.waitJS("no grid", `document.getElementById('scan-msg').textContent.startsWith('No Sudoku grid found')`, 20*time.Second)
	b.shot("upload-no-grid")
	if len(b.errors) > 0 {
		t.Errorf("script errors: %q", b.errors)
	}
}
