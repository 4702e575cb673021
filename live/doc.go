// Package live runs the camera view of sudokuar: it reads frames from a
// camera or a video file, follows the grid on every frame, recognises the
// puzzle in the background every few frames, votes the readings across
// recognitions, and draws the solution (or what went wrong) back on each
// frame for a window, a video file or nothing at all. What the session
// knows of the page in view is one state machine (page.go); what may be
// shown is pipeline.Gate's verdict on the vote.
//
// In: a Source of frames and a pipeline.Options. Out: annotated frames to a
// Sink, one Recognition per recognition (Options.OnRecognition), and a
// Summary at the end.
package live
