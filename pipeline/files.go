package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// imageExts are the file types a scan picks up from a folder (compared in
// lower case). A file named on the command line is taken whatever its name.
var imageExts = map[string]bool{
	".jpg": true, ".jpeg": true, ".png": true, ".bmp": true, ".tif": true, ".tiff": true,
}

// IsImageName reports whether name has one of the image extensions a folder
// scan picks up: jpg, jpeg, png, bmp, tif, tiff.
func IsImageName(name string) bool {
	return imageExts[strings.ToLower(filepath.Ext(name))]
}

// ErrNoImages is returned (wrapped) by ImageFiles when a folder holds no
// image it could scan.
var ErrNoImages = errors.New("no images (jpg, png, bmp, tiff) found")

// ImageFiles expands the paths a user named into the image files to scan,
// in a stable order: a file is taken as is; a folder contributes its image
// files, and with recursive its sub-folders' too. A path that does not
// exist, or a folder without images, is an error that names it.
func ImageFiles(paths []string, recursive bool) ([]string, error) {
	if len(paths) == 0 {
		return nil, errors.New("no files or folders given")
	}
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", p, err)
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		found, err := folderImages(p, recursive)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			hint := ""
			if !recursive {
				hint = " (use -r to look in sub-folders)"
			}
			return nil, fmt.Errorf("scan folder %s: %w%s", p, ErrNoImages, hint)
		}
		for _, f := range found {
			add(f)
		}
	}
	return files, nil
}

func folderImages(dir string, recursive bool) ([]string, error) {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("scan folder %s: %w", p, err)
		}
		if d.IsDir() {
			if p != dir && !recursive {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && IsImageName(d.Name()) {
			found = append(found, p)
		}
		return nil
	})
	sort.Slice(found, func(i, j int) bool { return naturalLess(found[i], found[j]) })
	return found, err
}

// naturalLess orders names so that image2 comes before image10, the order
// a person expects from numbered photos.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
