#!/usr/bin/env bash
# Headless Neovim test of editors/nvim: copies testdata/workspace to a temp
# dir, starts the fake model server (own process group), and runs
# editors/e2e/nvim/test.lua in `nvim --headless` with XDG_* and HOME in the
# temp dir. Needs DRIFT_LSP_BIN and FAKELLM_BIN (editors/e2e/run.sh sets them).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
: "${DRIFT_LSP_BIN:?set DRIFT_LSP_BIN (run editors/e2e/run.sh)}"
: "${FAKELLM_BIN:?set FAKELLM_BIN (run editors/e2e/run.sh)}"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/drift-nvim-e2e.XXXXXX")"
FAKE_PID=""
cleanup() {
	if [ -n "$FAKE_PID" ]; then
		kill -TERM -- "-$FAKE_PID" 2>/dev/null || true
		wait "$FAKE_PID" 2>/dev/null || true
	fi
	if [ "${E2E_KEEP:-}" = "" ] && [ "${NVIM_OK:-0}" = 1 ]; then
		rm -rf "$TMP"
	else
		echo "[nvim-e2e] kept $TMP"
	fi
}
trap cleanup EXIT

for d in home config data cache state runtime driftcache; do mkdir -p "$TMP/$d"; done
chmod 700 "$TMP/runtime"
cp -r "$ROOT/testdata/workspace" "$TMP/workspace"

# The fake OpenAI-compatible server prints its URL on stdout.
setsid "$FAKELLM_BIN" -addr 127.0.0.1:0 >"$TMP/fakellm.log" 2>&1 &
FAKE_PID=$!
URL=""
for _ in $(seq 1 200); do
	URL="$(grep -o -m1 -E 'https?://127\.0\.0\.1:[0-9]+[^[:space:]"]*' "$TMP/fakellm.log" || true)"
	[ -n "$URL" ] && break
	kill -0 "$FAKE_PID" 2>/dev/null || { cat "$TMP/fakellm.log" >&2; echo "[nvim-e2e] fakellm exited" >&2; exit 1; }
	sleep 0.1
done
[ -n "$URL" ] || { echo "[nvim-e2e] fakellm printed no URL" >&2; exit 1; }
echo "[nvim-e2e] fake model server at $URL"

set +e
env -i PATH="$PATH" LANG=C.UTF-8 TERM=dumb \
	HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/config" XDG_DATA_HOME="$TMP/data" \
	XDG_CACHE_HOME="$TMP/cache" XDG_STATE_HOME="$TMP/state" XDG_RUNTIME_DIR="$TMP/runtime" TMPDIR="$TMP" \
	DRIFT_NVIM_PLUGIN="$ROOT/editors/nvim" DRIFT_LSP_BIN="$DRIFT_LSP_BIN" \
	DRIFT_DEMO="$TMP/workspace/DriftExample/Demo.lean" DRIFT_CACHE_DIR="$TMP/driftcache" \
	DRIFT_LLM_BASE_URL="$URL" DRIFT_LLM_MODEL=fake-model \
	DRIFT_LLM_API_KEY_ENV=DRIFT_E2E_API_KEY DRIFT_E2E_API_KEY=e2e-not-a-secret \
	timeout -k 5 300 nvim --headless --clean -n -c "luafile $ROOT/editors/e2e/nvim/test.lua"
rc=$?
set -e
echo
if [ $rc -ne 0 ]; then
	echo "[nvim-e2e] FAIL (exit $rc); Neovim's LSP log:" >&2
	tail -n 40 "$TMP/state/nvim/lsp.log" "$TMP/cache/nvim/lsp.log" 2>/dev/null >&2 || true
	tail -n 20 "$TMP/fakellm.log" >&2 || true
	exit 1
fi
NVIM_OK=1
