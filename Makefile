# The two commands of the README: `make run` (the main job) and `make test` (the test suite).
# Both install what is missing first (scripts/install-deps.sh).

SWIFT ?= swift
RELEASE_BIN = .build/release/rulesrun

.PHONY: run test deps build bench lint clean

run: deps
	$(SWIFT) build -c release --product rulesrun
	$(RELEASE_BIN) validate rules

test: deps
	$(SWIFT) test

bench: deps
	$(SWIFT) build -c release --product rulesrun
	$(RELEASE_BIN) bench

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

clean:
	rm -rf .build
