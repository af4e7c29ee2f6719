// SPDX-License-Identifier: GPL-2.0
/*
 * kstats doctor: what this machine allows kstats, a line per fact (FACT
 * VALUE VERDICT: ok; no, kstats cannot do that here; warn, it works but
 * numbers or features are affected; -, information), the fix under no and
 * warn, then whether kstats can trace here.  72 columns, or --json.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <kstats/version.h>
#include "ks_ctl.h"
#include "ks_json.h"
#include "ks_load.h"
#include "kstats.h"

#define KS_DOC_FACTS	40
#define KS_DOC_COLS	72		/* every line of the text */
#define KS_DOC_PROBE	"hrtimer_nanosleep"
#define KS_DOC_SLEEP_NS	100000000L	/* the attach test's nanosleep() */
#define KS_DOC_NB	3

static const char *const ks_doc_backends[KS_DOC_NB] = { "direct", "fprobe", "kretprobe" };

struct ks_fact {
	char fact[24];
	char value[128];
	const char *verdict;		/* "ok", "no", "warn", "-" */
	char fix[KS_ERR_MAX];		/* shown under "no" and "warn" only */
};

struct ks_doctor {
	struct ks_fact facts[KS_DOC_FACTS];
	int n;
	int loaded, ready, signed_;	/* signed_: 1, 0, -1 unknown */
	char lockdown[64];		/* "": unknown */
	int ftrace_on, kprobes_on;	/* 1, 0, -1 unknown */
	int sym[KS_DOC_NB];		/* the backend's API in kallsyms: 1, 0, -1 */
	int tried;			/* the attach test ran on a backend */
	char backends[64];		/* those that attached (or are offered) */
	const char *reason;		/* why kstats cannot trace, or NULL */
};


/* Add fact @name: @verdict, the value printf'ed, @fix kept for no and warn. */
static void ks_fact(struct ks_doctor *d, const char *name, const char *verdict,
		    const char *fix, const char *fmt, ...)
{
	struct ks_fact *f = &d->facts[d->n];
	va_list ap;

	if (d->n >= KS_DOC_FACTS)
		return;
	d->n++;
	snprintf(f->fact, sizeof(f->fact), "%s", name);
	f->verdict = verdict;
	va_start(ap, fmt);
	vsnprintf(f->value, sizeof(f->value), fmt, ap);
	va_end(ap);
	snprintf(f->fix, sizeof(f->fix), "%s", fix && (!strcmp(verdict, "no") ||
		 !strcmp(verdict, "warn")) ? fix : "");
}

/* Append backend @b to the comma-separated list. */
static void ks_add_backend(struct ks_doctor *d, int b)
{
	size_t l = strlen(d->backends);

	snprintf(d->backends + l, sizeof(d->backends) - l, "%s%s", l ? ", " : "",
		 ks_doc_backends[b]);
}

/* Facts 1-3: the kernel, the CLI, the module and its version. */
static void ks_doc_versions(struct ks_doctor *d)
{
	const char *mod = ks_ctl_path("KSTATS_TEST_MODULE", "/sys/module/kstats");
	char path[512], ver[64];
	struct utsname u = { .machine = "" };
	struct stat st;

	ks_fact(d, "kernel", "-", NULL, "%s %s", uname(&u) ? "unknown" : u.release, u.machine);
	ks_fact(d, "cli", "-", NULL, "kstats " KS_VERSION);
	d->loaded = !stat(mod, &st) && S_ISDIR(st.st_mode);
	snprintf(path, sizeof(path), "%s/version", mod);
	if (!d->loaded)
		ks_fact(d, "module", "no", "modprobe kstats (from a built tree: insmod kmod/kstats.ko)",
			"not loaded");
	else if (ks_ctl_first_line(path, ver, sizeof(ver)))
		ks_fact(d, "module", "warn", "load the module of kstats " KS_VERSION ", the CLI's",
			"loaded, version unknown (older)");
	else
		ks_fact(d, "module", strcmp(ver, KS_VERSION) ? "warn" : "ok",
			"install the module and the CLI of one kstats (the CLI is " KS_VERSION ")",
			"loaded, version %s", ver);
}

