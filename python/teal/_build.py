"""cffi build script (API mode): compiles teal._ffi against Teal's headers and
links it to the shared library CMake builds.

Where to find them:
  TEAL_SOURCE_DIR  the folder holding teal.h (default: the repository above python/)
  TEAL_LIBRARY_DIR the folder holding libteal.so (default: $TEAL_SOURCE_DIR/build)
The library folder is written into the extension's run-time search path, so the
package works without LD_LIBRARY_PATH.
"""
import os

import cffi

_HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("TEAL_SOURCE_DIR", os.path.dirname(os.path.dirname(_HERE)))
LIBRARY_DIR = os.environ.get("TEAL_LIBRARY_DIR", os.path.join(SOURCE_DIR, "build"))

ffibuilder = cffi.FFI()
with open(os.path.join(_HERE, "_cdef.h")) as f:
    ffibuilder.cdef(f.read())

ffibuilder.set_source(
    "teal._ffi",
    '#include "teal.h"\n',
    include_dirs=[SOURCE_DIR],
    library_dirs=[LIBRARY_DIR],
    runtime_library_dirs=[LIBRARY_DIR],
    libraries=["teal"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
