// Package cputime reads CPU clocks, so that a time measured on a busy
// machine (a benchmark, a solver's limit, a load test) means what it would
// on a quiet one.
//
// In: the calling thread or process. Out: the CPU time it has used, as a
// time.Duration. On Linux the thread clocks are CLOCK_THREAD_CPUTIME_ID
// and its per-thread variant (nanoseconds, not scheduler ticks); elsewhere
// Available is false (each function says its fallback).
package cputime
