#!/usr/bin/env bash
# Headless Neovim test of "Formalize with DRIFT" against the real local model
# (editors/e2e/nvim/local-model.lua): no endpoint is configured, so drift-lsp
# starts the model installed by scripts/setup-llm.sh itself. Skips, saying
# so, when the model is not installed. Afterwards no model server may be
# left running. Needs DRIFT_LSP_BIN (editors/e2e/run.sh sets it).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
: "${DRIFT_LSP_BIN:?set DRIFT_LSP_BIN (run editors/e2e/run.sh)}"
LLM_DIR="${DRIFT_LOCAL_LLM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/drift-lsp/local-llm}"
if [ ! -f "$LLM_DIR/model" ] || [ ! -x "$LLM_DIR/venv/bin/python" ]; then
	echo "[nvim-local] SKIP: the local model is not installed in $LLM_DIR (make setup-llm installs it)"
	exit 0
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/drift-nvim-local.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
for d in home config data cache state runtime driftcache; do mkdir -p "$TMP/$d"; done
chmod 700 "$TMP/runtime"
cp -r "$ROOT/testdata/workspace" "$TMP/workspace"

set +e
env -i PATH="$PATH" LANG=C.UTF-8 TERM=dumb \
	HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/config" XDG_DATA_HOME="$TMP/data" \
	XDG_CACHE_HOME="$TMP/cache" XDG_STATE_HOME="$TMP/state" XDG_RUNTIME_DIR="$TMP/runtime" TMPDIR="$TMP" \
	DRIFT_NVIM_PLUGIN="$ROOT/editors/nvim" DRIFT_LSP_BIN="$DRIFT_LSP_BIN" \
	DRIFT_DEMO="$TMP/workspace/DriftExample/Demo.lean" DRIFT_CACHE_DIR="$TMP/driftcache" \
	DRIFT_LOCAL_LLM_DIR="$LLM_DIR" DRIFT_LOCAL_E2E_MINUTES="${DRIFT_LOCAL_E2E_MINUTES:-25}" \
	timeout -k 5 1800 nvim --headless --clean -n -c "luafile $ROOT/editors/e2e/nvim/local-model.lua"
rc=$?
set -e
echo
# The model server must not outlive drift-lsp (which Neovim stopped on
# exit): no launcher may be left whose parent is gone (adopted by init).
for _ in $(seq 1 100); do
	left=$(ps -eo pid=,ppid=,args= | awk '$2 == 1' | grep -F -- "drift-lsp's launcher for the local model" || true)
	[ -z "$left" ] && break
	sleep 0.1
done
if [ -n "${left:-}" ]; then
	echo "[nvim-local] FAIL: a model server outlived drift-lsp: $left" >&2
	exit 1
fi
if [ $rc -ne 0 ]; then
	echo "[nvim-local] FAIL (exit $rc); Neovim's LSP log:" >&2
	tail -n 60 "$TMP/state/nvim/lsp.log" "$TMP/cache/nvim/lsp.log" 2>/dev/null >&2 || true
	exit 1
fi
