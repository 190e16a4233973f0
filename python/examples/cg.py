"""cg.py - a Conjugate Gradient solve in ONE kernel, from Python: the dot
products are xwg's grid-wide all-reduces (each also a barrier), so the
whole solve is one launch instead of several launches per iteration.

The system is the 2D 5-point Laplacian on a W x H grid (Dirichlet
boundary), with b = 1. The example checks the answer with NumPy (the
residual ||b - A x|| / ||b||, in float64), and solves twice to show that
the all-reduce is deterministic: the same bits both times.

    python3 python/examples/cg.py [platform-name] [W H]
"""
import sys

import numpy as np
import pyopencl as cl

import xwg

TOL, MAX_ITER = 1e-4, 2000

# No #include: xwg's kernel library is put in front by Context.build().
SOURCE = """
__kernel void cg(uint n, __global const uint *row, __global const uint *col,
                 __global const float *val, __global float *x,
                 __global float *r, __global float *p, __global float *ap,
                 float stop, uint max_iter, __global float *result,
                 XWG_STATE)
{
    XWG_DISCOVER(); /* groups that are not co-resident return here */
    const uint first = xwg_global_id(), step = xwg_global_size();
    float mine = 0.0f;
    for (uint i = first; i < n; i += step)
        mine += r[i] * r[i];
    /* Every work-item gets the same rr, bit for bit: all leave the loop at
     * the same k. */
    float rr = xwg_reduce_add_float(mine);
    uint k = 0;
    while (k < max_iter && rr > stop && !xwg_failed()) {
        mine = 0.0f;
        for (uint i = first; i < n; i += step) {   /* ap = A p, own rows */
            float s = 0.0f;
            for (uint e = row[i]; e < row[i + 1]; e++)
                s += val[e] * p[col[e]];
            ap[i] = s;
            mine += p[i] * s;
        }
        const float alpha = rr / xwg_reduce_add_float(mine);
        mine = 0.0f;
        for (uint i = first; i < n; i += step) {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
            mine += r[i] * r[i];
        }
        const float next = xwg_reduce_add_float(mine);
        const float beta = next / rr;
        rr = next;
        for (uint i = first; i < n; i += step)
            p[i] = r[i] + beta * p[i];
        xwg_barrier(); /* every p[i] is written before any row reads it */
        k++;
    }
    if (xwg_global_id() == 0) {
        result[0] = (float)k;
        result[1] = rr;
    }
}
"""


def laplacian(w, h):
    """The 5-point Laplacian of a w x h grid in CSR form (row, col, val)."""
    row, col, val = [0], [], []
    for y in range(h):
        for x in range(w):
            for dx, dy, v in ((0, -1, -1.0), (-1, 0, -1.0), (0, 0, 4.0),
                              (1, 0, -1.0), (0, 1, -1.0)):
                if 0 <= x + dx < w and 0 <= y + dy < h:
                    col.append((y + dy) * w + x + dx)
                    val.append(v)
            row.append(len(col))
    return (np.array(row, np.uint32), np.array(col, np.uint32),
            np.array(val, np.float32))


def device_named(part):
    """As xwg_find_device() chooses: by the platform's name or vendor,
    GPUs first."""
    try:
        return xwg.find_device(part)
    except xwg.XwgError as e:
        sys.exit("cg.py: %s" % e.message)


def solve(xc, queue, kernel, context, matrix, b, groups=0):
    """One solve from x = 0 on at most GROUPS groups (0: as many as are
    co-resident); returns x, the iterations and the launch."""
    n = b.size
    mf = cl.mem_flags
    ro = mf.READ_ONLY | mf.COPY_HOST_PTR
    rw = mf.READ_WRITE | mf.COPY_HOST_PTR
    bufs = [cl.Buffer(context, ro, hostbuf=m) for m in matrix]
    x = cl.Buffer(context, rw, hostbuf=np.zeros(n, np.float32))
    r = cl.Buffer(context, rw, hostbuf=b)             # r0 = b - A 0
    p = cl.Buffer(context, rw, hostbuf=b)             # p0 = r0
    ap = cl.Buffer(context, mf.READ_WRITE, size=b.nbytes)
    result = cl.Buffer(context, mf.WRITE_ONLY, size=8)
    stop = np.float32((TOL * np.linalg.norm(b)) ** 2)
    # Every argument but XWG_STATE, which the launch sets.
    for i, arg in enumerate([np.uint32(n), *bufs, x, r, p, ap, stop,
                             np.uint32(MAX_ITER), result]):
        kernel.set_arg(i, arg)
    info = xc.launch(queue, kernel, 64, groups)  # discovers, runs, waits
    out, res = np.empty(n, np.float32), np.empty(2, np.float32)
    cl.enqueue_copy(queue, out, x)
    cl.enqueue_copy(queue, res, result)
    return out, int(res[0]), info


def main():
    args = sys.argv[1:]
    device = device_named(args[0] if args else None)
    w, h = (int(args[1]), int(args[2])) if len(args) >= 3 else (64, 64)
    context = cl.Context([device])
    queue = cl.CommandQueue(context)
    matrix = laplacian(w, h)
    b = np.ones(w * h, np.float32)
    with xwg.Context(context, device) as xc:  # probe + self-test
        kernel = cl.Kernel(xc.build(SOURCE), "cg")
        x1, iterations, info = solve(xc, queue, kernel, context, matrix, b)
        # The same bits are promised for the same participants: the second
        # solve asks for the first's groups, and on a busy CPU device,
        # where discovery can admit fewer, it runs again until it has them
        # (a few tries at most).
        for _ in range(10):
            x2, _, info2 = solve(xc, queue, kernel, context, matrix, b,
                                 info.groups)
            if info2.groups == info.groups:
                break
    row, col, val = (m.astype(np.float64) for m in matrix)
    ax = np.zeros(w * h)
    for i in range(w * h):
        s, e = int(row[i]), int(row[i + 1])
        ax[i] = val[s:e] @ x1[col[s:e].astype(np.int64)].astype(np.float64)
    residual = np.linalg.norm(b - ax) / np.linalg.norm(b)
    ok = iterations < MAX_ITER and residual < 10 * TOL
    same = (info2.groups == info.groups and
            np.array_equal(x1.view(np.uint32), x2.view(np.uint32)))
    print("cg: %dx%d Laplacian in one kernel on %d groups: %d iterations, "
          "residual %.2e (%s), two solves %s"
          % (w, h, info.groups, iterations, residual,
             "converged" if ok else "WRONG",
             "bit for bit the same" if same else "DIFFER"))
    return 0 if ok and same else 1


if __name__ == "__main__":
    sys.exit(main())
