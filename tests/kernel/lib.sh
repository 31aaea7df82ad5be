# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034
#
# Helpers for the light kernel A/B tests: exit 0 pass, 77 skip, else fail.
# Sourced by tests/kernel/test_*.sh.

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
KP=$REPO_DIR/kernel-patches
T_NAME=$(basename "$0" .sh)
T_FAILS=0

skip() { echo "$T_NAME: SKIP: $*"; exit 77; }
fail() { echo "$T_NAME: FAIL: $*"; T_FAILS=$((T_FAILS + 1)); }
ok() { echo "$T_NAME: ok: $*"; }

t_tmp=$(mktemp -d)
# T_KEEP=1 keeps the scratch directory (named on stderr) for a look.
trap 'if [ -n "${T_KEEP:-}" ]; then echo "kept $t_tmp" >&2; else rm -rf "$t_tmp"; fi' EXIT

# Build the static init (its --emit mode is the real transfer encoder).
build_init()
{
	gcc -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-o "$t_tmp/init" "$KP/init/init.c" 2> "$t_tmp/init.err" ||
		skip "cannot link a static program ($(head -1 "$t_tmp/init.err"))"
}

finish()
{
	if [ "$T_FAILS" -ne 0 ]; then
		echo "$T_NAME: $T_FAILS check(s) failed"
		exit 1
	fi
	echo "$T_NAME: pass"
	exit 0
}

# A file the A/B flow takes for a bzImage reporting release $2: the x86
# boot header's "HdrS" magic and a version string at the offset it names.
fake_bzimage()
{
	head -c 2048 /dev/zero > "$1"
	printf 'HdrS' | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null
	printf '\x00\x04' | dd of="$1" bs=1 seek=526 conv=notrunc 2>/dev/null	# 0x400
	printf '%s (t@localhost) #1 SMP\0' "$2" | dd of="$1" bs=1 seek=1536 conv=notrunc 2>/dev/null
}

# A stand-in kernel tree in DIR, enough kbuild for build-kernel.sh and
# nothing compiled: each mm/*.c, init/*.c becomes an object (make decides
# what is out of date, as kbuild does, and prints "  CC      mm/x.o" per
# object it makes), bzImage is fake_bzimage's with the release
# "6.1.0" + CONFIG_LOCALVERSION. FAKE_BUILD_HANG=N: the bzImage step
# starts two "sleep N" and waits (a build that runs until stopped);
# FAKE_DROP="CONFIG_X ...": olddefconfig drops those options.
fake_kernel_tree()
{
	local dir=$1
	mkdir -p "$dir/mm" "$dir/init" "$dir/scripts" "$dir/kernel/configs" "$dir/arch/x86/configs"
	for f in mremap huge_memory memory; do printf 'int %s;\n' "$f" > "$dir/mm/$f.c"; done
	printf 'obj-y := mremap.o huge_memory.o memory.o\n' > "$dir/mm/Makefile"
	printf 'int version;\n' > "$dir/init/version.c"
	printf 'CONFIG_TINY_BASE=y\n' > "$dir/kernel/configs/tiny-base.config"
	printf 'CONFIG_CC_OPTIMIZE_FOR_SIZE=y\n' > "$dir/kernel/configs/tiny.config"
	printf 'CONFIG_NOHIGHMEM=y\n' > "$dir/arch/x86/configs/tiny.config"
	{ declare -f fake_bzimage; printf 'fake_bzimage "$@"\n'; } > "$dir/scripts/fake-image.sh"
	# scripts/config: only what build-kernel.sh asks of it.
	cat > "$dir/scripts/config" <<'CFG'
#!/bin/sh
file=$2; shift 2
while [ $# -gt 0 ]; do
	case $1 in
	--set-str) sed -i "/^CONFIG_$2=/d" "$file"; printf 'CONFIG_%s="%s"\n' "$2" "$3" >> "$file"; shift 3 ;;
	--disable) sed -i "/^CONFIG_$2=/d" "$file"; printf '# CONFIG_%s is not set\n' "$2" >> "$file"; shift 2 ;;
	*) shift ;;
	esac
