package live

import "github.com/sudokuar/sudokuar/pipeline"

// Recognition is what a session reports of one recognition
// (Options.OnRecognition): the Result as voted (Puzzle, Solved, Status and
// the marks are the vote's; where the grid was and how long it took are
// the recognised frame's), the index of that frame, and the readings of
// the page beside the vote.
type Recognition struct {
	pipeline.Result
	// Frame is the index of the frame that was recognised.
	Frame int
	// Own is what the recognised frame read alone (nil when it read no
	// puzzle), and Fused what the mean of the page's latest views read
	// when the gate held the vote and fusion ran (nil otherwise): to tell
	// a gate holding a right vote from a vote that never settles.
	Own   *Reading
	Fused *Reading
}

// Reading is one reading of the givens beside the one a Recognition
// reports.
type Reading struct {
	Given  string // N² chars, '0' = empty
	Status pipeline.Status
	// Views is how many views were averaged into the reading (fused).
	Views int
}
