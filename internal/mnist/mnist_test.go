package mnist

import (
	"encoding/binary"
	"testing"
)

func idx(magic uint32, dims ...uint32) []byte {
	b := binary.BigEndian.AppendUint32(nil, magic)
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return b
}

func TestParse(t *testing.T) {
	img := append(idx(2051, 2, Side, Side), make([]byte, 2*Side*Side)...)
	lab := append(idx(2049, 2), 3, 7)
	cases := []struct {
		name        string
		images, lab []byte
		n           int // digits, or -1 for an error
	}{
		{"two digits", img, lab, 2},
		{"labels for images", lab, img, -1},
		{"truncated", img[:len(img)-1], lab, -1},
		{"count differs", img, append(idx(2049, 1), 3), -1},
		{"bad label", img, append(idx(2049, 2), 3, 10), -1},
		{"wrong side", append(idx(2051, 1, 27, 27), make([]byte, 27*27)...), append(idx(2049, 1), 1), -1},
	}
	for _, tc := range cases {
		ds, err := Parse(tc.images, tc.lab)
		if tc.n < 0 {
			if err == nil {
				t.Errorf("%s: no error", tc.name)
			}
			continue
		}
		if err != nil || len(ds) != tc.n || ds[1].Label != 7 {
			t.Errorf("%s: %d digits, %v", tc.name, len(ds), err)
		}
	}
}

// TestModuleData reads the module's test set from the module cache.
func TestModuleData(t *testing.T) {
	dir, err := Dir(".")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Load(dir, "t10k")
	if err != nil {
		t.Fatal(err)
	}
	var per [10]int
	for _, d := range ds {
		per[d.Label]++
	}
	if len(ds) != 10000 || per[0] == 0 || per[9] == 0 {
		t.Errorf("%d digits, per label %v", len(ds), per)
	}
}
