package kakuro

import (
	"errors"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error is a
// *FormatError or a *RuleError naming a line, and that whatever it accepts
// is a valid board that survives a write/read round trip.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		wikipedia, wikipediaSolved,
		"3 3\n# 4\\ 4\\\n\\4 . .\n\\4 . .\n",
		"2 11\n# # # # # # # # # # #\n\\45 . . . . . . . . . .\n",
		"3 3\n# 3\\ 4\\7\n\\3 . .\n\\4 . .\n",
		"3 3\n# # #\n# . #\n# # #\n",
		"", "0 0\n", "1 1\n#\n", "2 2\n# 3\\4\\\n\\3 .\n", "999999999999 1\n", "\xff\xfe\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ParseString(text)
		if err != nil {
			var fe *FormatError
			var re *RuleError
			switch {
			case errors.As(err, &fe):
				if fe.Reason == "" || fe.Line < 0 || (fe.Row > 0) != (fe.Col > 0) {
					t.Fatalf("bad FormatError %#v", fe)
				}
			case errors.As(err, &re):
				if len(re.Problems) == 0 {
					t.Fatal("RuleError without problems")
				}
				for _, p := range re.Problems {
					if p.Line < 1 || p.Row < 1 || p.Col < 1 || p.Reason == "" {
						t.Fatalf("problem without a place: %#v", p)
					}
				}
			default:
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := Validate(b); err != nil {
			t.Fatalf("accepted an invalid board: %v", err)
		}
		back, err := ParseString(b.String())
		if err != nil || back.String() != b.String() {
			t.Fatalf("round trip of\n%s: %v", b, err)
		}
		// Small boards also go through the solver: it must not panic.
		if len(b.Cells) <= 64 {
			s, _ := NewSolver(b)
			s.MaxNodes = 10000
			s.Count(2)
		}
	})
}
