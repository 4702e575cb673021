// Package cluster lets several `sudokuar serve` processes ("nodes") share
// the work of one site through one PostgreSQL database.
//
// In: the database's URL and this node's name and URL. Out: a
// rooms.Directory (Open) that a rooms.Hub uses to find rooms held by
// other nodes, list every node's public rooms, move a player to another
// node with a one-time token, say it is alive, and take part in one
// cluster-wide quick match.
//
// Everything that must be found later is a row: nodes (a heartbeat every
// second; a node silent for three seconds is dead), room_codes (a primary
// key makes codes unique across nodes), tickets (players waiting for a
// quick match) and move_tokens. What must be heard now is a NOTIFY: a
// ticket added or dropped (the leader looks again), a match made (the
// chosen node makes the room), a room made (the players' nodes send them
// there). The matchmaker runs on one node, the leader, the holder of a
// session-level advisory lock on a connection of its own: when the
// leader's process or session dies the lock is free, and another node
// takes it at its next try, within a second. A match deletes its tickets
// in the transaction that announces it, so two nodes that both believe
// they lead for a moment can never seat a player twice.
//
// Moves never go through here: a room lives on one node (docs/scaling.md).
package cluster