/* Fact 4: kstats' taint letters in /proc/modules; the signer, not loaded. */
static void ks_doc_signature(struct ks_doctor *d)
{
	char line[512], out[128] = "";
	FILE *f;
	int st;

	d->signed_ = -1;
	if (d->loaded) {
		f = fopen(ks_ctl_path("KSTATS_TEST_MODULES", "/proc/modules"), "r");
		while (f && fgets(line, sizeof(line), f))	/* taint letters: (OE) */
			if (!strncmp(line, "kstats ", 7))
				d->signed_ = !strchr(line + strcspn(line, "("), 'E');
		if (f)
			fclose(f);
		ks_fact(d, "signature", "-", NULL, d->signed_ < 0 ? "unknown" : !d->signed_ ?
			"unsigned" : access(ks_ctl_path("KSTATS_TEST_SIG_ENFORCE", KS_SIG_ENFORCE), F_OK) ?
			"not checked (no module signing)" : "signed");
		return;
	}
	f = popen("modinfo -F signer kstats 2>/dev/null", "r");
	if (f && !fgets(out, sizeof(out), f))
		*out = '\0';
	st = f ? pclose(f) : -1;
	out[strcspn(out, "\n")] = '\0';
	d->signed_ = st ? -1 : !!*out;
	ks_fact(d, "signature", "-", NULL, st ? "unknown (modinfo finds no kstats)" :
		*out ? "signed by %s" : "unsigned", out);
}

/* Facts 5-6: are signatures required; the lockdown level. */
static void ks_doc_lockdown(struct ks_doctor *d)
{
	int req = ks_sig_required();
	const char *lk = ks_lockdown(d->lockdown, sizeof(d->lockdown));

	if (req && !d->loaded && d->signed_ != 1)
		ks_fact(d, "sig required", "no",
			"mokutil --import /var/lib/dkms/mok.pub, reboot, enroll (docs/install.md)",
			d->signed_ ? "yes, no signed kstats found" : "yes, and kstats is not signed");
	else
		ks_fact(d, "sig required", "-", NULL, !req ? "no" :
			lk && strcmp(lk, "none") ? "yes (lockdown)" : "yes (sig_enforce)");
	if (!lk && ks_mounted("/sys/kernel/security", "securityfs") == 0)
		ks_fact(d, "lockdown", "warn", "mount -t securityfs none /sys/kernel/security",
			"unknown (no securityfs)");
	else if (!lk)
		ks_fact(d, "lockdown", "-", NULL, "unknown");
	else if (!strcmp(lk, "integrity"))
		ks_fact(d, "lockdown", "ok", NULL, "integrity (debugfs closed: /proc/kstats)");
	else if (!strcmp(lk, "confidentiality"))
		ks_fact(d, "lockdown", "no",
			"boot without lockdown=confidentiality (tracefs is closed too)",
			"confidentiality (kprobes, ftrace closed)");
	else
		ks_fact(d, "lockdown", "ok", NULL, "%s", lk);
}

/* Fact 7: the control directory, and debugfs. */
static void ks_doc_control(struct ks_doctor *d)
{
	char err[KS_ERR_MAX] = "";
	int m = ks_mounted("/sys/kernel/debug", "debugfs");
	int closed = d->lockdown[0] && strcmp(d->lockdown, "none");

	d->ready = !ks_ctl_ready(err, sizeof(err));
	ks_fact(d, "control", d->ready ? "ok" : "no", err, "%s (%s)", ks_root(), ks_iface());
	if (m == 0)
		ks_fact(d, "debugfs", "warn", "mount -t debugfs none /sys/kernel/debug",
			"not mounted");
	else
		ks_fact(d, "debugfs", closed ? "-" : "ok", NULL, "%s%s", m > 0 ? "mounted, " : "",
			closed ? "closed by lockdown" : "open");
}

