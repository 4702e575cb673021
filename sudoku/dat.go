package sudoku

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The photo-dataset .dat format (Wicht & Hennebert's Sudoku dataset): a
// first line naming the camera, a second describing the photo (e.g.
// "640x480:24 JPG"; its spacing varies, "960x1280: 24 JPG"), then N lines
// of N space-separated values, 0 for an empty cell. The header lines are
// kept as they are, not interpreted; N comes from the first grid row and
// the box shape is ShapeForN's (9x9 with 3x3 boxes in the dataset). Line
// endings may be CRLF, and blank lines after the grid are ignored.

// ReadDat reads a grid in the .dat format. Format errors are *ParseError.
func ReadDat(r io.Reader) (Grid, error) {
	g, _, err := ReadDatHeader(r)
	return g, err
}

// DatHeader is what a .dat file says about its photo: the first two lines.
type DatHeader struct {
	Camera string // line 1, e.g. "sonyEricsson s500i"
	Photo  string // line 2, e.g. "640x480:24 JPG"
}

// ReadDatHeader is ReadDat that also returns the two header lines.
func ReadDatHeader(r io.Reader) (Grid, DatHeader, error) {
	var hdr DatHeader
	fail := func(line, col, cell int, format string, args ...any) (Grid, DatHeader, error) {
		return Grid{}, hdr, &ParseError{Format: "dat", Line: line, Col: col, Cell: cell, Reason: fmt.Sprintf(format, args...)}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var lines []string
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return Grid{}, hdr, fmt.Errorf("read dat: %w", err)
	}
	if len(lines) < 3 {
		return fail(len(lines)+1, 0, -1, "too short: want 2 header lines and the grid rows")
	}
	hdr.Camera, hdr.Photo = strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
	first := strings.Fields(lines[2])
	n := len(first)
	shape, err := ShapeForN(n)
	if err != nil {
		return fail(3, 0, -1, "first grid row has %d values: %v", n, err)
	}
	g := NewGrid(shape)
	rows := 0
	for k := 2; k < len(lines); k++ {
		f := strings.Fields(lines[k])
		if rows == n {
			if len(f) != 0 {
				return fail(k+1, 1, -1, "unexpected text after the %d grid rows", n)
			}
			continue
		}
		if len(f) != n {
			return fail(k+1, 0, rows*n, "grid row %d has %d values, want %d", rows+1, len(f), n)
		}
		for c, text := range f {
			v, err := strconv.Atoi(text)
			if err != nil || v < 0 || v > n || text[0] == '+' || text[0] == '-' {
				return fail(k+1, c+1, rows*n+c, "cell r%dc%d: %q is not a value 0..%d", rows+1, c+1, text, n)
			}
			g.Cells[rows*n+c] = v
		}
		rows++
	}
	if rows < n {
		return fail(len(lines)+1, 0, rows*n, "%d grid rows, want %d", rows, n)
	}
	return g, hdr, nil
}

// ReadDatFile reads a .dat file from disk; see ReadDat.
func ReadDatFile(path string) (Grid, error) {
	f, err := os.Open(path)
	if err != nil {
		return Grid{}, fmt.Errorf("read dat %s: %w", path, err)
	}
	defer f.Close()
	g, err := ReadDat(f)
	if err != nil {
		return Grid{}, fmt.Errorf("read dat %s: %w", path, err)
	}
	return g, nil
}

// WriteDat writes g in the .dat format under the given header (empty
// fields are written as "unknown"), each value followed by a space as in
// the dataset.
func WriteDat(w io.Writer, g Grid, hdr DatHeader) error {
	if err := check(g); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	camera, photo := hdr.Camera, hdr.Photo
	if camera == "" {
		camera = "unknown"
	}
	if photo == "" {
		photo = "unknown"
	}
	fmt.Fprintf(bw, "%s\n%s\n", strings.ReplaceAll(camera, "\n", " "), strings.ReplaceAll(photo, "\n", " "))
	n := g.N()
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			bw.WriteString(strconv.Itoa(g.At(r, c)))
			bw.WriteByte(' ')
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
