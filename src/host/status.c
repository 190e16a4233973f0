/*
 * status.c - status codes to messages and names, the last error's reason,
 * the library version, and the tracing switch.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* OpenCL's own codes, so that every status a caller can see has a message.
 * The names are the CL_* macros; the messages say what usually causes them. */
#define XWG__CL_STATUS_MAP(X)                                                  \
    X(CL_DEVICE_NOT_FOUND, "no OpenCL device of the requested type")          \
    X(CL_DEVICE_NOT_AVAILABLE, "the OpenCL device is not available")          \
    X(CL_COMPILER_NOT_AVAILABLE, "no OpenCL compiler is available")           \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE, "device memory allocation failed")    \
    X(CL_OUT_OF_RESOURCES, "the device ran out of resources")                 \
    X(CL_OUT_OF_HOST_MEMORY, "the OpenCL runtime ran out of host memory")     \
    X(CL_PROFILING_INFO_NOT_AVAILABLE, "profiling information unavailable")   \
    X(CL_MEM_COPY_OVERLAP, "overlapping memory copy")                         \
    X(CL_IMAGE_FORMAT_MISMATCH, "image format mismatch")                      \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED, "image format not supported")            \
    X(CL_BUILD_PROGRAM_FAILURE, "the OpenCL program failed to build")         \
    X(CL_MAP_FAILURE, "mapping a memory object failed")                       \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer offset")        \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,                           \
      "an event in the wait list failed")                                     \
    X(CL_COMPILE_PROGRAM_FAILURE, "compiling the program failed")             \
    X(CL_LINKER_NOT_AVAILABLE, "no OpenCL linker is available")               \
    X(CL_LINK_PROGRAM_FAILURE, "linking the program failed")                  \
    X(CL_DEVICE_PARTITION_FAILED, "device partition failed")                  \
    X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "kernel argument info unavailable")   \
    X(CL_INVALID_VALUE, "an invalid value was passed to OpenCL")              \
    X(CL_INVALID_DEVICE_TYPE, "invalid device type")                          \
    X(CL_INVALID_PLATFORM, "invalid platform")                                \
    X(CL_INVALID_DEVICE, "invalid device")                                    \
    X(CL_INVALID_CONTEXT, "invalid OpenCL context")                           \
    X(CL_INVALID_QUEUE_PROPERTIES, "invalid command-queue properties")        \
    X(CL_INVALID_COMMAND_QUEUE, "invalid command queue")                      \
    X(CL_INVALID_HOST_PTR, "invalid host pointer")                            \
    X(CL_INVALID_MEM_OBJECT, "invalid memory object")                         \
    X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "invalid image format")             \
    X(CL_INVALID_IMAGE_SIZE, "invalid image size")                            \
    X(CL_INVALID_SAMPLER, "invalid sampler")                                  \
    X(CL_INVALID_BINARY, "invalid program binary")                            \
    X(CL_INVALID_BUILD_OPTIONS, "invalid build options")                      \
    X(CL_INVALID_PROGRAM, "invalid program")                                  \
    X(CL_INVALID_PROGRAM_EXECUTABLE, "the program has not been built")        \
    X(CL_INVALID_KERNEL_NAME, "no kernel of that name in the program")        \
    X(CL_INVALID_KERNEL_DEFINITION, "invalid kernel definition")              \
    X(CL_INVALID_KERNEL, "invalid kernel")                                    \
    X(CL_INVALID_ARG_INDEX, "invalid kernel argument index")                  \
    X(CL_INVALID_ARG_VALUE, "invalid kernel argument value")                  \
    X(CL_INVALID_ARG_SIZE, "invalid kernel argument size")                    \
    X(CL_INVALID_KERNEL_ARGS, "a kernel argument has not been set")           \
    X(CL_INVALID_WORK_DIMENSION, "invalid work dimension")                    \
    X(CL_INVALID_WORK_GROUP_SIZE, "invalid work-group size")                  \
    X(CL_INVALID_WORK_ITEM_SIZE, "invalid work-item size")                    \
    X(CL_INVALID_GLOBAL_OFFSET, "invalid global offset")                      \
    X(CL_INVALID_EVENT_WAIT_LIST, "invalid event wait list")                  \
    X(CL_INVALID_EVENT, "invalid event")                                      \
    X(CL_INVALID_OPERATION, "invalid operation")                              \
    X(CL_INVALID_GL_OBJECT, "invalid GL object")                              \
    X(CL_INVALID_BUFFER_SIZE, "invalid buffer size")                          \
    X(CL_INVALID_MIP_LEVEL, "invalid mip level")                              \
    X(CL_INVALID_GLOBAL_WORK_SIZE, "invalid global work size")                \
    X(CL_INVALID_PROPERTY, "invalid property")                                \
    X(CL_INVALID_IMAGE_DESCRIPTOR, "invalid image descriptor")                \
    X(CL_INVALID_COMPILER_OPTIONS, "invalid compiler options")                \
    X(CL_INVALID_LINKER_OPTIONS, "invalid linker options")                    \
    X(CL_INVALID_DEVICE_PARTITION_COUNT, "invalid device partition count")    \
    X(CL_INVALID_PIPE_SIZE, "invalid pipe size")                              \
    X(CL_INVALID_DEVICE_QUEUE, "invalid device queue")                        \
    X(CL_INVALID_SPEC_ID, "invalid specialization constant id")               \
    X(CL_MAX_SIZE_RESTRICTION_EXCEEDED, "a size restriction was exceeded")    \
    X(-1001, "no OpenCL platform found (CL_PLATFORM_NOT_FOUND_KHR)")

