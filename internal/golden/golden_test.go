package golden

import (
	"encoding/json"
	"testing"
)

// TestLines: the fields named are rewritten and every other byte stays as
// the encoder wrote it (order, number format, escapes, nested "ms").
func TestLines(t *testing.T) {
	in := `{"file":"/tmp/x/a.jpg","ms":12.5,"conf":[1,0.999],"sub":{"ms":3},"s":"\u003c"}` + "\n" +
		`{"found":false,"ms":1e-3}` + "\n"
	want := `{"file":"a.jpg","ms":0,"conf":[1,0.999],"sub":{"ms":3},"s":"\u003c"}` + "\n" +
		`{"found":false,"ms":0}` + "\n"
	fix := map[string]func(json.RawMessage) json.RawMessage{
		"ms":   Zero,
		"file": func(json.RawMessage) json.RawMessage { return json.RawMessage(`"a.jpg"`) },
	}
	got, err := Lines([]byte(in), fix)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("Lines:\n got %s\nwant %s", got, want)
	}
	if _, err := Lines([]byte("[1,2]\n"), fix); err == nil {
		t.Error("a line that is not an object was taken")
	}
}
