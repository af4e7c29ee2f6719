// SPDX-License-Identifier: GPL-2.0
/*
 * kstats per-CPU parts: a node's struct ks_pcpu is cut from a block of
 * them, one per-CPU allocation for many nodes.  A whole-kernel trace
 * makes tens of thousands of nodes in one write, and the per-CPU
 * allocator's search and lock for each was a tenth of the attach.  The
 * blocks double from KS_PBLOCK_MIN parts to KS_PBLOCK_MAX (a single trace
 * takes a small one), a part is never handed out twice, and a block goes
 * when the last node cut from it does (and it is no longer the one being
 * cut).  A struct ks_pcpu_x (callers, slowest, sampling) has an
 * allocation of its own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include "ks_types.h"
#include "ks_pcpu.h"

#define KS_PBLOCK_MIN	4
#define KS_PBLOCK_MAX	64

/**
 * struct ks_pblock - a block of per-CPU parts
 * @base: its per-CPU allocation
 * @users: the parts handed out and not freed, and one while it is cut
 */
struct ks_pblock {
	void __percpu *base;
	atomic_t users;
};

static DEFINE_MUTEX(ks_pblock_lock);
static struct ks_pblock *ks_pblock_cur;	/* the one being cut */
static unsigned int ks_pblock_used, ks_pblock_size;

static void ks_pblock_put(struct ks_pblock *b)
{
	if (atomic_dec_and_test(&b->users)) {
		free_percpu(b->base);
		kfree(b);
	}
}

/* A new block to cut, twice the last one's size; under ks_pblock_lock. */
static int ks_pblock_new(void)
{
	unsigned int n = clamp(2 * ks_pblock_size, KS_PBLOCK_MIN, KS_PBLOCK_MAX);
	struct ks_pblock *b = kmalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return -ENOMEM;
	b->base = __alloc_percpu(n * sizeof(struct ks_pcpu),
				 __alignof__(struct ks_pcpu_x));
	if (!b->base) {
		kfree(b);
		return -ENOMEM;
	}
	atomic_set(&b->users, 1);
	if (ks_pblock_cur)
		ks_pblock_put(ks_pblock_cur);
	ks_pblock_cur = b;
	ks_pblock_used = 0;
	ks_pblock_size = n;
	return 0;
}

/**
 * ks_pcpu_alloc() - a node's per-CPU part, zeroed
 * @size: sizeof(struct ks_pcpu), cut from a block, or another size
 *	(struct ks_pcpu_x), allocated alone
 * @from: set to the block it was cut from, or NULL
 *
 * Return: the part, or NULL.
 */
void __percpu *ks_pcpu_alloc(size_t size, struct ks_pblock **from)
{
	void __percpu *p = NULL;

	*from = NULL;
	if (size != sizeof(struct ks_pcpu))
		return __alloc_percpu(size, __alignof__(struct ks_pcpu_x));
	mutex_lock(&ks_pblock_lock);
	if ((ks_pblock_cur && ks_pblock_used < ks_pblock_size) ||
	    !ks_pblock_new()) {
		p = (void __percpu *)((char __percpu *)ks_pblock_cur->base +
				      ks_pblock_used++ * size);
		atomic_inc(&ks_pblock_cur->users);
		*from = ks_pblock_cur;
	}
	mutex_unlock(&ks_pblock_lock);
	return p;
}

/**
 * ks_pcpu_free() - give back a part of ks_pcpu_alloc()
 * @p: the part, or NULL
 * @from: the block ks_pcpu_alloc() said
 */
void ks_pcpu_free(void __percpu *p, struct ks_pblock *from)
{
	if (from)
		ks_pblock_put(from);
	else
		free_percpu(p);
}

/* Module exit, every node freed: the block being cut goes too. */
void ks_pcpu_exit(void)
{
	mutex_lock(&ks_pblock_lock);
	if (ks_pblock_cur)
		ks_pblock_put(ks_pblock_cur);
	ks_pblock_cur = NULL;
	ks_pblock_size = 0;
	mutex_unlock(&ks_pblock_lock);
}
