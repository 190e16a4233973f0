/*
 * clcost_carriers.c - xwg-clcost's carriers mode: what else than a second
 * buffer argument could carry a launch's state to its kernel, whether
 * the device has it, and what each costs the enqueue.
 */
#include "clcost.h"

#include <stdint.h>
#include <string.h>

/* Prints the device's string `what` (CL_DEVICE_*), or "?". */
static void print_device_string(cl_device_id dev, cl_device_info what,
                                const char *label)
{
    static char text[16384];
    if (clGetDeviceInfo(dev, what, sizeof text, text, NULL) != CL_SUCCESS)
        strcpy(text, "?");
    printf("fact: %-34s %s\n", label, text);
}

/* built_kernel() under the newest OpenCL C that the device takes of 3.0
 * and 2.0 (program-scope variables and SVM need one of them; a device
 * may report 1.2 and still take either), printing which. */
static cl_kernel built_kernel_cl2(cl_context cl, cl_device_id dev,
                                  const char *src, const char *name,
                                  cl_mem arg)
{
    static const char *const stds[] = {"-cl-std=CL3.0", "-cl-std=CL2.0"};
    for (size_t i = 0; i < sizeof stds / sizeof stds[0]; i++) {
        cl_kernel k = built_kernel(cl, dev, NULL, src, name, stds[i], arg);
        if (k != NULL) {
            printf("fact: %-34s %s\n", name, stds[i]);
            return k;
        }
    }
    printf("fact: %-34s builds under neither CL3.0 nor CL2.0\n", name);
    return NULL;
}

/* "carriers": XWG_STATE is a second buffer argument, which every enqueue
 * pays for (docs/performance.md, "Launch cost"). What else could carry a
 * launch's own global memory to its kernel: a program-scope variable
 * (OpenCL 2.0, optional in 3.0), a device address passed by value
 * (cl_ext_buffer_device_address, Intel's unified shared memory), an SVM
 * pointer. Prints what the device reports of each, then the enqueue of
 * chains of 32 empty kernels of 1056 groups of 256 ended by clFinish, per
 * kernel, for each carrier the device has, beside one buffer argument
 * alone. Three passes. */
