// Package cputime reads CPU clocks, so that a time measured on a busy
// machine (a benchmark, a solver's time limit, a load test) means the
// same as on a quiet one: other processes do not eat into it.
//
// In: nothing but the calling thread or process. Out: the CPU time it has
// used so far, as a time.Duration; subtract two readings for a span. On
// Linux the thread clocks are CLOCK_THREAD_CPUTIME_ID and its per-thread
// variant (nanosecond resolution, unlike getrusage's per-thread figures,
// which move in scheduler ticks); elsewhere they are not available
// (Available is false; see each function for its fallback).
package cputime
