# skillc developer tasks. `make test` is the one command that runs every test.

GO ?= go
PKGS := ./...

.PHONY: all build test vet deadcode imports-check tidy-check fmt-check unit bench fuzz conformance editors clean release release-dry-run image

# Pinned tools, run with `go run` so a fresh machine needs nothing installed.
TOOLS_VERSION := v0.52.0
DEADCODE := golang.org/x/tools/cmd/deadcode@$(TOOLS_VERSION)
GOIMPORTS := golang.org/x/tools/cmd/goimports@$(TOOLS_VERSION)
MODULE := github.com/skillscript/skillc
# VERSION is stamped into release binaries and the image (skillc --version).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
DEADCODE_ALLOW := internal/tools/deadcode-allow.txt
GO_FILES = $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './editors/*/node_modules/*')

all: build

# build builds bin/skillc and bin/skillc-host (the runtime host: skillc
# serve and skillc dashboard run it from beside skillc; decision BS1) as
# the release does (internal/tools/release): static binaries (CGO off:
# no dynamic loader at start-up), -trimpath, and the tags
# urfave_cli_no_docs (leaves urfave/cli's man-page and Markdown
# generators, and their init work, out of a binary that never calls them)
# and grpcnotrace (gRPC, linked only through the OTLP exporter's
# configuration, leaves out golang.org/x/net/trace).
# Symbols are kept here (the release strips them with -s -w).
BUILD_TAGS := urfave_cli_no_docs,grpcnotrace

build:
	CGO_ENABLED=0 $(GO) build -trimpath -tags $(BUILD_TAGS) -o bin/ ./cmd/skillc ./cmd/skillc-host

# test runs the static checks, then every Go test with the race detector
# (the Go tests include the corpus conformance check, the Neovim and Node
# language-server clients and the editor grammar tests). It ends with the
# list of skipped tests and why they skipped, then one summary line.
test: vet fmt-check editors unit

# vet runs go vet, the dead-code check and the import-grouping check.
vet: deadcode imports-check tidy-check
	@echo "== vet: go vet (compiles every package; the first run takes minutes)"
	$(GO) vet $(PKGS)

# tidy-check fails when go mod tidy would change go.mod or go.sum.
tidy-check:
	@echo "== tidy-check: go mod tidy -diff"
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod/go.sum are not tidy: run go mod tidy"; $(GO) mod tidy -diff; exit 1; }

# deadcode fails on any function that no main or test reaches, unless
# $(DEADCODE_ALLOW) lists it or its package.
deadcode:
	@echo "== deadcode: functions no main or test reaches"
	@dead=$$($(GO) run $(DEADCODE) -test -f '{{range .Funcs}}{{printf "%s.%s %s\n" $$.Path .Name .Position}}{{end}}' $(PKGS)) || exit 1; \
	printf '%s\n' "$$dead" | sed 's|^$(MODULE)/||' \
	| awk 'NR == FNR { if ($$0 !~ /^#/ && NF) allow[$$1] = 1; next } NF == 0 { next } \
	  { pkg = $$1; sub(/\..*/, "", pkg); if ($$1 in allow) { seen[$$1] = 1; next } if (pkg in allow) next; \
	    print "deadcode: unreachable " $$1 " (" $$2 ")"; bad = 1 } \
	  END { for (a in allow) if (a ~ /\./ && !(a in seen)) print "deadcode: note: " a " is no longer dead; remove it from $(DEADCODE_ALLOW)"; \
	    if (bad) { print "deadcode: delete the functions above, or list them in $(DEADCODE_ALLOW)"; exit 1 } }' $(DEADCODE_ALLOW) -

# imports-check fails when goimports would regroup a file's imports.
imports-check:
	@echo "== imports-check: goimports grouping"
	@out=$$($(GO) run $(GOIMPORTS) -l $(GO_FILES)); \
	if [ -n "$$out" ]; then echo "goimports needed (go run $(GOIMPORTS) -w FILE):"; echo "$$out"; exit 1; fi

fmt-check:
	@echo "== fmt-check: gofmt"
	@out=$$(gofmt -l $(GO_FILES)); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# unit runs the Go tests through internal/tools/testreport, which prints
# the skipped tests and their reasons at the end.
unit:
	@echo "== unit: go test -race (every package; the summary comes last)"
	$(GO) run ./internal/tools/testreport -race -timeout 20m $(PKGS)

# conformance builds skillc and runs the conformance check against the
# binary: on testdata/corpus always, and with the shared conformance script
# when ../shared (or $$SKILLSCRIPT_SHARED) is present.
conformance:
	$(GO) test -count=1 -v -run '^TestConformance$$' ./cmd/skillc

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# fuzz runs each fuzz target for FUZZTIME (default 30s).
FUZZTIME ?= 30s
fuzz:
	@for p in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$p 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$p $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$p || exit 1; \
	  done; \
	done

editors:
	@echo "== editors: VS Code grammar and extension, Neovim runtime files"
	bash editors/test.sh

# release builds the release artifacts into dist/ (internal/tools/release):
# for linux, darwin and windows on amd64 and arm64 the static binaries
# skillc and skillc-host packed with LICENSE, README.md and the
# getting-started guide (skillc_OS_ARCH.tar.gz, .zip for Windows), a
# CycloneDX SBOM of each (skillc.cdx.json, skillc-host.cdx.json) and
# checksums.txt. It needs Go and the module proxy.
release:
	$(GO) run ./internal/tools/release -out dist -version "$(VERSION)"

# release-dry-run is the same build (nothing is published anywhere).
release-dry-run: release

# image builds the container image (Containerfile: FROM scratch, the static
# binaries skillc and skillc-host with VERSION stamped in, LICENSE, CA certificates) with buildah,
# daemonless, and runs skillc --version and skillc check inside it
# (internal/tools/image/build.sh; VERSION, IMAGE, SMOKE=0 to skip the run).
image:
	VERSION="$(VERSION)" bash internal/tools/image/build.sh

clean:
	rm -rf bin dist
