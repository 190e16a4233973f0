"""xwg for PyOpenCL: a portable, deadlock-free global barrier across
OpenCL work-groups, for persistent kernels.

    import numpy as np, pyopencl as cl, xwg

    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    with xwg.Context(ctx, device) as xc:      # probe and self-test
        program = xc.build(SOURCE)            # a pyopencl.Program
        kernel = cl.Kernel(program, "jacobi")
        kernel.set_arg(0, buf)                # every argument but XWG_STATE
        info = xc.launch(queue, kernel, 256)  # discovers, runs, waits
        print(info.groups)

The kernel language is the C library's (docs/guide.md, "Writing kernels"):
XWG_STATE among the parameters, XWG_DISCOVER() first, then xwg_barrier(),
the split barrier and the collectives. Every failure raises XwgError,
which carries the status's name and the library's message.
"""
import collections
import ctypes

import pyopencl as cl

from . import _library as _c

__all__ = ["Context", "LaunchInfo", "Occupancy", "XwgError", "find_device",
           "version"]

BARRIERS = {"default": 0, "xf": 1, "counter": 2, "tree": 3}
ATOMICS = {"auto": 0, "cl20": 1, "cl12": 2, "ptx": 3}
SELF_TESTS = {"require": 0, "report": 1, "skip": 2}

LaunchInfo = collections.namedtuple(
    "LaunchInfo", "groups groups_launched timed_out barrier")
LaunchInfo.__doc__ = """What a launch did: the groups that took part, the
groups the NDRange had, whether a barrier wait hit the watchdog, and the
barrier algorithm it ran (a name of BARRIERS)."""

Occupancy = collections.namedtuple(
    "Occupancy", "groups local_size groups_launched time_ms from_cache")
Occupancy.__doc__ = """What discovery found: the co-resident groups of
local_size work-items."""


def version():
    """The C library's version, as "MAJOR.MINOR.PATCH"."""
    return _c.lib.xwg_version_string().decode()


class XwgError(Exception):
    """A call into xwg failed. status: the C status (an xwg_status, or an
    OpenCL error code); name: its name ("XWG_ERROR_BUILD_FAILED",
    "CL_INVALID_VALUE", ...); message: what the library said of it; log:
    the build log, for a failed build; info: the LaunchInfo, for a launch
    that ran and failed (a timeout, a misuse)."""

    def __init__(self, call, status, message, log=None, info=None):
        self.call = call
        self.status = status
        self.name = _c.lib.xwg_status_name(status).decode()
        self.message = message
        self.log = log
        self.info = info
        text = "%s: %s" % (call, self.name)
        if message:
            text += ": " + message
        super().__init__(text)


def _check(call, status, log=None, info=None):
    if status != 0:
        last = _c.lib.xwg_last_error()
        message = last.decode(errors="replace") if last else ""
        if not message:
            message = _c.lib.xwg_status_string(status).decode()
        raise XwgError(call, status, message, log, info)


def _handle(obj):
    """A PyOpenCL object's OpenCL handle, as a pointer-sized argument."""
    return ctypes.c_void_p(obj.int_ptr)


def _name_of(table, value, what):
    if value is None:
        return 0
    try:
        return table[value]
    except KeyError:
        raise ValueError("xwg: unknown %s %r (one of %s)" %
                         (what, value, ", ".join(sorted(table)))) from None


def _text(s):
    return None if s is None else s.encode()


def find_device(name_part=None):
    """The first device of the first platform whose name or vendor
    contains NAME_PART, ignoring case ("pocl" finds PoCL by its vendor),
    or of the first platform if NAME_PART is None or empty; platforms
    without devices are passed over, and GPUs are preferred: the C
    library's xwg_find_device(), which it calls, so that both choose
    alike. Returns a pyopencl.Device (its .platform is the platform).
    Raises XwgError XWG_ERROR_NO_DEVICE where none matches; its message
    lists every platform's name and vendor."""
    if name_part is not None and not isinstance(name_part, str):
        raise TypeError("xwg.find_device: name_part must be a str or None")
    platform, device = ctypes.c_void_p(), ctypes.c_void_p()
    _check("xwg_find_device",
           _c.lib.xwg_find_device(_text(name_part), ctypes.byref(platform),
                                  ctypes.byref(device)))
    return cl.Device.from_int_ptr(device.value)


