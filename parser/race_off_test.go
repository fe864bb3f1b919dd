//go:build !race

package parser

// raceBuild: the tests run with the race detector, whose runtime keeps
// more of the heap live (see TestLargeDataBlockHeap).
const raceBuild = false
