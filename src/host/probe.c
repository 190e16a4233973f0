/*
 * probe.c - what a device promises, and the atomics path chosen from it.
 *
 * The cl20 path needs C11 atomics with acquire/release order at device
 * scope, for both atomic operations and fences. OpenCL C 2.x devices
 * promise that unconditionally. OpenCL 3.0 made it optional: the device
 * reports it through CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
 * CL_DEVICE_ATOMIC_FENCE_CAPABILITIES and the OpenCL C features
 * __opencl_c_atomic_order_acq_rel and __opencl_c_atomic_scope_device.
 * Everything else gets the cl12 path.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_string_info(cl_device_id device, cl_device_info what,
                             char *dst, size_t cap)
{
    dst[0] = '\0';
    if (clGetDeviceInfo(device, what, cap, dst, NULL) != CL_SUCCESS) {
        /* A longer string than cap: fetch it whole and cut it. */
        size_t need = 0;
        if (clGetDeviceInfo(device, what, 0, NULL, &need) == CL_SUCCESS &&
            need > 0) {
            char *tmp = malloc(need);
            if (tmp != NULL &&
                clGetDeviceInfo(device, what, need, tmp, NULL) == CL_SUCCESS)
                snprintf(dst, cap, "%s", tmp);
            free(tmp);
        }
    }
}

/* "OpenCL C 1.2 PoCL" -> 120; 0 if unreadable. */
static unsigned parse_opencl_c_version(const char *s)
{
    unsigned major = 0, minor = 0;
    if (sscanf(s, "OpenCL C %u.%u", &major, &minor) != 2)
        return 0;
    return major * 100 + minor * 10;
}

/* The highest OpenCL C version the device can compile, through
 * CL_DEVICE_OPENCL_C_ALL_VERSIONS (3.0) where it exists. */
static unsigned highest_opencl_c(cl_device_id device, unsigned reported)
{
    unsigned best = reported;
    size_t bytes = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL,
                        &bytes) != CL_SUCCESS ||
        bytes == 0)
        return best;
    cl_name_version *all = malloc(bytes);
    if (all == NULL)
        return best;
    if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, bytes, all,
                        NULL) == CL_SUCCESS) {
        for (size_t i = 0; i < bytes / sizeof *all; i++) {
            unsigned v = CL_VERSION_MAJOR(all[i].version) * 100 +
                         CL_VERSION_MINOR(all[i].version) * 10;
            if (v > best)
                best = v;
        }
    }
    free(all);
    return best;
}

/* 1 if the device lists both OpenCL C features the cl20 path compiles on. */
static int has_c11_atomics_features(cl_device_id device)
{
    size_t bytes = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL,
                        &bytes) != CL_SUCCESS ||
        bytes == 0)
        return 0;
    cl_name_version *features = malloc(bytes);
    if (features == NULL)
        return 0;
    int acq_rel = 0, device_scope = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, bytes, features,
                        NULL) == CL_SUCCESS) {
        for (size_t i = 0; i < bytes / sizeof *features; i++) {
            acq_rel |= !strcmp(features[i].name,
                               "__opencl_c_atomic_order_acq_rel");
            device_scope |= !strcmp(features[i].name,
                                    "__opencl_c_atomic_scope_device");
        }
    }
    free(features);
    return acq_rel && device_scope;
}

/* A capability bitfield (CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES or _FENCE_)
 * in words: its orders, then "at" its scopes, e.g. "relaxed acq_rel at
 * group device" (at most 49 characters). */
#define XWG__CAPS_WORDS 56
static void caps_words(cl_bitfield caps, char buf[XWG__CAPS_WORDS])
{
    static const struct {
        cl_bitfield bit;
        const char *word;
    } names[] = {
        {CL_DEVICE_ATOMIC_ORDER_RELAXED, "relaxed"},
        {CL_DEVICE_ATOMIC_ORDER_ACQ_REL, "acq_rel"},
        {CL_DEVICE_ATOMIC_ORDER_SEQ_CST, "seq_cst"},
        {CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM, "item"},
        {CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP, "group"},
        {CL_DEVICE_ATOMIC_SCOPE_DEVICE, "device"},
        {CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES, "all"},
    };
    const cl_bitfield first_scope = CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;
    buf[0] = '\0';
    int scopes = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(caps & names[i].bit))
            continue;
        if (names[i].bit >= first_scope && !scopes++)
            strcat(buf, buf[0] ? " at" : "at");
        if (buf[0])
            strcat(buf, " ");
        strcat(buf, names[i].word);
    }
    if (buf[0] == '\0')
        strcpy(buf, "none");
}

