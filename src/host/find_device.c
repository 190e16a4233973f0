/*
 * find_device.c - choosing a device by platform name or vendor. Some
 * loaders ignore OCL_ICD_VENDORS and list platforms in any order, so
 * picking the platform by name is the portable way.
 */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>

int xwg_platform_name_matches(const char *name, const char *part)
{
    if (part == NULL || part[0] == '\0')
        return 1;
    if (name == NULL)
        return 0;
    for (const char *start = name; *start != '\0'; start++) {
        size_t i = 0;
        while (part[i] != '\0' && start[i] != '\0' &&
               tolower((unsigned char)start[i]) ==
                   tolower((unsigned char)part[i]))
            i++;
        if (part[i] == '\0')
            return 1;
    }
    return 0;
}

int xwg_platform_matches(cl_platform_id platform, const char *part)
{
    char name[256] = "", vendor[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
    clGetPlatformInfo(platform, CL_PLATFORM_VENDOR, sizeof vendor, vendor,
                      NULL);
    return xwg_platform_name_matches(name, part) ||
           xwg_platform_name_matches(vendor, part);
}

/* The first GPU of platform, else its first device of any type. */
static int first_device(cl_platform_id platform, cl_device_id *device)
{
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, device, NULL) ==
        CL_SUCCESS)
        return XWG_SUCCESS;
    return clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, device, NULL);
}

/* The reason of an XWG_ERROR_NO_DEVICE, for xwg_last_error(): every
 * platform with its name and vendor (the two texts name_part can match),
 * as xwg-discover --platform-name lists them, so that the caller sees
 * what to ask for instead. `matched`: some platform matched, but none of
 * those had a device. */
static void say_no_device(const char *name_part, const cl_platform_id *all,
                          cl_uint n, int matched)
{
    char list[384] = "";
    size_t used = 0;
    for (cl_uint i = 0; i < n && used < sizeof list; i++) {
        char name[128] = "", vendor[128] = "";
        clGetPlatformInfo(all[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        clGetPlatformInfo(all[i], CL_PLATFORM_VENDOR, sizeof vendor, vendor,
                          NULL);
        int w = snprintf(list + used, sizeof list - used,
                         "%s\"%s\", vendor \"%s\"", i ? "; " : "", name,
                         vendor);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (matched)
        xwg__set_last_error("xwg_find_device: no platform whose name or "
                            "vendor contains \"%s\" has a device (the "
                            "platforms: %s)",
                            name_part ? name_part : "", list);
    else
        xwg__set_last_error("xwg_find_device: no platform's name or vendor "
                            "contains \"%s\" (the platforms: %s)",
                            name_part ? name_part : "", list);
    XWG__TRACE("%s", xwg_last_error());
}

int xwg_find_device(const char *name_part, cl_platform_id *platform,
                    cl_device_id *device)
{
    xwg__clear_last_error();
    if (platform == NULL || device == NULL)
        return XWG__INVALID("xwg_find_device: %s is NULL",
                            platform == NULL ? "platform" : "device");
    cl_uint n = 0;
    if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0) {
        xwg__set_last_error("xwg_find_device: the OpenCL loader found no "
                            "platform (no ICD installed, or "
                            "OCL_ICD_VENDORS names a folder without one)");
        return XWG_ERROR_NO_DEVICE;
    }
    cl_platform_id *all = malloc(n * sizeof *all);
    if (all == NULL)
        return XWG_ERROR_OUT_OF_HOST_MEMORY;
    int err = clGetPlatformIDs(n, all, NULL);
    int result = XWG_ERROR_NO_DEVICE, matched = 0;
    for (cl_uint i = 0; err == CL_SUCCESS && i < n; i++) {
        if (!xwg_platform_matches(all[i], name_part))
            continue;
        matched = 1;
        if (first_device(all[i], device) == CL_SUCCESS) {
            *platform = all[i];
            result = XWG_SUCCESS;
            break;
        }
    }
    if (result == XWG_ERROR_NO_DEVICE && err == CL_SUCCESS)
        say_no_device(name_part, all, n, matched);
    free(all);
    return result;
}
