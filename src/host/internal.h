/*
 * internal.h - what the host-side files of xwg share: the context struct,
 * tracing, and the few internal functions one file offers another. Internal
 * non-static symbols are named xwg__ and are not exported.
 */
#ifndef XWG_INTERNAL_H
#define XWG_INTERNAL_H

#include "xwg_barrier.h"
#include "xwg_state_layout.h"
#include "xwg_tuning.h"

#include <pthread.h>
#include <stdio.h>

/* One cached discovery result. */
typedef struct xwg__cache_entry {
    cl_kernel kernel; /* retained, so the handle cannot be reused */
    size_t local_size;
    cl_ulong local_mem;
    xwg_occupancy result;
} xwg__cache_entry;

/* A kernel's XWG_STATE index and compiled barriers (kernel_facts.c). */
typedef struct xwg__kernel_facts xwg__kernel_facts;

/* The header words that differ from launch to launch: [0,
 * XWG__W_WATCHDOG] of the state buffer (xwg_state_layout.h). */
#define XWG__HEADER_WORDS (XWG__W_WATCHDOG + 1u)

/* A state buffer kept for reuse, and its size in words. */
typedef struct xwg__state_buffer {
    cl_mem mem;
    size_t words;
    /* 1 once the buffer is known to be as the barriers start from: after
     * a launch whose every barrier completed (each ends with the master
     * lowering all flags, and the counters' counts back at 0), for the
     * flags of its first clean_groups groups: that launch's groups. Past
     * them lie its collectives' partials, or words never written. */
    int clean;
    cl_uint clean_groups;
    /* The header words [0, XWG__W_WATCHDOG] it was last written with. */
    cl_uint header[XWG__HEADER_WORDS];
    /* Words from the start that the next launch writes even where the
     * buffer is clean: 0, or the cluster words' end after a launch whose
     * tree split barrier may have left a count in them (XWG__W_SPLIT). */
    size_t rewrite;
    /* Host memory the status words are read into where a launch reads
     * them on its own queue (xwg_launch_ex, launch.c): a small buffer of
     * CL_MEM_ALLOC_HOST_PTR, mapped once and never used by a kernel, so
     * that its mapped pointer stays valid until the buffer is released,
     * and the driver can copy into it without staging. NULL until first
     * needed. */
    cl_mem staging;
    cl_uint *staged;
    /* The slab whose slot this buffer is a sub-buffer of (slab.c), or -1
     * for a buffer of its own; and the slot. */
    int slab;
    unsigned slot;
    /* XWG__W_RUNS as the buffer's last launch left it, where known
     * (runs_known): the next launch that does not write the buffer must
     * leave it one higher. */
    cl_uint runs;
    int runs_known;
} xwg__state_buffer;

/* A slab (slab.c): one buffer of XWG__SLAB_SLOTS slots of slot_bytes
 * each, every launch state buffer cut from it a sub-buffer over one slot,
 * so that one rectangular read reaches the status words of many. */
#define XWG__SLAB_SLOTS 32
#define XWG__SLABS_MAX 8
typedef struct xwg__slab {
    cl_mem parent;
    size_t slot_words, slot_bytes;
    cl_ulong used; /* bit s: slot s has a sub-buffer (in the pool or out) */
    /* Bit s: slot s serves a launch in flight. While any does, the slab
     * serves launches of `owner` alone: a read of the parent (chain.c)
     * while another queue's command writes one of its sub-buffers is
     * undefined in OpenCL. */
    cl_ulong busy;
    cl_command_queue owner;
    /* Where a chain's read puts slot s's status words: row s of host
     * memory pinned by the driver (a buffer made with
     * CL_MEM_ALLOC_HOST_PTR, mapped while the slab lives). On NVIDIA's
     * driver a read into pinned memory costs a third of one into memory
     * from malloc (docs/performance.md, "Launch cost"). NULL where the
     * driver would not make or map it: reads then go to malloc'd rows.
     * Row s is written only by the read of the launch that holds slot s. */
    cl_mem rows_buffer;
    cl_uint *rows;
    /* Slot s's buffer while it is idle (bit s of used and not of busy):
     * the slab keeps its own idle buffers, so that a launch finds the
     * lowest idle slot with one bit scan instead of a search of every
     * idle buffer (each launch takes one, and returns it at its finish). */
    xwg__state_buffer idle[XWG__SLAB_SLOTS];
} xwg__slab;

/* Idle state buffers of their own (no slab) that a context keeps: each
 * launch in flight holds one until its finish, so a chain of up to this
 * many launches, finished in turn, allocates no buffer after its first
 * round. Sub-buffers of slabs are always kept, by their slab (their
 * memory is the slab's, which stays anyway). */
#define XWG__POOL_MAX 32

