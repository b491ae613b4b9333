#!/usr/bin/env bash
# Installs the official MCP Python SDK, the client the project did not write
# that drives `drift-lsp mcp` in the test suite (cmd/internal/mcpserver/testdata/
# client.py, run by TestPythonClient). Idempotent; fetches only from PyPI.
#
# Destination: $XDG_CACHE_HOME/drift-lsp/mcp-py, else ~/.cache/drift-lsp/mcp-py
# (internal/cachedir's rule; the test looks there): venv/ with mcp==$MCP_VERSION.
set -euo pipefail

MCP_VERSION=2.3.0
DIR=${XDG_CACHE_HOME:-$HOME/.cache}/drift-lsp/mcp-py

log() { printf 'setup-mcp-py: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

. "$(dirname "$0")/python-venv.sh"
need_python_venv "the mcp package"
if "$DIR/venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null; then
	log "mcp==$MCP_VERSION already installed in $DIR/venv"
	exit 0
fi
log "installing mcp==$MCP_VERSION into $DIR/venv"
mkdir -p "$DIR"
python3 -m venv "$DIR/venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
"$DIR/venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: "mcp==$MCP_VERSION"
"$DIR/venv/bin/python" -c 'import mcp' || die "mcp does not import"
