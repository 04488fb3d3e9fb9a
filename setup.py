"""Build the optional C kernel chkobba._fastcore; the rest is in pyproject.toml.

The extension is optional: where it cannot be compiled the package installs
without it and chkobba.fast falls back to the pure-Python engine.
"""

import sys

from setuptools import Extension, setup

# The policy's scores round a product of doubles: forbid fused multiply-adds so the
# kernel computes exactly what the pure reference computes.
UNIX = sys.platform != "win32"

setup(
    ext_modules=[
        Extension(
            "chkobba._fastcore",
            sources=["src/chkobba/_fastcore.c"],
            optional=True,
            extra_compile_args=["-ffp-contract=off"] if UNIX else [],
            libraries=["m"] if UNIX else [],
        )
    ]
)
