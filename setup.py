"""Build the optional C kernels chkobba._fastcore and chkobba.touti._playout and _deals;
the rest is in pyproject.toml.

The extensions are optional: where they cannot be compiled the package installs
without them and chkobba.search.fast (chkobba.touti.kernel) falls back to the pure-Python
engine (playouts).
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
            depends=["src/chkobba/pymt.h", "src/chkobba/bits.h"],
            optional=True,
            extra_compile_args=["-ffp-contract=off"] if UNIX else [],
            libraries=["m"] if UNIX else [],
        ),
        # The Touti search's playouts and draws (chkobba.touti.kernel): no libm.
        Extension(
            "chkobba.touti._playout",
            sources=["src/chkobba/touti/_playout.c"],
            depends=["src/chkobba/bits.h"],
            optional=True,
        ),
        Extension(
            "chkobba.touti._deals",
            sources=["src/chkobba/touti/_deals.c"],
            depends=["src/chkobba/pymt.h", "src/chkobba/bits.h"],
            optional=True,
        ),
    ]
)
