// Package rooms is multiplayer Sudoku: rooms with a join code, quick
// match, lobbies with ready checks, race and co-op games, and the server's
// authority over every move. It is plain Go with no HTTP: package web
// carries its messages over a WebSocket, and the tests drive it directly.
//
// In: connections (Hub.Connect, one per client, named by the player's id)
// and the client's messages, as the JSON text of protocol.go
// (Conn.Receive). Out: the server's messages for each connection
// (Conn.Out), finished matches written to a store.Store, and counters for
// monitoring (Hub.Stats).
//
// The model is Nakama's authoritative match: each room is one goroutine
// that owns its state (seats, boards, clock, votes) with no locks around
// it. Clients' messages are checked where they arrive (size, rate, JSON),
// queued to their room and handled there one at a time, in order; the room
// alone decides and broadcasts. Unlike a fixed-tick game loop, a room
// answers each message as soon as it takes it (a tick would add half its
// period to every move); its timer only drives countdowns, reconnection
// deadlines and closing. Slow work (puzzle generation, hints, saving)
// runs beside the room and reports back through its queue.
//
// The rules of play come from the engine, never from here: package game
// keeps each board (fixed cells, moves, undo, marks), package logic makes
// puzzles by level and finds hints. What rooms adds is who may do what,
// when:
//
//   - The server holds the solution and never sends it before the game
//     is over. A move is checked against the board it targets: a given is
//     refused, and in a race nobody can write on another's board.
//   - A race player finishes when the board their own moves built equals
//     the solution; a "finish" message with a grid only confirms that
//     board, and the moves are replayed from the puzzle once more before a
//     result is stored.
//   - Hints are counted by the server: five per player per game.
//   - Times are the server's clock, from the start it announced.
//   - A dropped player has 60 seconds to come back to the same seat and
//     board; there is no host, so anyone leaving ends nothing but their
//     own game.
//   - Each connection has a message budget (a token bucket): a flood is
//     dropped, then the connection closed, and no other player notices.
package rooms
