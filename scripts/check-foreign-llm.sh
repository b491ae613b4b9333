#!/usr/bin/env bash
# Runs `drift-lsp formalize` against an OpenAI-compatible server that is not
# ours: the PyPI package fakellm (rule-based mock, offline, loopback only),
# with the rules in testdata/llm/fakellm-pypi.yaml. See docs/pipeline.md.
# Usage: scripts/check-foreign-llm.sh   (from the repository root)
set -euo pipefail
root=$(pwd)
work=$(mktemp -d)
port=${FAKELLM_PORT:-18666}
venv=${FAKELLM_VENV:-$work/venv}
if [ ! -x "$venv/bin/fakellm" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet fakellm==0.3.5
fi
go build -o "$work/drift-lsp" ./cmd/drift-lsp
"$venv/bin/fakellm" serve --host 127.0.0.1 --port "$port" --config "$root/testdata/llm/fakellm-pypi.yaml" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do
  curl -fs -o /dev/null "http://127.0.0.1:$port/_fakellm/stats" && break
  sleep 0.2
done
export DRIFT_LLM_BASE_URL="http://127.0.0.1:$port/v1" DRIFT_LLM_MODEL=any-model DRIFT_LLM_CACHE=off
"$work/drift-lsp" formalize --cache "" --root testdata/workspace --name odd_of_two_lt "Every prime number greater than 2 is odd." | tee "$work/out.txt"
DRIFT_LLM_STREAM=1 "$work/drift-lsp" formalize --json --cache "" --root testdata/workspace --name odd_of_two_lt "Every prime number greater than 2 is odd." >"$work/out.json"
want='theorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry'
grep -qF "$want" "$work/out.txt"
grep -qF "$want" "$work/out.json"
echo "check-foreign-llm: OK (plain and streaming) against fakellm $("$venv/bin/pip" show fakellm | sed -n 's/^Version: //p')"
