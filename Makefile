# drift-lsp — see README.md. Every target works on a fresh Debian machine with
# Go, Node 20 and Python 3; `setup` installs the rest from the package
# registries and is idempotent.
SHELL := /bin/bash
BIN := bin/drift-lsp
GO ?= go
STATICCHECK_VERSION := v0.8.2

.PHONY: setup build demo test bench lint

setup:
	$(GO) mod download

build:
	$(GO) build -o $(BIN) ./cmd/drift-lsp

demo: setup build
	$(BIN) index --root testdata/workspace

test: setup
	$(GO) vet ./...
	$(GO) test ./...

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
