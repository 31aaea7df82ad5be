# SPDX-License-Identifier: GPL-2.0-only
#
# make          build harness/thpbench and workloads/*
# make check    unit tests, workload tests, integration tests (root parts skip when not root)
# make unit     cmocka unit tests only
# make layers   harness/ includes and calls only downwards, no circles (in check)
# make analyze  gcc -fanalyzer and cppcheck over harness/ and workloads/ (in check)
# make sanitize unit tests and a CLI smoke under ASan+UBSan, leaks on (in check)
# make fuzz     libFuzzer on the suite parser, the results loader, a bisect dir, lcov + patch hunks, a LAVA log (FUZZ_TIME
#               seconds each, default 600; check runs a 15 s smoke)
# make ab-e2e   kernel A/B end to end: builds kernels, boots qemu (not in check)
# make ab-bench kernel A/B timings: first run, cached rerun, B-only rebuild (not in check)
# make ab-tree  incremental kernel builds of a git tree, O= (not in check)
# make bisect-e2e kernel bisection end to end: names the commit with 000's patch (not in check)
# make gcov-e2e  kernel line coverage, exact: the THP fault line ran, a never-run line did not; 000's hunk (not in check)
# make profile-e2e  ab --profile on 000 in qemu: guest profiles name kernel functions (not in check)
# make numa-e2e  seed 004's placement and THP migration in a 2-node qemu guest (not in check)
# make numa-migrate-e2e  THP migration alone in a 2-node qemu guest (not in check)
# make confirm-e2e     the confirmation A/B for real: nightly --confirm qemu on A, A, A, B, A (not in check)
# make alloc-failed-e2e  thp_collapse_alloc_failed, thp_zero_page_alloc_failed with all 2 MiB blocks pinned (root, ~1 min; not in check)
# make static   static thpbench + workloads for a kernel A/B initramfs
# make ARCH=arm64 [TARGET]  the same targets cross-built for arm64 in build/arm64
#               (scripts/arm64-deps.sh installs the toolchain and the sysroot)
# make unit-arm64  the unit tests built for arm64, run under qemu-aarch64
# make unit-arm64-guest  the ones qemu-user cannot run (tests/unit/qemu-user.skip), in an arm64 guest
# make pmu-e2e  hardware counters on qemu's emulated arm64 PMU, in a guest (not in check)
# make clean
#
# New files need no edit here: the .c files of the layer folders in
# HARNESS_DIRS (harness/README.md; all but cli/main.c) form libthpbench.a,
# workloads/*.c and workloads/*.cc are one program each,
# tests/unit/LAYER/test_*.c are one cmocka binary each.

# ARCH=arm64 from the top: every goal is made in build/arm64, a copy of
# the sources, by the cross compiler (mk/arm64-outer.mk); the rest of this
# file is the build itself, native or (THPBENCH_IN_CROSS=1) cross.
# Only ARCH=arm64 given to make: an ARCH exported for kernel builds does
# not turn the native build into a cross one.
ifeq ($(origin ARCH)/$(ARCH)/$(THPBENCH_IN_CROSS),command line/arm64/)
include mk/arm64-outer.mk
else

CC	?= gcc
CXX	?= g++
CFLAGS	?= -O2 -g
CXXFLAGS ?= -O2 -g
WARN	:= -Wall -Wextra
override CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) -MMD -MP
override CXXFLAGS += -std=c++17 $(WARN)
LDLIBS_HARNESS := -lpfm -lnuma -lgsl -lgslcblas -ljansson -linih -lsqlite3 -lpq -lcrypto -lz -lm
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
LDLIBS_WL := -lnuma -lgsl -lgslcblas -lpthread -lm

ifeq ($(THPBENCH_IN_CROSS)/$(ARCH),1/arm64)
include mk/arm64-cross.mk
endif

ifeq ($(STATIC),1)
override LDFLAGS += -static
endif

