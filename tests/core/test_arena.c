/* SPDX-License-Identifier: MIT */
/* the arena: two passes give the same layout, alignment, zeroing, the high-water mark, refused
 * overflows, and a failed allocation that holds nothing (run under ASan: tools/test.sh) */
#include <criterion/criterion.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "core/tc_arena.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

/* a state heading its block and three arrays carved after it, as the *_alloc functions do */
typedef struct demo {
    tc_arena arena;
    double *x;
    int *idx;
    char *name;
    double *lines; /* on cache lines of their own */
} demo;

/* the carving code both passes run (s a probe while sizing) */
static void demo_carve(void *state, tc_arena *a, const void *ctx) {
    demo *s = state;
    size_t n = *(const size_t *)ctx;
    s->x = tc_arena_alloc(a, 3 * n, sizeof *s->x);
    s->idx = tc_arena_alloc(a, n + 1, sizeof *s->idx);
    s->name = tc_arena_alloc(a, 7, 1);
    s->lines = tc_arena_alloc_aligned(a, n, sizeof *s->lines, 64);
}

/* the two passes: the state heading its block, then its arrays; NULL when memory runs out */
static demo *demo_alloc(size_t n) {
    demo probe = {0};
    return tc_arena_make(&probe, sizeof probe, offsetof(demo, arena), demo_carve, &n);
}

Test(arena, two_passes_carve_aligned_zeroed_arrays_from_one_block) {
    demo *s = demo_alloc(5);
    cr_assert_not_null(s);
    cr_expect(!s->arena.failed);
    cr_expect_eq((void *)s, s->arena.base, "the state heads the block");
    const size_t al = alignof(max_align_t);
    void *p[] = {s->x, s->idx, s->name};
    for (int k = 0; k < 3; k++) {
        cr_assert_not_null(p[k]);
        cr_expect_eq((uintptr_t)p[k] % al, 0, "array %d aligned to max_align_t", k);
    }
    cr_expect_eq((uintptr_t)s->lines % 64, 0, "cache-line array aligned to 64");
    /* in order, without overlap, inside the block */
    cr_expect((char *)s->idx >= (char *)(s->x + 15));
    cr_expect((char *)s->name >= (char *)(s->idx + 6));
    cr_expect((char *)s->lines >= s->name + 7);
    cr_expect((unsigned char *)(s->lines + 8) <= s->arena.base + s->arena.cap,
              "5 doubles rounded up to one 64-byte line");
    /* zeroed */
    for (int i = 0; i < 15; i++)
        cr_expect_eq(s->x[i], 0.0);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(s->idx[i], 0);
    for (int i = 0; i < 7; i++)
        cr_expect_eq(s->name[i], 0);
    /* exactly the bytes counted: the second pass used the whole block */
    cr_expect_eq(s->arena.used, s->arena.cap);
    tc_arena_free(&s->arena);
}

Test(arena, the_high_water_mark_counts_every_carve_with_its_padding) {
    tc_arena a = {0};
    cr_expect_eq(tc_arena_high(&a), 0);
    cr_expect_null(tc_arena_alloc(&a, 1, 1), "sizing: no pointer");
    cr_expect_eq(tc_arena_high(&a), 1);
    tc_arena_alloc(&a, 3, sizeof(double));
    const size_t al = alignof(max_align_t);
    cr_expect_eq(tc_arena_high(&a), al + 24, "1 B, padding to %zu, 24 B", al);
    cr_assert_eq(tc_arena_reserve(&a, 0), TC_OK);
    cr_expect_eq(a.cap, al + 24);
    cr_expect_eq(tc_arena_high(&a), al + 24, "the mark stays over the reserve");
    char *c = tc_arena_alloc(&a, 1, 1);
    double *d = tc_arena_alloc(&a, 3, sizeof *d);
    cr_expect_eq((char *)d - c, (ptrdiff_t)al, "same offsets in the second pass");
    cr_expect_eq(tc_arena_high(&a), al + 24);
    tc_arena_free(&a);
}

Test(arena, a_block_sized_up_front_refuses_what_does_not_fit) {
    tc_arena a = {0};
    cr_assert_eq(tc_arena_reserve(&a, 64), TC_OK);
    cr_expect_eq(tc_arena_reserve(&a, 64), TC_EINVAL, "one block per arena");
    double *x = tc_arena_alloc(&a, 4, sizeof *x);
    cr_assert_not_null(x);
    cr_expect_not_null(tc_arena_alloc(&a, 0, sizeof *x), "no bytes is a valid carve");
    cr_expect(!a.failed);
    cr_expect_null(tc_arena_alloc(&a, 5, sizeof *x), "40 B do not fit in the 32 left");
    cr_expect(a.failed);
    cr_expect_not_null(tc_arena_alloc(&a, 4, sizeof *x), "what fits still does");
    cr_expect_eq(tc_arena_high(&a), 64);
    tc_arena_free(&a);
}

Test(arena, overflowing_sizes_are_refused_and_nothing_is_allocated) {
    tc_arena a = {0};
    cr_expect_null(tc_arena_alloc(&a, SIZE_MAX / 2, 3), "n size overflows size_t");
    cr_expect(a.failed);
    cr_expect_eq(tc_arena_reserve(&a, 0), TC_ENOMEM, "a failed sizing pass reserves nothing");
    cr_expect_null(a.block);
    tc_arena_free(&a);
    /* the sum of the carves overflowing, a padded size overflowing, a bad alignment */
    tc_arena b = {0};
    tc_arena_alloc(&b, 1, SIZE_MAX - 8);
    cr_expect(!b.failed);
    cr_expect_null(tc_arena_alloc(&b, 1, 64));
    cr_expect(b.failed);
    tc_arena c = {0};
    cr_expect_null(tc_arena_alloc_aligned(&c, 1, SIZE_MAX - 3, 64));
    cr_expect(c.failed);
    tc_arena d = {0};
    cr_expect_null(tc_arena_alloc_aligned(&d, 1, 8, 48), "48 is not a power of two");
    cr_expect(d.failed);
    /* more than any allocator gives: refused before asking */
    tc_arena e = {0};
    tc_arena_alloc(&e, 1, SIZE_MAX - 64);
    cr_expect_eq(tc_arena_reserve(&e, 0), TC_ENOMEM);
    cr_expect_null(e.block);
}

/* an allocator that fails */
static int calls;
static void *no_memory(size_t n, size_t size) {
    (void)n;
    (void)size;
    calls++;
    return NULL;
}

Test(arena, a_failed_allocation_holds_nothing) {
    tc_arena_set_allocator(no_memory);
    demo *s = demo_alloc(1000);
    tc_arena_set_allocator(NULL);
    cr_expect_null(s, "out of memory: no state");
    cr_expect_eq(calls, 1, "one block asked for");
    /* the allocator is calloc again; LeakSanitizer checks that both left nothing behind */
    s = demo_alloc(1000);
    cr_assert_not_null(s);
    cr_expect_eq(s->x[2999], 0.0);
    tc_arena_free(&s->arena);
#ifdef __SANITIZE_ADDRESS__
    /* LeakSanitizer's report alone would not fail a Criterion test */
    cr_expect_eq(__lsan_do_recoverable_leak_check(), 0, "memory leaked (see the report above)");
#endif
}