/* Facts 8-10: tracefs, ftrace_enabled, kprobes/enabled. */
static void ks_doc_switches(struct ks_doctor *d)
{
	const char *t = "/sys/kernel/tracing", *old = "/sys/kernel/debug/tracing";
	int on;

	t = ks_mounted(t, "tracefs") > 0 ? t : ks_mounted(old, "tracefs") > 0 ? old : NULL;
	ks_fact(d, "tracefs", t ? "ok" : "-", NULL, "%s", t ? t : "not mounted");
	on = d->ftrace_on = ks_ctl_ftrace_on();
	ks_fact(d, "ftrace_enabled", on < 0 ? "-" : on ? "ok" : "no",
		"sysctl kernel.ftrace_enabled=1", "%s", on < 0 ? "unknown" : on ? "1" : "0");
	on = d->kprobes_on = ks_ctl_kprobes_on();
	ks_fact(d, "kprobes", on < 0 ? "-" : on ? "ok" : "no",
		"echo 1 > " KS_KPROBES_ENABLED,
		on < 0 ? "unknown" : on ? "enabled" : "disabled (kretprobe, sections)");
}

/* Fact 11: what /proc/kallsyms offers the backends. */
static void ks_doc_kallsyms(struct ks_doctor *d)
{
	static const char *const names[] = {
		"register_ftrace_direct", "register_ftrace_direct_multi",
		"register_fprobe", "register_kretprobe",
	};
	int seen[4] = { 0 }, i;
	char line[512], sym[256];
	FILE *f = fopen(ks_ctl_path("KSTATS_KALLSYMS", "/proc/kallsyms"), "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %255s", sym) == 1)
			for (i = 0; i < 4; i++)
				seen[i] |= !strcmp(sym, names[i]);
	if (f)
		fclose(f);
	d->sym[0] = f ? seen[0] || seen[1] : -1;
	d->sym[1] = f ? seen[2] : -1;
	d->sym[2] = f ? seen[3] : -1;
	ks_fact(d, "direct calls", !f ? "-" : d->sym[0] ? "ok" : "no",
		"a kernel with CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "%s",
		!f ? "unknown" : seen[0] ? names[0] : seen[1] ? names[1] : "none in this kernel");
	ks_fact(d, "fprobe", !f ? "-" : d->sym[1] ? "ok" : "no",
		"a kernel with CONFIG_FPROBE (kretprobe works meanwhile)", "%s",
		!f ? "unknown" : d->sym[1] ? names[2] : "none in this kernel");
}

/* Fact 12: BTF of vmlinux and of modules. */
static void ks_doc_btf(struct ks_doctor *d)
{
	int vml = !access("/sys/kernel/btf/vmlinux", F_OK), n = 0;
	DIR *dir = opendir("/sys/kernel/btf");
	struct dirent *e;

	ks_fact(d, "BTF", vml ? "ok" : "warn",
		"a kernel with CONFIG_DEBUG_INFO_BTF: the direct backend needs BTF to prove register-only arguments",
		vml ? "/sys/kernel/btf/vmlinux" : "none");
	while (dir && (e = readdir(dir)))
		n += e->d_name[0] != '.' && strcmp(e->d_name, "vmlinux");
	if (dir)
		closedir(dir);
	ks_fact(d, "modules' BTF", "-", NULL, n ? "%d module%s" : "none", n, n > 1 ? "s" : "");
}

/* Sleep 100 ms under the node of backend @b; its verdict as fact @fact. */
static void ks_doc_measure(struct ks_doctor *d, const char *fact, int b)
{
	struct timespec t0, t1, req = { 0, KS_DOC_SLEEP_NS }, rem;
	struct ks_view v;
	double mono, ns, ratio;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (nanosleep(&req, &rem) && errno == EINTR)
		req = rem;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	mono = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
	if (ks_load_live(KS_DOC_PROBE, 0, &v)) {	/* the error is printed */
		ks_fact(d, fact, "no", "the node's text could not be read (the error is printed)",
			"attached, node unreadable");
		return;
	}
	/* the 100 ms call is the longest: the node's max, in ns */
	ns = (double)(v.max ? v.max : v.avg);
	if (!strcmp(v.unit, "cycles"))
		ns = v.hz ? ns * 1e9 / (double)v.hz : 0;
	ratio = ns / mono;
	if (!v.samples || !ns) {	/* a switch off, or a call missed */
		char why[512];

		ks_fact(d, fact, "no",
			ks_ctl_switched_off(ks_doc_backends[b], why, sizeof(why)) ? why :
			"the node missed a 100 ms nanosleep(): dmesg may say why",
			"attached, no call counted");
		ks_view_free(&v);
		return;
	}
	if (ks_timing_note(&v.meta))
		ks_fact(d, fact, "-", NULL, "clock %s, QEMU -icount: instructions", v.clock);
	else
		ks_fact(d, fact, ratio < 0.95 || ratio > 1.05 ? "warn" : "ok",
			"its clock and CLOCK_MONOTONIC disagree: see docs/direct.md",
			"clock %s, 100 ms = %.3fx", v.clock, ratio);
	ks_add_backend(d, b);
	ks_view_free(&v);
}

