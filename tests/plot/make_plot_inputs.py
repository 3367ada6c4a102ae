#!/usr/bin/env python3
"""Writes qevolve-layout HDF5 files for the tests of scripts/qevolve_plot.py (docs/output.md).

Usage: make_plot_inputs.py FOLDER

The data are physical, computed here with numpy from a resonantly driven three-level qubit in
the rotating frame (RWA), H/h = diag(0, Δ, 2Δ + α) + (Ω/2)(a + a†), a the truncated lowering
operator, α = -0.25 GHz:
- trace.h5: /trace/time, /trace/populations [T, D, n], /trace/mode_populations [T, M, L, n] of
  that qubit (3 levels) next to an idle 2-level mode (D = 6, the 4 computational inputs), and
  /pulses (a Gaussian I envelope with its DRAG Q part, complex);
- trace_modes.h5: the same with /trace/mode_populations only;
- sweep1.h5: 1 - F and leakage of the X gate against the amplitude (one axis);
- chevron.h5: the same against amplitude x drive frequency (two axes: a chevron);
- sweep3.h5: three axes (amplitude, detuning, duration);
- sweep_text.h5: a text axis (solver names) against the amplitude;
- sweep_notarget.h5: the chevron without a fidelity (NaN, as a sweep without a target writes);
- chevron_2level.h5: the chevron of a two-level qubit (no level to leak to: leakage at rounding
  level everywhere; P(1) has the Rabi formula);
- leak_line.h5: amplitude from 0 over six decades: leakage exactly 0 at amplitude 0, at rounding
  level (below 1e-12) at the smallest amplitudes, above it further on;
- leak_map.h5: amplitude from 0 (linear) x detuning: leakage 0 in the row of amplitude 0 only;
- cz_run.h5: a two-qubit run file of a CZ-like gate: /unitary with single-qubit phases, a partial
  |01>-|10> swap and a conditional phase of 0.97 π; /unitary_compensated the same gate with the
  single-qubit phases removed and a global phase; the attribute conditional_phase;
- lined_run.h5: /pulses of a run with a control line (docs/lines.md): a flux pulse (rampcos,
  delay 5 ns) through a first-order high-pass of tau = LINE_TAU (a bias tee): /pulses/values
  droops below /pulses/ideal over the plateau and undershoots after the pulse; beside it a drive
  pulse without a line (its ideal row equals its values);
- ensemble1.h5: a run of a one-key ensemble (docs/ensembles.md): the X gate's 1 - F and
  leakage at 5 drive frequencies (Gauss-Hermite nodes and weights, std 2 MHz), the root
  fidelity their weighted mean, no /unitary; ensemble1_opt.h5 the same with /history (an
  optimize result);
- ensemble2.h5: a two-key ensemble (frequency x amplitude, 3 x 2), objective worst;
- bad_trace.h5: /trace/populations whose first axis does not match /trace/time;
- bad_ideal.h5: lined_run.h5 with a /pulses/ideal of the wrong shape.
Every sweep holds /sweep/populations (|U(out, in)|² of levels 0 and 1) and /sweep/labels.
"""
import os
import sys

import h5py
import numpy as np

ALPHA = -0.25            # GHz
LEVELS = 3
T_GATE = 20.0            # ns
OMEGA_PI = 1 / (2 * T_GATE)  # GHz: a square π pulse of T_GATE
F01 = 4.8                # GHz: the qubit frequency (the sweep's frequency axis is absolute)
STR = h5py.string_dtype()
LINE_TAU = 100.0         # ns: the high-pass of lined_run.h5 (short, so that its droop shows)


def propagator(omega, delta, t, levels=LEVELS):
    """exp(-i 2π H t) of the driven qubit with 3 levels (or 2: no anharmonic level), H Hermitian:
    through its eigenvectors."""
    a = np.diag(np.sqrt(np.arange(1, levels)), 1)
    h = np.diag([0.0, delta, 2 * delta + ALPHA][:levels]) + 0.5 * omega * (a + a.T)
    w, v = np.linalg.eigh(h)
    return (v * np.exp(-2j * np.pi * w * t)) @ v.conj().T


def gate_figures(omega, delta, t, levels=LEVELS):
    """F (leakage-aware average gate fidelity of X on levels 0, 1), leakage and the populations
    |U(out, in)|² of levels 0 and 1."""
    u = propagator(omega, delta, t, levels)[:2, :2]
    x = np.array([[0, 1], [1, 0]])
    d = 2
    f = (abs(np.trace(x.conj().T @ u)) ** 2 + np.trace(u.conj().T @ u).real) / (d * (d + 1))
    return f, 1 - np.trace(u.conj().T @ u).real / d, np.abs(u) ** 2


