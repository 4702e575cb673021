// Command commentstat counts the Go comment blocks over -lines lines and
// those citing a particular run (a measured figure, a sample's count, a
// photo's name, a commit, the machine's load), so the style rule "comments
// say what and why in a few lines" is measured. A block is one go/ast
// comment group.
//
//	go run ./scripts/commentstat [-lines 8] [-list] [-tests] [DIR...]
package main

import (
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// runRE matches what a comment says only about one measurement: figures
// with a unit of time, rate or share, "N of M" counts, fractions, a load
// average, a commit hash, the words of a scored run.
var runRE = regexp.MustCompile(`(?i)` + strings.Join([]string{
	`\d[\d.,]*\s?(%|ms\b|µs\b|us\b|ns\b|fps\b|s of cpu|cpu[- ]ms|mb\b|kb\b|gb\b)`,
	`\b\d+ of (the )?\d[\d,]*\b`,
	`\b\d+/\d+\b`,
	`\bload( average)? \d`,
	`\bp(50|90|95|99)\b`,
	`\b[0-9a-f]{7,12}\b`,
	`held[- ]out`,
	`\bmeasured\b`,
	`\b\d[\d,]* (frames|photos|puzzles|pages|runs|videos)\b`,
	`\bimage\d+\b|es2812|andreibrihac|wicht-|others-(train|tune)`,
	`\bon (this|the) (loaded |shared )?machine\b`,
}, "|"))

// hashRE keeps hexadecimal words that are only digits (years, sizes) from
// passing for commit hashes.
var hashRE = regexp.MustCompile(`\b[0-9a-f]{7,12}\b`)

type block struct {
	file        string
	line, lines int
	cites       bool
}

func main() {
	maxLines := flag.Int("lines", 8, "a block is long above this many lines")
	list := flag.Bool("list", false, "list every long block (file:line, lines, whether it cites a run)")
	tests := flag.Bool("tests", false, "count _test.go files too")
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	var all []block
	for _, dir := range dirs {
		bs, err := scan(dir, *tests)
		if err != nil {
			fmt.Fprintln(os.Stderr, "commentstat:", err)
			os.Exit(1)
		}
		all = append(all, bs...)
	}
	long, cite, longCite := 0, 0, 0
	for _, b := range all {
		if b.cites {
			cite++
		}
		if b.lines > *maxLines {
			long++
			if b.cites {
				longCite++
			}
			if *list {
				mark := ""
				if b.cites {
					mark = " cites a run"
				}
				fmt.Printf("%s:%d: %d lines%s\n", b.file, b.line, b.lines, mark)
			}
		}
	}
	fmt.Printf("comment blocks: %d; over %d lines: %d (%d of them citing a run); citing a run at any length: %d\n",
		len(all), *maxLines, long, longCite, cite)
}

// scan returns the comment blocks of the Go files under dir, skipping
// testdata and hidden folders.
func scan(dir string, tests bool) ([]block, error) {
	var out []block
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (name == "testdata" || strings.HasPrefix(name, ".") || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || (!tests && strings.HasSuffix(name, "_test.go")) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, g := range f.Comments {
			start, end := fset.Position(g.Pos()), fset.Position(g.End())
			if strings.HasPrefix(g.List[0].Text, "//go:") || strings.HasPrefix(g.List[0].Text, "// Code generated") {
				continue
			}
			out = append(out, block{file: path, line: start.Line, lines: end.Line - start.Line + 1, cites: citesRun(g.Text())})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].file != out[j].file {
			return out[i].file < out[j].file
		}
		return out[i].line < out[j].line
	})
	return out, err
}

// citesRun reports whether a comment's text quotes a particular run.
func citesRun(text string) bool {
	for _, m := range runRE.FindAllString(text, -1) {
		if hashRE.MatchString(m) && m == strings.Trim(m, "abcdef") && !strings.ContainsAny(m, "abcdef") {
			continue // digits only: a number, not a hash
		}
		if hashRE.MatchString(m) && !strings.ContainsAny(m, "0123456789") {
			continue // letters only: a word such as "defaced"
		}
		return true
	}
	return false
}
