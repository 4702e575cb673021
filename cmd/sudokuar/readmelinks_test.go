package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/sudokuar/sudokuar/internal/testenv"
)

// mdLink matches a Markdown link or image target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// inlineCode matches a code span, whose brackets are no link.
var inlineCode = regexp.MustCompile("`[^`]*`")

// TestReadmeLinks checks that every relative link of README.md and docs/*.md
// names a file of the checkout and, with #anchor, a heading of that file,
// and that the README does not send users to ../shared, which they lack.
func TestReadmeLinks(t *testing.T) {
	root := testenv.RepoRoot()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"), filepath.Join(root, "models", "README.md"))
	anchors := map[string]map[string]bool{} // file → its headings' anchors
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := map[string]bool{}
		if b, err := os.ReadFile(path); err == nil {
			for _, line := range proseLines(string(b)) {
				if h := strings.TrimLeft(line, "#"); h != line && strings.HasPrefix(h, " ") {
					slug := headingAnchor(h)
					for n := 1; a[slug]; n++ { // GitHub numbers repeated headings
						slug = headingAnchor(h) + "-" + string(rune('0'+n))
					}
					a[slug] = true
				}
			}
		}
		anchors[path] = a
		return a
	}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for i, line := range proseLines(string(b)) {
			if rel == "README.md" && strings.Contains(line, "../shared") {
				t.Errorf("%s:%d names ../shared, which users do not have", rel, i+1)
			}
			for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				path := page
				if file != "" {
					path = filepath.Join(filepath.Dir(page), file)
					if _, err := os.Stat(path); err != nil {
						t.Errorf("%s:%d links %q: no such file", rel, i+1, target)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path)[anchor] {
					t.Errorf("%s:%d links %q: no heading with that anchor", rel, i+1, target)
				}
			}
		}
	}
}

// proseLines returns the lines of a Markdown text with fenced and indented
// code blocks blanked (numbering kept): brackets there are no links.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	fenced, prevBlank := false, true
	inCode := false
	for i, line := range lines {
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			fenced = !fenced
			lines[i] = ""
		case fenced:
			lines[i] = ""
		case strings.HasPrefix(line, "    ") && (prevBlank || inCode):
			inCode = true
			lines[i] = ""
		default:
			inCode = false
		}
		prevBlank = strings.TrimSpace(line) == ""
	}
	return lines
}

// headingAnchor is GitHub's anchor for a heading: lower case, punctuation
// dropped, spaces as hyphens. Inline code keeps its text.
func headingAnchor(h string) string {
	h = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(h, "`", "")))
	var b strings.Builder
	for _, r := range h {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
