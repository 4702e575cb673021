package pipeline

import (
	"encoding/json"
	"testing"
)

// TestStatusWords pins the words of every status, which the JSON outputs
// and the HUD carry, and checks that they read back.
func TestStatusWords(t *testing.T) {
	want := map[Status]string{
		StatusNone: "", StatusSolved: "solved", StatusNoGrid: "no grid", StatusTooSmall: "move closer",
		StatusMoveBack: "move back", StatusBlurry: "too blurry", StatusDark: "too dark",
		StatusConflict: "no solution", StatusSeveral: "several solutions", StatusUnread: "unreadable",
		StatusCheck: "check cells", StatusReading: "reading ...", StatusBadInput: "bad input",
		StatusLoadError: "load error", StatusNoPrinted: "no printed digits (handwriting only)",
	}
	if len(want) != len(statusWords) {
		t.Fatalf("%d statuses pinned, %d defined", len(want), len(statusWords))
	}
	for s, words := range want {
		if s.String() != words {
			t.Errorf("Status %d reads %q, want %q", int(s), s.String(), words)
		}
		b, err := json.Marshal(s)
		if err != nil || string(b) != `"`+words+`"` {
			t.Errorf("Status %d encodes as %s (%v), want %q", int(s), b, err, words)
		}
		var back Status
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%s reads back as %v (%v)", b, back, err)
		}
	}
	if _, err := json.Marshal(Status(len(statusWords))); err == nil {
		t.Error("an unknown status encoded")
	}
	var s Status
	if err := json.Unmarshal([]byte(`"nearly solved"`), &s); err == nil {
		t.Error("unknown words read as a status")
	}
}
