package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is stamped at build time (make build, make dist):
// go build -ldflags "-X main.version=v0.4.0" ./cmd/drift-lsp.
var version string

func init() {
	register("version", "print the version of drift-lsp", runVersion)
}

// buildVersion returns the stamped version; without one, the module
// version that `go install …@v0.4.0` records, or the VCS revision of a
// local build, else "dev".
func buildVersion() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "dev-" + rev
}

// runVersion prints the version, then the Go version and platform.
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", stderr, "usage: drift-lsp version")
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
	}
	fmt.Fprintf(stdout, "drift-lsp %s (%s, %s/%s)\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}
