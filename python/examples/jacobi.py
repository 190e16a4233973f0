"""jacobi.py - examples/jacobi.c in Python: a 1D Jacobi solver that runs
all its sweeps in ONE kernel, with a global barrier between sweeps
instead of a launch per sweep, checked against the same sweeps in NumPy.

    python3 python/examples/jacobi.py [platform-name [points sweeps]]
"""
import sys

import numpy as np
import pyopencl as cl

import xwg

N, SWEEPS = 100000, 500  # unless the command line gives others

# No #include: xwg's kernel library is put in front by Context.build().
SOURCE = """
#pragma OPENCL FP_CONTRACT OFF
__kernel void jacobi(__global float *a, __global float *b, uint n,
                     uint sweeps, XWG_STATE)
{
    XWG_DISCOVER(); /* groups that are not co-resident return here */
    for (uint s = 0; s < sweeps && !xwg_failed(); s++) {
        __global float *src = (s & 1) ? b : a, *dst = (s & 1) ? a : b;
        for (uint i = xwg_global_id(); i < n; i += xwg_global_size())
            dst[i] = (i == 0 || i == n - 1) ? src[i]
                   : 0.25f * src[i - 1] + 0.5f * src[i] + 0.25f * src[i + 1];
        xwg_barrier(); /* every group has finished this sweep */
    }
}
"""


def device_named(part):
    """As xwg_find_device() chooses: by the platform's name or vendor,
    GPUs first."""
    try:
        return xwg.find_device(part)
    except xwg.XwgError as e:
        sys.exit("jacobi.py: %s" % e.message)


def sweeps_in_numpy(a):
    a = a.copy()
    b = a.copy()
    f = np.float32
    for s in range(SWEEPS):
        src, dst = (b, a) if s & 1 else (a, b)
        # Left to right as the kernel adds, in float32.
        dst[1:-1] = (f(0.25) * src[:-2] + f(0.5) * src[1:-1]) + \
            f(0.25) * src[2:]
        dst[0], dst[-1] = src[0], src[-1]
    return a


def main():
    global N, SWEEPS
    if len(sys.argv) > 3:
        N, SWEEPS = int(sys.argv[2]), int(sys.argv[3])
    device = device_named(sys.argv[1] if len(sys.argv) > 1 else None)
    context = cl.Context([device])
    queue = cl.CommandQueue(context)
    a = (np.arange(N) % 97).astype(np.float32)
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    da = cl.Buffer(context, flags, hostbuf=a)
    db = cl.Buffer(context, flags, hostbuf=a)
    with xwg.Context(context, device) as xc:  # probe + self-test
        kernel = cl.Kernel(xc.build(SOURCE), "jacobi")
        # Every argument but XWG_STATE, which the launch sets.
        kernel.set_arg(0, da)
        kernel.set_arg(1, db)
        kernel.set_arg(2, np.uint32(N))
        kernel.set_arg(3, np.uint32(SWEEPS))
        info = xc.launch(queue, kernel, 256)  # discovers, runs, waits
    got = np.empty_like(a)
    cl.enqueue_copy(queue, got, da)
    ok = np.array_equal(got, sweeps_in_numpy(a))
    print("jacobi: %d sweeps over %d points in one kernel on %d groups: %s"
          % (SWEEPS, N, info.groups,
             "matches NumPy bit for bit" if ok else "WRONG"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
