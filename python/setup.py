"""setup.py - the one thing pyproject.toml cannot say: at build time
(`pip install ./python`), find the installed libxwg and record its
absolute path in xwg/_config.py, so that a later import needs neither
PKG_CONFIG_PATH nor XWG_LIBRARY. The search, in this order:

1. XWG_LIBRARY, a path to libxwg.so: when it is set, it alone (a path
   that is not a file records nothing, rather than hide the mistake
   behind pkg-config's library);
2. `pkg-config --variable=libdir xwg` (PKG_CONFIG_PATH as it is now).

A library that is not found fails nothing: _config.py then records None
and the import searches as it would without it (xwg/_library.py). The
file is written into the build folder only, never into the source tree,
which stays importable as it is (PYTHONPATH=python, as ctest runs it).
"""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

CONFIG = '''"""_config.py - written by setup.py when this package was built:
LIBRARY is the libxwg that the build found, or None, and FOUND says how
it was found or why not. xwg/_library.py tries LIBRARY after XWG_LIBRARY
and before pkg-config."""
LIBRARY = {path!r}
FOUND = {how!r}
'''


def find_library():
    """The libxwg to record and how it was found, or (None, why not)."""
    env = os.environ.get("XWG_LIBRARY")
    if env:
        # A path that is wrong now would be wrong at every import too;
        # recording it would only hide the mistake behind a later search.
        if os.path.isfile(env):
            return os.path.abspath(env), "by XWG_LIBRARY"
        return None, "XWG_LIBRARY=%s is not a file" % env
    try:
        libdir = subprocess.run(
            ["pkg-config", "--variable=libdir", "xwg"], capture_output=True,
            text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None, "neither XWG_LIBRARY nor pkg-config names one"
    # xwg.pc names its prefix relative to its own folder
    # (.../lib/pkgconfig/../..): resolve it, so the record still holds
    # when PKG_CONFIG_PATH is gone. The file name stays the SONAME link,
    # not the versioned file behind it, as the dynamic linker would use.
    libdir = os.path.realpath(libdir)
    for name in ("libxwg.so.0", "libxwg.so"):
        path = os.path.join(libdir, name)
        if os.path.isfile(path):
            return path, "by pkg-config"
    return None, "pkg-config's libdir %s holds no libxwg.so" % libdir


class BuildPyWithConfig(build_py):
    """build_py, plus xwg/_config.py in the build folder."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            # An editable install imports the source tree, where no
            # _config.py is: it searches at import time.
            return
        path, how = find_library()
        target = os.path.join(self.build_lib, "xwg", "_config.py")
        with open(target, "w") as f:
            f.write(CONFIG.format(path=path, how=how))
        # pip shows this with -v; a quiet install that found nothing
        # still succeeds, and the import's error says what to set.
        print("xwg: libxwg %s" % ("%s (%s)" % (path, how) if path else
                                  "not recorded: " + how))


setup(cmdclass={"build_py": BuildPyWithConfig})