struct xwg_context {
    cl_context cl;          /* retained */
    cl_device_id device;    /* retained */
    cl_command_queue queue; /* xwg's own, with profiling, for discovery */
    /* xwg's own too, without profiling, for reading discovery's count
     * back once its kernel has completed: a read on a profiling queue
     * costs more on some devices (docs/performance.md). A launch's status
     * is read on the caller's queue instead (launch.c). */
    cl_command_queue copy_queue;
    cl_mem state;           /* discovery's state buffer (header only) */
    /* Idle launch state buffers of their own; the slabs keep theirs. */
    xwg__state_buffer pool[XWG__POOL_MAX];
    size_t pool_len;
    xwg__slab slabs[XWG__SLABS_MAX]; /* what most state buffers are cut from */
    size_t slabs_len;
    int slabs_refused; /* a slab could not be made: buffers of their own */
    /* Launches enqueued without an event whose status nobody has read
     * yet, oldest first, and the signal that a read of such statuses has
     * ended (chain.c; both under lock). */
    xwg_pending *unread_first, *unread_last;
    pthread_cond_t chain_done;
    /* Finished launches' records, for the next launches (pending.c; linked
     * through their chain links, under lock): malloc and free cost a
     * launch more than the rest of its record keeping. */
    xwg_pending *spare_pendings;
    size_t spare_len;
    /* Write every state buffer whole (Oclgrind: see launch.c). */
    int full_state_writes;
    /* XWG_TRACE as it was when the context was created, for the traces
     * of every launch (XWG__TRACE_LAUNCH): reading the environment costs
     * a launch more than the rest of xwg's own work for it. */
    int trace_launches;
    xwg_options options;    /* after defaults and environment */
    xwg_device_info info;   /* what the probe found and chose */
    pthread_mutex_t lock;   /* guards queue, state, info's calibration,
                               pool and cache (not the copy queue:
                               OpenCL calls are thread-safe, and nothing
                               on it waits for an event, since callers
                               wait for their kernel first) */
    xwg__cache_entry *cache;
    size_t cache_len, cache_cap;
    xwg__kernel_facts *facts; /* kernels launched (kernel_facts.c) */
    size_t facts_len, facts_cap;
    /* What the self-test found on each path tried and left, for the
     * message of a refusal ("cl20: ...; "). */
    char paths_tried[640];
};

/* Tracing to stderr, with file and line, where `on`: XWG__TRACE when
 * XWG_TRACE=1 now, XWG__TRACE_LAUNCH (what every launch does) when it was
 * at ctx's creation. */
