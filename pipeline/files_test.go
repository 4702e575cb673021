package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestImageFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{
		"a/image10.jpg", "a/image2.JPG", "a/notes.txt", "a/image1.png",
		"a/sub/deep.bmp", "a/sub/deeper/x.tiff", "empty/readme.md",
	} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	j := func(p string) string { return filepath.Join(dir, p) }
	tests := []struct {
		name    string
		paths   []string
		rec     bool
		want    []string
		wantErr string
	}{
		{"folder, natural order, images only", []string{j("a")}, false,
			[]string{"a/image1.png", "a/image2.JPG", "a/image10.jpg"}, ""},
		{"recursive", []string{j("a")}, true,
			[]string{"a/image1.png", "a/image2.JPG", "a/image10.jpg", "a/sub/deep.bmp", "a/sub/deeper/x.tiff"}, ""},
		{"a named file is taken whatever its type", []string{j("a/notes.txt"), j("a/image1.png")}, false,
			[]string{"a/notes.txt", "a/image1.png"}, ""},
		{"duplicates once", []string{j("a/image1.png"), j("a")}, false,
			[]string{"a/image1.png", "a/image2.JPG", "a/image10.jpg"}, ""},
		{"empty folder", []string{j("empty")}, false, nil, "no images"},
		{"missing path", []string{j("nope")}, false, nil, "nope"},
		{"nothing given", nil, false, nil, "no files"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ImageFiles(tc.paths, tc.rec)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rel(got), tc.want) {
				t.Fatalf("got %v, want %v", rel(got), tc.want)
			}
		})
	}
	if _, err := ImageFiles([]string{j("empty")}, true); !errors.Is(err, ErrNoImages) {
		t.Fatalf("empty folder: err = %v, want ErrNoImages", err)
	}
}

func TestNaturalLess(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"image2.jpg", "image10.jpg", true},
		{"image10.jpg", "image2.jpg", false},
		{"image02.jpg", "image10.jpg", true},
		{"a.jpg", "b.jpg", true},
		{"img", "img1", true},
		{"x", "x", false},
	}
	for _, tc := range tests {
		if got := naturalLess(tc.a, tc.b); got != tc.want {
			t.Errorf("naturalLess(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
