"""Builds the teal package: pure Python modules plus the cffi extension teal._ffi
(see teal/_build.py for where it looks for Teal's headers and library)."""
from setuptools import setup

setup(
    name="teal",
    version="0.5.0",
    description="Python bindings for Teal, with pydrake's names",
    packages=["teal"],
    package_data={"teal": ["_cdef.h"]},
    python_requires=">=3.9",
    install_requires=["cffi>=1.12", "numpy"],
    setup_requires=["cffi>=1.12"],
    cffi_modules=["teal/_build.py:ffibuilder"],
    zip_safe=False,
)
