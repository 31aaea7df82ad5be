// SPDX-License-Identifier: GPL-2.0-only
/*
 * Name resolution follows perf: its generic names first (so "cycles" never
 * reaches libpfm4, whose spelling differs), then tracepoints, then libpfm4
 * for everything vendor specific.
 */
#include "events.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/stat.h>

/* After <linux/perf_event.h>: libpfm4 then skips its own copy of the ABI. */
#include <perfmon/pfmlib_perf_event.h>

#include "counters.h"
#include "event_raw.h"
#include "tlb_profile.h"
#include "util/util.h"

struct generic_name {
	const char *name;
	uint32_t type;
	uint64_t config;
};

#define HW(n, c) { n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, c) { n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }

/* perf's tools/perf/util/parse-events.l spellings, aliases included. */
static const struct generic_name generic_names[] = {
	HW("cpu-cycles", CPU_CYCLES),
	HW("cycles", CPU_CYCLES),
	HW("instructions", INSTRUCTIONS),
	HW("cache-references", CACHE_REFERENCES),
	HW("cache-misses", CACHE_MISSES),
	HW("branch-instructions", BRANCH_INSTRUCTIONS),
	HW("branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", BRANCH_MISSES),
	HW("bus-cycles", BUS_CYCLES),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("ref-cycles", REF_CPU_CYCLES),
	SW("cpu-clock", CPU_CLOCK),
	SW("task-clock", TASK_CLOCK),
	SW("page-faults", PAGE_FAULTS),
	SW("faults", PAGE_FAULTS),
	SW("minor-faults", PAGE_FAULTS_MIN),
	SW("major-faults", PAGE_FAULTS_MAJ),
	SW("context-switches", CONTEXT_SWITCHES),
	SW("cs", CONTEXT_SWITCHES),
	SW("cpu-migrations", CPU_MIGRATIONS),
	SW("migrations", CPU_MIGRATIONS),
	SW("alignment-faults", ALIGNMENT_FAULTS),
	SW("emulation-faults", EMULATION_FAULTS),
	SW("dummy", DUMMY),
};

#undef HW
#undef SW

struct cache_name {
	const char *name;
	unsigned int id;
	unsigned int ops;	/* bit per PERF_COUNT_HW_CACHE_OP_* perf accepts */
};

#define OPS_R	(1u << PERF_COUNT_HW_CACHE_OP_READ)
#define OPS_RWP	(OPS_R | 1u << PERF_COUNT_HW_CACHE_OP_WRITE | \
		 1u << PERF_COUNT_HW_CACHE_OP_PREFETCH)

/* Which ops make sense per cache: perf's evsel__hw_cache_stat[]. */
static const struct cache_name cache_names[] = {
	{ "L1-dcache", PERF_COUNT_HW_CACHE_L1D, OPS_RWP },
	{ "L1-icache", PERF_COUNT_HW_CACHE_L1I,
	  OPS_R | 1u << PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "LLC", PERF_COUNT_HW_CACHE_LL, OPS_RWP },
	{ "dTLB", PERF_COUNT_HW_CACHE_DTLB, OPS_RWP },
	{ "iTLB", PERF_COUNT_HW_CACHE_ITLB, OPS_R },
	{ "branch", PERF_COUNT_HW_CACHE_BPU, OPS_R },
	{ "node", PERF_COUNT_HW_CACHE_NODE, OPS_RWP },
};

/* "<cache>-<plural>" counts accesses, "<cache>-<op>-misses" misses. */
static const struct {
	const char *op, *plural;
} cache_ops[] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "load", "loads" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "store", "stores" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches" },
};

static int pfm_state = 1;	/* 1: not tried, 0: ok, <0: pfm error */

int events_init(void)
{
	if (pfm_state == 1) {
		tlb_model_prepare();
		pfm_state = pfm_initialize();
	}
	return pfm_state == PFM_SUCCESS ? 0 : -1;
}

static void set_error(struct event_spec *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_error(struct event_spec *ev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ev->error, sizeof(ev->error), fmt, ap);
	va_end(ap);
}

