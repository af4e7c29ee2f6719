// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the module's control-command parser, common/ks_cmd.c
 * itself (built through include/kstats/shim.h as the unit tests do).
 *
 * Each input is one write(): checked as text (ks_cmd_text()) the way the
 * module's write handler does, then parsed, whatever the text check says
 * (the parser must survive any C string).  On success every field of the
 * command must be within its documented range.
 */
#include <stdio.h>
#include <stdlib.h>
#include "../../common/ks_cmd.c"

#define KS_FUZZ_MAX	4096	/* bytes of one input (the module takes 256) */

/* A NUL-terminated @s within an array of @size bytes. */
static int ks_terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static void ks_check(const struct ks_cmd *cmd)
{
	if (cmd->verb > KS_VERB_RESET)
		abort();
	if (!ks_terminated(cmd->name, sizeof(cmd->name)) ||
	    !ks_terminated(cmd->comm, sizeof(cmd->comm)) ||
	    !ks_terminated(cmd->cpus, sizeof(cmd->cpus)) ||
	    !ks_terminated(cmd->start, sizeof(cmd->start)) ||
	    !ks_terminated(cmd->end, sizeof(cmd->end)))
		abort();
	/* a name, or a glob of names, but no section of a glob */
	if (cmd->all ? cmd->name[0] != '\0' :
	    !ks_name_valid(cmd->name) && !ks_glob_valid(cmd->name))
		abort();
	if (cmd->start[0] && ks_glob_valid(cmd->name))
		abort();
	if (cmd->all && cmd->verb == KS_VERB_TRACE)
		abort();
	if (cmd->verb != KS_VERB_TRACE)
		return;
	if (cmd->bits > KSTATS_BITS_MAX || cmd->buckets < 1 ||
	    cmd->buckets > kstats_max_buckets(cmd->bits))
		abort();
	if (cmd->sample < 1 || cmd->sample > KS_SAMPLE_MAX ||
	    cmd->maxactive > KS_MAXACTIVE_MAX)
		abort();
	if (cmd->pid < -1 || cmd->tgid < -1)
		abort();
	if (!cmd->start[0] != !cmd->end[0])
		abort();
	if (cmd->start[0] && (!ks_name_valid(cmd->start) ||
			      !ks_name_valid(cmd->end) ||
			      cmd->via != KS_VIA_SECTION))
		abort();
	if (cmd->gap && strlen(cmd->name) + strlen(KS_GAP_PREFIX) >= KS_NAME_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why = NULL;
	struct ks_cmd cmd;
	long bad;
	char *buf;
	int ret;

	if (size > KS_FUZZ_MAX)
		return -1;
	buf = malloc(size + 1);		/* exact size: ASan sees overreads */
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	bad = ks_cmd_text(buf, size, &why);
	if (bad < -1 || bad >= (long)size || (bad >= 0 && !why))
		abort();
	if (bad < 0 && memchr(buf, '\0', size))
		abort();		/* an embedded NUL must be caught */
	why = NULL;
	ret = ks_cmd_parse(buf, &cmd, &why);
	if (ret && (ret != -EINVAL || !why || !*why))
		abort();
	if (!ret)
		ks_check(&cmd);
	free(buf);
	return 0;
}
