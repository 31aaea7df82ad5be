# SPDX-License-Identifier: GPL-2.0-only
#
# make ARCH=arm64 [GOAL...]: each goal is made in build/arm64, a copy of
# the sources (the native objects in the tree stay as they are), by the
# cross compiler and the arm64 sysroot of scripts/arm64-deps.sh. The copy
# keeps mtimes (cpio -m), so make there rebuilds only what changed.
ARM64_DIR := build/arm64
ARM64_SYSROOT ?= $(CURDIR)/build/arm64-sysroot
ARM64_GOALS := $(or $(MAKECMDGOALS),all)

$(ARM64_GOALS): arm64-sources
	$(MAKE) -C $(ARM64_DIR) THPBENCH_IN_CROSS=1 ARCH=arm64 ARM64_SYSROOT=$(ARM64_SYSROOT) $@

arm64-sources:
	@scripts/arm64-deps.sh --check > /dev/null || scripts/arm64-deps.sh $(ARM64_SYSROOT)
	@mkdir -p $(ARM64_DIR)
	@git ls-files -co --exclude-standard -- Makefile mk harness workloads tests configs kernel-patches |\
		while IFS= read -r f; do [ ! -f "$$f" ] || printf '%s\n' "$$f"; done |\
		cpio -pdmu --quiet $(ARM64_DIR)

.PHONY: $(ARM64_GOALS) arm64-sources
