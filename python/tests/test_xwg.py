"""test_xwg.py - the Python package on PoCL: values after barriers, the
errors each mistake raises, and the OpenCL references it takes and gives
back. ctest runs it with XWG_LIBRARY set to the build's libxwg and
OCL_ICD_VENDORS naming PoCL alone (tests/CMakeLists.txt)."""
import ctypes
import time

import numpy as np
import pyopencl as cl
import pytest

import xwg
from xwg import _library

# Every group writes its id, passes a barrier, and checks what the next
# group wrote, n times over with new values: a barrier that let a group
# through early would read the last round's value.
NEIGHBOURS = """
__kernel void neighbours(__global uint *slot, __global uint *errors,
                         uint rounds, XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), n = xwg_num_groups();
    for (uint r = 1; r <= rounds && !xwg_failed(); r++) {
        if (get_local_id(0) == 0)
            slot[g] = r * 1000u + g;
        xwg_barrier();
        uint next = (g + 1u) % n;
        if (get_local_id(0) == 0 && slot[next] != r * 1000u + next)
            atomic_inc(errors);
        xwg_barrier();
    }
}
"""

# Only group 0 waits at the barrier: the others never arrive.
MISUSED = """
__kernel void misused(XWG_STATE)
{
    XWG_DISCOVER();
    if (xwg_group_id() == 0)
        xwg_barrier();
}
"""


@pytest.fixture
def cl_env():
    device = cl.get_platforms()[0].get_devices()[0]
    context = cl.Context([device])
    queue = cl.CommandQueue(context)
    yield context, device, queue
    queue.finish()


def refcount(obj, info):
    return obj.get_info(info.REFERENCE_COUNT)


def settled(obj, info, want):
    """The reference count, once it has fallen to want or below (PoCL
    drops a finished command's references from a worker thread), or what
    it is after 5 s. Callers compare: a count below want is a bug too."""
    deadline = time.monotonic() + 5
    while refcount(obj, info) > want and time.monotonic() < deadline:
        time.sleep(0.01)
    return refcount(obj, info)


def test_barrier_orders_every_round(cl_env):
    context, device, queue = cl_env
    with xwg.Context(context, device) as xc:
        kernel = cl.Kernel(xc.build(NEIGHBOURS), "neighbours")
        slot = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * 4096)
        errors = np.zeros(1, np.uint32)
        errors_buf = cl.Buffer(context, cl.mem_flags.COPY_HOST_PTR,
                               hostbuf=errors)
        kernel.set_arg(0, slot)
        kernel.set_arg(1, errors_buf)
        kernel.set_arg(2, np.uint32(200))
        # As discovery admits them (on a busy machine, perhaps one group),
        # then two groups with discovery skipped, which PoCL's two threads
        # both run however busy the machine (the watchdog would end a
        # launch that could not): one group proves nothing about a barrier.
        for groups in (0, 2):
            info = xc.launch(queue, kernel, 16, groups=groups,
                             skip_discovery=groups > 0, watchdog_ms=20000)
            cl.enqueue_copy(queue, errors, errors_buf)
            assert info.groups <= info.groups_launched
            assert not info.timed_out
            assert errors[0] == 0
        assert info.groups == 2


def test_build_error_raises_with_its_log(cl_env):
    context, device, _ = cl_env
    with xwg.Context(context, device) as xc:
        with pytest.raises(xwg.XwgError) as e:
            xc.build("__kernel void k(XWG_STATE) { XWG_DISCOVER(); nope(); }")
        assert e.value.name == "XWG_ERROR_BUILD_FAILED"
        assert e.value.status == -20002
        assert "nope" in e.value.log
        assert "XWG_ERROR_BUILD_FAILED" in str(e.value)


def test_info_lists_each_path_the_self_test_ran(cl_env):
    context, device, _ = cl_env
    with xwg.Context(context, device) as xc:
        info = xc.info()
    runs = info["self_test_runs"]
    assert runs, "the self-test ran on no path"
    assert runs[-1]["path"] == info["atomics_path"]
    assert runs[-1]["wrong_reads"] == info["self_test_errors"]
    assert runs[-1]["status"] == "XWG_SUCCESS"


def test_kernel_without_state_raises_no_state_arg(cl_env):
    context, device, queue = cl_env
    with xwg.Context(context, device) as xc:
        kernel = cl.Kernel(xc.build("__kernel void plain(__global int *a)"
                                    " { a[0] = 1; }"), "plain")
        kernel.set_arg(0, cl.Buffer(context, cl.mem_flags.READ_WRITE, 4))
        with pytest.raises(xwg.XwgError) as e:
            xc.launch(queue, kernel, 16)
        assert e.value.name == "XWG_ERROR_NO_STATE_ARG"
        assert "XWG_STATE" in e.value.message