done
CFG
	chmod +x "$dir/scripts/config"
	cat > "$dir/Makefile" <<'MK'
O ?= .
SRCS := $(sort $(wildcard mm/*.c init/*.c))
OBJS := $(SRCS:%.c=$(O)/%.o)
LV = $(shell sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"/\1/p' $(O)/.config)
.PHONY: mrproper allnoconfig olddefconfig defconfig kernelrelease bzImage
mrproper: ; @true
allnoconfig: ; @cat $(KCONFIG_ALLCONFIG) > $(O)/.config
defconfig: ; @cat kernel/configs/tiny.config > $(O)/.config
olddefconfig: ; @for s in $$FAKE_DROP; do sed -i "/^$$s=/d" $(O)/.config; done
kernelrelease: ; @echo 6.1.0$(LV)
# As kbuild: `make -s` (an s in MAKEFLAGS, also inherited) silences it.
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
SAY = @true
else
SAY = @echo
endif
$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SAY) "  CC      $*.o"
	@cp $< $@
	@# --gcov: a note and a profiled command line, as gcc -fprofile-arcs leaves.
	@if grep -qs '^GCOV_PROFILE := y' $(dir $<)Makefile; then : > $(O)/$*.gcno; \
		echo "cmd := gcc -fprofile-arcs" > $(O)/$(dir $*).$(notdir $*).o.cmd; fi
bzImage: $(OBJS)
	@if [ -n "$$FAKE_BUILD_HANG" ]; then sleep $$FAKE_BUILD_HANG & sleep $$FAKE_BUILD_HANG & wait; fi
	@mkdir -p $(O)/arch/x86/boot
	@bash scripts/fake-image.sh $(O)/arch/x86/boot/bzImage 6.1.0$(LV)
MK
}

# A one-patch series in DIR for fake_kernel_tree: mm/mremap.c's line
# changed ("int mremap = 1;").
fake_series()
{
	mkdir -p "$1"
	cat > "$1/0001-mm-one-line.patch" <<'PATCH'
From: t <t@localhost>
Subject: [PATCH] mm: one line

Signed-off-by: t <t@localhost>
---
--- a/mm/mremap.c
+++ b/mm/mremap.c
@@ -1 +1 @@
-int mremap;
+int mremap = 1;
PATCH
}

# SIGINT to the process group of job PID, as a terminal sends it; waits
# up to 10 s for it to end (then kills the group and fails, naming WHAT)
# and sets int_rc to its exit status.
interrupt_job()
{
	local pid=$1 what=$2
	kill -INT -- "-$pid"
	for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		fail "$what: still running 10 s after SIGINT"
		kill -KILL -- "-$pid" 2>/dev/null
	fi
	int_rc=0
	wait "$pid" || int_rc=$?
}

# Static stand-ins for the harness and workloads $@ in $t_tmp/static (for
# THPBENCH_AB_STATIC; never run: qemu is fake). Skips without static libc.
static_standins()
{
	local w
	printf 'int main(void) { return 0; }\n' > "$t_tmp/prog.c"
	gcc -static -o "$t_tmp/prog" "$t_tmp/prog.c" 2>/dev/null || skip "no static libc"
	mkdir -p "$t_tmp/static/harness" "$t_tmp/static/workloads"
	cp "$t_tmp/prog" "$t_tmp/static/harness/thpbench"
	for w in "$@"; do cp "$t_tmp/prog" "$t_tmp/static/workloads/$w"; done
}

# settled CMD...: what CMD (a process listing) prints once it has stopped
# printing anything, or after 10 s: processes just signalled take a moment
# to go, longer on a loaded machine; one left behind stays.
settled()
{
	local out
	for _ in $(seq 1 100); do
		out=$("$@")
		[ -z "$out" ] && return 0
		sleep 0.1
	done
	printf '%s\n' "$out"
}
