# sudokuar: the two commands a newcomer needs are `make run` and `make test`.
# Each installs what is missing (Debian packages) before it starts.

GO      ?= go
BIN     := bin/sudokuar
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT     := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get

.PHONY: all deps test-deps build run test bench fuzz clean

all: build

# deps installs OpenCV's development files only when pkg-config cannot see them.
deps:
	@pkg-config --exists opencv4 2>/dev/null || { \
		echo "installing OpenCV (libopencv-dev) ..."; \
		$(APT) update -qq && $(APT) install -y -qq libopencv-dev pkg-config; }

# test-deps adds what the tests need beyond deps: Xvfb for the window test.
test-deps: deps
	@command -v xvfb-run >/dev/null 2>&1 || { \
		echo "installing xvfb ..."; \
		$(APT) update -qq && $(APT) install -y -qq xvfb xauth; }

build: deps
	$(GO) build -o $(BIN) ./cmd/sudokuar

run: build
	./$(BIN) solve testdata/puzzles/top95.txt

test: test-deps
	$(GO) vet ./...
	$(GO) test ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 3s ./...

clean:
	rm -rf bin out
