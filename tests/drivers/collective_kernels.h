/*
 * collective_kernels.h - the kernels that test the split-phase barrier
 * and the collectives (collective_checks.c runs them), and the values
 * they combine, shared with the host's reference. The kernels are plain
 * OpenCL C in collective_split.cl, collectives.cl and
 * collective_misuse.cl, embedded at build time (CMakeLists.txt here,
 * xwg_embed_cl); collectives.cl gets collective_values.h in front.
 */
#ifndef XWG_COLLECTIVE_KERNELS_H
#define XWG_COLLECTIVE_KERNELS_H

/* collective_values.h is also OpenCL C, where uint is built in. */
typedef unsigned int uint;
#include "collective_values.h"

#include "collective_misuse_source.h" /* collective_misuse.cl */
#include "collectives_source.h"       /* collectives.cl */
#include "split_source.h"             /* collective_split.cl */

#endif
