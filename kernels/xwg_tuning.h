/*
 * xwg_tuning.h - every tuning default of xwg, in one place and one naming
 * scheme (XWG_TUNE_*). Valid C and OpenCL C: the host library includes
 * it, and it is embedded first in the kernel-side library.
 *
 * A tuning default changes speed, never meaning: each value below is safe,
 * and each was chosen by measurement, in the table of docs/performance.md
 * that its comment names (rows +X of tuning-h200 change one default from
 * the value here, in the same run; every such variant also passed the
 * data-checked stress test, table variant-stress-h200). Each can be set
 * for a build: the kernel-side ones with -DXWG_TUNE_X=V in a program's
 * build options (xwg-bench --build-options), the host-side ones with
 * -DXWG_TUNE_X=V when the library is compiled. The range checks below
 * turn a value the code cannot take into a compile error.
 */
#ifndef XWG_TUNING_H
#define XWG_TUNING_H

/* ---- Kernel side: the collectives ------------------------------------ */

/* How many partials a work-item of an all-reduce loads at once before it
 * combines them (xwg_collectives.cl, "C3's fold"): 1 to 16. 8 takes a
 * tenth off the all-reduce at 64 work-items on an H100 against 4, with
 * the same groups; 16 costs groups (the registers of the loads).
 * fold-loads-h100. */
#ifndef XWG_TUNE_FOLD_LOADS
#define XWG_TUNE_FOLD_LOADS 8u
#endif
#if (XWG_TUNE_FOLD_LOADS) < 1u || (XWG_TUNE_FOLD_LOADS) > 16u
#error "xwg: XWG_TUNE_FOLD_LOADS must be 1 to 16"
#endif

/* ---- Kernel side: the barrier ---------------------------------------- */

/* How a wait acquires what it waited for (xwg_barrier.cl, "Waiting"):
 * 0 every poll an acquire load, 1 relaxed polls then one acquire load,
 * 2 relaxed polls then an acquire fence. tuning-h200, +collect0,
 * +collect2. */
#ifndef XWG_TUNE_COLLECT
#define XWG_TUNE_COLLECT 1
#endif
#if XWG_TUNE_COLLECT < 0 || XWG_TUNE_COLLECT > 2
#error "xwg: XWG_TUNE_COLLECT must be 0, 1 or 2"
#endif

/* How many polls a wait makes between two reads of the watchdog's failed
 * flag; a power of two. A larger one gains nothing measurable and only
 * delays the end of a failed barrier. tuning-h200, +flag4096. */
#ifndef XWG_TUNE_FLAG_EVERY
#define XWG_TUNE_FLAG_EVERY 64u
#endif
#if (XWG_TUNE_FLAG_EVERY) == 0u || \
    ((XWG_TUNE_FLAG_EVERY) & ((XWG_TUNE_FLAG_EVERY) - 1u)) != 0u
#error "xwg: XWG_TUNE_FLAG_EVERY must be a power of two"
#endif

/* How an arrival at the grid counter is made (xwg_barrier.cl, "Counter
 * barrier"): 1 a read-modify-write that returns the old value, so the
 * last arrival knows it is last; 0 a `red` that nothing waits for.
 * tuning-h200, +red. */
#ifndef XWG_TUNE_ARRIVE_RETURN
#define XWG_TUNE_ARRIVE_RETURN 1
#endif

/* Groups per cluster of the tree barrier (tests set 1: clusters of one
 * group). On the H200 1056 groups make 11 even clusters. tuning-h200,
 * +fanin8 to +fanin128. */
#ifndef XWG_TUNE_TREE_FANIN
#define XWG_TUNE_TREE_FANIN 96u
#endif
#if XWG_TUNE_TREE_FANIN < 1
#error "xwg: XWG_TUNE_TREE_FANIN must be at least 1"
#endif

/* Up to this many groups the tree wakes flat (every group polls the grid
 * counter), above it by cluster (xwg_barrier.cl, "Tree barrier").
 * tuning-h200, +flat (always flat) and +cluster (always by cluster). */
#ifndef XWG_TUNE_TREE_FLAT_MAX
#define XWG_TUNE_TREE_FLAT_MAX 2048u
#endif

/* Whether every function of the kernel-side library is forced inline
 * (below). The host sets it for Intel's CPU runtime
 * (program.c), where it makes a program's barriers up to twice as fast;
 * PoCL's compile of the collectives so inlined takes minutes instead of
 * seconds. performance.md, table default-intel. */
#ifndef XWG_TUNE_FORCE_INLINE
#define XWG_TUNE_FORCE_INLINE 0
#endif
/* Forced, every `inline` of the kernel-side library becomes always_inline.
 * Several functions hold work-group barriers, and Intel's CPU compiler
 * keeps xwg_barrier_of() out of line once a program has a second caller
 * of it (a collective), which makes every barrier of the program up to
 * twice as slow. Kernel side only: the host never sets it. */
#if XWG_TUNE_FORCE_INLINE && defined(__OPENCL_C_VERSION__)
#define inline inline __attribute__((always_inline))
#endif

/* ---- Kernel side: the collectives ------------------------------------- */

/* How the ptx path's all-reduce makes its group's partial
 * (xwg_collectives.cl, "C1 with one work-group barrier"): 1 with one
 * work-group barrier (warp 0 combines the warps' results), 0 with the
 * general tree's three. The same bits either way. collectives-h200,
 * column "all-reduce, three-barrier C1", and warp-combine-cg-h200. */
#ifndef XWG_TUNE_WARP_COMBINE
#define XWG_TUNE_WARP_COMBINE 1
#endif

/* ---- Host side -------------------------------------------------------- */

/* Above this many groups per compute unit a launch's default barrier is
 * the tree, at or below it the counter: one counter's line is the
 * bottleneck when thousands of groups poll it, and the tree's extra hops
 * cost more when few do. barrier-h200, barrier-occupancy-h200. */
#ifndef XWG_TUNE_TREE_ABOVE_GROUPS_PER_CU
#define XWG_TUNE_TREE_ABOVE_GROUPS_PER_CU 4u
#endif

/* Discovery's default window, in microseconds, per kind of device
 * (xwg_options.discovery_window_us overrides it). GPUs start all resident groups
 * within microseconds of each other; CPU runtimes wake a worker thread per
 * compute unit, which takes milliseconds on a loaded machine.
 * discovery-recall-h200 (windows of 5, 20 and 50 us), discovery-local. */
#ifndef XWG_TUNE_WINDOW_US_GPU
#define XWG_TUNE_WINDOW_US_GPU 20u
#endif
#ifndef XWG_TUNE_WINDOW_US_CPU
#define XWG_TUNE_WINDOW_US_CPU 5000u
#endif

#endif /* XWG_TUNING_H */
