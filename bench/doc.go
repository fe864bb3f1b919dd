// Package bench holds the project's benchmarks on model output: the parser
// over the shared corpus at several chunk sizes and in every mode, and the
// processor over the corpus's message lists.
//
// The corpus lives outside the repository (see internal/shareddata); the
// benchmarks skip where it is absent. Figures and the commands that produced
// them are recorded in bench/README.md. Compare throughput only with the
// speed limit (../shared/tools/scanlimit) taken in the same run, as a ratio:
// see bench/ratio.sh.
package bench
