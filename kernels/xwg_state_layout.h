/*
 * xwg_state_layout.h - the layout of the state buffer that XWG_STATE
 * carries. Valid C and OpenCL C: the host library includes it, and it is
 * embedded in front of the kernel-side library, so the two cannot disagree.
 *
 * The buffer is an array of 32-bit words. The host writes the header words
 * before a launch, and zeroes the rest (the flags) unless the buffer's
 * last launch completed every barrier: that leaves every XF flag at 0,
 * every tree cluster word and the grid counter with a count of 0 (their
 * top bits, the senses, may be either), the failed and misuse words at 0,
 * and the barriers work from there (the XF master waits for a flag to
 * equal 1; a tree member of the cluster wake compares top bits with what
 * its own arrival read, the flat wake looks at the count only, and leaves
 * it 0 with the top bit clear; each group reads the grid counter's top bit
 * before its first arrival). So a launch that skips discovery, on a buffer
 * whose last launch completed with the same header, needs no write at all
 * (launch.c). Each word that groups contend on sits on its own 128-byte
 * line, so that spinning on one does not slow the writers of another.
 */
#ifndef XWG_STATE_LAYOUT_H
#define XWG_STATE_LAYOUT_H

/* The name of XWG_STATE's parameter starts so, and the barrier set the
 * program compiled ends it (xwg_atomics.cl): launches read both from the
 * kernel's argument info, never from its program (Intel cannot query a
 * released one); a kernel without XWG_STATE gets an error naming it. */
#define XWG__STATE_PARAM xwg__needs_XWG_STATE_parameter_

#define XWG__W_MODE 0u           /* XWG__MODE_* below */
#define XWG__W_PROTOCOL 1u       /* xwg_discovery_protocol: 1 ticket, 2 window */
#define XWG__W_WINDOW 2u         /* spins of the closing window / delay */
#define XWG__W_ARRIVALS 32u      /* stable window: closed bit | arrivals */
#define XWG__W_TICKET_NEXT 96u   /* ticket lock: next ticket to hand out */
#define XWG__W_TICKET_SERVE 128u /* ticket lock: ticket now served */
#define XWG__W_POLL_OPEN 160u    /* ticket lock: 1 while the poll is open */
#define XWG__W_BARRIER_ALGO 3u   /* XWG__BARRIER_* below */
#define XWG__W_WATCHDOG 4u       /* the polls a wait may take, in units */
/* The unit of XWG__W_WATCHDOG, in polls. A word counting single polls
 * would cap every wait at 2^32 polls: about two seconds of a CPU core,
 * whatever watchdog_ms asked for. Kernels count a wait's polls in 64 bits
 * (xwg_discovery.cl, xwg__watchdog_polls()). */
#define XWG__WATCHDOG_UNIT 1024u
/* The words the host reads back after a launch (its status) sit together,
 * ending at the grid counter, so that one narrow read fetches them: on
 * NVIDIA's driver a read costs by its width, and a chain's read
 * (src/host/chain.c) by its rows' width too (docs/performance.md, "Launch
 * cost"). They share a line: groups write them at most once a launch
 * (COUNT and RUNS) or when a launch fails, and read them in waits. */
#define XWG__W_COUNT 219u        /* participants, published once closed */
#define XWG__W_FAILED 220u       /* 1 once a barrier wait timed out */
#define XWG__W_MISUSE 221u       /* XWG__MISUSE_*: the rule a group broke */
#define XWG__W_SPLIT 222u        /* the tree's clusters, once a group arrived
                                    at its split barrier (else 0): an arrive
                                    whose wait never came (the kernel
                                    returned) leaves a count in its
                                    cluster's word, so the host writes the
                                    cluster words before the buffer serves
                                    again (launch.c) */
#define XWG__W_RUNS 223u         /* launches that reached XWG_DISCOVER(): group
                                    0's work-item 0 adds 1 at its start, so
                                    the host, which knows what the word
                                    held, learns that the kernel ran
                                    without an event (launch.c) */
#define XWG__W_COUNTER 224u      /* counter and tree barriers: top bit flips
                                    per episode; the count is 0 at the start
                                    of every launch, the top bit either */
#define XWG__W_FLAGS 256u        /* XF barrier: group g's flag at FLAGS + g*LINE;
                                    tree barrier: cluster c's counter there */
#define XWG__LINE_WORDS 32u      /* 128 bytes: one flag per cache line */
#define XWG__STATE_WORDS 256u    /* words before the flags (discovery needs
                                    no more) */
/* The collectives' partials, after the flags: two banks of two words per
 * launched group (the second for the two-sum all-reduce), dense, so that
 * a group reads them all in few requests. Written before a barrier and
 * read after it, never zeroed. */
#define XWG__PARTIALS_AT(groups) (XWG__STATE_WORDS + (groups)*XWG__LINE_WORDS)
/* Words of a state buffer for `groups` groups. */
#define XWG__STATE_WORDS_FOR(groups) (XWG__PARTIALS_AT(groups) + 4u * (groups))

#define XWG__BARRIER_XF 1u      /* Xiao and Feng's master/slave, as adapted
                                   by Sorensen et al. */
#define XWG__BARRIER_COUNTER 2u /* one counter, no reset (grid.sync shape) */
#define XWG__BARRIER_TREE 3u    /* counters per cluster of groups, then one */

#define XWG__MODE_RUN 0u            /* protocol, then the kernel body */
#define XWG__MODE_DISCOVERY_ONLY 1u /* protocol, then every group returns */
#define XWG__MODE_SKIP 2u           /* no protocol: hardware ids */
#define XWG__MODE_CALIBRATE 3u      /* group 0 times the window loop */

/* The rules a kernel can be seen to break (XWG__W_MISUSE): the rule in
 * the word's low byte, and above it what the host's message needs that
 * only the program knows (rule 5: its XWG__SCRATCH_WORDS, the largest
 * group its collectives take). */
#define XWG__MISUSE_RULE_MASK 0xffu
#define XWG__MISUSE_DETAIL_SHIFT 8u
#define XWG__MISUSE_ARRIVE_TWICE 1u          /* arrive, then arrive again */
#define XWG__MISUSE_WAIT_WITHOUT_ARRIVE 2u   /* a wait with no arrive */
#define XWG__MISUSE_BARRIER_WHILE_ARRIVED 3u /* a barrier or collective
                                                between arrive and wait */
#define XWG__MISUSE_BROADCAST_GROUP 4u       /* a broadcast from a group
                                                that does not participate */
#define XWG__MISUSE_GROUP_TOO_LARGE 5u       /* a collective in a group of
                                                more work-items than
                                                XWG__SCRATCH_WORDS */
#define XWG__MISUSE_DIVERGENT 6u             /* a barrier, arrive or
                                                collective that only some
                                                work-items of a group made
                                                (XWG_CHECK_DIVERGENCE) */
#define XWG__MISUSE_REDUCE_MISMATCH 7u       /* a nonblocking reduction's
                                                wait of another operator or
                                                type than its arrive */

#define XWG__CLOSED 0x80000000u /* stable window: the poll has closed */
#define XWG__SENSE 0x80000000u  /* counter and tree barriers: the bit that
                                   flips once per episode */

#endif