def test_bad_arguments_raise(cl_env):
    context, device, queue = cl_env
    with xwg.Context(context, device) as xc:
        kernel = cl.Kernel(xc.build(MISUSED), "misused")
        with pytest.raises(xwg.XwgError) as e:
            xc.launch(queue, kernel, 0)
        assert e.value.name == "XWG_ERROR_INVALID_ARGUMENT"
        assert "local_size" in e.value.message
        # A later error carries its own reason, not this one's
        # (xwg_last_error() is emptied by every call).
        with pytest.raises(xwg.XwgError) as later:
            xc.build("__kernel void k(XWG_STATE) { XWG_DISCOVER(); nope(); }")
        assert "local_size" not in later.value.message
        with pytest.raises(ValueError, match="unknown barrier 'fast'"):
            xc.launch(queue, kernel, 16, barrier="fast")
    with pytest.raises(TypeError):
        xwg.Context("not a context")
    with pytest.raises(ValueError, match="unknown atomics path"):
        xwg.Context(context, device, atomics="cl99")


def test_misused_barrier_raises_timeout_with_the_launch(cl_env):
    context, device, queue = cl_env
    with xwg.Context(context, device) as xc:
        kernel = cl.Kernel(xc.build(MISUSED), "misused")
        with pytest.raises(xwg.XwgError) as e:
            xc.launch(queue, kernel, 16, groups=2, skip_discovery=True,
                      watchdog_ms=200)
        assert e.value.name == "XWG_ERROR_BARRIER_TIMEOUT"
        assert e.value.info is not None and e.value.info.timed_out
        # The context stays usable after a failed launch.
        assert xc.launch(queue, kernel, 16, groups=1,
                         skip_discovery=True).groups == 1


def test_a_closed_context_refuses_calls(cl_env):
    context, device, _ = cl_env
    xc = xwg.Context(context, device)
    xc.close()
    xc.close()  # twice is harmless
    with pytest.raises(ValueError, match="after close"):
        xc.build(MISUSED)


def test_references_are_given_back(cl_env):
    context, device, queue = cl_env
    ctx_info = cl.context_info
    before = refcount(context, ctx_info)
    xc = xwg.Context(context, device)
    assert refcount(context, ctx_info) > before  # the context is held
    program = xc.build(MISUSED)
    # The build's reference is the pyopencl.Program's own, not one more.
    assert refcount(program, cl.program_info) == 1
    kernel = cl.Kernel(program, "misused")
    kernel_before = refcount(kernel, cl.kernel_info)
    xc.launch(queue, kernel, 16, groups=1, skip_discovery=True)
    queue.finish()
    xc.close()
    assert settled(kernel, cl.kernel_info, kernel_before) == kernel_before
    del kernel, program  # each holds the context too
    assert settled(context, ctx_info, before) == before


def test_launches_leave_the_queue_count_as_it_was(cl_env):
    # Each launch's events hold the user's queue until xwg releases them:
    # a launch that kept one would keep the queue (and its context)
    # alive after the caller let go, one more reference per launch.
    context, device, queue = cl_env
    q_info = cl.command_queue_info
    before = refcount(queue, q_info)
    with xwg.Context(context, device) as xc:
        kernel = cl.Kernel(xc.build(MISUSED), "misused")
        xc.launch(queue, kernel, 16, groups=1)  # discovery, then the kernel
        queue.finish()
        # PoCL's buffers keep their last command's event, and so its
        # queue: xwg's pooled state buffer may hold the queue once until
        # close(). Launches beyond the first add nothing.
        first = settled(queue, q_info, before + 1)
        assert first <= before + 1
        for _ in range(4):
            xc.launch(queue, kernel, 16, groups=1, skip_discovery=True)
        queue.finish()
        assert settled(queue, q_info, first) <= first
    assert settled(queue, q_info, before) == before


def test_a_failed_build_gives_back_its_references(cl_env):
    # The program a failed build created holds the context: kept, it
    # would keep the OpenCL context alive after every compile error.
    context, device, _ = cl_env
    ctx_info = cl.context_info
    with xwg.Context(context, device) as xc:
        before = refcount(context, ctx_info)
        for _ in range(2):
            with pytest.raises(xwg.XwgError) as e:
                xc.build("__kernel void k(XWG_STATE) { nope(); }")
            assert e.value.name == "XWG_ERROR_BUILD_FAILED"
        assert settled(context, ctx_info, before) == before
        # Bad options fail the build without a compile: the same holds.
        with pytest.raises(xwg.XwgError):
            xc.build(MISUSED, options="-cl-no-such-option")
        assert settled(context, ctx_info, before) == before


