package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gocv.io/x/gocv"
)

// Keys the session reacts to.
const (
	keyTab   = 9
	keyEsc   = 27
	keySpace = 32
)

// handleKey reacts to a key press; it reports whether to quit.
func (s *session) handleKey(key, i int, frame gocv.Mat, sum *Summary) bool {
	if key < 0 {
		return false
	}
	switch key & 0xff {
	case 'q', 'Q', keyEsc:
		return true
	case keySpace:
		if s.penPage() {
			s.fill = !s.fill // a started page: fill the empty cells, or stop
		} else {
			s.auto = !s.auto
		}
	case 'c', 'C':
		s.checking = !s.checking
	case keyTab:
		// Another puzzle on the page: follow it, and read it before
		// anything is drawn into it.
		if s.nextGrid() {
			s.track.forget()
			s.page = s.page.next(pageEvent{kind: gridChosen, frame: i + 1})
			s.best.reset() // the frames before show the other grid
			s.refollow()
			s.focusBy, s.tabAt = byUser, i+1
		}
	case 'h', 'H':
		if s.penPage() {
			s.togglePenHint()
		} else {
			s.toggleHint()
		}
	case 's', 'S':
		files, err := s.save(frame)
		if err != nil {
			s.logf("save: %v", err)
			break
		}
		sum.Saved = append(sum.Saved, files...)
		s.logf("saved %s", strings.Join(files, ", "))
	}
	return false
}

// save writes the annotated frame as PNG and the recognised puzzle (and its
// solution, if any) as text next to it.
func (s *session) save(frame gocv.Mat) ([]string, error) {
	dir := s.opts.SaveDir
	if dir == "" {
		dir = "."
	}
	base := filepath.Join(dir, "sudokuar-"+time.Now().Format("20060102-150405.000"))
	img := base + ".png"
	if !gocv.IMWrite(img, frame) {
		return nil, fmt.Errorf("write %s: OpenCV could not write it", img)
	}
	files := []string{img}
	if len(s.cur.puzzle.Cells) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "# puzzle (%s boxes) read by sudokuar from frame %d\n%s\n", s.cur.puzzle.Shape, s.cur.frame, s.cur.puzzle.Pretty())
		if sol := s.cur.verdict.Solution; len(sol.Cells) > 0 {
			fmt.Fprintf(&b, "# solution\n%s\n", sol.Pretty())
		} else {
			fmt.Fprintf(&b, "# %s\n", s.cur.verdict.Status)
		}
		txt := base + ".txt"
		if err := os.WriteFile(txt, []byte(b.String()), 0o644); err != nil {
			return files, fmt.Errorf("write %s: %w", txt, err)
		}
		files = append(files, txt)
	}
	return files, nil
}
