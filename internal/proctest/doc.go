// Package proctest holds the tests' one way to wait for a process to end,
// on an event the OS sends when it terminates (a pidfd on Linux, kqueue on
// macOS and the BSDs, the process handle on Windows), so no test polls with
// sleeps.
package proctest
