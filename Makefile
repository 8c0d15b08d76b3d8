# oomlab: `make lab run` runs the main job, `make test` the tests (README.md).
# Both install the Debian packages they need first (scripts/install-deps).

CC      ?= gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -MMD -MP -I.
BUILD   := build

# Host side: the lab binary, the analysis code it links, and common/ below both.
LAB_LIBS   := -lsqlite3 -lgsl -lgslcblas -ljansson -lcrypto -lz -llzma -lzstd -lm -lpthread
LAB_MAIN   := lab/lab.c
# Sources are every .c file of these folders and their subfolders.
sources     = $(sort $(shell find $(1) -name '*.c' 2>/dev/null))

# Both sides: the guest/host protocol, the kernel's text formats and the option parser, in C
# library only code that the static guest programs link as the lab does (common/base, below
# them, is headers only today).
SHARED_SRCS:= $(call sources,common/base common/proto common/kernel-text common/cli)
SHARED_OBJS:= $(SHARED_SRCS:%.c=$(BUILD)/obj/%.o)
LAB_SRCS   := $(filter-out $(LAB_MAIN),$(call sources,lab)) \
	      $(filter-out $(SHARED_SRCS),$(call sources,analysis common))
LAB_OBJS   := $(LAB_SRCS:%.c=$(BUILD)/obj/%.o)

