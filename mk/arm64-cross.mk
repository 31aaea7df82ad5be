# SPDX-License-Identifier: GPL-2.0-only
#
# The cross compiler for ARCH=arm64 (made in build/arm64 by
# mk/arm64-outer.mk): Debian's aarch64-linux-gnu toolchain, its own C
# library, and the arm64 -dev libraries unpacked into ARM64_SYSROOT by
# scripts/arm64-deps.sh (not installed: they would conflict with the
# amd64 ones). The cross gcc never looks in /usr/include, so only the
# sysroot's headers are seen.
ARM64_SYSROOT ?= $(CURDIR)/build/arm64-sysroot
ARM64_LIB := $(ARM64_SYSROOT)/usr/lib/aarch64-linux-gnu
CC := aarch64-linux-gnu-gcc
CXX := aarch64-linux-gnu-g++
AR := aarch64-linux-gnu-ar
ARM64_INC := -I$(ARM64_SYSROOT)/usr/include -I$(ARM64_SYSROOT)/usr/include/aarch64-linux-gnu
override CFLAGS += $(ARM64_INC)
override CXXFLAGS += $(ARM64_INC)
override LDFLAGS += -L$(ARM64_LIB) -Wl,-rpath-link,$(ARM64_LIB) \
	-Wl,-rpath-link,$(ARM64_SYSROOT)/lib/aarch64-linux-gnu
PQ_CFLAGS := -I$(ARM64_SYSROOT)/usr/include/postgresql
# No fused multiply-add contraction (gcc's default for arm64, not for
# x86-64 without -march): the statistics then round as on x86, and the
# golden CSVs (tests/fixtures/compare/golden) match to the last digit.
override CFLAGS += -ffp-contract=off
override CXXFLAGS += -ffp-contract=off
