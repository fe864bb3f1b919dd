// Command clirate measures a command line's throughput the way
// ../shared/tools/scanlimit measures the speed limit: MB/s of the input
// file's size over the CPU time (user and system) the command used, the
// median of several rounds. It runs the command with FILE as its last
// argument and its output to /dev/null, so the figure includes reading
// the input, every chunk's work and writing the output. Run scanlimit in
// the same session and quote the ratio (bench/cli_ratio.sh does).
//
// usage: clirate [-rounds 5] FILE -- COMMAND [ARGS...]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 5, "rounds")
	flag.Parse()
	args := flag.Args()
	if *rounds <= 0 || len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "usage: clirate [-rounds N] FILE -- COMMAND [ARGS...]")
		os.Exit(2)
	}
	file, cmdline := args[0], args[2:]
	st, err := os.Stat(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "clirate:", err)
		os.Exit(2)
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "clirate:", err)
		os.Exit(2)
	}
	defer devnull.Close()
	rates := make([]float64, 0, *rounds)
	for range *rounds {
		cmd := exec.Command(cmdline[0], append(cmdline[1:], file)...)
		cmd.Stdout, cmd.Stderr = devnull, devnull
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "clirate: %v: %v\n", cmdline, err)
			os.Exit(1)
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		d := max(time.Duration(ru.Utime.Nano()+ru.Stime.Nano()), time.Microsecond)
		rates = append(rates, float64(st.Size())/1e6/d.Seconds())
	}
	slices.Sort(rates)
	fmt.Printf("%.1f MB/s\n", rates[len(rates)/2])
}
