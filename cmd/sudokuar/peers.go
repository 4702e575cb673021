package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sudokuar/sudokuar/internal/cputime"
	"github.com/sudokuar/sudokuar/solvers"
)

// A peer is another program that solves the same puzzles, for `sudokuar
// bench --peer NAME=CMD`: CMD (a program and its arguments, split at
// spaces, run without a shell) reads puzzles on stdin, one line of 81
// characters each ('.' empty), and writes what it likes on stdout. Its
// whole-process CPU time is measured here; if it also prints
// "solve-cpu-seconds=S puzzles=N" (N puzzles solved in S seconds of CPU,
// timed by the program around its solving loop alone), that is reported
// as its solve-only rate.
type peer struct {
	name string
	argv []string
}

// parsePeer reads NAME=CMD.
func parsePeer(spec string) (peer, error) {
	name, cmd, ok := strings.Cut(spec, "=")
	argv := strings.Fields(cmd)
	if !ok || strings.TrimSpace(name) == "" || len(argv) == 0 {
		return peer{}, fmt.Errorf("%q: want NAME=COMMAND [ARGS]", spec)
	}
	return peer{name: strings.TrimSpace(name), argv: argv}, nil
}

var solveOnlyLine = regexp.MustCompile(`solve-cpu-seconds=([0-9.eE+-]+)\s+puzzles=([0-9]+)`)

// peerResult is one program's figures on one set.
type peerResult struct {
	program string
	whole   []time.Duration // CPU (user+system) of each whole-process run
	solve   float64         // solve-only puzzles per CPU second; 0: not known
	fails   string          // why a run failed, if one did
}

func (r peerResult) wholeMedian() time.Duration {
	ts := slices.Clone(r.whole)
	slices.Sort(ts)
	if len(ts) == 0 {
		return 0
	}
	return ts[len(ts)/2]
}

// runProcess runs argv with input on stdin and returns its CPU time and
// output. A run is bounded by a wall-clock deadline.
func runProcess(argv []string, input []byte, deadline time.Duration) (time.Duration, []byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = io.Discard
	err := cmd.Run()
	if cmd.ProcessState == nil {
		return 0, nil, err
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return cpu, out.Bytes(), err
}

// solveOnly solves the set's puzzles in a loop with our solver name,
// through the solvers API, for at least minCPU of the thread's CPU time
// (whole passes), and returns puzzles per CPU second. A wrong or missing
// solution is an error.
func solveOnly(set benchSet, name string, minCPU time.Duration) (float64, error) {
	sv, err := solvers.New(name, solvers.Options{Seed: 1})
	if err != nil {
		return 0, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	now := func() time.Duration { return time.Duration(time.Now().UnixNano()) }
	if cputime.Available {
		now = cputime.ThreadClock()
	}
	ctx := context.Background()
	start, n := now(), 0
	for pass := 0; pass == 0 || now()-start < minCPU; pass++ {
		for i, g := range set.puzzles {
			res, err := sv.Solve(ctx, g)
			if err == nil && pass == 0 {
				err = solvers.Check(g, res.Solution)
			}
			if err != nil {
				return 0, fmt.Errorf("%s on %s puzzle %d: %w", name, set.name, i+1, err)
			}
		}
		n += len(set.puzzles)
	}
	return float64(n) / (now() - start).Seconds(), nil
}

// selfSolve returns the command line of `sudokuar solve --solver name`,
// this very program, reading puzzles on stdin.
func selfSolve(name string) ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return []string{self, "solve", "--solver", name}, nil
}

// comparePeers measures our solvers (names) and the peers side by side on
// each set: runs rounds of whole-process runs, one program after the other
// in turn (ours is the command line ours returns), then the solve-only
// rates, and prints both with our rate over each peer's.
func comparePeers(e *env, sets []benchSet, names []string, peers []peer, rounds int, ours func(name string) ([]string, error)) int {
	fmt.Fprintf(e.stdout, "| set | program | whole process, CPU s (median of %d) | puzzles/s | solve only, puzzles/CPU-s |\n|---|---|---|---|---|\n", rounds)
	for _, set := range sets {
		var input bytes.Buffer
		for _, g := range set.puzzles {
			input.WriteString(g.String())
			input.WriteByte('\n')
		}
		var progs []peerResult
		var argvs [][]string
		for _, name := range names {
			argv, err := ours(name)
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar bench: --peer: %v\n", err)
				return exitFail
			}
			progs = append(progs, peerResult{program: name})
			argvs = append(argvs, argv)
		}
		for _, p := range peers {
			progs = append(progs, peerResult{program: p.name})
			argvs = append(argvs, p.argv)
		}
		deadline := 10*time.Minute + time.Duration(len(set.puzzles))*time.Millisecond
		for range rounds {
			for i := range progs {
				cpu, out, err := runProcess(argvs[i], input.Bytes(), deadline)
				if err != nil {
					progs[i].fails = err.Error()
					continue
				}
				progs[i].whole = append(progs[i].whole, cpu)
				if i >= len(names) {
					if m := solveOnlyLine.FindSubmatch(out); m != nil {
						s, err1 := strconv.ParseFloat(string(m[1]), 64)
						k, err2 := strconv.Atoi(string(m[2]))
						if err1 == nil && err2 == nil && s > 0 {
							progs[i].solve = float64(k) / s
						}
					}
				}
			}
		}
		for i, name := range names {
			rate, err := solveOnly(set, name, time.Second)
			if err != nil {
				fmt.Fprintf(e.stderr, "sudokuar bench: %v\n", err)
				return exitFail
			}
			progs[i].solve = rate
		}
		for _, r := range progs {
			whole, perS, solve := "failed: "+r.fails, "", "n/a"
			if m := r.wholeMedian(); m > 0 && r.fails == "" {
				whole = fmt.Sprintf("%.3f", m.Seconds())
				perS = fmt.Sprintf("%.0f", float64(len(set.puzzles))/m.Seconds())
			}
			if r.solve > 0 {
				solve = fmt.Sprintf("%.0f", r.solve)
			}
			fmt.Fprintf(e.stdout, "| %s (%d) | %s | %s | %s | %s |\n", set.name, len(set.puzzles), r.program, whole, perS, solve)
		}
		for i := range names {
			for j := len(names); j < len(progs); j++ {
				a, b := progs[i], progs[j]
				line := fmt.Sprintf("%s: %s / %s:", set.name, a.program, b.program)
				if a.wholeMedian() > 0 && b.wholeMedian() > 0 && a.fails == "" && b.fails == "" {
					line += fmt.Sprintf(" whole process %.2f×", b.wholeMedian().Seconds()/a.wholeMedian().Seconds())
				}
				if a.solve > 0 && b.solve > 0 {
					line += fmt.Sprintf(", solve only %.2f×", a.solve/b.solve)
				}
				fmt.Fprintln(e.stdout, "   ", line)
			}
		}
	}
	fmt.Fprintln(e.stdout, "\n(× is our speed over the peer's: above 1 we are faster. Whole process: user+system CPU of the process, puzzles on stdin, output discarded; ours includes its start-up. Solve only: ours timed around solvers.Solve in a loop on the thread's CPU clock; a peer's as it reports it.)")
	return exitOK
}
