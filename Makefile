# pfc — the two set-up commands of the README, and a few more.
#   make demo   bootstrap, build, run the bundled example
#   make test   bootstrap, build, run every test (and fail on a skip without an allowed reason)
#   make format-check / make format   check / apply .clang-format (clang-format-14)
#   make asan   build the asan-ubsan preset, run every test under ASan + UBSan (skip check too)
#   make tidy   clang-tidy-19 with .clang-tidy over every source of the ci build (cached)
PRESET ?= ci
BUILD  := build/$(PRESET)
JOBS   ?= $(shell nproc)

.PHONY: all bootstrap configure build demo test bench asan tsan clean etw-example fuzz fuzz-smoke \
	format-check format tidy

all: build

bootstrap:
	@scripts/bootstrap

configure: bootstrap
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/cli/pfc run examples/etw-sample.pfs --events examples/etw-sample.jsonl

# A skipped test fails `make test` unless its skip message is on tests/allowed_skips.txt.
test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) --output-junit ctest-junit.xml
	@scripts/check-skips $(BUILD)/ctest-junit.xml

# Formatting (docs/style.md §16): the check fails listing the files clang-format would change.
format-check: bootstrap
	@scripts/format-check
format: bootstrap
	@scripts/format-check --fix

# clang-tidy with the checks of .clang-tidy, warnings as errors, over the ci build's
# compile_commands.json (docs/style.md §16). After the build: a few tests include headers
# the build generates. Results are cached in ~/.cache/pfc-tidy (scripts/tidy).
tidy: build
	@scripts/tidy -j $(JOBS) $(BUILD)

# BUILD is expanded when the Makefile is read, so it is set again here for bench and its
# prerequisites (configure, build).
bench: PRESET = release
bench: BUILD = build/$(PRESET)
bench: build
	@scripts/run-bench $(BUILD)

# Every test under ASan + UBSan (clang-19, Debug). A skipped or disabled test fails it
# unless its reason is on tests/allowed_skips.txt or tests/allowed_skips_sanitizers.txt.
asan: bootstrap
	@cmake --preset asan-ubsan >/dev/null && cmake --build build/asan-ubsan -j $(JOBS)
	ctest --test-dir build/asan-ubsan --output-on-failure -j $(JOBS) --output-junit ctest-junit.xml
	@scripts/check-skips build/asan-ubsan/ctest-junit.xml tests/allowed_skips.txt \
		tests/allowed_skips_sanitizers.txt

tsan: bootstrap
	@cmake --preset tsan >/dev/null && cmake --build build/tsan -j $(JOBS)
	ctest --test-dir build/tsan --output-on-failure -j $(JOBS)

# libFuzzer targets (clang-19, fuzz preset): 30 s each, or FUZZ_SECONDS each.
FUZZ_SECONDS ?= 600
fuzz-smoke: bootstrap
	@scripts/fuzz-smoke
fuzz: bootstrap
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz

# ETW-compatible C API example: provider, controller and consumer in one C program.
etw-example: build
	$(BUILD)/examples/etw/etw_example

clean:
	rm -rf build
