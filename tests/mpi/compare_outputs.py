#!/usr/bin/env python3
"""Compares a distributed run's HDF5 output with the single-process one (issue "scale-out").

usage: compare_outputs.py SERIAL.h5 DISTRIBUTED.h5 [HISTORY_TOL]

Every dataset and numeric attribute of the serial file must be present in the distributed one
with the same shape and agree to 1e-12 (absolute, or relative for entries larger than 1: the
gradient sums thousands of terms whose rounding depends on the summation order). The
compensation angles agree to 1e-8, the tolerance docs/reference.md "Distributed runs" states for canonical angles (a flat
optimum fixes angles only to sqrt(machine epsilon) times its curvature). Wall-clock attributes
are skipped (the attributes and /history/wall_time_s).

HISTORY_TOL marks the files as the outputs of an optimisation. The reduced sums round
differently from the serial ones (1e-16 relative), and L-BFGS's line searches amplify that over
the iterations (seen: 5e-10 in 1 - F after 11 of 22 iterations; 9e-8 in another build), so
/history is compared to HISTORY_TOL, without the line-search step lengths (L-BFGS's curvature
pairs difference nearly equal gradients near convergence, which magnifies the rounding most
there). The run then ends at a flat optimum, which fixes its point, like the angles, only to
sqrt(machine epsilon): the results there (/unitary, /unitary_compensated, /propagator, the
optimised pulses' /pulses/values and /resolved/values, a /trace) agree to 1e-8 and /gradient, itself of that size at the optimum, to 1e-6 (seen: 2e-11, 7e-11 and 5e-9
with |gradient| = 5e-9), while the fidelity and leakage, second order at a minimum, still agree
to 1e-12 (seen: 2e-15). Prints the worst difference per item; exit 1 on any violation.
"""
import sys

import h5py
import numpy as np

SKIP_ATTRS = {"wall_time", "wall_time_s", "created"}
ANGLE_TOL = 1e-8
TOL = 1e-12
OPTIMUM_TOL = {"unitary": 1e-8, "unitary_compensated": 1e-8, "propagator": 1e-8, "gradient": 1e-6,
               "pulses/values": 1e-8, "resolved/values": 1e-8, "trace/populations": 1e-8,
               "trace/mode_populations": 1e-8}


def worst(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return None
    if a.size == 0:
        return 0.0
    if a.dtype.kind in "OSU":
        return 0.0 if np.array_equal(a, b) else float("inf")
    # NaN marks "not computed" (a two-level mode's top level in /truncation/top_level_population):
    # equal where both are NaN, a difference where only one is.
    both = np.isnan(a) & np.isnan(b) if a.dtype.kind in "fc" else np.zeros(a.shape, bool)
    if np.any(np.isnan(a) != np.isnan(b)) if a.dtype.kind in "fc" else False:
        return float("inf")
    a, b = np.where(both, 0.0, a), np.where(both, 0.0, b)
    scale = np.maximum(1.0, np.abs(a))
    return float(np.max(np.abs(a - b) / scale))


def main():
    serial, distributed = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
    failures = []
    items = []
    serial.visititems(lambda name, obj: items.append(name) if isinstance(obj, h5py.Dataset) else None)
    for name in items:
        if "wall_time" in name or (name == "history/step" and len(sys.argv) > 3):
            continue
        if name not in distributed:
            failures.append(f"/{name}: missing in the distributed output")
            continue
        w = worst(serial[name][()], distributed[name][()])
        tol = ANGLE_TOL if name == "compensation/angles" else TOL
        if len(sys.argv) > 3:
            if name.startswith("history/"):
                tol = float(sys.argv[3])
            tol = OPTIMUM_TOL.get(name, tol)
        print(f"/{name}: worst difference {w}")
        if w is None or not w <= tol:
            failures.append(f"/{name}: difference {w} (tolerance {tol})")
    for key, value in serial.attrs.items():
        if key in SKIP_ATTRS:
            continue
        if key not in distributed.attrs:
            failures.append(f"attribute {key}: missing in the distributed output")
            continue
        w = worst(value, distributed.attrs[key])
        print(f"@{key}: worst difference {w}")
        if w is None or not w <= TOL:
            failures.append(f"attribute {key}: difference {w} (tolerance {TOL})")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