static bool hw_cache_config(const char *s, size_t len, uint64_t *config)
{
	for (size_t i = 0; i < ARRAY_SIZE(cache_names); i++) {
		const struct cache_name *c = &cache_names[i];
		size_t cl = strlen(c->name);

		if (len <= cl + 1 || strncasecmp(s, c->name, cl) || s[cl] != '-')
			continue;
		for (unsigned int op = 0; op < ARRAY_SIZE(cache_ops); op++) {
			const char *rest = s + cl + 1;
			size_t left = len - cl - 1;
			size_t ol = strlen(cache_ops[op].op);
			unsigned int result;

			if (!(c->ops & 1u << op))
				continue;
			if (left == strlen(cache_ops[op].plural) &&
			    !strncasecmp(rest, cache_ops[op].plural, left))
				result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
			else if (left == ol + 7 &&
				 !strncasecmp(rest, cache_ops[op].op, ol) &&
				 !strncasecmp(rest + ol, "-misses", 7))
				result = PERF_COUNT_HW_CACHE_RESULT_MISS;
			else
				continue;
			*config = c->id | op << 8 | (uint64_t)result << 16;
			return true;
		}
	}
	return false;
}

/* perf's ":u", ":k", ":h" (any combination): count only the levels named. */
static bool apply_modifiers(const char *mod, struct perf_event_attr *attr)
{
	bool u = false, k = false, h = false;

	if (!*mod)
		return false;
	for (; *mod; mod++) {
		if (*mod == 'u')
			u = true;
		else if (*mod == 'k')
			k = true;
		else if (*mod == 'h')
			h = true;
		else
			return false;
	}
	attr->exclude_user = !u;
	attr->exclude_kernel = !k;
	attr->exclude_hv = !h;
	return true;
}

static bool encode_generic(const char *name, struct event_spec *ev)
{
	const char *colon = strchr(name, ':');
	size_t len = colon ? (size_t)(colon - name) : strlen(name);
	struct perf_event_attr *attr = &ev->attr;
	uint64_t config;
	bool found = false;

	for (size_t i = 0; i < ARRAY_SIZE(generic_names); i++) {
		const struct generic_name *g = &generic_names[i];

		if (strlen(g->name) == len && !strncmp(name, g->name, len)) {
			attr->type = g->type;
			attr->config = g->config;
			found = true;
			break;
		}
	}
	if (!found && hw_cache_config(name, len, &config)) {
		attr->type = PERF_TYPE_HW_CACHE;
		attr->config = config;
		found = true;
	}
	if (!found)
		return false;
	if (colon && !apply_modifiers(colon + 1, attr)) {
		memset(attr, 0, sizeof(*attr));
		return false;
	}
	ev->source = EVSRC_PERF_NAME;
	ev->hardware = attr->type != PERF_TYPE_SOFTWARE;
	return true;
}

static const char *const std_roots[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

static bool has_events_dir(const char *root)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", root);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tracefs_root(void)
{
	static char env_root[PATH_MAX];
	static bool mount_tried;
	const char *env = getenv("THPBENCH_TRACEFS");

	if (env && *env) {
		if (!has_events_dir(env))
			return NULL;
		snprintf(env_root, sizeof(env_root), "%s", env);
		return env_root;
	}
	for (size_t i = 0; i < ARRAY_SIZE(std_roots); i++)
		if (has_events_dir(std_roots[i]))
			return std_roots[i];
	if (!mount_tried) {
		mount_tried = true;
		if (mount("nodev", std_roots[0], "tracefs", 0, NULL) == 0 &&
		    has_events_dir(std_roots[0]))
			return std_roots[0];
	}
	return NULL;
}

/*
 * A standard tracefs root that is there but that this user may not look
 * into (not root); NULL when there is none such.
 */
static const char *tracefs_denied(void)
{
	char path[PATH_MAX];
	struct stat st;

	if (getenv("THPBENCH_TRACEFS"))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(std_roots); i++) {
		snprintf(path, sizeof(path), "%s/events", std_roots[i]);
		if (stat(path, &st) && errno == EACCES)
			return std_roots[i];
	}
	return NULL;
}

