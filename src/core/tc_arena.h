/* SPDX-License-Identifier: MIT */
/* an arena: one zeroed block that a state and its arrays are carved from by a bump pointer, sized
 * by a first pass over the same carving code and released by one call */
#ifndef TC_ARENA_H
#define TC_ARENA_H

#include "core/tc_status.h"

#include <stddef.h>

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* an arena. Zero-initialised ({0}) it is a sizing arena: it has no block, every carve returns
 * NULL and only counts its bytes. tc_arena_reserve then takes one zeroed block of at least that
 * many bytes and carving starts again at its beginning, so the same code run a second time gets
 * the same offsets, now as pointers (two passes: size, then carve). Carves are aligned to
 * alignof(max_align_t) (16 B on x86-64, as malloc's blocks), or more where asked */
typedef struct tc_arena {
    void *block;         /* what the allocator returned (NULL while sizing) */
    unsigned char *base; /* its first byte aligned to align */
    size_t cap;          /* bytes from base */
    size_t used;         /* bytes carved so far, padding included (B) */
    size_t high;         /* high-water mark: the most bytes carved at once, either pass (B) */
    size_t align;        /* the largest alignment asked for so far (B; 0 before the first carve) */
    int failed;          /* a carve was refused: its size overflowed size_t, or it did not fit */
} tc_arena;

/* n zeroed elements of size bytes, aligned to alignof(max_align_t). While sizing: NULL, the bytes
 * counted. With a block: the elements, or NULL (and failed set) when n * size overflows size_t or
 * they do not fit in what is left; n = 0 gives a valid pointer to no bytes */
void *tc_arena_alloc(tc_arena *a, size_t n, size_t size);

/* the same aligned to align (a power of two, e.g. 64 for a cache line; else refused), the bytes
 * rounded up to a multiple of align, so nothing carved afterwards shares the last unit (threads'
 * slices at multiples of 64 bytes then share no cache line with anything else) */
void *tc_arena_alloc_aligned(tc_arena *a, size_t n, size_t size, size_t align);

/* after a sizing pass: one zeroed block of max(bytes, the bytes counted) and carving restarts at
 * its beginning (bytes alone, without a sizing pass: a block sized up front). TC_ENOMEM when the
 * sizing pass overflowed or the allocator fails (nothing is then held); TC_EINVAL when a has a
 * block already. The block comes from calloc, so pages never touched stay unmapped */
tc_status tc_arena_reserve(tc_arena *a, size_t bytes);

/* release the block (a sizing arena or NULL is fine). a may live inside its own block: nothing
 * of a is read or written after the block is freed, so a is then garbage */
void tc_arena_free(tc_arena *a);

/* the high-water mark: the most bytes carved (padding included), of either pass */
size_t tc_arena_high(const tc_arena *a);

/* how a state's arrays are carved: the same calls in the same order in both passes (state is a
 * probe while sizing: the pointers written there are NULL); ctx is what it needs besides */
typedef void tc_arena_carve(void *state, tc_arena *a, const void *ctx);

/* the two passes for a state of size bytes that heads its own block: carve(probe, a, ctx) sizes
 * the block (probe: the state with what carve reads already set), then the probe is copied to the
 * block's head, carve runs again on that copy, and the arena is stored in the state at byte offset
 * arena_at (tc_arena_free on that member releases all of it). Returns the state, or NULL, holding
 * nothing, when a size overflows or memory runs out */
void *tc_arena_make(void *probe, size_t size, size_t arena_at, tc_arena_carve *carve,
                    const void *ctx);

/* the allocator of the blocks, calloc when NULL (process-wide, not thread-safe: tests set it to
 * make allocations fail and check that nothing leaks) */
void tc_arena_set_allocator(void *(*alloc)(size_t n, size_t size));

#ifdef __cplusplus
}
#endif

#endif
