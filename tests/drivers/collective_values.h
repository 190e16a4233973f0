/*
 * collective_values.h - what the collective checks combine, as C that is
 * also OpenCL C: the host compiles it into its reference
 * (collective_kernels.h includes it), and the build embeds it in front of
 * collectives.cl (tests/drivers/CMakeLists.txt), so that the kernel and
 * the host compute the same bits. The including C file defines `uint`.
 */
#ifndef XWG_COLLECTIVE_VALUES_H
#define XWG_COLLECTIVE_VALUES_H

/* The layout of the expected table and of the error counters. Per phase:
 * the nine all-reduces, then per group the three scans' results (uint,
 * int, float), then the three totals. */
enum { COLLECTIVE_PHASES = 16 };
enum { R_ADD_U, R_MIN_U, R_MAX_U, R_ADD_I, R_MIN_I, R_MAX_I,
       R_ADD_F, R_MIN_F, R_MAX_F, REDUCTIONS };
enum { E_REDUCE, E_BROADCAST, E_SCAN, E_TOTAL, E_BARRIER, E_GROUPS,
       ERROR_KINDS };

/* The values of phase p (episode e's phase is e % COLLECTIVE_PHASES) for
 * work-item x among the participants, or for group x. The floats are
 * multiples of 2^-10 below 16 in magnitude, exact, with sums that are
 * not. */
static inline uint value_hash(uint p, uint x, uint salt)
{
    uint h = (x + 1u) * 0x9E3779B9u ^ (p + 1u) * 0x85EBCA6Bu ^ salt;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}
static inline uint value_uint(uint p, uint x)
{
    return value_hash(p, x, 1u);
}
static inline int value_int(uint p, uint x)
{
    return (int)value_hash(p, x, 2u);
}
static inline float value_float(uint p, uint x)
{
    return (float)((int)(value_hash(p, x, 3u) & 0x3fffu) - 8192) *
           (1.0f / 1024.0f);
}

#endif
