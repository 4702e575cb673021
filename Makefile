# sudokuar: the two commands a newcomer needs are `make run` and `make test`.
# Each installs what is missing (Debian packages) before it starts.

GO      ?= go
BIN     := bin/sudokuar
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT     := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get
# Fonts the digit model is trained on (see models/README.md for their licences).
FONT_PKGS := fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-freefont-ttf fonts-urw-base35 fonts-noto-core fonts-noto-mono fonts-lato fonts-open-sans fonts-roboto-unhinted fonts-comic-neue

.PHONY: all deps test-deps font-deps build sudoku-console run serve test test-busy test-pg lint bench cluster-bench zoo fuzz model synth video livescore penscore clean

all: build

# Debian packages the build needs (OpenCV for vision, GLPK for the ILP
# solver) and those the tests need on top (Xvfb for the window test,
# Chromium for the browser tests, tmux for the console test).
BUILD_PKGS := libopencv-dev pkg-config libglpk-dev
TEST_PKGS  := xvfb xauth chromium tmux

# apt-install installs the packages in $(1) that dpkg does not list as installed.
define apt-install
	@missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing ..."; \
		$(APT) update -qq && $(APT) install -y -qq $$missing; fi
endef

# deps installs what building needs, only when it is missing.
deps:
	$(call apt-install,$(BUILD_PKGS))

# test-deps adds what the tests need beyond deps.
test-deps: deps
	$(call apt-install,$(TEST_PKGS))

# font-deps installs the Debian font packages the training data is rendered from.
font-deps:
	$(call apt-install,$(FONT_PKGS))

build: deps
	$(GO) build -o $(BIN) ./cmd/sudokuar

# sudoku-console is the console game of the course project specification,
# built where `go build ./cmd/sudoku-console` puts it (the project's root).
sudoku-console: deps
	$(GO) build -o sudoku-console ./cmd/sudoku-console

# run plays the project's demo video through the whole pipeline: in a window
# (looping until Q) when there is a display; otherwise headless, printing each
# solved puzzle and writing the annotated video to out/live.mp4.
run: build
	./$(BIN) live --video testdata/video/demo.mp4 --loop

# serve starts the game in the browser on http://127.0.0.1:8080. To reach
# it from a phone on the same network: make serve ADDR=0.0.0.0:8080 (and
# SERVE_FLAGS="--tls-cert cert.pem --tls-key key.pem" for the camera; see
# docs/camera.md).
ADDR ?= 127.0.0.1:8080
serve: build
	./$(BIN) serve --addr $(ADDR) $(SERVE_FLAGS)

test: test-deps
	$(GO) vet ./...
	$(GO) test ./...
	$(GO) test -tags matprofile -run Leak ./vision/ ./overlay/ ./synth/ ./live/ ./ocr/
	SUDOKUAR_ROOMS_JOURNAL=slow $(GO) test -count=1 ./rooms/   # every room test again, journaled, each write 5 ms
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then $(MAKE) --no-print-directory test-pg; \
	else echo "make test: PostgreSQL is not installed, skipping test-pg (make test-pg installs it)"; fi

# test-busy runs make test RUNS times in a row (default 10), each from a
# cold test cache, with two CPU burners keeping the cores busy: the check
# that no test depends on the machine being quiet (scripts/test-busy.sh).
RUNS ?= 10
test-busy: test-deps
	LOAD_NICE=0 sh scripts/under-load.sh sh scripts/test-busy.sh $(RUNS)

# test-pg runs the store's shared test suite, the rooms' store tests and the
# cluster's directory (several hubs on one database)
# against a real PostgreSQL: a throwaway cluster in a temp folder, started
# with initdb/pg_ctl and removed afterwards (scripts/test-pg.sh). In
# cmd/sudokuar it runs three `serve` processes as a cluster, killed and
# stopped mid-game, directly and behind HAProxy (docs/haproxy.cfg).
test-pg:
	$(call apt-install,postgresql haproxy)
	sh scripts/test-pg.sh $(GO) test -count=1 -run 'Postgres' ./store/ ./rooms/ ./cluster/ ./cmd/sudokuar/ ./web/

# lint runs golangci-lint v2 with .golangci.yml (the default linters plus
# gocyclo at 30). The version is pinned; it is installed into bin/ (not the
# user's GOPATH) the first time and rebuilt when the pin changes.
GOLANGCI_VERSION := v2.15.0
GOLANGCI := bin/golangci-lint-$(GOLANGCI_VERSION)

$(GOLANGCI):
	mkdir -p bin/golangci-tmp
	GOBIN=$(CURDIR)/bin/golangci-tmp $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION)
	mv bin/golangci-tmp/golangci-lint $@ && rmdir bin/golangci-tmp

