#!/usr/bin/env python3
"""known_bad_orders.py - which known-bad barriers fail by logic, and which
only by timing, for the one or two groups that the PoCL tests run.

Enumerates every interleaving of the atomic steps of N groups through K
barriers of the counter barrier and the tree's flat wake (one cluster), as
kernels/xwg_barrier.cl writes them, with the episode parities of known-bad
builds EPISODES_NOT_KEPT (the count never kept) and SELF_OWN_EPISODES (a
helper counting every other barrier apart), and with known-bad
TREE_FLAT_NO_RESET (the flat wake's reset left out; tests/known_bad.md). A
build fails by logic when no interleaving lets every group finish: some
group then always waits for a flip that has been, and the watchdog ends
the launch. The tests in tests/CMakeLists.txt rely on what this prints:
TREE_FLAT_NO_RESET and the counter under EPISODES_NOT_KEPT and
SELF_OWN_EPISODES always deadlock; the tree under those two need not with
two groups (its stress ends in a timeout or in wrong values, by timing).
The shipped barrier (SHIPPED) is the control: it completes.
Memory order is not modelled: every step is one atomic access; the Spin
model (model/xwg.pml) covers the shipped barriers' orders.

Usage: python3 model/known_bad_orders.py   (exits 1 if a claim fails)
"""
import sys

SENSE = 0x80000000
MASK = 0xFFFFFFFF


def before(variant, index):
    """The grid counter's top bit that barrier `index` expects to flip."""
    if variant == "EPISODES_NOT_KEPT":
        episode = 0  # xwg__begin_episode() never counts
    elif variant == "SELF_OWN_EPISODES":
        episode = index // 2  # two counts, each of every other barrier
    else:
        episode = index
    return SENSE if episode & 1 else 0


def some_order_completes(algo, variant, groups, barriers):
    """True if some interleaving lets every group pass every barrier."""
    # A group: (barriers passed, phase). Phases: 0 about to arrive,
    # 1 waiting for the grid counter's flip, 2 (tree) last of the cluster,
    # about to zero its count, 3 (tree) about to arrive at the grid counter.
    start = (0, 0, ((0, 0),) * groups)
    seen, todo = {start}, [start]
    while todo:
        top, sub, gs = todo.pop()
        if all(g[0] == barriers for g in gs):
            return True
        for i, (index, phase) in enumerate(gs):
            if index == barriers:
                continue
            b = before(variant, index)
            top2, sub2, index2, phase2 = top, sub, index, phase
            if phase == 1:
                if not (top ^ b) & SENSE:
                    continue  # still waiting
                index2, phase2 = index + 1, 0
            elif algo == "counter" or phase == 3:
                # xwg__grid_arrive(): group 0 (cluster 0) adds
                # SENSE - (arrivals - 1), the others 1.
                arrivals = groups if algo == "counter" else 1
                first = i == 0 or algo == "tree"  # one cluster: cluster 0
                add = (SENSE - (arrivals - 1)) & MASK if first else 1
                top2 = (top + add) & MASK
                if (top2 ^ b) & SENSE:
                    index2, phase2 = index + 1, 0  # the last arrival
                else:
                    phase2 = 1
            elif phase == 0:  # tree: arrive at the cluster's word
                sub2 = (sub + 1) & MASK
                phase2 = 2 if (sub & ~SENSE & MASK) == groups - 1 else 1
            else:  # phase 2: the flat wake's reset (left out by the variant)
                if variant != "TREE_FLAT_NO_RESET":
                    sub2 = 0
                phase2 = 3
            g2 = list(gs)
            g2[i] = (index2, phase2)
            state = (top2, sub2, tuple(g2))
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return False


def main():
    # (algorithm, variant): does some order complete with 1, with 2 groups?
    # One group meets only itself: every known-bad build deadlocks there.
    claims = {("counter", "SHIPPED"): (True, True),
              ("tree", "SHIPPED"): (True, True),
              ("tree", "TREE_FLAT_NO_RESET"): (False, False),
              ("counter", "EPISODES_NOT_KEPT"): (False, False),
              ("counter", "SELF_OWN_EPISODES"): (False, False),
              ("tree", "EPISODES_NOT_KEPT"): (False, True),
              ("tree", "SELF_OWN_EPISODES"): (False, True)}
    ok = True
    for (algo, variant), wanted in claims.items():
        for groups, want in zip((1, 2), wanted):
            for barriers in (4, 9, 40):
                got = some_order_completes(algo, variant, groups, barriers)
                ok &= got == want
                print(f"{algo:7} {variant:18} {groups} group(s), "
                      f"{barriers:2} barriers: "
                      f"{'some order completes' if got else 'always deadlocks'}"
                      f"  [{'ok' if got == want else 'CLAIM FAILS'}]")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
