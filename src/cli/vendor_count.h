/* vendor_count.h - the vendor's own count of co-resident groups
 * (vendor_count.c). */
#ifndef XWG_CLI_VENDOR_COUNT_H
#define XWG_CLI_VENDOR_COUNT_H

#include "xwg_barrier.h"

/* How many groups of `local` work-items of kernel (its arguments set) the
 * vendor says run at once: clGetKernelMaxConcurrentWorkGroupCountINTEL
 * where the device has cl_intel_concurrent_dispatch; 0 elsewhere, or
 * where the query fails. */
size_t cli_vendor_max_groups(cl_platform_id platform, cl_device_id device,
                             cl_context cl, cl_kernel kernel, size_t local);

#endif