lint: deps $(GOLANGCI)
	$(GOLANGCI) run ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 3s ./...

# cluster-bench measures three nodes on one PostgreSQL (a throwaway one,
# durable commits) with the load generator: a node killed and one stopped
# mid-game, quick match with its leader killed, one node with 5,000
# players (docs/scaling.md, "What it measured"). SCENARIOS picks some of
# kill term quick single. It takes about 8 minutes.
SCENARIOS ?=
cluster-bench: build
	$(call apt-install,postgresql curl)
	SUDOKUAR=$(CURDIR)/$(BIN) sh scripts/cluster-bench.sh $(SCENARIOS)

# zoo runs every solver on the solver zoo's puzzle sets and writes the
# table and out/zoo.svg (docs/solvers.md); top95 comes from
# ../shared when it is there. It takes a while: each failure costs its limit.
TOP95 := $(wildcard ../shared/puzzles/top95.txt)
zoo: build
	mkdir -p out
	./$(BIN) bench --solver all --timeout 10s --limits $(if $(TOP95),top95=2s$(comma))zoo-16=2s,cga=2s -j 2 --svg out/zoo.svg \
		testdata/puzzles/zoo-easy.txt testdata/puzzles/zoo-hard.txt $(TOP95) testdata/puzzles/zoo-16.txt

comma := ,

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzImageSize -fuzztime 60s ./pipeline
	$(GO) test -run '^$$' -fuzz FuzzJPEGScans -fuzztime 60s ./pipeline
	$(GO) test -run '^$$' -fuzz FuzzParseLine -fuzztime 60s ./sudoku
	$(GO) test -run '^$$' -fuzz FuzzReadDat -fuzztime 60s ./sudoku
	$(GO) test -run '^$$' -fuzz '^FuzzGridFile$$' -fuzztime 60s ./sudoku
	$(GO) test -run '^$$' -fuzz FuzzGridFileStrict -fuzztime 60s ./sudoku
	$(GO) test -run '^$$' -fuzz FuzzBits -fuzztime 60s ./sudoku
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime 60s ./game
	$(GO) test -run '^$$' -fuzz FuzzRestore -fuzztime 60s ./game
	$(GO) test -run '^$$' -fuzz FuzzCommands -fuzztime 60s ./console
	$(GO) test -run '^$$' -fuzz FuzzRun -fuzztime 60s ./console
	$(GO) test -run '^$$' -fuzz FuzzAPI -fuzztime 60s ./web
	$(GO) test -run '^$$' -fuzz FuzzParsePuzzle -fuzztime 60s ./web
	$(GO) test -run '^$$' -fuzz FuzzReceive -fuzztime 60s ./rooms
	$(GO) test -run '^$$' -fuzz FuzzScan -fuzztime 60s ./web
	$(GO) test -run '^$$' -fuzz FuzzParseEntries -fuzztime 60s ./web
	$(GO) test -run '^$$' -fuzz FuzzCameraFrame -fuzztime 60s ./web
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./kakuro
	$(GO) test -run '^$$' -fuzz FuzzModel -fuzztime 60s ./ilp
	$(GO) test -run '^$$' -fuzz FuzzFindSteps -fuzztime 60s ./logic
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime 60s ./ocr/onnxpb

# model retrains models/digits.onnx (needs ../shared for the real photos).
model: deps font-deps
	nice -n 10 $(GO) run ./cmd/train --out models/digits.onnx --seed 1 --workers 4

# synth and video regenerate the committed synthetic photos and demo video.
synth: deps
	$(GO) run ./cmd/synth --out testdata/synth --count 36 --seed 1 --res 640x480,1280x720
	$(GO) run ./cmd/synth --out testdata/synth-beside --count 30 --seed 2 --sizes 9 --res 640x480,1280x720 --beside sudoku,crossword,text
	$(GO) run ./cmd/synth --out testdata/synth-curl --count 24 --seed 3 --sizes 9 --res 640x480,1280x720 --curl 60

video: deps
	$(GO) run ./cmd/synth video --out testdata/video --seed 1

# livescore scores `sudokuar live` on photos held up to a moving camera,
# per framing (near, far, webcam), next to `scan` on the same photos as
# stills (docs/performance.md, "The camera in motion"). LISTS are files of photo paths.
LISTS ?= $(wildcard testdata/live/*.list)
livescore: build
	SUDOKUAR=$(CURDIR)/$(BIN) scripts/livescore.sh $(LISTS)

# penscore scores reading pages started with a pen (the README's pen row):
# stills through scan, then live at 30 fps near and before a webcam.
# LIST is a file of photo names (default: the held-out pages).
penscore: build
	SUDOKUAR=$(CURDIR)/$(BIN) scripts/penscore.sh $(LIST)

clean:
	rm -rf bin out sudoku-console