/* Fact 13 for backend @b: trace, sleep, read, remove what was added. */
static void ks_doc_attach(struct ks_doctor *d, int b)
{
	char fact[24], cmd[128], err[KS_ERR_MAX], path[4096];
	sigset_t block, old;

	snprintf(fact, sizeof(fact), "backend %s", ks_doc_backends[b]);
	snprintf(path, sizeof(path), "%s/" KS_DOC_PROBE, ks_root());
	if (!access(path, F_OK)) {
		ks_fact(d, fact, "-", NULL, "skipped: a node " KS_DOC_PROBE " exists");
		return;
	}
	if (!d->sym[b]) {
		ks_fact(d, fact, "no", b == 2 ? "a kernel with CONFIG_KRETPROBES" :
			b ? "see the fprobe line above" : "see the direct calls line above",
			"not in this kernel");
		return;
	}
	d->tried = 1;
	sigfillset(&block);	/* no signal leaves the node behind */
	sigprocmask(SIG_BLOCK, &block, &old);
	snprintf(cmd, sizeof(cmd), "trace " KS_DOC_PROBE " via %s pid %d",
		 ks_doc_backends[b], (int)getpid());
	if (ks_ctl_cmd("_control", cmd, err, sizeof(err))) {
		ks_fact(d, fact, "no", err, "does not attach");
	} else {
		ks_doc_measure(d, fact, b);
		if (ks_ctl_cmd("_control", "remove " KS_DOC_PROBE, err, sizeof(err)))
			ks_err("doctor: %s", err);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Fact 14: an invariant TSC (x86), the generic timer (arm64). */
static void ks_doc_tsc(struct ks_doctor *d)
{
#if defined(__x86_64__) || defined(__i386__)
	char line[8192] = "";	/* line[8191] stays NUL: fgets() fills 8190 at most */
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found, ct, ns;

	while (f && fgets(line, sizeof(line) - 1, f) && strncmp(line, "flags", 5))
		*line = '\0';
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = ' ';	/* each flag between blanks */
	found = !strncmp(line, "flags", 5);
	ct = !!strstr(line, " constant_tsc ");
	ns = !!strstr(line, " nonstop_tsc ");
	ks_fact(d, "invariant TSC", !found ? "-" : ct && ns ? "ok" : "warn",
		"times use local_clock(); see docs/direct.md", "%s",
		!found ? "unknown" : ct && ns ? "constant_tsc nonstop_tsc" :
		ct ? "no nonstop_tsc" : ns ? "no constant_tsc" : "neither flag");
#elif defined(__aarch64__)
	ks_fact(d, "invariant TSC", "-", NULL, "the generic timer (cntvct)");
#else
	ks_fact(d, "invariant TSC", "-", NULL, "unknown");
#endif
}

/* Facts 15-16: PREEMPT_RT; the CPUs online and possible. */
static void ks_doc_cpus(struct ks_doctor *d)
{
	char v[16];
	struct utsname u;
	int rt = !ks_ctl_first_line("/sys/kernel/realtime", v, sizeof(v)) && atoi(v) == 1;

	if (!rt && !uname(&u))
		rt = !!strstr(u.version, "PREEMPT_RT");
	ks_fact(d, "PREEMPT_RT", "-", NULL, rt ? "yes" : "no");
	/* glibc counts /sys/devices/system/cpu/possible for _SC_NPROCESSORS_CONF */
	ks_fact(d, "CPUs", "-", NULL, "%ld online, %ld possible",
		sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_NPROCESSORS_CONF));
}

/* QEMU by its DMI vendor, or its arm64 virt board's devicetree. */
static int ks_doc_qemu(void)
{
	FILE *f = fopen("/sys/firmware/devicetree/base/compatible", "rb");
	char buf[1024] = "";
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0, i;

	if (f)
		fclose(f);
	for (i = 0; i < n; i += strlen(buf + i) + 1)	/* NUL-separated */
		if (!strcmp(buf + i, "linux,dummy-virt"))
			return 1;
	return !ks_ctl_first_line("/sys/class/dmi/id/sys_vendor", buf, sizeof(buf)) &&
	       !strcmp(buf, "QEMU");
}

/* Fact 17: a hypervisor, an emulator, or neither seen. */
static void ks_doc_machine(struct ks_doctor *d)
{
	static const struct { const char *sig, *name; } hv[] = {
		{ "KVMKVMKVM", "KVM" }, { "TCGTCGTCGTCG", "QEMU TCG" }, { "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" }, { "XenVMMXenVMM", "Xen" },
	};
	unsigned int r[4] = { 0 };
	char sig[13] = "";
	const char *name = NULL;
	int hyp = 0;
	size_t i;

#if defined(__x86_64__) || defined(__i386__)
	/* CPUID.1:ECX bit 31, then the signature of leaf 0x40000000 */
	hyp = __get_cpuid(1, &r[0], &r[1], &r[2], &r[3]) && (r[2] & (1u << 31));
	if (hyp) {
		__cpuid(0x40000000, r[0], r[1], r[2], r[3]);
		memcpy(sig, &r[1], 12);
	}
#endif
	(void)r;
	for (i = 0; hyp && i < sizeof(hv) / sizeof(hv[0]); i++)
		if (!strcmp(sig, hv[i].sig))
			name = hv[i].name;
	if (name ? !strcmp(name, "QEMU TCG") : ks_doc_qemu())
		ks_fact(d, "machine", "warn",
			"times are the emulator's, not a CPU's; compare only like with like",
			"%s (an emulator)", name ? name : "QEMU, no KVM seen");
	else if (hyp)
		ks_fact(d, "machine", "-", NULL, "%s (a VM: times include its exits)",
			name ? name : *sig ? sig : "a hypervisor");
	else
		ks_fact(d, "machine", "-", NULL, "no hypervisor seen");
}

/* Whether kstats can trace here, and on which backends; sets d->reason. */
static void ks_doc_verdict(struct ks_doctor *d)
{
	int b;

	if (!d->loaded)
		d->reason = "the module is not loaded";
	else if (!d->ready)
		d->reason = "its control files cannot be used";
	else if (d->tried && !*d->backends)
		d->reason = "no backend attached";
	else if (!d->tried && !strcmp(d->lockdown, "confidentiality"))
		d->reason = "lockdown=confidentiality";
	if (d->reason || d->tried)
		return;
	for (b = 0; b < KS_DOC_NB; b++)	/* not tried: offered and switched on */
		if (d->sym[b] && (b == 2 ? d->kprobes_on : d->ftrace_on))
			ks_add_backend(d, b);
	if (!*d->backends)
		d->reason = "no backend is offered";
}

/* @text after @first, wrapped at KS_DOC_COLS, the rest under its start. */
static void ks_doc_wrap(const char *first, const char *text)
{
	int ind = (int)strlen(first), col = ind, w;

	fputs(first, stdout);
	for (text += strspn(text, " "); *text; text += w + strspn(text + w, " ")) {
		w = (int)strcspn(text, " ");
		if (col > ind && col + 1 + w > KS_DOC_COLS) {
			printf("\n%*s", ind, "");
			col = ind;
		}
		if (col > ind)
			col += putchar(' ') != EOF;
		if (col + w > KS_DOC_COLS)	/* a word wider than the line: cut */
			w = KS_DOC_COLS - col;
		col += printf("%.*s", w, text);
	}
	putchar('\n');
}

/* The facts as text: aligned columns, fixes below, the verdict last. */
static void ks_doc_text(const struct ks_doctor *d)
{
	int i, fw = 0, vw = 0, l;
	char line[256];

	for (i = 0; i < d->n; i++) {
		l = (int)strlen(d->facts[i].fact);
		fw = l > fw ? l : fw;
		l = (int)strlen(d->facts[i].value);
		vw = l > vw ? l : vw;
	}
	if (vw > KS_DOC_COLS - fw - 8)	/* two gaps of 2, a verdict of 4 */
		vw = KS_DOC_COLS - fw - 8;
	printf("kstats doctor: what this machine allows (kstats " KS_VERSION ")\n");
	for (i = 0; i < d->n; i++) {
		const struct ks_fact *f = &d->facts[i];

		snprintf(line, sizeof(line), "%s", f->value);
		if ((int)strlen(line) > vw)	/* shortened, marked '~' */
			strcpy(line + vw - 1, "~");
		printf("%-*s  %-*s  %s\n", fw, f->fact, vw, line, f->verdict);
		if (*f->fix)
			ks_doc_wrap("  fix: ", f->fix);
	}
	if (d->reason)
		snprintf(line, sizeof(line), "kstats cannot trace here: %s", d->reason);
	else
		snprintf(line, sizeof(line), "kstats can trace here (%s)", d->backends);
	ks_doc_wrap("", line);
}

/* The facts as one JSON object, through the one JSON writer. */
static void ks_doc_json(const struct ks_doctor *d)
{
	struct ks_jw w;
	int i;

	ks_jw_init(&w, stdout);
	ks_jw_obj(&w, 0);
	ks_jw_key(&w, "facts");
	ks_jw_arr(&w, 0);
	for (i = 0; i < d->n; i++) {
		ks_jw_obj(&w, KS_JW_INLINE);
		ks_jw_kstr(&w, "fact", d->facts[i].fact);
		ks_jw_kstr(&w, "value", d->facts[i].value);
		ks_jw_kstr(&w, "verdict", d->facts[i].verdict);
		ks_jw_key(&w, "fix");
		*d->facts[i].fix ? ks_jw_str(&w, d->facts[i].fix) : ks_jw_null(&w);
		ks_jw_end(&w);
	}
	ks_jw_end(&w);
	ks_jw_key(&w, "can_trace");
	ks_jw_bool(&w, !d->reason);
	ks_jw_kstr(&w, "backends", d->reason ? "" : d->backends);
	ks_jw_kstr(&w, "reason", d->reason ? d->reason : "");
	ks_jw_end(&w);
}

/* kstats doctor [--json] [--no-attach] */
int cmd_doctor(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "no-attach", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static void (*const facts[])(struct ks_doctor *) = {
		ks_doc_versions, ks_doc_signature, ks_doc_lockdown, ks_doc_control,
		ks_doc_switches, ks_doc_kallsyms, ks_doc_btf, NULL,
		ks_doc_tsc, ks_doc_cpus, ks_doc_machine, ks_doc_verdict,
	};
	static struct ks_doctor doc;
	struct ks_doctor *d = &doc;
	int opt, json = 0, attach = 1, b;
	size_t i;

	while ((opt = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (opt == 'h') {
			ks_help(stdout, "doctor");
			return 0;
		}
		if (opt != OPT_JSON && opt != 'N')
			ks_bad_opt("doctor", opt, argv);
		json |= opt == OPT_JSON;
		attach &= opt != 'N';
	}
	if (optind != argc)
		ks_bad_usage("doctor", "no arguments expected");
	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		if (facts[i])
			facts[i](d);
		else	/* fact 13: the attach test, where the module is usable */
			for (b = 0; attach && d->loaded && d->ready && b < KS_DOC_NB; b++)
				ks_doc_attach(d, b);
	}
	if (json)
		ks_doc_json(d);
	else
		ks_doc_text(d);
	return d->reason ? 1 : 0;
}