# The layers, bottom up (harness/README.md); a file names another layer's
# header by its folder ("stats/stats.h"), so one -I serves them all.
HARNESS_LAYERS := util stats results system measure compare plot claims history bisect cli
HARNESS_DIRS := $(addprefix harness/,$(HARNESS_LAYERS))
HARNESS_INC := -Iharness
HARNESS_SRC := $(filter-out harness/cli/main.c,$(wildcard $(addsuffix /*.c,$(HARNESS_DIRS))))
HARNESS_OBJ := $(HARNESS_SRC:.c=.o)
WL_LIB_SRC := $(wildcard workloads/lib/*.c)
WL_LIB_OBJ := $(WL_LIB_SRC:.c=.o)
WL_C := $(patsubst %.c,%,$(wildcard workloads/*.c))
WL_CXX := $(patsubst %.cc,%,$(wildcard workloads/*.cc))
UNIT_SRC := $(wildcard tests/unit/*/test_*.c)
UNIT_BIN := $(UNIT_SRC:.c=)

all: harness/thpbench $(WL_C) $(WL_CXX) tests/history/histgen tests/history/histeval tests/history/histbound tests/history/histconfirm tests/kcidb/kcidb_check

harness/%.o: CFLAGS += $(HARNESS_INC) $(PQ_CFLAGS)
harness/libthpbench.a: $(HARNESS_OBJ)
	$(AR) rcs $@ $^

ifeq ($(STATIC),1)
# No libpq in a static build (harness/history/static/history_pg_none.c says why);
# its own objects, since libthpbench.a holds the PostgreSQL backend.
STATIC_OBJ := $(filter-out harness/history/history_pg.o,$(HARNESS_OBJ)) \
	harness/history/static/history_pg_none.o
harness/history/static/%.o: CFLAGS += $(HARNESS_INC)
harness/thpbench: harness/cli/main.o $(STATIC_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(filter-out -lpq,$(LDLIBS_HARNESS)) -ldl -lpthread
else
harness/thpbench: harness/cli/main.o harness/libthpbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)
endif

workloads/%.o: CFLAGS += -Iworkloads/lib
# Profiles (run --profile) walk user stacks by frame pointer.
workloads/prof_split.o: CFLAGS += -fno-omit-frame-pointer
workloads/lib/libwl.a: $(WL_LIB_OBJ)
	$(AR) rcs $@ $^

# Clients of the servers a `service =` case starts (system/res_service.c).
workloads/redis_bench: LDLIBS_WL += -lhiredis

$(WL_C): %: %.o workloads/lib/libwl.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_WL)

$(WL_CXX): %: %.cc workloads/lib/libwl.a
	$(CXX) $(CXXFLAGS) -Iworkloads/lib $(LDFLAGS) -o $@ $^ $(LDLIBS_WL)

tests/unit/%.o: CFLAGS += $(HARNESS_INC) $(PQ_CFLAGS)
$(UNIT_BIN): %: %.o harness/libthpbench.a
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(LDLIBS_HARNESS)

# The synthetic history generator (tests/history): a library for the unit
# tests, the histgen program for the database tests and the benchmark, and
# histeval, the detector's F1 on held-out histories (tests/bench/history_f1.sh),
# histbound, the gate against what any rule could do (tests/bench/history_bound.sh).
tests/history/%.o: CFLAGS += $(HARNESS_INC)
tests/unit/history/test_history tests/unit/history/test_history_format tests/unit/history/test_history_report: tests/history/histgen.o
tests/unit/history/test_history_window: tests/history/histgen.o tests/history/histreplay.o
# kcidb_check, the KCIDB v5 schema check of tests/integration/kcidb.sh.
tests/kcidb/kcidb_check: tests/kcidb/kcidb_check.o
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson
tests/history/histgen: tests/history/histgen_main.o tests/history/histgen.o harness/libthpbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)
tests/history/histeval: tests/history/histeval.o tests/history/histgen.o harness/libthpbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)
tests/history/histconfirm: tests/history/histconfirm.o tests/history/histgen.o harness/libthpbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)
tests/history/histbound: tests/history/histbound.o tests/history/histgen.o tests/history/histreplay.o harness/libthpbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)

# perf's own event tables, from the kernel source the A/B path uses
# (Debian's linux-source-6.1; ./run.sh check installs it): the TLB
# profile's encodings are checked against them (test_tlb_profile). Only
# the x86 and arm64 tables and the top Makefile (the version) are
# unpacked, once (the stamp names arm64: a tree unpacked before it had
# x86 only). test_tlb_roles reads them too, and tests/fixtures/perf-events
# for models newer than 6.1.
PERF_EVENTS_TAR ?= /usr/src/linux-source-6.1.tar.xz
PERF_EVENTS_DIR := build/perf-events
PERF_EVENTS_OK := $(PERF_EVENTS_DIR)/.ok-x86-arm64
$(PERF_EVENTS_OK):
	@test -f $(PERF_EVENTS_TAR) || { echo "$(PERF_EVENTS_TAR) missing: kernel-patches/scripts/install-deps.sh --light installs linux-source-6.1" >&2; exit 2; }
	@rm -rf $(PERF_EVENTS_DIR) && mkdir -p $(PERF_EVENTS_DIR)
	tar -xJf $(PERF_EVENTS_TAR) -C $(PERF_EVENTS_DIR) --wildcards \
		'linux-source-6.1/tools/perf/pmu-events/arch/x86/*' \
		'linux-source-6.1/tools/perf/pmu-events/arch/arm64/*' linux-source-6.1/Makefile
	@touch $@

