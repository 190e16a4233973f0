/*
 * barrier_jacobi.cl - the barrier tests' Jacobi kernel, embedded at build
 * time as jacobi_source (tests/barrier_kernels.h says who runs it, and
 * holds its C reference).
 *
 * jacobi: a 1D three-point stencil, `iterations` sweeps in one kernel,
 * ping-ponging between a and b, a global barrier between sweeps. No
 * contraction into fma, so a C reference with the same expression matches
 * bit for bit.
 */

#pragma OPENCL FP_CONTRACT OFF
__kernel void jacobi(__global float *a, __global float *b, uint n,
                     uint iterations, XWG_STATE)
{
    XWG_DISCOVER();
    for (uint it = 0; it < iterations; it++) {
        __global const float *src = (it & 1) ? b : a;
        __global float *dst = (it & 1) ? a : b;
        for (uint i = xwg_global_id(); i < n; i += xwg_global_size()) {
            if (i == 0 || i == n - 1)
                dst[i] = src[i];
            else
                dst[i] = 0.25f * src[i - 1] + 0.5f * src[i] +
                         0.25f * src[i + 1];
        }
        xwg_barrier();
    }
}
