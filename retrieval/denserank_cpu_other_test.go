//go:build !unix

package retrieval

import "time"

// processCPU is 0 where getrusage is missing (Windows): the experiment's
// CPU figures are then not printed meaningfully.
func processCPU() time.Duration { return 0 }
