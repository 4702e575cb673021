//go:build !unix

package main

// lockSQLite is a no-op where flock is missing: one node per SQLite file
// is then the operator's to keep.
func lockSQLite(string) (func(), error) { return func() {}, nil }
