/*
 * vendor_count.c - the vendor's own count of the groups of a kernel that
 * run at once, where the device offers one: Intel's
 * cl_intel_concurrent_dispatch, whose
 * clGetKernelMaxConcurrentWorkGroupCountINTEL promises that many groups
 * of the kernel may call intel_device_barrier() together. xwg-discover
 * prints it beside discovery's count, so that the promise is checked
 * against what runs (docs/performance.md, "Intel's OpenCL runtime").
 */
#include "vendor_count.h"

#include <stdlib.h>
#include <string.h>

typedef cl_int(CL_API_CALL *max_groups_fn)(cl_command_queue, cl_kernel,
                                           cl_uint, const size_t *,
                                           const size_t *, size_t *);

static int has_extension(cl_device_id device, const char *name)
{
    size_t bytes = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &bytes) !=
        CL_SUCCESS)
        return 0;
    char *all = malloc(bytes + 1);
    if (all == NULL)
        return 0;
    int found = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, bytes, all,
                                NULL) == CL_SUCCESS;
    all[found ? bytes : 0] = '\0';
    found = found && strstr(all, name) != NULL;
    free(all);
    return found;
}

size_t cli_vendor_max_groups(cl_platform_id platform, cl_device_id device,
                             cl_context cl, cl_kernel kernel, size_t local)
{
    if (!has_extension(device, "cl_intel_concurrent_dispatch"))
        return 0;
    max_groups_fn max_groups =
        (max_groups_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clGetKernelMaxConcurrentWorkGroupCountINTEL");
    if (max_groups == NULL)
        return 0;
    int err;
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(cl, device, NULL, &err);
    if (queue == NULL)
        return 0;
    size_t count = 0;
    if (max_groups(queue, kernel, 1, NULL, &local, &count) != CL_SUCCESS)
        count = 0;
    clReleaseCommandQueue(queue);
    return count;
}
