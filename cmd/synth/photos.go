package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// photo is a real photo and its truth (.dat).
type photo struct {
	path string
	dat  []byte
}

// photosWithTruth lists the photos (*.jpg) of the folders dirs that have
// a .dat beside them (without truth there is nothing to measure
// against), in name order, leaving out those the list in skip names and,
// with a list in only, those it does not name (one path a line, matched
// by file name; "" for no list).
func photosWithTruth(dirs []string, skip, only string) ([]photo, error) {
	left, err := namesIn(skip, "--skip")
	if err != nil {
		return nil, err
	}
	kept, err := namesIn(only, "--only")
	if err != nil {
		return nil, err
	}
	var out []photo
	for _, dir := range dirs {
		paths, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
		if err != nil {
			return nil, err
		}
		sort.Strings(paths)
		for _, p := range paths {
			if left[filepath.Base(p)] || (only != "" && !kept[filepath.Base(p)]) {
				continue
			}
			dat, err := os.ReadFile(strings.TrimSuffix(p, ".jpg") + ".dat")
			if err != nil {
				continue
			}
			out = append(out, photo{p, dat})
		}
	}
	return out, nil
}

// namesIn reads the file names a list names (one path a line; none for
// ""), for the error of flag.
func namesIn(list, flag string) (map[string]bool, error) {
	names := map[string]bool{}
	if list == "" {
		return names, nil
	}
	b, err := os.ReadFile(list)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	for _, p := range strings.Fields(string(b)) {
		names[filepath.Base(p)] = true
	}
	return names, nil
}
