//go:build darwin || linux

// The process-tree helper program: Linux and macOS (setsid; the start
// times of its reports come from /proc, "0" elsewhere).

// Command helper is a test program for the runner and the process-lifetime
// tests: it runs a list of steps that build the process trees programs
// really make (setsid daemons, double forks, SIGTERM-deaf children, a held
// stdout) and reports each process's pid, so that a test can check
// afterwards that none survived, and the few things a stage does to its
// pipes (copy, count, flood), so that the runner's tests need no shell or
// coreutils. Built by proctest.Helper; not part of the server.
//
// Usage: helper REPORT STEP...
//
// Steps run in order; after the last the process exits 0:
//
//	tag WORD        name this process WORD in its reports (default "-")
//	report          append "PID START TAG\n" to REPORT (a file or a FIFO);
//	                START is field 22 of /proc/self/stat, which tells a
//	                reused pid
//	setsid          start a new session (fails if already a group leader)
//	ignore-term     ignore SIGTERM
//	null-stdio      point fds 0, 1, 2 at /dev/null (a daemon's detach)
//	say WORD        write WORD and a newline to stdout
//	tty             open /dev/tty and print "tty: ok" or "tty: ERRNO"
//	spawn [ S... ]  start a copy running steps S (a child), and wait until
//	                it runs "ready" or exits
//	ready           tell the parent (of a spawned child) to go on
//	wait-parent     block until the spawning parent has exited
//	sleep           block forever
//	exit N          exit with status N at once
//	stderr          send the output of the following steps to stderr
//	cat             copy stdin to stdout
//	head N          copy the first N lines of stdin to stdout
//	sort            write the lines of stdin sorted
//	env             write the environment, a variable a line
//	zeros N         write N zero bytes
//	yes             write "y" lines until the output is gone (SIGPIPE)
//	kill-self       send itself SIGTERM (and die of it)
//	write FILE W    write W and a newline into FILE (a FIFO blocks until read)
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A spawned child gets the write end of its ready pipe as fd 3 and the
// read end of its parent's life pipe as fd 4.
const (
	readyFD  = 3
	lifeFD   = 4
	childEnv = "PROCTEST_HELPER_CHILD=1"
)

// keep holds the write ends of the children's life pipes for as long as
// this process lives (an unreferenced *os.File would be closed by its
// finalizer).
var keep []*os.File

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: helper REPORT STEP...")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
}

func child() bool { return os.Getenv("PROCTEST_HELPER_CHILD") == "1" }

func run(report string, steps []string) error {
	tag := "-"
	for i := 0; i < len(steps); i++ {
		switch s := steps[i]; s {
		case "tag":
			i++
			if i == len(steps) {
				return errors.New("tag: no word")
			}
			tag = steps[i]
		case "report":
			f, err := os.OpenFile(report, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				return err
			}
			_, err = f.WriteString(strconv.Itoa(os.Getpid()) + " " + startTime() + " " + tag + "\n") // one write: atomic on a FIFO
			f.Close()
			if err != nil {
				return err
			}
		case "setsid":
			if _, err := syscall.Setsid(); err != nil {
				return fmt.Errorf("setsid: %w", err)
			}
		case "ignore-term":
			signal.Ignore(syscall.SIGTERM)
		case "null-stdio":
			null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
			if err != nil {
				return err
			}
			for fd := range 3 {
				if err := syscall.Dup2(int(null.Fd()), fd); err != nil {
					return err
				}
			}
		case "say":
			i++
			if i == len(steps) {
				return errors.New("say: no word")
			}
			fmt.Println(steps[i])
		case "tty":
			f, err := os.OpenFile("/dev/tty", os.O_RDWR|syscall.O_NOCTTY, 0)
			if err != nil {
				var errno syscall.Errno
				if errors.As(err, &errno) {
					fmt.Println("tty:", errnoName(errno))
				} else {
					fmt.Println("tty:", err)
				}
				break
			}
			f.Close()
			fmt.Println("tty: ok")
		case "spawn":
			end, err := matching(steps, i+1)
			if err != nil {
				return err
			}
			if err := spawn(report, steps[i+2:end]); err != nil {
				return err
			}
			i = end
		case "ready":
			if child() {
				syscall.Close(readyFD)
			}
		case "wait-parent":
			if child() {
				buf := make([]byte, 1)
				for {
					if _, err := syscall.Read(lifeFD, buf); err != syscall.EINTR {
						break
					}
				}
			}
		case "sleep":
			for {
				time.Sleep(time.Hour)
			}
		case "exit", "head", "zeros", "write":
			n := 1
			if s == "write" {
				n = 2
			}
			if i+n >= len(steps) {
				return fmt.Errorf("%s: missing argument", s)
			}
			if err := pipeStep(s, steps[i+1:i+1+n]); err != nil {
				return err
			}
			i += n
		case "stderr", "cat", "sort", "env", "yes", "kill-self":
			if err := pipeStep(s, nil); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unknown step %q", s)
		}
	}
	return nil
}