/* "subsys:event" as tracefs spells them: [a-z0-9_] on both sides. */
static bool tracepoint_shaped(const char *name)
{
	const char *colon = strchr(name, ':');

	return colon && colon > name && colon[1] &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
		       (size_t)(colon - name) &&
	       strspn(colon + 1, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
		       strlen(colon + 1);
}

/* A tracepoint this user cannot read: accepted, never opened. */
static bool encode_denied_tracepoint(const char *name, struct event_spec *ev)
{
	const char *root = tracefs_denied();

	if (!root || !tracepoint_shaped(name))
		return false;
	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->source = EVSRC_TRACEPOINT;
	ev->hardware = false;
	snprintf(ev->unavailable, sizeof(ev->unavailable),
		 "tracefs (%s) is readable by root only; run as root to count it",
		 root);
	return true;
}

/* <root>/events/<sys>/<event>/id; false when it does not fit. */
static bool tp_id_path(char *buf, size_t len, const char *root,
		       const char *sys, int syslen, const char *event)
{
	int n = snprintf(buf, len, "%s/events/%.*s/%s/id", root, syslen, sys,
			 event);

	return n >= 0 && (size_t)n < len;
}

/*
 * 1 when name is a tracepoint, 0 when it is not one (try libpfm4 next),
 * -1 when its id file exists but cannot be used (ev->error set).
 */
static int encode_tracepoint(const char *name, struct event_spec *ev)
{
	const char *colon = strchr(name, ':');
	const char *root = tracefs_root();
	char path[PATH_MAX], buf[32];
	long id;

	if (!colon || strchr(colon + 1, ':') || colon == name || !colon[1] ||
	    strchr(name, '/') || !root ||
	    !tp_id_path(path, sizeof(path), root, name, (int)(colon - name),
			colon + 1))
		return 0;
	if (read_file_str(path, buf, sizeof(buf))) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		set_error(ev, "tracepoint '%s': cannot read %s: %s", name,
			  path, strerror(errno));
		return -1;
	}
	if (parse_long(str_trim(buf), &id) || id < 0) {
		set_error(ev, "tracepoint '%s': %s holds '%s', not an id",
			  name, path, buf);
		return -1;
	}
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (uint64_t)id;
	ev->source = EVSRC_TRACEPOINT;
	ev->hardware = false;
	return 1;
}

static bool type_is_hardware(uint32_t type)
{
	return type != PERF_TYPE_SOFTWARE && type != PERF_TYPE_TRACEPOINT &&
	       type != PERF_TYPE_BREAKPOINT;
}

/* Returns 0, or the pfm error code (negative) for the message. */
static int encode_libpfm(const char *name, struct event_spec *ev)
{
	pfm_perf_encode_arg_t arg;
	int ret;

	if (events_init())
		return pfm_state;
	memset(&arg, 0, sizeof(arg));
	arg.attr = &ev->attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
					PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		memset(&ev->attr, 0, sizeof(ev->attr));
		return ret;
	}
	/*
	 * libpfm4's perf PMU lists the tracepoints of a debugfs it finds
	 * itself ("perf::tlb:tlb_flush"): that would bypass tracefs_root()
	 * (THPBENCH_TRACEFS, a fake root) and take ids from another tree.
	 * A tracepoint comes from encode_tracepoint() or not at all.
	 */
	if (arg.attr->type == PERF_TYPE_TRACEPOINT) {
		memset(&ev->attr, 0, sizeof(ev->attr));
		return PFM_ERR_NOTFOUND;
	}
	ev->source = EVSRC_LIBPFM;
	ev->hardware = type_is_hardware(ev->attr.type);
	return 0;
}

int event_encode(const char *name, struct event_spec *ev)
{
	int ret;

	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	if (!*name) {
		set_error(ev, "empty event name; run `thpbench list` for the events usable here");
		return -1;
	}
	if (strlen(name) >= sizeof(ev->name)) {
		set_error(ev, "event name '%.40s...' is longer than %zu characters",
			  name, sizeof(ev->name) - 1);
		return -1;
	}
	if (encode_generic(name, ev))
		goto ok;
	ret = event_raw_encode(name, ev);
	if (ret < 0)
		return -1;
	if (ret > 0)
		goto ok;
	ret = encode_tracepoint(name, ev);
	if (ret < 0)
		return -1;
	if (ret > 0)
		goto ok;
	ret = encode_libpfm(name, ev);
	if (ret == 0)
		goto ok;
	if (encode_denied_tracepoint(name, ev))
		goto ok;
	set_error(ev, "unknown event '%s': not a perf event name, tracepoint%s or libpfm4 event (%s); run `thpbench list` for the events usable here",
		  name, tracefs_root() ? "" : " (no tracefs found)",
		  pfm_strerror(ret));
	return -1;
ok:
	ev->attr.size = sizeof(ev->attr);
	return 0;
}

static void print_probe(const char *name)
{
	struct event_spec ev;
	char reason[160];

	if (event_encode(name, &ev)) {
		printf("  %-34s %s\n", name, ev.error);
		return;
	}
	if (counter_probe(&ev, 0, reason, sizeof(reason)))
		printf("  %-34s ok\n", name);
	else
		printf("  %-34s %s\n", name, reason);
}