unit: $(UNIT_BIN) $(PERF_EVENTS_OK)
	@sh tests/run-unit.sh $(UNIT_BIN)

# The unit tests cross-built for arm64 (in build/arm64), run under
# qemu-aarch64; tests/unit/qemu-user.skip names those that need what
# qemu-user cannot give, with the reason.
unit-arm64: $(PERF_EVENTS_OK)
	@scripts/arm64-deps.sh --check > /dev/null || scripts/arm64-deps.sh
	$(MAKE) ARCH=arm64 unit-bins
	@cd build/arm64 && THPBENCH_PERF_EVENTS=$(CURDIR)/$(PERF_EVENTS_DIR)/linux-source-6.1/tools/perf/pmu-events/arch \
		THPBENCH_UNIT_RUNNER="qemu-aarch64-static -L /usr/aarch64-linux-gnu" \
		LD_LIBRARY_PATH=$(CURDIR)/build/arm64-sysroot/usr/lib/aarch64-linux-gnu:$(CURDIR)/build/arm64-sysroot/lib/aarch64-linux-gnu \
		THPBENCH_UNIT_SKIP=tests/unit/qemu-user.skip sh tests/run-unit.sh $(UNIT_BIN)

# The binaries qemu-user.skip names, in an arm64 guest (TCG, the cached
# arm64 kernel): perf_event_open, spawn.c's clone, an arm64 child.
unit-arm64-guest: $(PERF_EVENTS_OK)
	@scripts/arm64-deps.sh --check > /dev/null || scripts/arm64-deps.sh
	$(MAKE) ARCH=arm64 unit-bins
	bash tests/kernel/unit_guest.sh

unit-bins: $(UNIT_BIN)