class Context:
    """An xwg context for one device of a pyopencl.Context: it probes the
    device, chooses the atomics path and runs the barrier self-test
    (refusing, with XwgError XWG_ERROR_UNSUPPORTED_DEVICE, a device whose
    barrier reads stale data). It holds a reference to the OpenCL
    context until close() (or the end of a with block).

    atomics: "auto", "cl20", "cl12" or "ptx"; barrier: "default", "xf",
    "counter" or "tree" (the context's fixed algorithm); self_test:
    "require", "report" or "skip"; discovery_window_us: 0 for the
    device's default."""

    def __init__(self, context, device=None, atomics=None, barrier=None,
                 self_test=None, discovery_window_us=0):
        if not isinstance(context, cl.Context):
            raise TypeError("xwg.Context: context must be a pyopencl.Context")
        if device is None:
            device = context.devices[0]
        opts = _c.Options()
        _c.lib.xwg_options_init(ctypes.byref(opts))
        opts.atomics = _name_of(ATOMICS, atomics, "atomics path")
        opts.barrier = _name_of(BARRIERS, barrier, "barrier")
        opts.self_test = _name_of(SELF_TESTS, self_test, "self-test mode")
        opts.discovery_window_us = discovery_window_us
        self._ptr = ctypes.c_void_p()
        _check("xwg_context_create",
               _c.lib.xwg_context_create(_handle(context), _handle(device),
                                         ctypes.byref(opts),
                                         ctypes.byref(self._ptr)))
        self.context = context
        self.device = device

    def _live(self):
        if not self._ptr:
            raise ValueError("xwg.Context: used after close()")
        return self._ptr

    def close(self):
        """Releases the xwg context (its state buffers, its queue, its
        reference to the OpenCL context). Safe to call twice."""
        if getattr(self, "_ptr", None):
            _c.lib.xwg_context_release(self._ptr)
            self._ptr = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def info(self):
        """What the probe found and chose, as a dict (xwg_device_info)."""
        raw = _c.DeviceInfo()
        raw.size = ctypes.sizeof(raw)
        _check("xwg_context_query",
               _c.lib.xwg_context_query(self._live(), ctypes.byref(raw)))
        out = {}
        for name, kind in raw._fields_[1:]:
            value = getattr(raw, name)
            out[name] = value.decode(errors="replace") \
                if isinstance(value, bytes) else value
        out["atomics_path"] = _c.lib.xwg_atomics_path_name(
            raw.atomics_path).decode()
        out["barrier"] = _c.lib.xwg_barrier_algo_name(raw.barrier).decode()
        # Every path the self-test ran on, in order, the chosen one last.
        out["self_test_runs"] = [{
            "path": _c.lib.xwg_atomics_path_name(r.path).decode(),
            "result": _c.lib.xwg_self_test_result_name(r.result).decode(),
            "status": _c.lib.xwg_status_name(r.status).decode(),
            "wrong_reads": r.errors, "groups": r.groups}
            for r in raw.self_test_run[:raw.self_test_runs]]
        del out["self_test_run"]
        return out

    def build(self, source, options=None):
        """Builds source with xwg's kernel library in front, as
        xwg_program_build() does; returns a pyopencl.Program. A compile
        error raises XwgError XWG_ERROR_BUILD_FAILED, with the build log
        in .log."""
        prog = ctypes.c_void_p()
        log = ctypes.c_void_p()
        status = _c.lib.xwg_program_build(self._live(), _text(source),
                                          _text(options), ctypes.byref(prog),
                                          ctypes.byref(log))
        text = None
        if log.value:
            text = ctypes.string_at(log.value).decode(errors="replace")
            _c.libc.free(log)
        _check("xwg_program_build", status, log=text)
        # The build's one reference passes to the pyopencl.Program.
        return cl.Program.from_int_ptr(prog.value, retain=False)

    def _string(self, fn, call, options):
        needed = ctypes.c_size_t(0)
        _check(call, fn(self._live(), _text(options), None, 0,
                        ctypes.byref(needed)))
        buf = ctypes.create_string_buffer(needed.value)
        _check(call, fn(self._live(), _text(options), buf, needed.value,
                        ctypes.byref(needed)))
        return buf.value.decode()

    def program_options(self, options=None):
        """The build options a program built elsewhere (pyopencl.Program
        on source_prefix() + your source) needs, your options added.
        Build it with cache_dir=False: pyopencl's cache loads a binary on
        later runs, and Intel's runtime keeps no argument info in one."""
        return self._string(_c.lib.xwg_program_options,
                            "xwg_program_options", options)

    def source_prefix(self, options=None):
        """The text to put in front of your source for such a build."""
        return self._string(_c.lib.xwg_program_source_prefix,
                            "xwg_program_source_prefix", options)

    def discover(self, kernel, local_size):
        """The co-resident groups of local_size work-items for kernel
        (cached per kernel and size), as an Occupancy."""
        occ = _c.Occupancy()
        occ.size = ctypes.sizeof(occ)
        _check("xwg_discover",
               _c.lib.xwg_discover(self._live(), _handle(kernel),
                                   local_size, ctypes.byref(occ)))
        return Occupancy(occ.groups, occ.local_size, occ.groups_launched,
                         occ.time_ms, bool(occ.from_cache))

    def launch(self, queue, kernel, local_size, groups=0,
               skip_discovery=False, watchdog_ms=0, barrier=None):
        """Launches kernel (a pyopencl.Kernel whose other arguments are
        set) on queue with no more groups than are co-resident, waits for
        it, and returns a LaunchInfo. groups, skip_discovery, watchdog_ms
        and barrier are xwg_launch_options'. A barrier that timed out or
        was misused raises XwgError with the LaunchInfo in .info."""
        opts = _c.LaunchOptions(ctypes.sizeof(_c.LaunchOptions), groups,
                                1 if skip_discovery else 0, watchdog_ms,
                                _name_of(BARRIERS, barrier, "barrier"))
        raw = _c.LaunchInfo()
        raw.size = ctypes.sizeof(raw)
        status = _c.lib.xwg_launch_ex(self._live(), _handle(queue),
                                      _handle(kernel), local_size,
                                      ctypes.byref(opts), ctypes.byref(raw))
        info = LaunchInfo(raw.groups, raw.groups_launched,
                          bool(raw.timed_out),
                          _c.lib.xwg_barrier_algo_name(raw.barrier).decode())
        _check("xwg_launch_ex", status,
               info=info if raw.groups_launched else None)
        return info