static void print_generic(void)
{
	char name[64];

	printf("Generic events (perf names; add :u or :k to count one level):\n");
	for (size_t i = 0; i < ARRAY_SIZE(generic_names); i++) {
		const struct generic_name *g = &generic_names[i];

		/* dummy counts nothing; it exists for perf record */
		if (g->type == PERF_TYPE_SOFTWARE &&
		    g->config == PERF_COUNT_SW_DUMMY)
			continue;
		print_probe(g->name);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cache_names); i++) {
		for (unsigned int op = 0; op < ARRAY_SIZE(cache_ops); op++) {
			if (!(cache_names[i].ops & 1u << op))
				continue;
			snprintf(name, sizeof(name), "%s-%s",
				 cache_names[i].name, cache_ops[op].plural);
			print_probe(name);
			snprintf(name, sizeof(name), "%s-%s-misses",
				 cache_names[i].name, cache_ops[op].op);
			print_probe(name);
		}
	}
}

/* Whole subsystems that are about huge pages, then single events. */
static const char *const tp_systems[] = { "huge_memory", "thp", "hugetlbfs" };
static const char *const tp_events[] = {
	"tlb:tlb_flush", "exceptions:page_fault_user",
	"exceptions:page_fault_kernel", "compaction:mm_compaction_begin",
	"compaction:mm_compaction_end", "migrate:mm_migrate_pages",
	"kmem:mm_page_alloc", "mmap_lock:mmap_lock_start_locking",
};

static void print_tp_system(const char *root, const char *sys)
{
	char path[PATH_MAX], name[sizeof(((struct event_spec *)0)->name)];
	struct dirent **ents;
	int nent, len;

	len = snprintf(path, sizeof(path), "%s/events/%s", root, sys);
	nent = len > 0 && (size_t)len < sizeof(path) ?
	       scandir(path, &ents, NULL, alphasort) : -1;
	for (int i = 0; i < nent; i++) {
		const char *ev = ents[i]->d_name;
		struct stat st;

		len = snprintf(name, sizeof(name), "%s:%s", sys, ev);
		if (ev[0] != '.' && (size_t)len < sizeof(name) &&
		    tp_id_path(path, sizeof(path), root, sys, (int)strlen(sys),
			       ev) &&
		    stat(path, &st) == 0)
			print_probe(name);
		free(ents[i]);
	}
	if (nent >= 0)
		free(ents);
}

static void print_tracepoints(void)
{
	const char *root = tracefs_root();
	char path[PATH_MAX];
	struct stat st;

	if (!root) {
		printf("Tracepoints: none (tracefs not found and could not be mounted at /sys/kernel/tracing)\n");
		return;
	}
	printf("Tracepoints (tracefs at %s; any subsys:event there works):\n",
	       root);
	for (size_t i = 0; i < ARRAY_SIZE(tp_events); i++) {
		const char *e = tp_events[i], *colon = strchr(e, ':');

		if (tp_id_path(path, sizeof(path), root, e, (int)(colon - e),
			       colon + 1) && stat(path, &st) == 0)
			print_probe(e);
	}
	for (size_t i = 0; i < ARRAY_SIZE(tp_systems); i++)
		print_tp_system(root, tp_systems[i]);
}

/*
 * libpfm4 names the PMUs it has tables for; that says nothing about
 * whether the kernel here lets them count (a VM without a virtual PMU).
 * Open cycles to find out, and say so next to each PMU.
 */
static void print_pmus(void)
{
	char reason[sizeof(((struct event_spec *)0)->error)];
	const char *why = reason;
	struct event_spec ev;
	pfm_pmu_info_t info;
	bool usable, any = false;
	pfm_pmu_t pmu;

	if (event_encode("cycles", &ev))
		snprintf(reason, sizeof(reason), "%s", ev.error);
	usable = !ev.error[0] && counter_probe(&ev, 0, reason, sizeof(reason));
	if (!strncmp(why, "<not supported>: ", 17))
		why += 17;
	if (events_init()) {
		printf("libpfm4: initialisation failed (%s)\n",
		       pfm_strerror(pfm_state));
		return;
	}
	if (usable)
		printf("PMU: hardware events open here (cycles ok); libpfm4 PMUs (events as PMU::EVENT:UMASK, see showevtinfo):\n");
	pfm_for_all_pmus(pmu) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(pmu, &info) != PFM_SUCCESS ||
		    !info.is_present)
			continue;
		any = true;
		if (usable)
			printf("  %-34s %s (%d events)\n", info.name, info.desc,
			       info.nevents);
		else
			printf("PMU: libpfm4 knows %s (%s), but hardware events cannot be opened here (%s): dTLB/cycles claims are not measurable\n",
			       info.name, info.desc, why);
	}
	if (!any && !usable)
		printf("PMU: none: hardware events cannot be opened here (%s): dTLB/cycles claims are not measurable\n",
		       why);
}

void events_print_usable(void)
{
	print_generic();
	printf("\n");
	print_tracepoints();
	printf("\n");
	print_pmus();
	fflush(stdout);
}
