package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/gofont/gosmallcaps"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// Font is one typeface the renderer can print digits and page text with.
type Font struct {
	// Name identifies the face uniquely and compactly, e.g. "Go-Bold" or
	// "DejaVuSans-Bold"; it is written into the .dat header of each photo.
	Name string
	// Family is the family name from the font's own name table.
	Family string
	// Licence names the licence the font is distributed under.
	Licence string
	// Path is the file the font was read from, or "" for an embedded font.
	Path string

	face *sfnt.Font
}

// glyphsNeeded are the runes every usable font must map: digits, the
// letters of the letter symbol set, and the lower case used for page text.
const glyphsNeeded = "0123456789ABCDEFGabcdefghijklmnopqrstuvwxyz"

// goFontLicence is the licence of Go's own fonts (golang.org/x/image/font/gofont).
const goFontLicence = "BSD-3-Clause (Go fonts, Bigelow & Holmes)"

// GoFonts returns Go's own fonts, which are compiled into the program and
// so are the same on every machine; the committed test images use only these.
func GoFonts() ([]Font, error) {
	embedded := []struct {
		name string
		ttf  []byte
	}{
		{"Go-Regular", goregular.TTF},
		{"Go-Medium", gomedium.TTF},
		{"Go-Bold", gobold.TTF},
		{"Go-Italic", goitalic.TTF},
		{"Go-Bold-Italic", gobolditalic.TTF},
		{"Go-Mono", gomono.TTF},
		{"Go-Mono-Bold", gomonobold.TTF},
		{"Go-Smallcaps", gosmallcaps.TTF},
	}
	fonts := make([]Font, 0, len(embedded))
	for _, e := range embedded {
		f, err := parseFont(e.name, e.ttf, "", goFontLicence)
		if err != nil {
			return nil, err
		}
		fonts = append(fonts, f)
	}
	return fonts, nil
}

// systemFontDir is a folder of Debian font files and the licence they share.
type systemFontDir struct {
	dir     string
	licence string
	// keep reports whether a file name in dir is a Latin text face (Noto
	// ships hundreds of script faces; URW ships symbol and dingbat faces).
	keep func(name string) bool
}

func keepAll(string) bool { return true }

// systemFontDirs returns the Debian font folders this project knows the
// licence of. Other folders are ignored so every photo's font can be
// attributed.
func systemFontDirs() []systemFontDir {
	return []systemFontDir{
		{"/usr/share/fonts/truetype/dejavu", "Bitstream Vera / DejaVu licence (fonts-dejavu)", func(n string) bool {
			return !strings.Contains(n, "Math")
		}},
		{"/usr/share/fonts/truetype/liberation", "GPL-2.0 with font exception (fonts-liberation 1.07)", keepAll},
		{"/usr/share/fonts/truetype/freefont", "GPL-3.0+ with font exception (fonts-freefont-ttf)", keepAll},
		{"/usr/share/fonts/opentype/urw-base35", "AGPL-3.0 with font exception (fonts-urw-base35)", func(n string) bool {
			return !strings.HasPrefix(n, "D050000L") && !strings.HasPrefix(n, "StandardSymbols") && !strings.HasPrefix(n, "Z003")
		}},
		{"/usr/share/fonts/truetype/lato", "SIL OFL 1.1 (fonts-lato)", keepAll},
		{"/usr/share/fonts/truetype/open-sans", "Apache-2.0 (fonts-open-sans)", keepAll},
		{"/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF", "Apache-2.0 (fonts-roboto-unhinted)", keepAll},
		{"/usr/share/fonts/opentype/comic-neue", "SIL OFL 1.1 (fonts-comic-neue)", keepAll},
		{"/usr/share/fonts/truetype/noto", "SIL OFL 1.1 (fonts-noto-core)", func(n string) bool {
			for _, p := range []string{"NotoSans-", "NotoSerif-", "NotoSansDisplay-", "NotoSerifDisplay-", "NotoSansMono-", "NotoMono-"} {
				if strings.HasPrefix(n, p) {
					return true
				}
			}
			return false
		}},
	}
}

// Fonts returns Go's own fonts and, when systemToo is set, every usable
// Latin face found in the Debian font packages under /usr/share/fonts
// (fonts-dejavu, fonts-liberation, fonts-freefont-ttf, fonts-urw-base35,
// fonts-noto-core). Missing folders are skipped; files that
// golang.org/x/image/font/opentype cannot parse, or that lack digits or
// letters, are left out. The order is stable: Go fonts first, then system
// fonts sorted by Name.
func Fonts(systemToo bool) ([]Font, error) {
	fonts, err := GoFonts()
	if err != nil {
		return nil, err
	}
	if !systemToo {
		return fonts, nil
	}
	var sys []Font
	seen := map[string]bool{}
	for _, d := range systemFontDirs() {
		entries, err := os.ReadDir(d.dir)
		if err != nil {
			continue // package not installed: nothing to add
		}
		for _, e := range entries {
			name := e.Name()
			ext := strings.ToLower(filepath.Ext(name))
			if e.IsDir() || (ext != ".ttf" && ext != ".otf") || !d.keep(name) {
				continue
			}
			base := strings.TrimSuffix(name, filepath.Ext(name))
			if seen[base] {
				continue // the same face shipped twice (e.g. .ttf and .otf)
			}
			path := filepath.Join(d.dir, name)
			data, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			f, err := parseFont(base, data, path, d.licence)
			if err != nil {
				continue // unreadable outlines or missing glyphs: not usable
			}
			seen[base] = true
			sys = append(sys, f)
		}
	}
	sort.Slice(sys, func(i, j int) bool { return sys[i].Name < sys[j].Name })
	return append(fonts, sys...), nil
}

// LoadFont reads a TrueType or OpenType (CFF) file as a Font, for faces
// outside the folders Fonts knows about.
func LoadFont(path, licence string) (Font, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Font{}, fmt.Errorf("load font: %w", err)
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return parseFont(base, data, path, licence)
}

// parseFont parses data and checks it can draw every rune the renderer needs.
func parseFont(name string, data []byte, path, licence string) (Font, error) {
	where := name
	if path != "" {
		where = path
	}
	f, err := opentype.Parse(data)
	if err != nil {
		return Font{}, fmt.Errorf("font %s: %w", where, err)
	}
	var buf sfnt.Buffer
	for _, r := range glyphsNeeded {
		gi, err := f.GlyphIndex(&buf, r)
		if err != nil || gi == 0 {
			return Font{}, fmt.Errorf("font %s: no glyph for %q", where, r)
		}
	}
	// Rasterise one digit: some faces parse but use outline features the
	// rasteriser rejects, which would only show up half way through a batch.
	if _, err := f.LoadGlyph(&buf, mustIndex(f, &buf, '8'), 1000, nil); err != nil {
		return Font{}, fmt.Errorf("font %s: cannot load glyph outlines: %w", where, err)
	}
	family, err := f.Name(&buf, sfnt.NameIDFamily)
	if err != nil || family == "" {
		family = name
	}
	return Font{Name: name, Family: family, Licence: licence, Path: path, face: f}, nil
}

func mustIndex(f *sfnt.Font, b *sfnt.Buffer, r rune) sfnt.GlyphIndex {
	gi, _ := f.GlyphIndex(b, r)
	return gi
}
