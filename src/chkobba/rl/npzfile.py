"""Reading a trained player's arrays: one NumPy ``.npz`` archive with its format and the
version of the observation spaces it was trained on, checked before anything else is read."""

from __future__ import annotations

import zipfile

import numpy as np
import numpy.typing as npt

from chkobba.rl.spaces import VERSION


def read_arrays(
    path: str, fmt: str, kind: str, error: type[ValueError]
) -> dict[str, npt.NDArray[np.generic]]:
    """The arrays of the archive at ``path``, once it is a ``fmt`` file trained on today's
    spaces; otherwise raise ``error`` saying what is wrong (``kind`` names the file to the
    reader: "a policy file", "a weight file")."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise error(f"{path} is not {kind} (a numpy .npz archive): {e}") from None
    if str(arrays.get("format", "")) != fmt:
        raise error(f"{path} is not a {fmt} file")
    if str(arrays.get("version", "")) != VERSION:
        raise error(f"{path} was trained on spaces {arrays.get('version')!s}, not {VERSION}")
    return arrays
