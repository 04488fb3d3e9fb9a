"""Refuse a chkobba wheel built without its C kernels (setup.py marks them optional).

Run by the container image's build stage (Containerfile) and by bench/image_check.py:
``python deploy/check_wheel.py DIRECTORY`` exits 1 naming the missing kernels.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

KERNELS = ("chkobba/_fastcore", "chkobba/touti/_playout", "chkobba/touti/_deals")
"""The compiled modules every image must carry, as paths inside the wheel."""


def missing_kernels(wheel: Path) -> list[str]:
    """The kernels of :data:`KERNELS` that ``wheel`` lacks."""
    names = zipfile.ZipFile(wheel).namelist()
    return [
        k for k in KERNELS if not any(n.startswith(k + ".") and n.endswith(".so") for n in names)
    ]


def main(folder: str) -> int:
    """Check the one chkobba wheel in ``folder``; 0 when every kernel is in it."""
    wheels = sorted(Path(folder).glob("chkobba-*.whl"))
    if len(wheels) != 1:
        print(f"check_wheel: expected one chkobba wheel in {folder}, found {len(wheels)}")
        return 1
    missing = missing_kernels(wheels[0])
    if missing:
        print(f"check_wheel: {wheels[0].name} was built without {', '.join(missing)}")
        return 1
    print(f"check_wheel: {wheels[0].name} carries the C kernels")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