static void choose_path(xwg_device_info *info, xwg_atomics_path forced)
{
    char mem[XWG__CAPS_WORDS], fence[XWG__CAPS_WORDS];
    caps_words(info->atomic_memory_capabilities, mem);
    caps_words(info->atomic_fence_capabilities, fence);
    const cl_bitfield need_mem =
        CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_DEVICE;
    const cl_bitfield need_fence =
        CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_DEVICE;
    char why[200];

    if (info->opencl_c_max >= 200 && info->opencl_c_max < 300) {
        info->atomics_path = XWG_ATOMICS_CL20;
        snprintf(why, sizeof why,
                 "OpenCL C 2.x always provides acq_rel atomics at device "
                 "scope");
    } else if (info->opencl_c_max >= 300 &&
               (info->atomic_memory_capabilities & need_mem) == need_mem &&
               (info->atomic_fence_capabilities & need_fence) == need_fence &&
               info->has_c11_atomics_feature) {
        info->atomics_path = XWG_ATOMICS_CL20;
        snprintf(why, sizeof why,
                 "the device promises acq_rel atomics and fences at device "
                 "scope (atomics: %s; fences: %s)",
                 mem, fence);
    } else {
        info->atomics_path = XWG_ATOMICS_CL12;
        if (info->opencl_c_max < 200)
            snprintf(why, sizeof why,
                     "the device compiles OpenCL C %u.%u at most, which has "
                     "no C11 atomics",
                     info->opencl_c_max / 100, info->opencl_c_max / 10 % 10);
        else
            snprintf(why, sizeof why,
                     "the device does not promise acq_rel at device scope "
                     "(atomics: %s; fences: %s)",
                     mem, fence);
    }

    if (forced != XWG_ATOMICS_AUTO && forced != info->atomics_path) {
        info->atomics_path = forced;
        snprintf(info->atomics_reason, sizeof info->atomics_reason,
                 "forced by the caller (automatic choice: %s)", why);
    } else if (forced != XWG_ATOMICS_AUTO) {
        snprintf(info->atomics_reason, sizeof info->atomics_reason,
                 "forced by the caller, and also the automatic choice: %s",
                 why);
    } else {
        snprintf(info->atomics_reason, sizeof info->atomics_reason, "%s",
                 why);
    }
}

int xwg__probe_device(cl_device_id device, xwg_atomics_path forced,
                      xwg_device_info *info)
{
    cl_platform_id platform = NULL;
    int err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform,
                              &platform, NULL);
    if (err != CL_SUCCESS)
        return err;
    info->platform_name[0] = '\0';
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform_name,
                      info->platform_name, NULL);
    copy_string_info(device, CL_DEVICE_NAME, info->device_name,
                     sizeof info->device_name);
    copy_string_info(device, CL_DRIVER_VERSION, info->driver_version,
                     sizeof info->driver_version);
    copy_string_info(device, CL_DEVICE_OPENCL_C_VERSION,
                     info->opencl_c_version, sizeof info->opencl_c_version);

    unsigned reported = parse_opencl_c_version(info->opencl_c_version);
    info->opencl_c_max = highest_opencl_c(device, reported);

    if ((err = clGetDeviceInfo(device, CL_DEVICE_TYPE,
                               sizeof info->device_type, &info->device_type,
                               NULL)) != CL_SUCCESS ||
        (err = clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                               sizeof info->compute_units,
                               &info->compute_units, NULL)) != CL_SUCCESS ||
        (err = clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                               sizeof info->max_work_group_size,
                               &info->max_work_group_size, NULL)) !=
            CL_SUCCESS ||
        (err = clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE,
                               sizeof info->local_mem_size,
                               &info->local_mem_size, NULL)) != CL_SUCCESS)
        return err;

    /* OpenCL 3.0 queries; older devices reject them, and then 0 stands
     * for "not reported". */
    info->atomic_memory_capabilities = 0;
    info->atomic_fence_capabilities = 0;
    clGetDeviceInfo(device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
                    sizeof info->atomic_memory_capabilities,
                    &info->atomic_memory_capabilities, NULL);
    clGetDeviceInfo(device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
                    sizeof info->atomic_fence_capabilities,
                    &info->atomic_fence_capabilities, NULL);
    info->has_c11_atomics_feature = has_c11_atomics_features(device);

    if ((forced == XWG_ATOMICS_CL20 || forced == XWG_ATOMICS_PTX) &&
        info->opencl_c_max < 200) {
        XWG__TRACE("%s forced, but %s compiles OpenCL C %u at most",
                   xwg_atomics_path_name(forced), info->device_name,
                   info->opencl_c_max);
        return XWG_ERROR_UNSUPPORTED_DEVICE;
    }
    choose_path(info, forced);
    XWG__TRACE("%s: OpenCL C %u, path %s: %s", info->device_name,
               info->opencl_c_max,
               xwg_atomics_path_name(info->atomics_path), info->atomics_reason);
    return XWG_SUCCESS;
}
