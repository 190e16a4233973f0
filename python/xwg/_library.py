"""_library.py - finds libxwg (in the order of python/README.md:
XWG_LIBRARY, the path recorded at install time in xwg/_config.py,
pkg-config, the system's library path) and declares the C functions
this package calls, with their argument and result types, and the
structs they take.

Every OpenCL handle crosses as ctypes.c_void_p, built from PyOpenCL's
int_ptr: ctypes' default conversion of a Python int is a C int, which
cuts a 64-bit handle (drivers may place them above 2**32).
The structs mirror include/xwg_barrier.h. Each begins with its size,
which the library checks and copies by, so a struct that a newer
library has grown still works here.
"""
import ctypes
import ctypes.util
import os
import subprocess

c_void_p = ctypes.c_void_p
c_int = ctypes.c_int
c_uint = ctypes.c_uint
c_size_t = ctypes.c_size_t
c_char_p = ctypes.c_char_p


class Options(ctypes.Structure):
    """xwg_options."""
    _fields_ = [("size", c_size_t), ("atomics", c_int),
                ("discovery", c_int), ("discovery_window_us", c_uint),
                ("barrier", c_int), ("self_test", c_int)]


class LaunchOptions(ctypes.Structure):
    """xwg_launch_options."""
    _fields_ = [("size", c_size_t), ("groups", c_uint),
                ("skip_discovery", c_int), ("watchdog_ms", c_uint),
                ("barrier", c_int)]


class LaunchInfo(ctypes.Structure):
    """xwg_launch_info."""
    _fields_ = [("size", c_size_t), ("groups", c_uint),
                ("groups_launched", c_uint), ("timed_out", c_int),
                ("barrier", c_int)]


class Occupancy(ctypes.Structure):
    """xwg_occupancy."""
    _fields_ = [("size", c_size_t), ("groups", c_uint),
                ("local_size", c_size_t), ("local_mem", ctypes.c_uint64),
                ("groups_launched", c_uint), ("time_ms", ctypes.c_double),
                ("kernel_ms", ctypes.c_double), ("from_cache", c_int)]


class SelfTestRun(ctypes.Structure):
    """xwg_self_test_run."""
    _fields_ = [("path", c_int), ("result", c_int), ("status", c_int),
                ("errors", c_uint), ("groups", c_uint)]


class DeviceInfo(ctypes.Structure):
    """xwg_device_info."""
    _fields_ = [("size", c_size_t), ("platform_name", ctypes.c_char * 128),
                ("device_name", ctypes.c_char * 128),
                ("driver_version", ctypes.c_char * 64),
                ("opencl_c_version", ctypes.c_char * 64),
                ("opencl_c_max", c_uint), ("device_type", ctypes.c_uint64),
                ("compute_units", c_uint), ("max_work_group_size", c_size_t),
                ("local_mem_size", ctypes.c_uint64),
                ("atomic_memory_capabilities", ctypes.c_uint64),
                ("atomic_fence_capabilities", ctypes.c_uint64),
                ("has_c11_atomics_feature", c_int),
                ("atomics_path", c_int), ("atomics_reason", ctypes.c_char * 256),
                ("discovery", c_int), ("discovery_window_us", c_uint),
                ("poll_ns", ctypes.c_double),
                ("discovery_window_polls", c_uint), ("barrier", c_int),
                ("self_test", c_int), ("self_test_errors", c_uint),
                ("self_test_groups", c_uint), ("self_test_episodes", c_uint),
                ("self_test_detail", ctypes.c_char * 256),
                ("self_test_runs", c_uint),
                ("self_test_run", SelfTestRun * 3)]


def _installed():
    """What setup.py recorded at install time (xwg/_config.py): the
    library's path or None, and how it was found or why not. A source
    tree (PYTHONPATH=python, an editable install) has no record."""
    try:
        from . import _config
    except ImportError:
        return None, None
    return _config.LIBRARY, _config.FOUND


def _candidates():
    """Where libxwg may be, in the order of python/README.md."""
    env = os.environ.get("XWG_LIBRARY")
    if env:
        yield env
        return
    recorded, _ = _installed()
    if recorded:
        yield recorded
    try:
        libdir = subprocess.run(
            ["pkg-config", "--variable=libdir", "xwg"], capture_output=True,
            text=True, check=True).stdout.strip()
        if libdir:
            yield os.path.join(libdir, "libxwg.so.0")
            yield os.path.join(libdir, "libxwg.so")
    except (OSError, subprocess.CalledProcessError):
        pass
    found = ctypes.util.find_library("xwg")
    if found:
        yield found
    yield "libxwg.so.0"


def _load():
    tried = []
    for candidate in _candidates():
        try:
            return ctypes.CDLL(candidate), candidate
        except OSError as e:
            tried.append("%s (%s)" % (candidate, e))
    if os.environ.get("XWG_LIBRARY"):
        where = "XWG_LIBRARY is set, so it is the only place tried"
    else:
        recorded, found = _installed()
        if found is None:
            where = "no install-time record: a source tree or an " \
                    "editable install"
        elif recorded:
            where = "the library recorded at install time, %s, did not " \
                    "load" % recorded
        else:
            where = "none was recorded at install time (%s)" % found
        where += "; then pkg-config and the system's library path were " \
                 "searched"
    raise ImportError(
        "xwg: cannot find the C library libxwg (%s). Install it (cmake "
        "--install build --prefix P), then set XWG_LIBRARY=P/lib/libxwg.so "
        "or PKG_CONFIG_PATH=P/lib/pkgconfig, either for this run or for "
        "`pip install ./python`, which then records the library. "
        "Tried: %s" %
        (where, "; ".join(tried)))


# path: the candidate that loaded, as given to the dynamic linker.
lib, path = _load()
libc = ctypes.CDLL(None)
libc.free.argtypes = [c_void_p]
libc.free.restype = None


def _declare(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


_declare("xwg_version_string", c_char_p)
_declare("xwg_status_name", c_char_p, c_int)
_declare("xwg_status_string", c_char_p, c_int)
_declare("xwg_last_error", c_char_p)
_declare("xwg_atomics_path_name", c_char_p, c_int)
_declare("xwg_barrier_algo_name", c_char_p, c_int)
_declare("xwg_self_test_result_name", c_char_p, c_int)
_declare("xwg_options_init", None, ctypes.POINTER(Options))
_declare("xwg_context_create", c_int, c_void_p, c_void_p,
         ctypes.POINTER(Options), ctypes.POINTER(c_void_p))
_declare("xwg_context_release", None, c_void_p)
_declare("xwg_context_query", c_int, c_void_p, ctypes.POINTER(DeviceInfo))
_declare("xwg_program_build", c_int, c_void_p, c_char_p, c_char_p,
         ctypes.POINTER(c_void_p), ctypes.POINTER(c_void_p))
_declare("xwg_program_source_prefix", c_int, c_void_p, c_char_p, c_char_p,
         c_size_t, ctypes.POINTER(c_size_t))
_declare("xwg_program_options", c_int, c_void_p, c_char_p, c_char_p,
         c_size_t, ctypes.POINTER(c_size_t))
_declare("xwg_discover", c_int, c_void_p, c_void_p, c_size_t,
         ctypes.POINTER(Occupancy))
_declare("xwg_find_device", c_int, c_char_p, ctypes.POINTER(c_void_p),
         ctypes.POINTER(c_void_p))
_declare("xwg_launch_ex", c_int, c_void_p, c_void_p, c_void_p, c_size_t,
         ctypes.POINTER(LaunchOptions), ctypes.POINTER(LaunchInfo))
