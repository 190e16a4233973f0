/*
 * clcost_reads.c - xwg-clcost's reads mode: a kernel and a 4-byte read
 * after it, for kernels that differ from a plain one in one thing each.
 */
#include "clcost.h"

/* "reads": whole launches of 1056 groups of 256, each a kernel and a
 * blocking 4-byte read of a plain buffer, for kernels that differ from a
 * plain one in one thing each: how it was built, what it does, what its
 * argument is. Why: after xwg's kernel such a read took longer than
 * after a plain kernel, while clFinish did not. Mean of N, three passes. */
int reads(cl_context cl, cl_device_id dev, cl_command_queue q,
          xwg_context *xc, cl_program xprog, cl_kernel xk)
{
    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem other = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem parent = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
    cl_buffer_region r = {1 << 18, 1 << 18};
    cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    cl_mem pinned = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                   4096, NULL, &err);
    char xopts[4096] = "";
    clGetProgramBuildInfo(xprog, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof xopts,
                          xopts, NULL);
    /* The kernels, in bench/clcost/ (embedded at build time). */
    const char *count_src = clcost_count_source;
    const char *atomic_src = clcost_atomic_source;
    const char *empty_xwg_src = clcost_empty_xwg_source;
    const char *discover_src = clcost_discover_source;
    const char *state_load_src = clcost_state_load_source;
    const char *state_store_src = clcost_state_store_source;
    const char *plain_load_src = clcost_plain_load_source;
    const char *local_src = clcost_local_source;
    /* Each kernel is named e and takes `arg` as argument 0; options NULL:
     * built through xwg_program_build (built_kernel). */
    struct {
        const char *label, *src, *options;
        cl_mem arg;
        cl_kernel k;
    } kernels[] = {
        {"plain", count_src, "", buf},
        {"plain, -cl-std=CL2.0", count_src, "-cl-std=CL2.0", buf},
        {"plain, xwg's build options", count_src, xopts, buf},
        {"plain, through xwg_program_build", count_src, NULL, buf},
        {"atomic_inc", atomic_src, "", buf},
        {"plain, on another buffer", count_src, "", other},
        {"plain, on a sub-buffer", count_src, "", sub},
        {"plain, on ALLOC_HOST_PTR", count_src, "", pinned},
        {"empty, XWG_STATE, a sub-buffer", empty_xwg_src, NULL, sub},
        {"empty, XWG_STATE, a buffer", empty_xwg_src, NULL, other},
        {"XWG_DISCOVER() alone, skip mode", discover_src, NULL, sub},
        {"a relaxed state load per group", state_load_src, NULL, sub},
        {"a relaxed state increment, group 0", state_store_src, NULL, sub},
        {"a plain load per group", plain_load_src, "", buf},
        {"local memory and a barrier", local_src, "", buf},
    };
    const int count = (int)(sizeof kernels / sizeof kernels[0]);
    for (int i = 0; i < count; i++)
        kernels[i].k = built_kernel(cl, dev, xc, kernels[i].src, "e",
                                    kernels[i].options, kernels[i].arg);
    printf("xwg's build options: %s\n", xopts);
    /* xk in skip mode with no barrier to run, on a header of its own
     * (plain buffer) and on the same header in a sub-buffer. */
    cl_uint header[256];
    cl_mem own = bare_state(cl, header, &err);
    clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, sizeof header, header, 0, NULL,
                         NULL);
    /* xk's state: the header in buffers of their own and in sub-buffers,
     * of sizes from one line to a slab's (64 slots of 1056 groups'). */
    enum { STATES = 6 };
    struct {
        const char *label;
        cl_mem mem;
    } states[STATES] = {{"own state, 1 KiB", own},
                        {"sub-buffer at 256 KiB of 1 MiB", sub}};
    cl_mem big = clCreateBuffer(cl, CL_MEM_READ_WRITE, 9u << 20, NULL, &err);
    const cl_buffer_region at0 = {0, 1 << 18}, slot0 = {0, 144 << 10};
    states[2].label = "own state, 144 KiB";
    states[2].mem = clCreateBuffer(cl, CL_MEM_READ_WRITE, 144 << 10, NULL,
                                   &err);
    states[3].label = "own state, 9 MiB";
    states[3].mem = clCreateBuffer(cl, CL_MEM_READ_WRITE, 9u << 20, NULL,
                                   &err);
    states[4].label = "sub-buffer at 0 of 1 MiB";
    states[4].mem = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                      CL_BUFFER_CREATE_TYPE_REGION, &at0,
                                      &err);
    states[5].label = "sub-buffer at 0 of 9 MiB";
    states[5].mem = clCreateSubBuffer(big, CL_MEM_READ_WRITE,
                                      CL_BUFFER_CREATE_TYPE_REGION, &slot0,
                                      &err);
    for (int s = 2; s < STATES; s++)
        clEnqueueWriteBuffer(q, states[s].mem, CL_TRUE, 0, sizeof header,
                             header, 0, NULL, NULL);
    size_t g = 1056 * 256, l = 256;
    cl_uint word;
    for (int i = 0; i < count; i++)
        if (kernels[i].k != NULL)
            printf("device time, %-32s %8.3f us\n", kernels[i].label,
                   device_us(cl, dev, kernels[i].k, CHAIN));
    clSetKernelArg(xk, 1, sizeof(cl_mem), &own);
    printf("device time, %-32s %8.3f us\n", "xwg kernel, own state",
           device_us(cl, dev, xk, CHAIN));
    /* Each launch alone: how much longer a kernel runs, which a chain's
     * launch gaps hide. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < count; i++)
            if (kernels[i].k != NULL)
                printf("one launch, %-33s %8.3f us\n", kernels[i].label,
                       device_us(cl, dev, kernels[i].k, 1));
        for (int s = 0; s < STATES; s++) {
            clSetKernelArg(xk, 1, sizeof(cl_mem), &states[s].mem);
            printf("one launch, xwg kernel, %-33s %8.3f us\n",
                   states[s].label, device_us(cl, dev, xk, 1));
        }
    }
    for (int pass = 0; pass < 3; pass++) {
        printf("pass %d\n", pass);
        for (int i = 0; i < count; i++) {
            char label[96];
            if (kernels[i].k == NULL) {
                printf("%-40s (did not build)\n", kernels[i].label);
                continue;
            }
            cl_kernel k = kernels[i].k;
            snprintf(label, sizeof label, "%s; clFinish", kernels[i].label);
            TIME(label, { clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL); clFinish(q); });
            snprintf(label, sizeof label, "%s; read 4 B", kernels[i].label);
            TIME(label, { clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        }
        for (int s = 0; s < STATES; s++) {
            char label[96];
            clSetKernelArg(xk, 1, sizeof(cl_mem), &states[s].mem);
            snprintf(label, sizeof label, "xwg kernel, %s; clFinish",
                     states[s].label);
            TIME(label, { clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); clFinish(q); });
            snprintf(label, sizeof label, "xwg kernel, %s; read 4 B",
                     states[s].label);
            TIME(label, { clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        }
    }
    for (int i = 0; i < count; i++)
        if (kernels[i].k != NULL)
            clReleaseKernel(kernels[i].k);
    for (int s = 2; s < STATES; s++)
        clReleaseMemObject(states[s].mem);
    cl_mem mems[] = {own, sub, parent, big, pinned, other, buf};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        clReleaseMemObject(mems[i]);
    return 0;
}
