package console

// printBoard prints the board in the specification's format, for boxes of
// m rows × n columns and side N = m·n: a separator row of 4N+m+1 dashes
// first and after every m cell rows; a cell row starts and ends with '|'
// and has one after every n cells; each cell is a space, the value as
// "%2d" (two spaces when empty) and '.' for a fixed cell, '*' for a cell in
// conflict when errors are marked (always in Edit mode), else a space.
func (s *Session) printBoard() {
	g := s.game
	n := g.N()
	shape := g.Shape()
	mark := s.mode == Edit || s.markErrors
	sep := make([]byte, 0, 4*n+shape.BoxRows+2)
	for k := 0; k < 4*n+shape.BoxRows+1; k++ {
		sep = append(sep, '-')
	}
	sep = append(sep, '\n')
	row := make([]byte, 0, len(sep))
	s.out.Write(sep)
	for r := 0; r < n; r++ {
		row = append(row[:0], '|')
		for c := 0; c < n; c++ {
			row = append(row, ' ')
			if v := g.Value(r, c); v == 0 {
				row = append(row, ' ', ' ')
			} else if v < 10 {
				row = append(row, ' ', byte('0'+v))
			} else {
				row = append(row, byte('0'+v/10%10), byte('0'+v%10))
			}
			switch {
			case g.Fixed(r, c):
				row = append(row, '.')
			case mark && g.Conflict(r, c):
				row = append(row, '*')
			default:
				row = append(row, ' ')
			}
			if (c+1)%shape.BoxCols == 0 {
				row = append(row, '|')
			}
		}
		row = append(row, '\n')
		s.out.Write(row)
		if (r+1)%shape.BoxRows == 0 {
			s.out.Write(sep)
		}
	}
}
