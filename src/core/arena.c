/* SPDX-License-Identifier: MIT */
/* the arena: a bump pointer over one zeroed block, sized by a first pass */
#include "core/tc_arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the blocks' allocator (calloc unless a test set another) */
static void *(*arena_calloc)(size_t n, size_t size);

void tc_arena_set_allocator(void *(*alloc)(size_t n, size_t size)) {
    arena_calloc = alloc;
}

void *tc_arena_alloc(tc_arena *a, size_t n, size_t size) {
    return tc_arena_alloc_aligned(a, n, size, alignof(max_align_t));
}

void *tc_arena_alloc_aligned(tc_arena *a, size_t n, size_t size, size_t align) {
    /* the bytes, rounded up to the alignment when it is above the default */
    if (align < alignof(max_align_t)) align = alignof(max_align_t);
    if ((align & (align - 1)) || (size && n > SIZE_MAX / size)) {
        a->failed = 1;
        return NULL;
    }
    size_t bytes = n * size;
    if (align > alignof(max_align_t)) {
        if (bytes > SIZE_MAX - (align - 1)) {
            a->failed = 1;
            return NULL;
        }
        bytes = (bytes + align - 1) & ~(align - 1);
    }
    /* the offset: the next multiple of align, then the bytes */
    size_t at = (a->used + align - 1) & ~(align - 1);
    if (at < a->used || bytes > SIZE_MAX - at) {
        a->failed = 1;
        return NULL;
    }
    /* with a block they must fit in it */
    if (a->block && at + bytes > a->cap) {
        a->failed = 1;
        return NULL;
    }
    if (align > a->align) a->align = align;
    a->used = at + bytes;
    if (a->used > a->high) a->high = a->used;
    return a->block ? a->base + at : NULL;
}

tc_status tc_arena_reserve(tc_arena *a, size_t bytes) {
    if (a->block) return TC_EINVAL;
    if (a->failed) return TC_ENOMEM;
    size_t cap = bytes > a->used ? bytes : a->used;
    size_t align = a->align > alignof(max_align_t) ? a->align : alignof(max_align_t);
    /* calloc aligns to max_align_t; a larger alignment takes the slack to reach it */
    size_t slack = align > alignof(max_align_t) ? align - 1 : 0;
    if (cap > PTRDIFF_MAX - slack - 1) return TC_ENOMEM;
    void *block = (arena_calloc ? arena_calloc : calloc)(1, cap + slack + 1);
    if (!block) return TC_ENOMEM;
    a->block = block;
    a->base = (unsigned char *)(((uintptr_t)block + slack) & ~(uintptr_t)(align - 1));
    a->cap = cap;
    a->used = 0;
    a->align = align;
    return TC_OK;
}

void tc_arena_free(tc_arena *a) {
    if (!a) return;
    /* a may lie in its block: read it before the block goes, touch nothing after */
    void *block = a->block;
    free(block);
}

void *tc_arena_make(void *probe, size_t size, size_t arena_at, tc_arena_carve *carve,
                    const void *ctx) {
    /* sizing: the state, then its arrays */
    tc_arena a = {0};
    tc_arena_alloc(&a, 1, size);
    carve(probe, &a, ctx);
    if (tc_arena_reserve(&a, 0)) return NULL;
    /* carving: the same calls into the block */
    void *s = tc_arena_alloc(&a, 1, size);
    memcpy(s, probe, size);
    carve(s, &a, ctx);
    if (a.failed) {
        tc_arena_free(&a);
        return NULL;
    }
    memcpy((char *)s + arena_at, &a, sizeof a);
    return s;
}

size_t tc_arena_high(const tc_arena *a) {
    return a->high;
}