def root_attributes(f, dims, steps):
    f.attrs["qevolve_version"] = "test"
    f.attrs["dims"] = np.array(dims, dtype=np.int64)
    f.attrs["steps"] = np.int64(steps)
    f.attrs["config"] = "# written by tests/plot/make_plot_inputs.py\n"


def complex_compound(z):
    out = np.empty(z.shape, dtype=[("r", "<f8"), ("i", "<f8")])
    out["r"], out["i"] = z.real, z.imag
    return out


def drag_pulse(time, duration, area):
    """A Gaussian envelope (σ = T/4, shifted to start at 0) of the given area (1/2: a π pulse)
    and its DRAG quadrature -dΩ/dt / (2π α) / 2, both in GHz."""
    sigma = duration / 4
    env = np.exp(-0.5 * ((time - duration / 2) / sigma) ** 2) - np.exp(-0.5 * (duration / 2 / sigma) ** 2)
    env *= area / (np.sum(env) * (time[1] - time[0]))
    return env, -np.gradient(env, time) / (2 * np.pi * ALPHA) * 0.5


def trace_file(path, with_basis_populations):
    """Rabi flopping under a Gaussian pulse of area 3/2 (1.5 cycles), piecewise constant over
    the steps as the solver samples it, recorded at every step boundary."""
    duration, steps = 60.0, 300
    dt = duration / steps
    time = np.linspace(0, duration, steps + 1)
    mid = 0.5 * (time[1:] + time[:-1])
    env, drag = drag_pulse(mid, duration, 1.5)
    delta = 0.002
    dims = [LEVELS, 2]
    inputs = ["00", "01", "10", "11"]
    u = np.eye(LEVELS, dtype=complex)
    qubit = [u]
    for s in range(steps):  # the DRAG quadrature is left out of the evolution: its effect is small here
        u = propagator(env[s], delta, dt) @ u
        qubit.append(u)
    pops = np.zeros((steps + 1, LEVELS * 2, len(inputs)))
    for k, label in enumerate(inputs):
        l0, l1 = int(label[0]), int(label[1])
        for s, uq in enumerate(qubit):
            pops[s, :, k] = abs(np.kron(uq[:, l0], np.eye(2)[:, l1])) ** 2
    marg = np.zeros((steps + 1, 2, LEVELS, len(inputs)))
    p = pops.reshape(steps + 1, LEVELS, 2, len(inputs))
    marg[:, 0, :, :] = p.sum(axis=2)
    marg[:, 1, :2, :] = p.sum(axis=1)
    with h5py.File(path, "w") as f:
        root_attributes(f, dims, steps)
        f.attrs["duration_ns"] = duration
        f["/initial_states"] = np.array(inputs, dtype=STR)
        f["/trace/time"] = time
        if with_basis_populations:
            f["/trace/populations"] = pops
        f["/trace/mode_populations"] = marg
        f["/pulses/time"] = mid
        f["/pulses/values"] = complex_compound((env + 1j * drag)[None, :])
        f["/pulses/names"] = np.array(["pulses[0] (q0, gaussian + drag)"], dtype=STR)


def sweep_file(path, axes, levels=LEVELS):
    """axes: list of (key, values); the grid is evaluated at every point."""
    shape = tuple(len(v) for _, v in axes)
    fid = np.zeros(shape)
    leak = np.zeros(shape)
    pops = np.zeros(shape + (2, 2))
    for index in np.ndindex(*shape):
        point = {key: values[i] for (key, values), i in zip(axes, index)}
        t = point.get("pulses[0].duration", T_GATE)
        amp = point.get("pulses[0].amplitude", 1.0 / (2 * t))
        det = point.get("pulses[0].frequency", F01) - F01
        fid[index], leak[index], pops[index] = gate_figures(amp, det, t, levels)
    with h5py.File(path, "w") as f:
        root_attributes(f, [levels], 200)
        f["/sweep/fidelity"] = fid
        f["/sweep/leakage"] = leak
        f["/sweep/populations"] = pops
        f["/sweep/labels"] = np.array(["0", "1"], dtype=STR)
        for k, (key, values) in enumerate(axes):
            f[f"/sweep/axes/{k}"] = np.asarray(values, dtype=float)
            f[f"/sweep/axes/{k}"].attrs["key"] = key


CZ_PHASE = 0.97 * np.pi   # the conditional phase of cz_run.h5
CZ_SWAP = 0.2             # sin of its |01>-|10> swap angle: |U|² = 0.04 off the diagonal