int carriers(cl_context cl, cl_device_id dev, cl_command_queue q)
{
    print_device_string(dev, CL_DEVICE_VERSION, "CL_DEVICE_VERSION");
    print_device_string(dev, CL_DEVICE_OPENCL_C_VERSION,
                        "CL_DEVICE_OPENCL_C_VERSION");
    size_t global_bytes = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
                    sizeof global_bytes, &global_bytes, NULL);
    printf("fact: %-34s %zu\n", "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE",
           global_bytes);
    cl_device_svm_capabilities svm = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
    printf("fact: %-34s 0x%llx\n", "CL_DEVICE_SVM_CAPABILITIES",
           (unsigned long long)svm);
    static char ext[16384];
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL))
        ext[0] = 0;
    printf("fact: %-34s %s\n", "cl_ext_buffer_device_address",
           strstr(ext, "cl_ext_buffer_device_address") ? "yes" : "no");
    printf("fact: %-34s %s\n", "cl_intel_unified_shared_memory",
           strstr(ext, "cl_intel_unified_shared_memory") ? "yes" : "no");
    printf("fact: %-34s %s\n", "CL_DEVICE_EXTENSIONS", ext);

    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem two = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    /* The kernels, in bench/clcost/carriers.cl and carriers_global.cl
     * (embedded at build time). */
    const char *plain_src = clcost_carriers_source;
    const char *global_src = clcost_carriers_global_source;
    cl_kernel one = built_kernel(cl, dev, NULL, plain_src, "one", "", buf);
    cl_kernel second = built_kernel(cl, dev, NULL, plain_src, "two", "", buf);
    cl_kernel scalar = built_kernel(cl, dev, NULL, plain_src, "scalar", "",
                                    buf);
    cl_kernel global =
        built_kernel_cl2(cl, dev, global_src, "glob", buf);
    printf("fact: %-34s %s\n", "program-scope variable builds",
           global != NULL ? "yes" : "no");
    if (one == NULL || second == NULL || scalar == NULL)
        return 10;
    clSetKernelArg(second, 1, sizeof two, &two);
    const cl_ulong address = 1;
    clSetKernelArg(scalar, 1, sizeof address, &address);
    void *svm_state = (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
                          ? clSVMAlloc(cl, CL_MEM_READ_WRITE, 4096, 0)
                          : NULL;
    cl_kernel svm_kernel = NULL, address_kernel = NULL;
    if (svm_state != NULL) {
        /* The SVM allocation's address passed by value, and named to the
         * runtime once per kernel (CL_KERNEL_EXEC_INFO_SVM_PTRS) instead of
         * in every enqueue's arguments. First a check that a store through
         * the address lands in the allocation. */
        const cl_ulong at = (cl_ulong)(uintptr_t)svm_state;
        cl_kernel store = built_kernel_cl2(cl, dev, plain_src, "store", buf);
        cl_uint got[2] = {0, 0};
        const size_t one_item = 1;
        int stored =
            store != NULL &&
            clSetKernelArg(store, 1, sizeof at, &at) == CL_SUCCESS &&
            clSetKernelExecInfo(store, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                sizeof svm_state, &svm_state) == CL_SUCCESS &&
            clEnqueueNDRangeKernel(q, store, 1, NULL, &one_item, &one_item, 0,
                                   NULL, NULL) == CL_SUCCESS &&
            clEnqueueSVMMemcpy(q, CL_TRUE, got, svm_state, sizeof got, 0,
                               NULL, NULL) == CL_SUCCESS &&
            got[1] == 42u;
        printf("fact: %-34s %s\n", "store through an SVM address lands",
               stored ? "yes" : "no");
        if (store != NULL)
            clReleaseKernel(store);
        address_kernel = built_kernel_cl2(cl, dev, plain_src, "address", buf);
        if (address_kernel != NULL &&
            (clSetKernelArg(address_kernel, 1, sizeof at, &at) != CL_SUCCESS ||
             clSetKernelExecInfo(address_kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                 sizeof svm_state, &svm_state) != CL_SUCCESS)) {
            clReleaseKernel(address_kernel);
            address_kernel = NULL;
        }
        svm_kernel = built_kernel_cl2(cl, dev, plain_src, "two", buf);
        if (svm_kernel != NULL &&
            clSetKernelArgSVMPointer(svm_kernel, 1, svm_state) != CL_SUCCESS) {
            clReleaseKernel(svm_kernel);
            svm_kernel = NULL;
        }
    }
    const struct {
        const char *label;
        cl_kernel kernel;
    } rows[] = {
        {"carrier: none (1 buffer)", one},
        {"carrier: a second buffer (XWG_STATE)", second},
        {"carrier: a ulong (a device address)", scalar},
        {"carrier: a program-scope variable", global},
        {"carrier: an SVM pointer", svm_kernel},
        {"carrier: an SVM address, by value", address_kernel},
    };
    size_t g = 1056 * 256, l = 256;
    for (int pass = 0; pass < 3; pass++) {
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            cl_kernel k = rows[r].kernel;
            if (k == NULL)
                continue;
            clFinish(q);
            double enqueue = 0;
            TIME(rows[r].label, {
                double before = now_us();
                clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
                enqueue += now_us() - before;
                if (i_ % CHAIN == CHAIN - 1)
                    clFinish(q);
            });
            printf("%-40s %8.3f us (enqueue alone)\n", rows[r].label,
                   enqueue / N);
        }
    }
    clFinish(q);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        if (rows[r].kernel != NULL)
            clReleaseKernel(rows[r].kernel);
    if (svm_state != NULL)
        clSVMFree(cl, svm_state);
    clReleaseMemObject(buf);
    clReleaseMemObject(two);
    return 0;
}
