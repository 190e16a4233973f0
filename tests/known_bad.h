/*
 * known_bad.h - the names of the known-bad variants, the one list that the
 * programs building them share (the test drivers' and apps' --broken NAME,
 * the Check suites' XWG_TEST_BROKEN=NAME). A variant NAME is the kernel
 * code under `#if defined(XWG_TEST_BROKEN_NAME)` in kernels/; what each
 * breaks, and which tests must fail on it, is tests/known_bad.md. Test
 * programs only: the library never builds a variant.
 * tests/check_known_bad.py (ctest known_bad_table) checks that the names
 * here, the kernels' guards and the table's rows are the same set.
 */
#ifndef XWG_KNOWN_BAD_H
#define XWG_KNOWN_BAD_H

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* One X(NAME) per variant, in the table's order: the barrier's, the split
 * barrier's and the collectives', discovery's. */
#define XWG_KNOWN_BAD_MAP(X)                                                 \
    X(BARRIER_NOOP)                                                          \
    X(NO_GROUP_BARRIERS)                                                     \
    X(RELAXED_RELEASE)                                                       \
    X(ALL_RELAXED)                                                           \
    X(TREE_FLAT_NO_RESET)                                                    \
    X(EVERY_ARRIVAL_LAST)                                                    \
    X(EPISODES_NOT_KEPT)                                                     \
    X(SELF_OWN_EPISODES)                                                     \
    X(TREE_PARTIAL_AS_FULL)                                                  \
    X(COUNTER_ADD_FOR_TWO)                                                   \
    X(EXIT_NO_GLOBAL_FENCE)                                                  \
    X(SPLIT_WAIT_SKIPPED)                                                    \
    X(PARTIALS_READ_EARLY)                                                   \
    X(DIVERGENCE_UNCHECKED)                                                  \
    X(NONBLOCKING_READ_EARLY)                                                \
    X(ADMIT_ALL)                                                             \
    X(CLOSE_AT_FIRST_JOIN)

#define XWG__KNOWN_BAD_NAME(name) #name,
static const char *const xwg_known_bad_names[] = {
    XWG_KNOWN_BAD_MAP(XWG__KNOWN_BAD_NAME)};
#undef XWG__KNOWN_BAD_NAME

/* The variant `name` names, in any case, as the list spells it; NULL if
 * none does. */
static inline const char *xwg_known_bad_find(const char *name)
{
    const size_t count =
        sizeof xwg_known_bad_names / sizeof xwg_known_bad_names[0];
    for (size_t i = 0; i < count; i++) {
        const char *a = xwg_known_bad_names[i], *b = name;
        while (*a && toupper((unsigned char)*b) == *a)
            a++, b++;
        if (!*a && !*b)
            return xwg_known_bad_names[i];
    }
    return NULL;
}

/* Appends " -DXWG_TEST_BROKEN_<NAME>" for the variant `name` names (any
 * case) to the build options `options` (a string of `size` bytes).
 * Returns 0, or -1 after telling stderr why, prefixed by `who`: the name
 * is unknown (the message lists the known ones), or the options would be
 * cut short (and a cut define would build the shipped code). */
static inline int xwg_known_bad_option(const char *who, const char *name,
                                       char *options, size_t size)
{
    const char *known = xwg_known_bad_find(name);
    if (!known) {
        const size_t count =
            sizeof xwg_known_bad_names / sizeof xwg_known_bad_names[0];
        fprintf(stderr, "%s: no known-bad variant %s; the known ones:", who,
                name);
        for (size_t i = 0; i < count; i++)
            fprintf(stderr, " %s", xwg_known_bad_names[i]);
        fprintf(stderr, " (tests/known_bad.md)\n");
        return -1;
    }
    const size_t used = strlen(options);
    const int n = snprintf(options + used, size - used,
                           " -DXWG_TEST_BROKEN_%s", known);
    if (n < 0 || (size_t)n >= size - used) {
        options[used] = '\0';
        fprintf(stderr, "%s: build options too long\n", who);
        return -1;
    }
    return 0;
}

#endif
