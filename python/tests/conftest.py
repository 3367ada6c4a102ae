"""Fixtures of the Python tests (ctest `Python`, label python): the module and the CLI of the
same build tree (PYTHONPATH=<build>/python, QEVOLVE_EXE=<build>/bin/qevolve)."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def qevolve_exe() -> str:
    exe = os.environ.get("QEVOLVE_EXE", str(ROOT / "build" / "release" / "bin" / "qevolve"))
    if not os.path.exists(exe):
        pytest.fail(f"the qevolve CLI is not built: {exe}")
    return exe


def cli(*args, check=True, cwd=None):
    """Runs the CLI; returns the CompletedProcess (text)."""
    p = subprocess.run([qevolve_exe(), *map(str, args)], capture_output=True, text=True, cwd=cwd)
    if check and p.returncode != 0:
        raise AssertionError(f"qevolve {' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr}")
    return p


def h5(path):
    """Every dataset and root attribute of a qevolve HDF5 file: {"/name": array, "@attr": value}."""
    import h5py
    import numpy as np

    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                v = obj[()]
                out["/" + name] = np.array(v) if not isinstance(v, bytes) else v
        f.visititems(visit)
        for k, v in f.attrs.items():
            out["@" + k] = v
    return out