# Guest side: one multi-call workload binary, the agent, and their library.
GUEST_LIBS := -lcgroup -lnuma -lm -lpthread
WL_MAIN    := workloads/main.c
WL_LIB_SRCS:= $(wildcard workloads/lib/*.c)
# The guest's userspace killers, which the agent starts (killer = lmkd | oomd,
# common/proto/killer-kinds.h): lmkd, and every folder of workloads/killers/
# (one a killer); in libworkload.a so that the unit tests link their
# decisions too.
LMKD_SRCS  := $(wildcard workloads/lmkd/*.c) $(call sources,workloads/killers)
WL_SRCS    := $(filter-out $(WL_MAIN),$(wildcard workloads/*.c))
WL_LIB_OBJS:= $(WL_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
LMKD_OBJS  := $(LMKD_SRCS:%.c=$(BUILD)/obj/%.o)
WL_OBJS    := $(WL_SRCS:%.c=$(BUILD)/obj/%.o)
AGENT_SRCS := $(wildcard workloads/agent/*.c)
AGENT_OBJS := $(AGENT_SRCS:%.c=$(BUILD)/obj/%.o)

# Every source's object: tests/check-layers reads their symbols (which module
# calls which), so `make test` and `make unit-test` build them all first.
LAYER_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(call sources,common analysis lab workloads))

# Unit tests sit in tests/unit/ at the path of the code they test; their
# binaries all go to build/tests/ (the names are unique).
UNIT_SRCS  := $(call sources,tests/unit)
UNIT_BINS  := $(addprefix $(BUILD)/tests/,$(basename $(notdir $(UNIT_SRCS))))
vpath test-%.c $(sort $(dir $(UNIT_SRCS)))
ifneq ($(words $(UNIT_BINS)),$(words $(sort $(UNIT_BINS))))
$(error two unit tests in tests/unit/ share a file name)
endif

.PHONY: all lab run test unit-test integration-test bench deps test-deps guest clean reference
all: lab

# The main job installs what x86_64 guests need, and arm64's part only for an
# arm64 experiment; the tests install everything (scripts/install-deps).
EXPERIMENT ?= quick
EXPERIMENT_FILE := $(if $(findstring /,$(EXPERIMENT)),$(EXPERIMENT),configs/experiments/$(EXPERIMENT).conf)
RUN_DEPS := main $(if $(shell grep -qs '^arch *= *arm64' $(EXPERIMENT_FILE) && echo arm64),arm64)

deps:
	@./scripts/install-deps $(RUN_DEPS)

test-deps:
	@./scripts/install-deps test

# `lab` is phony because the lab/ directory shares its name.
lab: deps
	@$(MAKE) --no-print-directory $(BUILD)/lab guest

# arm64's guest programs where the cross compiler is installed (install-deps arm64).
HAVE_A64_CC := $(shell command -v aarch64-linux-gnu-gcc 2>/dev/null)
guest: $(BUILD)/guest/oomlab-workload $(BUILD)/guest/oomlab-agent $(if $(HAVE_A64_CC),guest-arm64)

# The lab's version: git describe of this source (a -dirty mark for edits
# not committed), "unknown" outside git. The header is written again only
# when the version changes, so that a new commit or an edit rebuilds the one
# object that includes it, and nothing else.
# safe.directory: `sudo make install` in a checkout of another owner reads the
# same version (git refuses such a repository otherwise, and the lab was then
# rebuilt as root saying "unknown"); whoever runs this Makefile runs the
# checkout's code already, so trusting its git config adds nothing.
LAB_VERSION := $(or $(shell git -c safe.directory='*' -C "$(CURDIR)" describe --always --dirty 2>/dev/null),unknown)
.PHONY: FORCE
$(BUILD)/gen/lab-version.h: FORCE
	@mkdir -p $(dir $@)
	@v='#define LAB_VERSION "$(LAB_VERSION)"'; \
	 [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@
$(BUILD)/obj/lab/util/version.o: $(BUILD)/gen/lab-version.h
$(BUILD)/obj/lab/util/version.o: CFLAGS += -I$(BUILD)/gen

$(BUILD)/lab: $(BUILD)/obj/lab/lab.o $(BUILD)/liblab.a $(BUILD)/libshared.a
	$(CC) $(CFLAGS) -o $@ $^ $(LAB_LIBS)

$(BUILD)/liblab.a: $(LAB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libshared.a: $(SHARED_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libworkload.a: $(WL_LIB_OBJS) $(WL_OBJS) $(LMKD_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/guest/oomlab-workload: $(BUILD)/obj/workloads/main.o $(WL_OBJS) $(WL_LIB_OBJS) $(BUILD)/libshared.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(GUEST_LIBS)

# The agent is the guest's init, started before any library is reachable: static.
# glibc warns at link time that libcgroup's user lookups need NSS at run time;
# the agent never looks users up, so those link warnings are silenced.
$(BUILD)/guest/oomlab-agent: $(AGENT_OBJS) $(BUILD)/libworkload.a $(BUILD)/libshared.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -static -Wl,--no-warnings -o $@ $^ -lcgroup -lpthread

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# arm64 guests (lab/kernel/platform.h): the same guest programs cross-compiled with Debian's
# gcc-aarch64-linux-gnu against the arm64 libcgroup and libnuma of multiarch
# (scripts/install-deps), objects in build/obj-arm64/, programs in build/guest-arm64/.
A64_CC      := aarch64-linux-gnu-gcc
A64         := $(BUILD)/obj-arm64
A64_SHARED  := $(SHARED_SRCS:%.c=$(A64)/%.o)
A64_WL_LIB  := $(WL_LIB_SRCS:%.c=$(A64)/%.o)
A64_WL      := $(WL_SRCS:%.c=$(A64)/%.o)
A64_LMKD    := $(LMKD_SRCS:%.c=$(A64)/%.o)
A64_AGENT   := $(AGENT_SRCS:%.c=$(A64)/%.o)

.PHONY: guest-arm64
guest-arm64: $(BUILD)/guest-arm64/oomlab-workload $(BUILD)/guest-arm64/oomlab-agent

$(BUILD)/guest-arm64/oomlab-workload: $(A64)/workloads/main.o $(A64_WL) $(A64_WL_LIB) $(A64_SHARED)
	@mkdir -p $(dir $@)
	$(A64_CC) $(CFLAGS) -o $@ $^ $(GUEST_LIBS)

$(BUILD)/guest-arm64/oomlab-agent: $(A64_AGENT) $(A64)/libworkload.a $(A64)/libshared.a
	@mkdir -p $(dir $@)
	$(A64_CC) $(CFLAGS) -static -Wl,--no-warnings -o $@ $^ -lcgroup -lpthread

$(A64)/libworkload.a: $(A64_WL_LIB) $(A64_WL) $(A64_LMKD)
	@rm -f $@
	aarch64-linux-gnu-ar rcs $@ $^

$(A64)/libshared.a: $(A64_SHARED)
	@rm -f $@
	aarch64-linux-gnu-ar rcs $@ $^

$(A64)/%.o: %.c
	@mkdir -p $(dir $@)
	$(A64_CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/test-%: test-%.c $(BUILD)/liblab.a $(BUILD)/libworkload.a $(BUILD)/libshared.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wl,--gc-sections -o $@ $< $(filter %.o,$^) $(BUILD)/liblab.a $(BUILD)/libworkload.a \
		$(BUILD)/libshared.a \
		-lcmocka $(LAB_LIBS) $(GUEST_LIBS)

# The job keys' test runs the agent's reader of the spec beside the lab's writer.
$(BUILD)/tests/test-job-keys: $(BUILD)/obj/workloads/agent/agent-job.o

# The command check's test runs the workloads' check mode (and so does lab new's templates'),
# the metric check's their --metrics, the workload catalogue's their --describe.
$(BUILD)/tests/test-command-check: $(BUILD)/guest/oomlab-workload
$(BUILD)/tests/test-file-templates: $(BUILD)/guest/oomlab-workload
$(BUILD)/tests/test-metric-check: $(BUILD)/guest/oomlab-workload
$(BUILD)/tests/test-workload-catalog: $(BUILD)/guest/oomlab-workload

# `make lab run`: the main job. Settings pass through to `lab run`.
run: lab
	$(BUILD)/lab run --experiment $(EXPERIMENT) $(if $(PROFILE),--profile $(PROFILE)) \
		$(if $(TRIALS),--trials $(TRIALS)) $(if $(JOBS),-j $(JOBS))

test: test-deps
	@$(MAKE) --no-print-directory $(BUILD)/lab guest guest-arm64 $(UNIT_BINS) $(LAYER_OBJS)
	@./tests/check-layers-selftest
	@./tests/run-tests-selftest
	@./tests/check-layers
	@./tests/run-tests $(UNIT_BINS)

unit-test: test-deps
	@$(MAKE) --no-print-directory $(UNIT_BINS) $(LAYER_OBJS)
	@./tests/check-layers-selftest
	@./tests/run-tests-selftest
	@./tests/check-layers
	@./tests/run-tests --unit-only $(UNIT_BINS)

# The benchmark's A/A statistics come from the lab's own code (tests/bench/aa-precision.c).
# It boots arm64 guests too: the test packages.
bench: test-deps
	@$(MAKE) --no-print-directory $(BUILD)/lab guest guest-arm64 $(BUILD)/bench/aa-precision \
		$(BUILD)/bench/stamp-lines $(BUILD)/bench/restore-levels
	@./tests/bench/run-bench

$(BUILD)/bench/stamp-lines: tests/bench/stamp-lines.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/bench/restore-levels: tests/bench/restore-levels.c $(BUILD)/liblab.a $(BUILD)/libshared.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(filter %.c %.a,$^) $(LAB_LIBS)

$(BUILD)/bench/aa-precision: tests/bench/aa-precision.c $(BUILD)/liblab.a $(BUILD)/libshared.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(filter %.c %.a,$^) $(LAB_LIBS)

# docs/REFERENCE.md from the lab's own tables (scripts/reference);
# tests/integration/reference.sh fails when the page and the lab differ.
reference: $(BUILD)/lab guest
	./scripts/reference $(BUILD)/lab > docs/REFERENCE.md.tmp
	mv docs/REFERENCE.md.tmp docs/REFERENCE.md

# `make install PREFIX=... [DESTDIR=...]`: the lab where it finds its files
# from any folder (common/paths.c finds them from the binary's own place, so
# the same build runs from the checkout, from PREFIX and from DESTDIR):
#   PREFIX/bin/lab
#   PREFIX/lib/oomlab/guest/, guest-arm64/   the guest programs (arm64's when built)
#   PREFIX/share/oomlab/kernels/, configs/   base config, fragments, variants,
#                                            experiments, profiles
#   PREFIX/share/oomlab/scripts/install-deps the Debian packages it needs (as root)
#   PREFIX/share/doc/oomlab/                 README.md and docs/
# Everything readable by every user: the lab runs as anyone (README "Install").
PREFIX  ?= /usr/local
DESTDIR ?=
I_BIN   := $(DESTDIR)$(PREFIX)/bin
I_LIB   := $(DESTDIR)$(PREFIX)/lib/oomlab
I_SHARE := $(DESTDIR)$(PREFIX)/share/oomlab
I_DOC   := $(DESTDIR)$(PREFIX)/share/doc/oomlab
.PHONY: install uninstall
install: $(BUILD)/lab guest
	install -d -m 755 $(I_BIN) $(I_LIB)/guest $(I_SHARE)/scripts $(I_DOC)/docs
	install -m 755 $(BUILD)/lab $(I_BIN)/lab
	install -m 755 $(BUILD)/guest/oomlab-agent $(BUILD)/guest/oomlab-workload $(I_LIB)/guest/
	if [ -x $(BUILD)/guest-arm64/oomlab-agent ]; then \
		install -d -m 755 $(I_LIB)/guest-arm64 && \
		install -m 755 $(BUILD)/guest-arm64/oomlab-agent $(BUILD)/guest-arm64/oomlab-workload \
			$(I_LIB)/guest-arm64/; fi
	rm -rf $(I_SHARE)/kernels $(I_SHARE)/configs
	cp -R kernels configs $(I_SHARE)/
	chmod -R u+rwX,go+rX,go-w $(I_SHARE)/kernels $(I_SHARE)/configs
	install -m 755 scripts/install-deps $(I_SHARE)/scripts/
	install -m 644 README.md $(I_DOC)/
	install -m 644 docs/*.md $(I_DOC)/docs/

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/lab $(I_LIB) $(I_SHARE) $(I_DOC)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
