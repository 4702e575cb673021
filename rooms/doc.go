// Package rooms is multiplayer Sudoku: rooms with a join code, quick match,
// lobbies, race and co-op games, the server's authority over every move.
//
//  1. Hub.Connect gives a client a Conn: Conn.Receive takes its messages
//     (protocol.go), Conn.Out carries the server's, Hub.Stats counts.
//  2. Each room is one goroutine owning its state (Nakama's authoritative
//     match): messages are checked, queued and handled in order; the room
//     alone decides, broadcasts and stores finished matches (docs/rooms.md).
package rooms
