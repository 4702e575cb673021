package kakuro

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// MaxSide bounds the rows and columns Parse accepts, so a hostile header
// cannot make it allocate without limit.
const MaxSide = 200

// Parse reads one puzzle in the text format and validates it. Text that
// does not read is a *FormatError (line, cell, token); a board that reads
// but breaks the rules is a *RuleError whose problems carry input lines.
func Parse(r io.Reader) (*Board, error) {
	b, lines, err := parse(r)
	if err != nil {
		return nil, err
	}
	if err := validate(b, lines); err != nil {
		return nil, err
	}
	return b, nil
}

// ParseString is Parse on a string.
func ParseString(s string) (*Board, error) { return Parse(strings.NewReader(s)) }

// ReadFile parses the puzzle in the named file. Errors name the file.
func ReadFile(path string) (*Board, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, err := Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// parse reads the text without checking the rules. lines[r] is the input
// line of board row r.
func parse(r io.Reader) (*Board, []int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var b *Board
	var lines []int
	line, row := 0, 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if b == nil {
			rows, cols, err := parseHeader(fields, line)
			if err != nil {
				return nil, nil, err
			}
			b = NewBoard(rows, cols)
			continue
		}
		if row == b.Rows {
			return nil, nil, &FormatError{Line: line, Reason: fmt.Sprintf("more than the %d rows the header announces", b.Rows)}
		}
		if len(fields) != b.Cols {
			return nil, nil, &FormatError{Line: line, Reason: fmt.Sprintf("row %d has %d tokens, the header announces %d", row+1, len(fields), b.Cols)}
		}
		for c, tok := range fields {
			cell, reason := parseToken(tok)
			if reason != "" {
				return nil, nil, &FormatError{Line: line, Row: row + 1, Col: c + 1, Token: tok, Reason: reason}
			}
			b.Cells[row*b.Cols+c] = cell
		}
		lines = append(lines, line)
		row++
	}
	if err := sc.Err(); err != nil {
		return nil, nil, &FormatError{Line: line + 1, Reason: err.Error()}
	}
	if b == nil {
		return nil, nil, &FormatError{Reason: "empty input: want a line 'ROWS COLS' and then the rows"}
	}
	if row < b.Rows {
		return nil, nil, &FormatError{Line: line, Reason: fmt.Sprintf("%d rows, the header announces %d", row, b.Rows)}
	}
	return b, lines, nil
}

func parseHeader(fields []string, line int) (rows, cols int, err error) {
	bad := func(reason string) (int, int, error) {
		return 0, 0, &FormatError{Line: line, Reason: reason}
	}
	if len(fields) != 2 {
		return bad(fmt.Sprintf("the first line must be 'ROWS COLS', found %d fields", len(fields)))
	}
	var n [2]int
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > MaxSide {
			return bad(fmt.Sprintf("board size %q: want a number from 1 to %d", f, MaxSide))
		}
		n[i] = v
	}
	return n[0], n[1], nil
}

// parseToken reads one token; the reason is "" when it is good.
func parseToken(tok string) (Cell, string) {
	switch {
	case tok == "#":
		return Cell{}, ""
	case tok == ".":
		return Cell{White: true}, ""
	case len(tok) == 1 && tok[0] >= '1' && tok[0] <= '9':
		return Cell{White: true, Digit: int(tok[0] - '0')}, ""
	case strings.Contains(tok, `\`):
		down, across, _ := strings.Cut(tok, `\`)
		d, okD := parseSum(down)
		a, okA := parseSum(across)
		if !okD || !okA {
			return Cell{}, `bad clue: want DOWN\ACROSS with each side empty or a number from 0 to 99`
		}
		return Cell{Down: d, Across: a}, ""
	}
	return Cell{}, `bad token: want # (block), . (empty cell), a digit 1-9 or a clue DOWN\ACROSS`
}

// parseSum reads one side of a clue: empty, or one or two decimal digits.
// Sums a run cannot make (over 45, or out of reach for its length) are
// left to validation, which can say which run they belong to.
func parseSum(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	if len(s) > 2 {
		return 0, false
	}
	v := 0
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		v = v*10 + int(ch-'0')
	}
	return v, true
}

// String returns b in the text format: the size line, then one line per
// row with tokens separated by single spaces, as the published solution
// files are written.
func (b *Board) String() string {
	var sb strings.Builder
	b.write(&sb)
	return sb.String()
}

// WriteTo writes b in the text format.
func (b *Board) WriteTo(w io.Writer) (int64, error) {
	var sb strings.Builder
	b.write(&sb)
	n, err := io.WriteString(w, sb.String())
	return int64(n), err
}

func (b *Board) write(sb *strings.Builder) {
	fmt.Fprintf(sb, "%d %d\n", b.Rows, b.Cols)
	for r := 0; r < b.Rows; r++ {
		for c := 0; c < b.Cols; c++ {
			if c > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(b.At(r, c).token())
		}
		sb.WriteByte('\n')
	}
}

func (c Cell) token() string {
	switch {
	case c.White && c.Digit == 0:
		return "."
	case c.White:
		return strconv.Itoa(c.Digit)
	case c.Down == 0 && c.Across == 0:
		return "#"
	}
	var s string
	if c.Down > 0 {
		s = strconv.Itoa(c.Down)
	}
	s += `\`
	if c.Across > 0 {
		s += strconv.Itoa(c.Across)
	}
	return s
}