const char *xwg_status_string(int status)
{
    switch (status) {
#define XWG__MESSAGE(name, value, message)                                     \
    case value:                                                                \
        return message;
        XWG_STATUS_MAP(XWG__MESSAGE)
#undef XWG__MESSAGE
#define XWG__CL_MESSAGE(code, message)                                         \
    case code:                                                                 \
        return message;
        XWG__CL_STATUS_MAP(XWG__CL_MESSAGE)
#undef XWG__CL_MESSAGE
    default:
        return "unknown status code";
    }
}

const char *xwg_status_name(int status)
{
    switch (status) {
#define XWG__NAME(name, value, message)                                        \
    case value:                                                                \
        return "XWG_" #name;
        XWG_STATUS_MAP(XWG__NAME)
#undef XWG__NAME
#define XWG__CL_NAME(code, message)                                            \
    case code:                                                                 \
        return #code;
        XWG__CL_STATUS_MAP(XWG__CL_NAME)
#undef XWG__CL_NAME
    default:
        return "XWG_UNKNOWN_STATUS";
    }
}

unsigned xwg_version(void) { return XWG_VERSION_HEX; }

#define XWG__STR2(x) #x
#define XWG__STR(x) XWG__STR2(x)
const char *xwg_version_string(void)
{
    return XWG__STR(XWG_VERSION_MAJOR) "." XWG__STR(
        XWG_VERSION_MINOR) "." XWG__STR(XWG_VERSION_PATCH);
}

/* The reason of the last failure that gave one, per thread; every public
 * call that can fail empties it first, so that it never describes an
 * earlier call. */
static _Thread_local char last_error[512];

const char *xwg_last_error(void) { return last_error; }

void xwg__clear_last_error(void) { last_error[0] = '\0'; }

void xwg__set_last_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
}

int xwg__trace_enabled(void)
{
    /* Read each time: cheap next to any OpenCL call, and tests can flip it. */
    const char *v = getenv("XWG_TRACE");
    return v != NULL && strcmp(v, "0") != 0 && v[0] != '\0';
}