def cz_file(path):
    """A CZ-like two-qubit gate: the compensated gate e^{iχ} diag(1, S, e^{iθ}) with S the
    partial swap [[c, -i s], [-i s, c]] of |01>, |10>; before compensation the qubits' Z phases
    (a, b) on top: U = diag(1, e^{ib}, e^{ia}, e^{i(a+b)}) U_c e^{-iχ}."""
    c, s_ = np.sqrt(1 - CZ_SWAP ** 2), CZ_SWAP
    uc = np.zeros((4, 4), dtype=complex)
    uc[0, 0], uc[3, 3] = 1, np.exp(1j * CZ_PHASE)
    uc[1:3, 1:3] = [[c, -1j * s_], [-1j * s_, c]]
    uc *= np.exp(0.3j)
    a, b = 1.1, -2.4
    u = np.diag(np.exp(1j * np.array([0, b, a, a + b]))) @ uc * np.exp(-0.3j)
    with h5py.File(path, "w") as f:
        root_attributes(f, [2, 2], 100)
        f.attrs["duration_ns"] = 60.0
        f.attrs["compensation"] = "vz"
        f.attrs["fidelity"] = (abs(np.trace(np.diag([1, 1, 1, -1]) @ uc)) ** 2 + 4) / 20
        f.attrs["conditional_phase"] = np.angle(u[0, 0] * u[3, 3] * np.conj(u[1, 1] * u[2, 2]))
        f["/initial_states"] = np.array(["00", "01", "10", "11"], dtype=STR)
        f["/unitary"] = complex_compound(u)
        f["/unitary_compensated"] = complex_compound(uc)


def highpass(x, time, tau):
    """y = x - (1/tau) int_0^t e^{-(t-s)/tau} x(s) ds on a uniform grid (trapezoid rule): a
    first-order high-pass, y' = x' - y / tau."""
    dt = time[1] - time[0]
    y, acc = np.empty_like(x), 0.0
    decay = np.exp(-dt / tau)
    for k in range(x.size):
        if k:
            acc = acc * decay + 0.5 * dt * (x[k - 1] * decay + x[k])
        y[k] = x[k] - acc / tau
    return y


def lined_run_file(path):
    """A flux pulse through a high-pass (the line's output and the pulse before it) and a drive
    pulse without a line, sampled at the step midpoints of 400 steps over 80 ns."""
    steps, duration = 400, 80.0
    time = (np.arange(steps) + 0.5) * duration / steps
    u = np.clip((time - 5.0) / 50.0, 0.0, 1.0)
    flux = 0.15 * np.where((u > 0) & (u < 1), 0.5 - 0.5 * np.cos(2 * np.pi * u), 0.0)
    drive, _ = drag_pulse(time, duration, 0.5)
    values = np.stack([highpass(flux, time, LINE_TAU), drive])
    with h5py.File(path, "w") as f:
        root_attributes(f, [3, 3], steps)
        f.attrs["duration_ns"] = duration
        f.attrs["flux_pulses"] = np.array([0], dtype=np.int64)
        f["/pulses/time"] = time
        f["/pulses/values"] = values
        f["/pulses/ideal"] = np.stack([flux, drive])
        f["/pulses/names"] = np.array(["pulses[0]", "pulses[1]"], dtype=STR)


def ensemble_file(path, keys, objective="mean"):
    """A run of an ensemble over the grid of `keys` [(key, nodes, weights)] (the first varies
    slowest), the member's F and leakage from gate_figures (drive frequency and amplitude)."""
    grids = np.meshgrid(*[nodes for _, nodes, _ in keys], indexing="ij")
    weights = np.prod(np.meshgrid(*[w for _, _, w in keys], indexing="ij"), axis=0).ravel()
    members = [{key: g.ravel()[m] for (key, _, _), g in zip(keys, grids)} for m in range(weights.size)]
    figures = np.array([gate_figures(m.get("pulses[0].amplitude", OMEGA_PI),
                                     m.get("pulses[0].frequency", F01) - F01, T_GATE)[:2] for m in members])
    fid, leak = figures[:, 0], figures[:, 1]
    worst = int(np.argmin(fid))
    with h5py.File(path, "w") as f:
        root_attributes(f, [LEVELS], 200)
        f.attrs["fidelity"] = float(np.dot(weights, fid)) if objective == "mean" else float(fid[worst])
        f["/ensemble/fidelity"] = fid
        f["/ensemble/fidelity"].attrs["objective"] = objective
        f["/ensemble/fidelity"].attrs["worst"] = np.int64(worst)
        f["/ensemble/leakage"] = leak
        f["/ensemble/weights"] = weights
        f["/ensemble/overrides"] = np.array([", ".join(f"{k} = {float(v)!r}" for k, v in m.items()) for m in members],
                                            dtype=STR)
        f["/ensemble/steps"] = np.full(weights.size, 200, dtype=np.int64)


