// Package cluster lets several `sudokuar serve` processes ("nodes") share
// one site through one PostgreSQL database; docs/scaling.md is the design.
//
// In: the database's URL, this node's name and URL. Out: a rooms.Directory
// (Open) that finds rooms held by other nodes, lists every node's public
// rooms, moves a player to another node with a one-time token, keeps the
// node's heartbeat, runs quick match on one elected node, and journals
// rooms so another node can take them over (NewJournal).
package cluster