int xwg__invalid(const char *file, int line, const char *format, ...)
{
    /* Recorded for xwg_last_error() whether or not tracing is on, so that
     * a caller can print which argument was wrong without XWG_TRACE. */
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
    if (xwg__trace_enabled())
        fprintf(stderr, "xwg %s:%d: %s\n", file, line, last_error);
    return XWG_ERROR_INVALID_ARGUMENT;
}

int xwg__misuse_error(unsigned word)
{
    /* The rule, and for rule 5 the program's limit (xwg_state_layout.h). */
    const unsigned rule = word & XWG__MISUSE_RULE_MASK;
    const unsigned detail = word >> XWG__MISUSE_DETAIL_SHIFT;
    char too_large[384];
    snprintf(too_large, sizeof too_large,
             "a collective in a work-group larger than %u work-items, the "
             "most this program's collectives take (their local scratch): "
             "launch with a local size of at most %u, or build the program "
             "with xwg_program_build() (or xwg_program_source_prefix()), "
             "which sizes the scratch to the device's largest work-group, "
             "up to 1024",
             detail, detail);
    const char *what =
        rule == XWG__MISUSE_ARRIVE_TWICE
            ? "xwg_barrier_arrive() twice without xwg_barrier_wait()"
        : rule == XWG__MISUSE_WAIT_WITHOUT_ARRIVE
            ? "xwg_barrier_wait() without xwg_barrier_arrive()"
        : rule == XWG__MISUSE_BARRIER_WHILE_ARRIVED
            ? "a barrier or collective between xwg_barrier_arrive() and "
              "xwg_barrier_wait()"
        : rule == XWG__MISUSE_BROADCAST_GROUP
            ? "a broadcast from a group at or past xwg_num_groups()"
        : rule == XWG__MISUSE_GROUP_TOO_LARGE
            ? too_large
        : rule == XWG__MISUSE_DIVERGENT
            ? "a barrier, split arrive or collective that only some "
              "work-items of a group called (XWG_CHECK_DIVERGENCE)"
        : rule == XWG__MISUSE_REDUCE_MISMATCH
            ? "a nonblocking reduction's wait of another operator or type "
              "than its arrive (xwg_reduce_OP_T_arrive and _wait must match)"
            : "an unknown rule";
    xwg__set_last_error("kernel misuse (rule %u): %s", rule, what);
    XWG__TRACE("launch: kernel misuse (rule %u): %s", rule, what);
    return XWG_ERROR_BARRIER_MISUSE;
}

int xwg__copy_versioned(void *dst, const void *src, size_t src_size)
{
    size_t dst_size = *(const size_t *)dst;
    if (dst_size < sizeof(size_t))
        return 0;
    size_t n = dst_size < src_size ? dst_size : src_size;
    memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
           n - sizeof(size_t));
    return 1;
}

const char *xwg_atomics_path_name(xwg_atomics_path path)
{
    switch (path) {
    case XWG_ATOMICS_AUTO:
        return "auto";
    case XWG_ATOMICS_CL20:
        return "cl20";
    case XWG_ATOMICS_CL12:
        return "cl12";
    case XWG_ATOMICS_PTX:
        return "ptx";
    }
    return "?";
}

const char *xwg_self_test_result_name(xwg_self_test_result result)
{
    switch (result) {
    case XWG_SELF_TEST_NOT_RUN:
        return "not run";
    case XWG_SELF_TEST_PASSED:
        return "passed";
    case XWG_SELF_TEST_FAILED:
        return "failed";
    case XWG_SELF_TEST_UNTESTED:
        return "untested";
    case XWG_SELF_TEST_ONE_GROUP:
        return "one group";
    }
    return "?";
}

const char *xwg_barrier_algo_name(xwg_barrier_algo algo)
{
    switch (algo) {
    case XWG_BARRIER_DEFAULT:
        return "default";
    case XWG_BARRIER_XF:
        return "xf";
    case XWG_BARRIER_COUNTER:
        return "counter";
    case XWG_BARRIER_TREE:
        return "tree";
    }
    return "?";
}