def main(folder):
    os.makedirs(folder, exist_ok=True)
    trace_file(os.path.join(folder, "trace.h5"), True)
    trace_file(os.path.join(folder, "trace_modes.h5"), False)
    amps = np.linspace(0.8, 1.2, 41) * OMEGA_PI
    dets = F01 + np.linspace(-0.04, 0.04, 41)
    sweep_file(os.path.join(folder, "sweep1.h5"), [("pulses[0].amplitude", amps)])
    sweep_file(os.path.join(folder, "chevron.h5"), [("pulses[0].amplitude", amps),
                                                    ("pulses[0].frequency", dets)])
    sweep_file(os.path.join(folder, "sweep3.h5"), [("pulses[0].amplitude", amps[::4]),
                                                   ("pulses[0].frequency", dets[::4]),
                                                   ("pulses[0].duration", [18.0, 20.0, 22.0])])
    # A text axis (as `--vary evolution.solver=...` writes it) against the amplitude, the solvers'
    # 1 - F differing by a step error ~ (dt)^order; and a sweep without a target (F = NaN).
    solvers = ["expm", "trotter", "magnus4"]
    with h5py.File(os.path.join(folder, "sweep_text.h5"), "w") as f:
        root_attributes(f, [LEVELS], 200)
        figures = np.array([gate_figures(a, 0.0, T_GATE)[:2] for a in amps])
        step_error = np.array([0.0, 4e-4, 2e-7])
        f["/sweep/fidelity"] = figures[None, :, 0] - step_error[:, None]
        f["/sweep/leakage"] = np.repeat(figures[None, :, 1], 3, axis=0)
        f["/sweep/axes/0"] = np.array(solvers, dtype=STR)
        f["/sweep/axes/0"].attrs["key"] = "evolution.solver"
        f["/sweep/axes/1"] = amps
        f["/sweep/axes/1"].attrs["key"] = "pulses[0].amplitude"
    sweep_file(os.path.join(folder, "sweep_notarget.h5"), [("pulses[0].amplitude", amps),
                                                           ("pulses[0].frequency", dets)])
    with h5py.File(os.path.join(folder, "sweep_notarget.h5"), "a") as f:
        f["/sweep/fidelity"][...] = np.nan
    sweep_file(os.path.join(folder, "chevron_2level.h5"), [("pulses[0].amplitude", amps),
                                                           ("pulses[0].frequency", dets)], levels=2)
    low = np.concatenate([[0.0], np.geomspace(1e-6, 1, 13) * OMEGA_PI])
    sweep_file(os.path.join(folder, "leak_line.h5"), [("pulses[0].amplitude", low)])
    sweep_file(os.path.join(folder, "leak_map.h5"), [("pulses[0].amplitude", np.linspace(0, 1.2, 13) * OMEGA_PI),
                                                     ("pulses[0].frequency", dets[::5])])
    cz_file(os.path.join(folder, "cz_run.h5"))
    # Gauss-Hermite nodes and weights (5 points; 3 points: mean ± √3 σ), Gauss-Legendre (2 points)
    hermite, hermite_w = np.polynomial.hermite_e.hermegauss(5)
    freqs = ("pulses[0].frequency", F01 + 0.002 * hermite, hermite_w / hermite_w.sum())
    ensemble_file(os.path.join(folder, "ensemble1.h5"), [freqs])
    ensemble_file(os.path.join(folder, "ensemble1_opt.h5"), [freqs])
    with h5py.File(os.path.join(folder, "ensemble1_opt.h5"), "a") as f:
        f["/history/infidelity"] = np.array([0.1, 0.03, 1 - f.attrs["fidelity"]])
    three, three_w = np.polynomial.hermite_e.hermegauss(3)
    ensemble_file(os.path.join(folder, "ensemble2.h5"),
                  [("pulses[0].frequency", F01 + 0.002 * three, three_w / three_w.sum()),
                   ("pulses[0].amplitude", OMEGA_PI * (1 + 0.01 * np.array([-1, 1]) / np.sqrt(3)), np.array([0.5, 0.5]))],
                  objective="worst")
    with h5py.File(os.path.join(folder, "bad_trace.h5"), "w") as f:
        root_attributes(f, [2], 10)
        f["/trace/time"] = np.linspace(0, 10, 11)
        f["/trace/populations"] = np.zeros((7, 2, 1))
    lined_run_file(os.path.join(folder, "lined_run.h5"))
    lined_run_file(os.path.join(folder, "bad_ideal.h5"))
    with h5py.File(os.path.join(folder, "bad_ideal.h5"), "a") as f:
        del f["/pulses/ideal"]
        f["/pulses/ideal"] = np.zeros((1, 7))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