int xwg__trace_enabled(void);
#define XWG__TRACE_IF(on, ...)                                                 \
    do {                                                                       \
        if (on) {                                                              \
            fprintf(stderr, "xwg %s:%d: ", __FILE__, __LINE__);                \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)
#define XWG__TRACE(...) XWG__TRACE_IF(xwg__trace_enabled(), __VA_ARGS__)
#define XWG__TRACE_LAUNCH(ctx, ...)                                            \
    XWG__TRACE_IF((ctx)->trace_launches, __VA_ARGS__)

/* status.c: records the reason of a failure for xwg_last_error(), on this
 * thread (printf-style; truncated to the buffer). */
void xwg__set_last_error(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
/* status.c: empties it; the first statement of every public call that
 * can fail, so that xwg_last_error() never names an earlier call's
 * failure. */
void xwg__clear_last_error(void);

/* status.c: XWG_ERROR_BARRIER_MISUSE, with the rule the kernel broke
 * (the state's misuse word: XWG__MISUSE_* and its detail) for
 * xwg_last_error() and the trace. */
int xwg__misuse_error(unsigned word);

/* context.c: a GPU and nothing else. Oclgrind, a simulator that runs
 * groups on CPU threads, reports every device type at once: it is a CPU
 * device here (its discovery window, its self-test under load). A plain
 * GPU's resident groups run until they end, so a barrier among them that
 * never completes is broken, not slowed. */
int xwg__is_plain_gpu(cl_device_type type);

/* Every XWG_ERROR_INVALID_ARGUMENT that a public call returns comes from
 * here, so that with XWG_TRACE=1 the caller learns which argument was
 * wrong and why: the format names the public function, the argument and
 * the reason ("xwg_launch_ex: info->size is 0 ..."). Evaluates to
 * XWG_ERROR_INVALID_ARGUMENT, to be returned. */
int xwg__invalid(const char *file, int line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
#define XWG__INVALID(...) xwg__invalid(__FILE__, __LINE__, __VA_ARGS__)

/* XWG_SUCCESS if versioned struct *p has a size of at least `least`, else
 * XWG__INVALID naming fn, the argument p and the macro that initialises
 * it (a string literal). A size of 0 is what a struct declared without its
 * _INIT macro usually has. */
#define XWG__CHECK_SIZE(fn, p, least, init)                                    \
    ((p)->size >= (least)                                                      \
         ? XWG_SUCCESS                                                         \
         : XWG__INVALID("%s: " #p "->size is %zu (at least %zu needed): "     \
                        "initialise it with " init,                            \
                        (fn), (p)->size, (size_t)(least)))

/* context.c: a queue on the 2.0 entry point, or the 1.2 one where the
 * platform lacks it. */
cl_command_queue xwg__create_queue(cl_context context, cl_device_id device,
                                   cl_command_queue_properties properties,
                                   int *err);

/* probe.c: fills info from the device and chooses the atomics path
 * (forced is XWG_ATOMICS_AUTO or a path the caller insists on). */
int xwg__probe_device(cl_device_id device, xwg_atomics_path forced,
                      xwg_device_info *info);

/* program.c: xwg_program_build, with the barrier algorithms narrowed to
 * the context's (-DXWG_BARRIERS) only if `specialize` is set: the
 * self-test builds without, as it runs every algorithm. */
int xwg__program_build(xwg_context *ctx, const char *source,
                       const char *options, int specialize, cl_program *out,
                       char **log);
/* program_cache.c, under XWG_PROGRAM_CACHE=DIR (else load and store do
 * nothing): the program stored for (ctx's device, options, source),
 * built, or NULL on any miss; the store of a program built from them;
 * neither can fail a build. xwg__cache_state_arg: 1 with the parameter
 * of a kernel whose program came from the cache without argument info,
 * else 0. */
cl_program xwg__cache_load(const xwg_context *ctx, const char *source,
                           const char *options);
void xwg__cache_store(const xwg_context *ctx, const char *source,
                      const char *options, cl_program program);
int xwg__cache_state_arg(cl_kernel kernel, cl_uint *index, unsigned *set);
/* Every barrier algorithm, as a set (bit a for xwg_barrier_algo a). */
#define XWG__ALL_BARRIERS                                                     \
    (1u << XWG_BARRIER_XF | 1u << XWG_BARRIER_COUNTER | 1u << XWG_BARRIER_TREE)
/* The set that value, a plain number (decimal or 0x, with an optional u
 * suffix) ending at a NUL or a space, names: 1 and *set where it is a
 * non-empty subset of XWG__ALL_BARRIERS, else -1. */
int xwg__parse_barrier_set(const char *value, unsigned *set);

/* calibrate.c: the barrier set that builds compile where neither the
 * context nor the caller fixes one: timed on the device at the first
 * such build, then kept (ctx->info.default_barriers). Never 0. */
unsigned xwg__default_barrier_set(xwg_context *ctx);

/* kernel_args.c: the index of the kernel's XWG_STATE parameter and the
 * barrier algorithms its program compiled, both read from the kernel's
 * argument info (the parameter's name carries the set), never from its
 * program, which the application may have released; for a program
 * loaded from the program cache without that info, from what the cache
 * recorded. barriers may be NULL. */
int xwg__find_state_arg(cl_kernel kernel, cl_uint *index, unsigned *barriers);
/* Checks local_size against the device and the kernel for public call fn;
 * returns the kernel's local memory use through local_mem (unless NULL). */
int xwg__check_local_size(const char *fn, const xwg_context *ctx,
                          cl_kernel kernel, size_t local_size,
                          cl_ulong *local_mem);

/* state.c: the words that set up a launch, XWG__HEADER_WORDS of them
 * from word 0 (mode, protocol, window, barrier, watchdog: the same
 * layout as the buffer's first words). */
void xwg__header_words(const xwg_context *ctx, cl_uint mode,
                       cl_uint window_polls, cl_uint barrier,
                       cl_uint watchdog_word,
                       cl_uint words[XWG__HEADER_WORDS]);
/* The header's watchdog word for `ms` milliseconds (0: the default):
 * polls of the calibrated loop, in units of XWG__WATCHDOG_UNIT polls; the
 * context must be calibrated. Here, below both, because discovery and
 * launch each write a header with one. */
cl_uint xwg__watchdog_word(const xwg_context *ctx, cl_uint ms);
/* The first XWG__STATE_WORDS words of a state buffer that starts a
 * launch with those words: the rest zero, but the ticket lock's open
 * poll. */
void xwg__state_header(const cl_uint words[XWG__HEADER_WORDS],
                       cl_uint header[XWG__STATE_WORDS]);
/* The mapped host memory of buf's staging buffer (created on first use),
 * or NULL with *err set. */
cl_uint *xwg__state_staged(xwg_context *ctx, xwg__state_buffer *buf,
                           int *err);
/* Releases a state buffer and its staging buffer. */
void xwg__state_release(xwg_context *ctx, xwg__state_buffer buf);
/* Reads words [first, first + count) of a state buffer on ctx->copy_queue,
 * blocking. The caller has waited for the kernel that wrote them: a read
 * that waited there would hold up every other command of that queue. */
int xwg__read_state(const xwg_context *ctx, cl_mem state, cl_uint first,
                    cl_uint count, cl_uint *values);
/* Under ctx->lock: an idle state buffer of at least `words` words for a
 * launch on queue (a slab's first: slab.c says which may serve queue),
 * 1, or 0 where none is idle (xwg__slab_take then makes one); and a
 * launch's buffer back, kept idle, 1, or 0 where it is a buffer of its
 * own and the pool is full (the caller then releases it, outside the
 * lock). xwg__state_return: the latter, taking the lock. */
int xwg__state_reuse_locked(xwg_context *ctx, size_t words,
                            cl_command_queue queue, xwg__state_buffer *out);
int xwg__state_keep_locked(xwg_context *ctx, const xwg__state_buffer *buf);
void xwg__state_return(xwg_context *ctx, xwg__state_buffer buf);

/* slab.c: a sub-buffer of at least `words` words for a launch on queue,
 * from a slab with a free slot that may serve queue (a new slab where
 * none has one and there is room for it), or a buffer of its own (slab
 * -1) where no slab can be had; the slot back, once its sub-buffer is
 * released; and every slab released, with the idle buffers it keeps (the
 * context's release). Under ctx->lock: the idle buffer of the lowest
 * idle slot of the first slab that fits and may serve queue, marked as
 * serving a launch on queue (1; 0 where there is none); and a slab's
 * buffer back from its launch, kept idle. */
int xwg__slab_take(xwg_context *ctx, size_t words, cl_command_queue queue,
                   xwg__state_buffer *out);
void xwg__slab_give_back(xwg_context *ctx, const xwg__state_buffer *buf);
void xwg__slabs_release(xwg_context *ctx);
int xwg__slab_reuse(xwg_context *ctx, size_t words, cl_command_queue queue,
                    xwg__state_buffer *out);
void xwg__slab_keep(xwg_context *ctx, const xwg__state_buffer *buf);

/* The status words a launch's finish reads: the participants (where the
 * kernel ran discovery), the failed flag, the misuse word, the split
 * mark, the run count and the grid counter (launch.c says what each
 * tells). */
#define XWG__STATUS_FIRST XWG__W_COUNT
#define XWG__STATUS_LAST XWG__W_COUNTER
#define XWG__STATUS_WORDS (XWG__STATUS_LAST - XWG__STATUS_FIRST + 1)

/* pending.c: frees the launch records kept for reuse (the context's
 * release). The records themselves, and the chain of launches that
 * chain.c reads, are in pending.h. */
void xwg__pendings_release(xwg_context *ctx);

/* kernel_facts.c: a launched kernel's XWG_STATE index and barrier set, if
 * kept (returns 1); keep them after a launch that succeeded; drop the
 * kernel's entry (a kernel about to be released: the self-test's); and
 * release every entry (the context's release). Each takes ctx->lock but
 * the last. */
int xwg__kernel_facts_find(xwg_context *ctx, cl_kernel kernel,
                           cl_uint *state_arg, unsigned *barriers);
void xwg__kernel_facts_keep(xwg_context *ctx, cl_kernel kernel,
                            cl_uint state_arg, unsigned barriers);
void xwg__kernel_facts_forget(xwg_context *ctx, cl_kernel kernel);
void xwg__kernel_facts_release(xwg_context *ctx);

/* discovery.c: drops the cached discovery of a kernel that is about to
 * be released (the self-test's), and the reference the cache held. */
void xwg__forget_kernel(xwg_context *ctx, cl_kernel kernel);
/* discovery.c: times the window's polling loop once per context (under
 * ctx->lock), using the user's kernel in calibration mode. */
int xwg__ensure_calibrated(xwg_context *ctx, cl_kernel kernel,
                           cl_uint state_arg, size_t local_size);

/* self_test.c: the barrier self-test of a new context, cached per device,
 * driver version and path; fills info.self_test*. */
int xwg__run_self_test(xwg_context *ctx);
/* Tests only (not thread-safe): the next `launches` self-test launches
 * report a timeout without running; build options for the self-test's
 * program (a known-bad barrier), NULL for none. */
void xwg__self_test_inject_timeouts(int launches);
void xwg__self_test_inject_options(const char *options);

/* The kernel-side library, embedded at build time from kernels/ by
 * cmake/embed_kernels.cmake (NUL-terminated). */
extern const char xwg__kernel_library[];

/* Copies min(sizes) of a versioned struct; returns 0 if dst_size is too
 * small to hold even the size field. */
int xwg__copy_versioned(void *dst, const void *src, size_t src_size);

#endif
