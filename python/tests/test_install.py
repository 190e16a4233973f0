"""test_install.py - `pip install ./python` records the libxwg it finds,
so that the installed package imports in a new shell that sets neither
PKG_CONFIG_PATH nor XWG_LIBRARY. If this failed, the examples would
raise ImportError for every user who did not export PKG_CONFIG_PATH in
the shell that runs them, as they did before the record existed.

Each test installs a copy of python/ into one venv (Debian's python3 with
--system-site-packages, `pip install --no-deps --no-build-isolation`: no
network), with the build tree installed into temporary prefixes, and
imports it in a child whose environment names no library. It needs the
build tree: ctest's python_install sets XWG_BUILD_DIR (and XWG_CMAKE,
XWG_BUILD_LIBRARY); without XWG_BUILD_DIR the tests are skipped.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

BUILD = os.environ.get("XWG_BUILD_DIR")
pytestmark = pytest.mark.skipif(
    not BUILD, reason="XWG_BUILD_DIR (a build tree of xwg) is not set")

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Whatever could name a library to the child, or to pip's build.
UNSET = ("XWG_LIBRARY", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR",
         "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONHOME")

# Run by the venv's python, from a folder that holds no xwg: what the
# install recorded, what loaded, and the file the dynamic linker mapped
# (a fall-through to some other libxwg would show there).
PROBE = r"""
import importlib.util, json, os, runpy
spec = importlib.util.find_spec("xwg")
config = os.path.join(os.path.dirname(spec.origin), "_config.py")
out = {"package": spec.origin,
       "recorded": runpy.run_path(config)["LIBRARY"]
                   if os.path.exists(config) else "no _config.py"}
try:
    import xwg
    from xwg import _library
    out["loaded"] = _library.path
    out["version"] = xwg.version()
    with open("/proc/self/maps") as maps:
        out["mapped"] = sorted({line.split()[-1] for line in maps
                                if "libxwg.so" in line})
except ImportError as e:
    out["error"] = str(e)
print(json.dumps(out))
"""


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               PYTHONDONTWRITEBYTECODE="1")
    env.update(extra)
    return env


def _run(args, env, cwd):
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, "%s failed:\n%s\n%s" % (
        " ".join(args), done.stdout, done.stderr)
    return done.stdout


def _install_prefix(prefix, tmp):
    """Installs the build tree into prefix; returns the folder of its
    xwg.pc and its libdir, resolved."""
    _run([os.environ.get("XWG_CMAKE", "cmake"), "--install", BUILD,
          "--prefix", prefix], _clean_env(), tmp)
    pcs = glob.glob(os.path.join(prefix, "**", "pkgconfig", "xwg.pc"),
                    recursive=True)
    assert len(pcs) == 1, "xwg.pc in the prefix: %s" % pcs
    pkgconfig = os.path.dirname(pcs[0])
    return pkgconfig, os.path.realpath(os.path.dirname(pkgconfig))


class Setup:
    """Two prefixes holding the installed build tree (the second for
    pkg-config at import time), a venv, and a copy of python/ (pip builds
    in the folder it is given: the copy keeps build/ and *.egg-info out
    of the checkout)."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.pkgconfig, self.libdir = _install_prefix(
            os.path.join(tmp, "prefix"), tmp)
        self.other_pkgconfig, self.other_libdir = _install_prefix(
            os.path.join(tmp, "other"), tmp)
        self.src = os.path.join(tmp, "src")
        shutil.copytree(SOURCE, self.src, ignore=shutil.ignore_patterns(
            "__pycache__", "build", "*.egg-info", "_config.py", "tests",
            "examples"))
        self.venv = os.path.join(tmp, "venv")
        _run([sys.executable, "-m", "venv", "--system-site-packages",
              self.venv], _clean_env(), tmp)
        self.python = os.path.join(self.venv, "bin", "python")

    def install(self, **env):
        _run([self.python, "-m", "pip", "install", "--no-deps",
              "--no-build-isolation", "--no-cache-dir", "--force-reinstall",
              "--quiet", self.src], _clean_env(**env), self.tmp)

    def probe(self, **env):
        out = json.loads(_run([self.python, "-c", PROBE], _clean_env(**env),
                              self.tmp))
        assert out["package"].startswith(self.venv + os.sep), out
        return out


@pytest.fixture(scope="module")
def setup():
    with tempfile.TemporaryDirectory(prefix="xwg-pyinstall.") as tmp:
        yield Setup(tmp)


def build_library():
    """The build tree's own libxwg (ctest names it), not the prefix's."""
    path = os.environ.get("XWG_BUILD_LIBRARY") or \
        os.path.join(BUILD, "libxwg.so.0")
    assert os.path.exists(path), path
    return path


def test_pip_install_records_the_library_pkg_config_found(setup):
    setup.install(PKG_CONFIG_PATH=setup.pkgconfig)
    out = setup.probe()
    want = os.path.join(setup.libdir, "libxwg.so.0")
    assert out["recorded"] == want, out
    assert out["loaded"] == want, out
    assert out["version"], out
    # The library the process really holds is the prefix's.
    assert [os.path.realpath(m) for m in out["mapped"]] == \
        [os.path.realpath(want)], out


def test_xwg_library_at_import_overrides_the_record(setup):
    setup.install(PKG_CONFIG_PATH=setup.pkgconfig)
    out = setup.probe(XWG_LIBRARY=build_library())
    assert out["recorded"].startswith(setup.libdir), out
    assert out["loaded"] == build_library(), out
    assert [os.path.realpath(m) for m in out["mapped"]] == \
        [os.path.realpath(build_library())], out


def test_the_record_comes_before_pkg_config_at_import(setup):
    setup.install(PKG_CONFIG_PATH=setup.pkgconfig)
    out = setup.probe(PKG_CONFIG_PATH=setup.other_pkgconfig)
    assert out["loaded"] == os.path.join(setup.libdir, "libxwg.so.0"), out


def test_xwg_library_at_install_comes_before_pkg_config(setup):
    setup.install(XWG_LIBRARY=build_library(),
                  PKG_CONFIG_PATH=setup.pkgconfig)
    out = setup.probe()
    assert out["recorded"] == build_library(), out
    assert out["loaded"] == build_library(), out


def test_install_without_a_library_succeeds_and_says_what_to_set(setup):
    setup.install()
    out = setup.probe()
    assert out["recorded"] is None, out
    if "error" not in out:
        pytest.skip("a libxwg on the system's library path loaded: %s" %
                    out.get("mapped"))
    message = out["error"]
    assert "none was recorded at install time" in message, message
    assert "XWG_LIBRARY" in message and "PKG_CONFIG_PATH" in message, message
