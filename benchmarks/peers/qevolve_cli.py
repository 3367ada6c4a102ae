"""Runs `qevolve run` for the peer benchmarks and reads what it produced.

The numbers come from the HDF5 file (docs/output.md: the `fidelity` attribute, `/unitary`,
`/propagator`), the stable interface. The phase times (build, evolve, fidelity, gradient,
output, total) exist only in the run summary on stdout (docs/cli.md "Progress and summary"),
so the command runs without --quiet and its `wall time:` line is parsed; a summary without
that line is an error, not a silent zero. The peak resident set size of the process comes
from wait4 (the figure /usr/bin/time -v reports), so no external tool is needed.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time

import numpy as np

_PHASE = re.compile(r"\b(build|evolve|fidelity|gradient|optimize|output|total) ([0-9.eE+-]+) s\b")


def phase_times(summary: str) -> dict:
    """{phase: seconds} from the summary's `wall time: build X s | evolve Y s | ...` line."""
    for line in summary.splitlines():
        if line.startswith("wall time:"):
            times = {k: float(v) for k, v in _PHASE.findall(line)}
            if "evolve" in times and "total" in times:
                return times
    raise RuntimeError("no `wall time: ... evolve X s ... total Y s` line in the qevolve summary:\n"
                       + summary[-2000:])


def read_complex(dataset) -> np.ndarray:
    """A complex dataset ({r, i} compound; h5py usually maps it to complex128 itself)."""
    a = dataset[()]
    if a.dtype.names:
        a = a["r"] + 1j * a["i"]
    return np.asarray(a, dtype=complex)


def run(exe: str, config: str, output: str, args=(), timeout: float | None = None,
        cwd: str | None = None) -> dict:
    """`exe run config -o output *args`; returns the phase times, the process wall time
    (process_s), its peak RSS in MiB (peak_rss_mb), the summary text, and from the file the
    root attributes (attrs), `unitary` and `propagator` (None where the file has none).
    Raises RuntimeError on a non-zero exit or a timeout."""
    if os.sep in exe:  # a path, possibly relative: valid in another cwd too
        exe = os.path.abspath(exe)
    cmd = [exe, "run", config, "-o", output, *args]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, cwd=cwd)
        status, usage = _wait(proc, timeout)
        elapsed = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {code}:\n{stderr.strip()[-1000:]}")
    result = {"cmd": cmd, "summary": stdout, "stderr": stderr, "process_s": elapsed,
              "peak_rss_mb": usage.ru_maxrss / 1024.0, **_read_output(output)}
    result["times"] = phase_times(stdout)
    return result


def _wait(proc: subprocess.Popen, timeout: float | None):
    """wait4 on the child (its own rusage, not the sum over all children); kills it after
    `timeout` seconds."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG if deadline else 0)
        if pid == proc.pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return status, usage
        if time.monotonic() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            proc.returncode = -9
            raise RuntimeError(f"{' '.join(proc.args)} timed out after {timeout:g} s")
        time.sleep(0.005)


def _read_output(path: str) -> dict:
    import h5py

    with h5py.File(path, "r") as f:
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
        return {"attrs": attrs,
                "unitary": read_complex(f["unitary"]) if "unitary" in f else None,
                "propagator": read_complex(f["propagator"]) if "propagator" in f else None}