def test_a_failed_launch_gives_back_its_references(cl_env):
    # A launch refused before it runs, and one that ran and timed out:
    # neither may keep the queue or the kernel (beyond what the xwg
    # context keeps of the kernel, until close()), or the caller's
    # objects outlive it, one reference more after every failure.
    context, device, queue = cl_env
    q_info, k_info = cl.command_queue_info, cl.kernel_info
    queue_before = refcount(queue, q_info)
    xc = xwg.Context(context, device)
    plain = cl.Kernel(xc.build("__kernel void plain(__global int *a)"
                               " { a[0] = 1; }"), "plain")
    plain.set_arg(0, cl.Buffer(context, cl.mem_flags.READ_WRITE, 4))
    plain_before = refcount(plain, k_info)
    with pytest.raises(xwg.XwgError, match="XWG_ERROR_NO_STATE_ARG"):
        xc.launch(queue, plain, 16)
    # Refused before anything was enqueued: nothing may have changed.
    assert settled(plain, k_info, plain_before) == plain_before
    assert settled(queue, q_info, queue_before) == queue_before

    misused = cl.Kernel(xc.build(MISUSED), "misused")
    misused_before = refcount(misused, k_info)
    for _ in range(3):
        with pytest.raises(xwg.XwgError) as e:
            xc.launch(queue, misused, 16, groups=2, skip_discovery=True,
                      watchdog_ms=200)
        assert e.value.name == "XWG_ERROR_BARRIER_TIMEOUT"
        queue.finish()
        # At most PoCL's one reference from the state buffer's last
        # command (as above), however many launches failed.
        assert settled(queue, q_info, queue_before + 1) <= queue_before + 1
    xc.close()
    assert settled(queue, q_info, queue_before) == queue_before
    assert settled(misused, k_info, misused_before) == misused_before
    assert settled(plain, k_info, plain_before) == plain_before


def test_handles_keep_all_64_bits():
    # ctypes turns an undeclared int argument into a C int, which cuts a
    # handle above 2**31; every handle goes through c_void_p instead.
    class Fake:
        int_ptr = 0x7F5A_0000_1234_5678
    assert xwg._handle(Fake()).value == Fake.int_ptr
    for name in ("xwg_context_create", "xwg_program_build", "xwg_discover",
                 "xwg_launch_ex", "xwg_context_release"):
        argtypes = getattr(_library.lib, name).argtypes
        assert argtypes and argtypes[0] is ctypes.c_void_p, name
    launch = _library.lib.xwg_launch_ex.argtypes
    assert launch[:3] == [ctypes.c_void_p] * 3


def test_programs_built_elsewhere_get_the_options(cl_env):
    context, device, queue = cl_env
    with xwg.Context(context, device) as xc:
        options = xc.program_options("-DROUNDS=3")
        assert "-cl-kernel-arg-info" in options and "-DROUNDS=3" in options
        source = xc.source_prefix() + MISUSED
        # From source every time: pyopencl's cache would load a binary on
        # the next run, and Intel's runtime keeps no argument info in one.
        program = cl.Program(context, source).build(options=options,
                                                    cache_dir=False)
        kernel = cl.Kernel(program, "misused")
        assert xc.launch(queue, kernel, 16, groups=1,
                         skip_discovery=True).groups == 1


def test_find_device_matches_name_or_vendor_and_lists_platforms():
    """xwg.find_device() chooses as xwg_find_device() does: by a part of
    the platform's name or of its vendor, ignoring case (PoCL's vendor,
    "The pocl project", holds the "pocl" users type), the first platform
    when given nothing; and one that matches nothing raises
    XWG_ERROR_NO_DEVICE listing the platforms, so that the caller can
    see what to ask for."""
    first = cl.get_platforms()[0]
    device = xwg.find_device()
    assert device.platform.int_ptr == first.int_ptr
    for part in (first.name[:6].lower(), first.vendor.upper()):
        assert xwg.find_device(part).platform.int_ptr == first.int_ptr
    # A usable device: a context can be made on it.
    with xwg.Context(cl.Context([device]), device, self_test="skip"):
        pass
    with pytest.raises(xwg.XwgError) as e:
        xwg.find_device("no such platform")
    assert e.value.name == "XWG_ERROR_NO_DEVICE"
    assert '"%s", vendor "%s"' % (first.name, first.vendor) in e.value.message
    with pytest.raises(TypeError):
        xwg.find_device(3)