// pipeStep runs one of the steps that read, write or end the process.
func pipeStep(s string, args []string) error {
	switch s {
	case "exit":
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return err
		}
		os.Exit(n)
	case "stderr":
		return syscall.Dup2(2, 1)
	case "cat":
		_, err := io.Copy(os.Stdout, os.Stdin)
		return err
	case "head":
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return err
		}
		in := bufio.NewReader(os.Stdin)
		for range n {
			line, err := in.ReadString('\n')
			if _, werr := os.Stdout.WriteString(line); werr != nil || err != nil {
				break
			}
		}
	case "sort":
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		lines := strings.SplitAfter(string(b), "\n")
		slices.Sort(lines)
		_, err = os.Stdout.WriteString(strings.Join(lines, ""))
		return err
	case "env":
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
	case "zeros":
		n, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil {
			return err
		}
		buf := make([]byte, 64<<10)
		for n > 0 {
			k := min(n, int64(len(buf)))
			if _, err := os.Stdout.Write(buf[:k]); err != nil {
				return err
			}
			n -= k
		}
	case "yes":
		line := []byte(strings.Repeat("y\n", 4096))
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				return err // not reached: the write raises SIGPIPE
			}
		}
	case "kill-self":
		if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
			return err
		}
		for {
			time.Sleep(time.Hour) // until the signal ends it
		}
	case "write":
		return os.WriteFile(args[0], []byte(args[1]+"\n"), 0o600)
	}
	return nil
}

// matching returns the index of the "]" that closes the "[" at open.
func matching(steps []string, open int) (int, error) {
	if open >= len(steps) || steps[open] != "[" {
		return 0, errors.New("spawn: want [ STEP... ]")
	}
	depth := 0
	for i := open; i < len(steps); i++ {
		switch steps[i] {
		case "[":
			depth++
		case "]":
			depth--
			if depth == 0 {
				return i, nil
			}
		}
	}
	return 0, errors.New("spawn: unbalanced [")
}

// spawn starts a copy of this program with steps and waits until its
// ready pipe reaches EOF (it ran "ready" or exited).
func spawn(report string, steps []string) error {
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return err
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	p, err := os.StartProcess(exe, append([]string{exe, report}, steps...), &os.ProcAttr{
		Env:   append(os.Environ(), childEnv),
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr, readyW, lifeR},
	})
	if err != nil {
		return err
	}
	readyW.Close()
	lifeR.Close()
	keep = append(keep, lifeW)
	buf := make([]byte, 1)
	for {
		if _, err := readyR.Read(buf); err != nil {
			break
		}
	}
	readyR.Close()
	_ = p.Release() // not waited for: a parent that exits leaves an orphan, as daemons do
	return nil
}

// startTime returns field 22 of /proc/self/stat.
func startTime() string {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return "0"
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 20 {
		return "0"
	}
	return f[22-3]
}

func errnoName(e syscall.Errno) string {
	switch e {
	case syscall.ENXIO:
		return "ENXIO"
	case syscall.ENOENT:
		return "ENOENT"
	case syscall.EACCES:
		return "EACCES"
	case syscall.EIO:
		return "EIO"
	}
	return e.Error()
}
