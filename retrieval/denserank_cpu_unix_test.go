//go:build unix

package retrieval

import (
	"syscall"
	"time"
)

// processCPU is the CPU time of this process so far (every thread).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
