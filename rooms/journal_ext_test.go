package rooms_test

import (
	"testing"
	"time"

	"github.com/sudokuar/sudokuar/rooms"
	"github.com/sudokuar/sudokuar/rooms/journaltest"
)

// TestMemJournal runs the journal's checks on the in-memory journal.
func TestMemJournal(t *testing.T) {
	journaltest.Run(t, journaltest.Env{
		New: func(*testing.T) rooms.Journal { return rooms.NewMemJournal(nil) },
		Beat: func(_ *testing.T, j rooms.Journal, node string, ago time.Duration) {
			j.(*rooms.MemJournal).Beat(node, time.Now().Add(-ago))
		},
	})
}
