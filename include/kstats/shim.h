/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel helpers common/ks_cmd.c uses, for building the very same
 * parser source in userspace: into tools/kstats (which checks a command
 * before writing it), tests/unit/test_cmd.c and tests/fuzz/fuzz_cmd.c.
 * Semantics follow the kernel's.
 */
#ifndef _KS_SHIM_H
#define _KS_SHIM_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;

/* linux/stddef.h's, on the uapi __struct_group() userspace has too */
#include <linux/stddef.h>
#define struct_group_tagged(TAG, NAME, MEMBERS...) \
	__struct_group(TAG, NAME, /* no attrs */, MEMBERS)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* static_assert(expr) with or without a message, as <linux/build_bug.h> */
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)

/* strscpy(): copy, always NUL-terminate, -E2BIG if truncated. */
static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (len == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, len + 1);
	return len;
}

/* kstrtouint(): the whole string (one trailing newline allowed), no sign. */
static inline int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	char *end;

	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || v > UINT_MAX)
		return -ERANGE;
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*res = v;
	return 0;
}

#endif /* _KS_SHIM_H */
