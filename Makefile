# skillc developer tasks. `make test` is the one command that runs every test.

GO ?= go
PKGS := ./...

.PHONY: all build test vet fmt-check unit bench fuzz conformance editors clean

all: build

build:
	$(GO) build -o bin/skillc ./cmd/skillc

# test runs the static checks, then every Go test with the race detector
# (the Go tests include the corpus conformance check, the Neovim and Node
# language-server clients and the editor grammar tests).
test: vet fmt-check editors unit

vet:
	$(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './editors/*/node_modules/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

unit:
	$(GO) test -race -timeout 20m $(PKGS)

conformance: build
	python3 ../shared/conformance/check-corpus bin/skillc

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
	bash editors/test.sh

clean:
	rm -rf bin
