"""Build the optional C kernel chkobba._fastcore; the rest is in pyproject.toml.

The extension is optional: where it cannot be compiled the package installs
without it and chkobba.fast falls back to the pure-Python engine.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "chkobba._fastcore",
            sources=["src/chkobba/_fastcore.c"],
            optional=True,
        )
    ]
)
