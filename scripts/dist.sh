#!/usr/bin/env bash
# dist.sh — `make dist`: what a release ships, into dist/:
#   drift-lsp-VERSION-GOOS-GOARCH.tar.gz (.zip for Windows)   the server with README and LICENSE,
#       for linux/amd64, linux/arm64, darwin/amd64, darwin/arm64 and windows/amd64
#       (CGO_ENABLED=0: no dense retrieval, which needs cgo and ONNX Runtime);
#   drift-lsp-TARGET-VERSION.vsix   a VS Code package per target (vsce --target), carrying
#       that target's server in bin/ (the extension looks there after drift.serverPath);
#   SHA256SUMS                      of all of them.
# VERSION is the extension's (editors/vscode/package.json), stamped into the server with
# -ldflags -X main.version, so that the extension can tell a server of another version.
# Needs Go, Node and the extension's npm dependencies (scripts/setup-e2e.sh runs npm ci).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VERSION="${VERSION:-$(sed -n 's/^  "version": "\(.*\)",$/\1/p' editors/vscode/package.json)}"
[ -n "$VERSION" ] || { echo "dist: no version in editors/vscode/package.json" >&2; exit 1; }
[ -d editors/vscode/node_modules/@vscode/vsce ] || { echo "dist: vsce is missing: run bash scripts/setup-e2e.sh (npm ci in editors/vscode)" >&2; exit 2; }
OUT="$ROOT/dist"
# GOOS/GOARCH and the matching VS Code target.
PLATFORMS=(linux/amd64:linux-x64 linux/arm64:linux-arm64 darwin/amd64:darwin-x64 darwin/arm64:darwin-arm64 windows/amd64:win32-x64)

rm -rf "$OUT" editors/vscode/bin
mkdir -p "$OUT"
for p in "${PLATFORMS[@]}"; do
	goos=${p%%/*} rest=${p#*/}
	goarch=${rest%%:*} target=${rest#*:}
	name="drift-lsp-$VERSION-$goos-$goarch"
	exe=drift-lsp
	[ "$goos" = windows ] && exe=drift-lsp.exe
	echo "[dist] $name"
	mkdir -p "$OUT/$name"
	CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "-s -w -X main.version=$VERSION" \
		-o "$OUT/$name/$exe" ./cmd/drift-lsp
	cp README.md LICENSE "$OUT/$name/"
	if [ "$goos" = windows ]; then
		(cd "$OUT" && python3 -m zipfile -c "$name.zip" "$name/")
	else
		tar -C "$OUT" -czf "$OUT/$name.tar.gz" "$name"
	fi
	echo "[dist] drift-lsp-$target-$VERSION.vsix"
	mkdir -p editors/vscode/bin
	cp "$OUT/$name/$exe" editors/vscode/bin/
	(cd editors/vscode && npx --no-install vsce package --no-dependencies --target "$target" \
		--out "$OUT/drift-lsp-$target-$VERSION.vsix" >/dev/null)
	rm -rf editors/vscode/bin "$OUT/$name"
done
(cd "$OUT" && sha256sum -- *.tar.gz *.zip *.vsix >SHA256SUMS)
echo "[dist] $(ls "$OUT" | wc -l) files in dist/:"
(cd "$OUT" && ls -l)