# Static analysis as a gate: every harness/ and workloads/ C file through
# gcc -fanalyzer (objects under build/analyze/, the real ones untouched;
# -Werror, so a report leaves no object and fails again next time), then
# cppcheck. Suppressions, each with its reason: tests/analyze/cppcheck.supp.
ANALYZE_DIR := build/analyze
ANALYZE_SRC := $(wildcard $(addsuffix /*.c,$(HARNESS_DIRS)) harness/history/static/*.c workloads/*.c workloads/lib/*.c)
ANALYZE_OBJ := $(ANALYZE_SRC:%.c=$(ANALYZE_DIR)/%.o)
CPPCHECK_FLAGS := -q --enable=warning,portability --std=c11 -D_GNU_SOURCE \
	$(HARNESS_INC) -Iworkloads/lib $(PQ_CFLAGS) --library=tests/analyze/jansson.cfg \
	--suppressions-list=tests/analyze/cppcheck.supp --error-exitcode=1 \
	--template='{file}:{line}: {severity}: {message} [{id}]'

$(ANALYZE_DIR)/harness/%.o: CFLAGS += $(HARNESS_INC) $(PQ_CFLAGS)
$(ANALYZE_DIR)/harness/history/static/%.o: CFLAGS += $(HARNESS_INC)
$(ANALYZE_DIR)/workloads/%.o: CFLAGS += -Iworkloads/lib
$(ANALYZE_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fanalyzer -Werror -c $< -o $@

$(ANALYZE_DIR)/cppcheck.ok: $(ANALYZE_SRC) $(wildcard $(addsuffix /*.h,$(HARNESS_DIRS)) \
		workloads/lib/*.h workloads/*.cc) tests/analyze/cppcheck.supp \
		tests/analyze/jansson.cfg
	@mkdir -p $(@D)
	cppcheck $(CPPCHECK_FLAGS) harness workloads
	@touch $@

analyze: $(ANALYZE_OBJ) $(ANALYZE_DIR)/cppcheck.ok

# ASan + UBSan (+ LeakSanitizer) builds of the harness, its unit tests and
# the CLI under build/asan/; tests/sanitize.sh runs them and fails on any
# sanitizer report, whatever the exit status the test expected.
SAN_DIR := build/asan
SAN_FLAGS := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
SAN_OBJ := $(HARNESS_SRC:%.c=$(SAN_DIR)/%.o)
SAN_UNIT := $(UNIT_BIN:%=$(SAN_DIR)/%)
$(SAN_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(HARNESS_INC) $(PQ_CFLAGS) -c $< -o $@
$(SAN_DIR)/libthpbench.a: $(SAN_OBJ)
	$(AR) rcs $@ $^
$(SAN_DIR)/thpbench: $(SAN_DIR)/harness/cli/main.o $(SAN_DIR)/libthpbench.a
	$(CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS_HARNESS)
$(SAN_UNIT): $(SAN_DIR)/%: $(SAN_DIR)/%.o $(SAN_DIR)/tests/history/histgen.o $(SAN_DIR)/tests/history/histreplay.o $(SAN_DIR)/libthpbench.a
	$(CC) $(SAN_FLAGS) -o $@ $^ -lcmocka $(LDLIBS_HARNESS)

sanitize: all $(SAN_DIR)/thpbench $(SAN_UNIT) $(PERF_EVENTS_OK)
	@sh tests/sanitize.sh $(SAN_DIR)

# libFuzzer (clang) on the two parsers of hostile input; seeds: configs/,
# tests/fixtures/. Corpus grows in build/fuzz/corpus-*; crashes land in
# build/fuzz/ as crash-* / timeout-* / leak-*.
FUZZ_CC := clang
FUZZ_DIR := build/fuzz
FUZZ_TIME ?= 600
FUZZ_FLAGS := -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer $(HARNESS_INC)
FUZZ_LIB_SRC := harness/measure/suite.c harness/measure/axes.c harness/system/mthp.c \
	harness/system/knob.c harness/util/util.c harness/results/results.c \
	harness/results/store.c harness/results/store_json.c harness/results/store_log.c \
	harness/stats/stats.c harness/util/safe_file.c harness/measure/case_res_spec.c \
	harness/system/sysctl_names.c harness/system/service_recipe.c \
	harness/measure/profile.c harness/measure/perf_script.c \
	harness/results/lcov.c harness/results/patch_hunks.c harness/compare/compare_pcov.c \
	harness/compare/compare_kcov.c
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_DIR)/%.o)
# fuzz_bisect_dir: a bisection's directory (plan.json, runs/, pending)
FUZZ_BISECT_SRC := $(wildcard harness/bisect/bisect_*.c) harness/plot/plot_metrics.c \
	harness/stats/metric_unit.c harness/stats/metric_info.c harness/stats/hypothesis.c
FUZZ_BISECT_OBJ := $(filter-out %/bisect_plot.o,$(FUZZ_BISECT_SRC:%.c=$(FUZZ_DIR)/%.o))
FUZZ_BIN := $(FUZZ_DIR)/fuzz_suite $(FUZZ_DIR)/fuzz_results $(FUZZ_DIR)/fuzz_bisect_dir $(FUZZ_DIR)/fuzz_kcov \
	$(FUZZ_DIR)/fuzz_lava
$(FUZZ_DIR)/fuzz_bisect_dir: $(FUZZ_BISECT_OBJ)
# fuzz_lava: a LAVA job log (results/lava_log.h)
$(FUZZ_DIR)/fuzz_lava: $(FUZZ_DIR)/harness/results/lava_log.o $(FUZZ_DIR)/harness/results/lava.o \
	$(FUZZ_DIR)/harness/stats/metric_unit.o
$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -c $< -o $@
$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ -ljansson -linih -lgsl -lgslcblas -lm

fuzz: $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_TIME)

fuzz-smoke: $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_DIR) 15

# The layering of harness/ (harness/README.md): includes and calls only
# downwards, no circles; the self-test plants each violation once.
layers: all
	@sh tests/layers.sh
	@sh tests/layers-selftest.sh

check: all unit layers analyze sanitize fuzz-smoke
	@sh tests/run-integration.sh

# The whole kernel A/B flow, both bundled series (10-15 minutes each here).
ab-e2e: all
	bash tests/kernel/e2e.sh

# Kernel line coverage, exact, on the gcov guest kernel (minutes; not in
# check): tests/kernel/gcov_e2e.sh.
gcov-e2e: all
	bash tests/kernel/gcov_e2e.sh

# Guest profiles with named kernel functions, 000 A/B (minutes; not in
# check): tests/kernel/profile_e2e.sh.
profile-e2e: all
	bash tests/kernel/profile_e2e.sh

# How long the kernel A/B flow takes: first run, cached rerun, B-only
# rebuild (tens of minutes; not in check).
ab-bench: all
	bash tests/kernel/bench.sh

# Incremental builds of a git tree: A from a commit of the real 6.1 tree, B
# from the next into one O= directory (the tree is kept in build/tree-e2e;
# the first run builds a whole kernel; not in check).
ab-tree:
	bash tests/kernel/tree-e2e.sh

# Kernel bisection end to end: a synthetic history on the 6.1 source, the
# counter (interrupted and resumed), a timing, and nothing to bisect (not
# in check; most of an hour here).
bisect-e2e: all
	bash tests/kernel/bisect-e2e.sh

# Seed 004 in a 2-node guest (./run.sh guest; minutes under TCG; not in check).
# Seed 004, then THP migration (configs/thp-paths-numa.conf), in a 2-node guest.
numa-e2e: all
	bash tests/kernel/numa_e2e.sh
	bash tests/kernel/numa_migrate_e2e.sh

# The same history bisected with LAVA jobs on 1 device and on 2: the same
# commit, fewer rounds (tests/kernel/bisect-e2e.sh, E2E_LAVA=2).
bisect-lava-e2e: all
	E2E_LAVA=2 bash tests/kernel/bisect-e2e.sh

confirm-e2e: all
	bash tests/kernel/confirm_e2e.sh

numa-migrate-e2e: all
	bash tests/kernel/numa_migrate_e2e.sh

# The pinned memory state's cases of thp-paths.conf on this host (root).
alloc-failed-e2e: all
	bash tests/kernel/alloc_failed_e2e.sh

# thpbench under LAVA's dispatcher (lava-run): a suite as a job, its
# history against a local guest's, A/B with --backend lava --devices 2
# (tests/kernel/lava_e2e.sh; minutes).
lava-e2e: all
	kernel-patches/scripts/install-deps.sh --lava
	bash tests/kernel/lava_e2e.sh

# Real hardware counters: an arm64 guest on qemu's emulated PMUv3 (TCG,
# -icount): cycles and instructions count, a known instruction count, a
# group, multiplexing (counted_pct < 100), an absent event (docs/arm64.md).
pmu-e2e:
	bash tests/kernel/pmu_e2e.sh

static:
	$(MAKE) clean-bin
	$(MAKE) STATIC=1 harness/thpbench $(WL_C) $(WL_CXX)

clean-bin:
	rm -f harness/thpbench $(WL_C) $(WL_CXX)

clean:
	rm -f harness/*.a harness/*/*.o harness/*/*.d harness/*/*/*.o harness/*/*/*.d \
		workloads/*.o workloads/*.d workloads/lib/*.o workloads/lib/*.d workloads/lib/*.a \
		tests/unit/*/*.o tests/unit/*/*.d tests/history/*.o tests/history/*.d tests/history/histgen tests/history/histeval tests/history/histbound tests/history/histconfirm \
		tests/kcidb/*.o tests/kcidb/*.d tests/kcidb/kcidb_check $(UNIT_BIN) harness/thpbench $(WL_C) $(WL_CXX)
	rm -rf $(ANALYZE_DIR) $(SAN_DIR) $(FUZZ_DIR) $(PERF_EVENTS_DIR)

.PHONY: all unit unit-arm64 unit-arm64-guest unit-bins pmu-e2e layers analyze sanitize fuzz fuzz-smoke check ab-e2e gcov-e2e profile-e2e ab-bench ab-tree bisect-e2e numa-e2e numa-migrate-e2e confirm-e2e alloc-failed-e2e static clean clean-bin
.SECONDARY:
-include $(wildcard harness/*/*.d harness/*/*/*.d workloads/*.d workloads/lib/*.d tests/unit/*/*.d tests/history/*.d tests/kcidb/*.d \
	$(ANALYZE_DIR)/harness/*/*.d $(ANALYZE_DIR)/harness/*/*/*.d $(ANALYZE_DIR)/workloads/*.d \
	$(ANALYZE_DIR)/workloads/lib/*.d \
	$(SAN_DIR)/harness/*/*.d $(SAN_DIR)/tests/unit/*/*.d $(FUZZ_DIR)/harness/*/*.d)

endif
