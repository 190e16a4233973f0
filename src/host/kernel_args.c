/*
 * kernel_args.c - finding a kernel's XWG_STATE parameter, and checking a
 * work-group size against the device and the kernel.
 *
 * XWG_STATE declares a parameter named XWG__STATE_PARAM followed by the
 * set of barriers that the program compiled (xwg_state_layout.h). Both the
 * index and the set come from the kernel argument info that
 * xwg_program_build switches on (-cl-kernel-arg-info), so the parameter
 * may stand anywhere in the list, and nothing is asked of the kernel's
 * program: Intel's runtime answers no query on a program that the
 * application has released, though its kernels still run.
 */
#include "internal.h"

#include <string.h>

#define XWG__STRING_OF(x) #x
#define XWG__STRING(x) XWG__STRING_OF(x) /* x expanded first */

/* Whether name is XWG_STATE's parameter: 1 with its barrier set, 0 for
 * another parameter, -1 for ours with a set that cannot be read (a
 * program built elsewhere with a malformed XWG_BARRIERS). */
static int state_param_set(const char *name, unsigned *set)
{
    const char *prefix = XWG__STRING(XWG__STATE_PARAM);
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0)
        return 0;
    return xwg__parse_barrier_set(name + n, set);
}

int xwg__find_state_arg(cl_kernel kernel, cl_uint *index, unsigned *barriers)
{
    cl_uint n = 0;
    int err = clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL);
    if (err != CL_SUCCESS)
        return err;
    for (cl_uint i = 0; i < n; i++) {
        char name[64];
        err = clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_NAME, sizeof name,
                                 name, NULL);
        if (err == CL_INVALID_VALUE)
            continue; /* a longer name than ours: not ours */
        if (err == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) {
            unsigned set;
            if (xwg__cache_state_arg(kernel, index, &set)) {
                if (barriers != NULL)
                    *barriers = set;
                return XWG_SUCCESS;
            }
            /* Built without xwg_program_build, or loaded from a binary:
             * Intel's runtime keeps no argument info in its binaries,
             * even of a program built with -cl-kernel-arg-info. */
            xwg__set_last_error(
                "the kernel's program carries no argument info, so its "
                "XWG_STATE parameter cannot be found: it was built without "
                "-cl-kernel-arg-info, or created from a binary, which some "
                "runtimes (Intel's) store without it: build it from source "
                "with xwg_program_build(), or with the options of "
                "xwg_program_options()");
            return XWG_ERROR_NO_STATE_ARG;
        }
        if (err != CL_SUCCESS)
            return err;
        unsigned set;
        int ours = state_param_set(name, &set);
        if (ours < 0)
            return XWG__INVALID("the kernel's XWG_STATE parameter is "
                                "named %s: its program defined XWG_BARRIERS "
                                "as other than a set of bits 1 (xf), 2 "
                                "(counter) and 3 (tree)", name);
        if (ours > 0) {
            *index = i;
            if (barriers != NULL)
                *barriers = set;
            return XWG_SUCCESS;
        }
    }
    xwg__set_last_error("the kernel has no XWG_STATE parameter");
    return XWG_ERROR_NO_STATE_ARG;
}

int xwg__check_local_size(const char *fn, const xwg_context *ctx,
                          cl_kernel kernel, size_t local_size,
                          cl_ulong *local_mem)
{
    /* Only the device's maximum is checked here. The kernel's own
     * (CL_KERNEL_WORK_GROUP_SIZE) is left to the runtime, which reports
     * CL_INVALID_WORK_GROUP_SIZE at launch: NVIDIA's driver 580 reports
     * 256 for every kernel yet runs 1024-work-item groups correctly. */
    if (local_size == 0 || local_size > ctx->info.max_work_group_size)
        return XWG__INVALID("%s: local_size is %zu, not from 1 to the "
                            "device's maximum work-group size, %zu",
                            fn, local_size, ctx->info.max_work_group_size);
    if (local_mem == NULL) /* a launch that needs no more */
        return XWG_SUCCESS;
    /* Static __local use plus the dynamic sizes set on its arguments. */
    return clGetKernelWorkGroupInfo(kernel, ctx->device,
                                    CL_KERNEL_LOCAL_MEM_SIZE,
                                    sizeof *local_mem, local_mem, NULL);
}
