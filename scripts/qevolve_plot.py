#!/usr/bin/env python3
"""Draws what a qevolve HDF5 file holds: the picture of `qevolve plot FILE.h5 [-o OUT.png]`.

Usage: qevolve_plot.py FILE.h5 OUT.png

One figure, one panel per part the file holds (docs/output.md "What `qevolve plot` draws"):
- /sweep/fidelity: 1 axis: 1 - F and leakage against the axis (log scale); 2 axes: heat maps of
  1 - F and leakage (log colour scale), the best point marked; more axes: the 2-D slice of the
  first two axes through the best point. Text axes (e.g. solver names) are drawn as categories;
  without a fidelity (NaN: no target) the leakage alone.
- /history: what the optimiser minimised per iteration (1 - F, or (1 - F) + w leakage with 1 - F
  and leakage beside it; log scale) and the gradient norm.
- /trace: populations against time, one panel per initial state (at most 4): the most populated
  basis states of /trace/populations, or the mode levels of /trace/mode_populations.
- /unitary: |U|^2 of the computational block, labelled with /initial_states; without it,
  /superoperator (open systems): the channel's population transfer <a|E(|i><i|)|a>.
- /energies (with /labels): the lowest dressed levels above the ground state; /zz: static ZZ.
- /pulses: every pulse's samples against time (real and imaginary parts when complex).
The output format follows OUT's extension (png, pdf, svg, ...; anything else: png); the file is
written under a temporary name and renamed. A file it cannot draw: one line `FILE: problem` on
stderr and exit status 2.
"""
import math
import os
import re
import sys
import textwrap

import h5py
import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402
from matplotlib.ticker import LogFormatterSciNotation, MaxNLocator  # noqa: E402

MAX_TRACE_PANELS = 4    # initial states drawn
MAX_LINES = 8           # curves per population panel
MIN_SHOWN = 0.01        # a population curve is drawn when it reaches this somewhere
MAX_LEVELS = 12         # levels of the level diagram
MAX_PULSES = 8
MARKED_SAMPLES = 60     # traces with at most this many recorded times show a marker at each
FLOOR = 1e-16           # 1 - F and leakage are drawn on log scales from here


class BadFile(Exception):
    """The file cannot be drawn; the message says why (printed after the file name)."""


class CannotWrite(Exception):
    """The output cannot be written; the message names it."""


def text(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def read(f, path):
    """The dataset's values; a compound {r, i} becomes complex."""
    if path not in f or not isinstance(f[path], h5py.Dataset):
        raise BadFile(f"{path}: no such dataset")
    a = f[path][()]
    if isinstance(a, np.ndarray) and a.dtype.names and set(a.dtype.names) >= {"r", "i"}:
        a = a["r"] + 1j * a["i"]
    return a


def strings(f, path):
    return [text(s) for s in np.ravel(read(f, path))]


def need_shape(path, array, shape):
    """`shape` with None for any length."""
    if array.ndim != len(shape) or any(s is not None and s != a for s, a in zip(shape, array.shape)):
        want = ", ".join("any" if s is None else str(s) for s in shape)
        raise BadFile(f"{path} has shape {list(array.shape)}, expected [{want}]")


def log_floor(values):
    return np.maximum(np.real(values), FLOOR)


def label_log_axis(axis):
    """Labels the minor ticks (2, 3, 5 x 10^k) of a log axis spanning less than two decades, which
    would otherwise show one label or none."""
    axis.set_minor_formatter(LogFormatterSciNotation(labelOnlyBase=False, minor_thresholds=(2, 0.5)))


def log_grid(ax):
    ax.grid(True, which="major", alpha=0.35)
    ax.grid(True, which="minor", alpha=0.08)


def level_char(level):
    return str(level) if level < 10 else chr(ord("a") + level - 10)


def flat_label(index, dims):
    """The product label of a flat index (mode 0 most significant; docs/units.md)."""
    digits = []
    for d in reversed(dims):
        digits.append(level_char(index % d))
        index //= d
    return "".join(reversed(digits))


def excitations(label):
    return sum(int(c, 36) for c in label)


class Units:
    """Units of sweep keys (docs/units.md), from the last part of the key path."""
    TABLE = {"amplitude": "GHz", "frequency": "GHz", "values": "GHz", "anharmonicity": "GHz",
             "ec": "GHz", "ej": "GHz", "el": "GHz", "capacitive": "GHz", "inductive": "GHz",
             "dipole": "GHz", "cross_kerr": "GHz", "duration": "ns", "delay": "ns", "ramp": "ns",
             "plateau": "ns", "sigma": "ns", "lambda": "ns", "t1": "ns", "tphi": "ns", "phase": "rad",
             "angle": "rad", "flux": "Φ0", "ng": "2e", "steps": "", "rate": "1/ns"}

    def __init__(self, config, flux_pulses=None):
        # A flux pulse's amplitude and values are in flux quanta, not GHz (docs/pulses.md).
        # Files name those pulses (attribute flux_pulses); older ones only hold the config text.
        self.flux_set = None if flux_pulses is None else {int(p) for p in np.ravel(flux_pulses)}
        self.flux_pulses = bool(self.flux_set) or (
            flux_pulses is None and re.search(r"operator:\s*[\"']?flux", config or "") is not None)

    def is_flux(self, pulse):
        """True or False for pulse index `pulse`; None when the file does not say."""
        if self.flux_set is not None:
            return pulse in self.flux_set
        return None if self.flux_pulses else False

    def pulse_unit(self, pulse):
        flux = self.is_flux(pulse)
        return "GHz or Φ0" if flux is None else "Φ0" if flux else "GHz"

    def unit(self, key):
        last = re.sub(r"\[.*?\]", "", key.split(".")[-1])
        m = re.match(r"pulses\[(\d+)\]\.(amplitude|values)", key)
        if m:
            return self.pulse_unit(int(m.group(1)))
        return self.TABLE.get(last, "")

    def label(self, key):
        """`key [unit]` for an axis."""
        unit = self.unit(key)
        return f"{key} [{unit}]" if unit else key

    def value(self, key, v):
        """`key = v unit` for a title."""
        unit = self.unit(key)
        return f"{key} = {v:.6g}" + (f" {unit}" if unit else "")


# ---------------------------------------------------------------------------------------------
# Panels: each function returns a list of functions draw(ax), one per panel.


def cell_edges(values):
    """Edges of pcolormesh cells centred on `values` (any spacing, ascending or not)."""
    v = np.asarray(values, dtype=float)
    if v.size == 1:
        return np.array([v[0] - 0.5, v[0] + 0.5])
    mid = 0.5 * (v[1:] + v[:-1])
    return np.concatenate([[2 * v[0] - mid[0]], mid, [2 * v[-1] - mid[-1]]])


class SweepAxis:
    """One axis of a sweep: its key, its values (numbers, or text such as solver names, drawn at
    0, 1, 2, ... with the text as tick labels) and the unit of its key."""

    def __init__(self, f, k, size, units):
        path = f"/sweep/axes/{k}"
        raw = np.ravel(read(f, path))
        if raw.size != size:
            raise BadFile(f"{path} has {raw.size} values, but /sweep/fidelity has {size} along axis {k}")
        self.key = text(f[path].attrs.get("key", f"axis {k}"))
        self.texts = [text(v) for v in raw] if raw.dtype.kind in "OSU" else None
        self.x = np.arange(size, dtype=float) if self.texts else np.real(raw).astype(float)
        self.units = units

    def value(self, i):
        """`key = value unit` of entry i."""
        return f"{self.key} = {self.texts[i]}" if self.texts else self.units.value(self.key, self.x[i])

    def label(self, axis):
        """Labels a matplotlib axis (x or y) with the key, and the texts as ticks."""
        axis.set_label_text(self.key if self.texts else self.units.label(self.key))
        if self.texts:
            axis.set_ticks(self.x, self.texts)


def sweep_panels(f, units):
    fid = np.atleast_1d(np.real(np.asarray(read(f, "/sweep/fidelity"), dtype=complex)))
    leak = None
    if "/sweep/leakage" in f:
        leak = np.real(np.asarray(read(f, "/sweep/leakage"), dtype=complex))
        if leak.size != fid.size:
            raise BadFile(f"/sweep/leakage has shape {list(leak.shape)}, /sweep/fidelity {list(fid.shape)}")
        leak = leak.reshape(fid.shape)
        if not np.isfinite(leak).any():
            leak = None
    axes = [SweepAxis(f, k, fid.shape[k], units) for k in range(fid.ndim)]
    phase = None
    if "/sweep/conditional_phase" in f:
        phase = np.real(np.asarray(read(f, "/sweep/conditional_phase"), dtype=complex))
        if phase.size != fid.size:
            raise BadFile(f"/sweep/conditional_phase has shape {list(phase.shape)}, /sweep/fidelity {list(fid.shape)}")
        phase = phase.reshape(fid.shape) / math.pi
    infid = 1.0 - fid
    has_fid = bool(np.isfinite(infid).any())
    if not has_fid and leak is None:
        raise BadFile("/sweep/fidelity and /sweep/leakage hold no finite value")
    # The best point (largest F); without a fidelity (no target) the slice starts at the first values.
    best = np.unravel_index(np.nanargmin(infid), infid.shape) if has_fid else (0,) * fid.ndim
    note = ""
    if fid.ndim > 2:  # the 2-D slice through the best point
        fixed = ", ".join(axes[k].value(best[k]) for k in range(2, fid.ndim))
        where = "through the best point" if has_fid else "at"
        note = "\n" + textwrap.fill(f"slice {where}: {fixed}", 64)
        index = (slice(None), slice(None)) + tuple(best[2:])
        infid = infid[index]
        leak = leak[index] if leak is not None else None
        phase = phase[index] if phase is not None else None
    best = best[:2] if has_fid else None
    best_text = ""
    if has_fid:
        best_text = f"1 − F = {infid[best]:.3g} at " + ", ".join(axes[k].value(best[k]) for k in range(len(best)))
    if fid.ndim == 1:
        panels = [lambda ax: sweep_line(ax, axes[0], infid if has_fid else None, leak, best, best_text)]
        if phase is not None:
            panels.append(lambda ax: phase_line(ax, axes[0], phase, best))
        return panels
    panels = []
    if has_fid:
        best_line = textwrap.fill(f"best ★: {best_text}", 64)
        panels.append(lambda ax: sweep_map(ax, axes, infid, "1 − F", best, f"1 − F\n{best_line}{note}"))
    if leak is not None:
        title = "leakage" + ("" if has_fid else " (no fidelity: the config has no target)")
        panels.append(lambda ax: sweep_map(ax, axes, leak, "leakage", best, title + note))
    if phase is not None:
        panels.append(lambda ax: phase_map(ax, axes, phase, best, note))
    return panels


def phase_line(ax, axis, phase, best):
    """A CZ / CPHASE sweep's conditional phase (in units of pi) against its one axis, unwrapped
    along it (a line through the +-pi cut would read as a jump), shifted by a multiple of 2 so
    that the best point (else the first) lies in (-1, 1]."""
    phase = np.unwrap(np.asarray(phase, dtype=float) * np.pi) / np.pi
    ref = phase[best[0]] if best is not None else phase[0]
    phase = phase - 2.0 * np.round(ref / 2.0 - 1e-12)
    for level in (-1.0, 1.0):
        ax.axhline(level, ls="--", lw=0.8, color="gray")
    ax.plot(axis.x, phase, "o-", ms=3, color="C2")
    if best is not None:
        ax.plot([axis.x[best[0]]], [phase[best[0]]], "*", ms=14, color="C3")
    axis.label(ax.xaxis)
    ax.set_ylabel("conditional phase / π (unwrapped along the axis)")
    ax.set_title("sweep: conditional phase (★: the best point, max F)", fontsize=10)
    ax.grid(True, alpha=0.3)


def phase_map(ax, axes, phase, best, note):
    """A CZ / CPHASE sweep's conditional phase (units of pi, a cyclic colour scale)."""
    y_axis, x_axis = axes[0], axes[1]
    mesh = ax.pcolormesh(cell_edges(x_axis.x), cell_edges(y_axis.x), np.ma.masked_invalid(phase),
                         vmin=-1.0, vmax=1.0, cmap="twilight_shifted", shading="flat")
    ax.figure.colorbar(mesh, ax=ax, label="conditional phase / π")
    title = "conditional phase"
    if best is not None:
        ax.plot([x_axis.x[best[1]]], [y_axis.x[best[0]]], "*", ms=16, color="white", mec="black", mew=0.8)
        title += " (★: the best point, max F)"
    x_axis.label(ax.xaxis)
    y_axis.label(ax.yaxis)
    ax.set_title(f"sweep: {title}{note}", fontsize=9.5)


def sweep_line(ax, axis, infid, leak, best, best_text):
    x = axis.x
    if infid is not None:
        ax.semilogy(x, log_floor(infid), "o-", ms=3, label="1 − F")
    if leak is not None:
        ax.semilogy(x, log_floor(leak), "s--", ms=3, label="leakage")
    if best is not None:
        ax.plot([x[best[0]]], [max(infid[best[0]], FLOOR)], "*", ms=14, color="C3", label=f"best: {best_text}")
    axis.label(ax.xaxis)
    ax.set_ylabel("1 − F, leakage" if infid is not None else "leakage")
    label_log_axis(ax.yaxis)
    ax.set_title("sweep: 1 − F and leakage" if infid is not None else "sweep: leakage (no fidelity: no target)",
                 fontsize=10)
    log_grid(ax)
    ax.legend(fontsize=8)


def sweep_map(ax, axes, values, name, best, title):
    y_axis, x_axis = axes[0], axes[1]
    data = np.ma.masked_invalid(log_floor(values))
    lo, hi = float(data.min()), float(data.max())
    norm = LogNorm(vmin=lo, vmax=max(hi, lo * 10))
    mesh = ax.pcolormesh(cell_edges(x_axis.x), cell_edges(y_axis.x), data, norm=norm, cmap="viridis", shading="flat")
    label_log_axis(ax.figure.colorbar(mesh, ax=ax, label=f"{name} (log scale)").ax.yaxis)
    if best is not None:
        # Named in the title rather than by a legend box, which would hide cells of the map.
        ax.plot([x_axis.x[best[1]]], [y_axis.x[best[0]]], "*", ms=16, color="white", mec="black", mew=0.8)
        if "★" not in title:
            title += " (★: the best point, max F)"
    x_axis.label(ax.xaxis)
    y_axis.label(ax.yaxis)
    ax.set_title(f"sweep: {title}", fontsize=9.5)


def history_objective(f, infid):
    """What the optimiser minimised, as (label, values, extra curves). A result file with
    leakage_weight > 0 holds the objective in /history/objective and 1 - F, leakage beside it;
    a checkpoint's /history/infidelity holds the objective, named by its `objective` attribute."""
    def optional(name):
        path = f"/history/{name}"
        if path not in f:
            return None
        v = np.real(np.ravel(read(f, path))).astype(float)
        if v.size != infid.size:
            raise BadFile(f"{path} has {v.size} entries, /history/infidelity {infid.size}")
        return v

    if text(f.attrs.get("kind", "")) == "qevolve optimize checkpoint":
        name = text(f.attrs["objective"]) if "objective" in f.attrs else "objective f"
        return name.replace(" - ", " − "), infid, []
    weight = float(np.real(f.attrs["leakage_weight"])) if "leakage_weight" in f.attrs else 0.0
    objective, leakage = optional("objective"), optional("leakage")
    if weight > 0 and objective is not None:
        extra = [("1 − F", infid)] + ([("leakage", leakage)] if leakage is not None else [])
        return f"(1 − F) + {weight:g} leakage", objective, extra
    return "1 − F", infid, []


def history_panels(f):
    def vector(name):
        return np.real(np.ravel(read(f, f"/history/{name}"))).astype(float)

    infid = vector("infidelity")
    it = vector("iteration") if "/history/iteration" in f else np.arange(infid.size, dtype=float)
    gnorm = vector("gradient_norm") if "/history/gradient_norm" in f else None
    for name, v in (("iteration", it), ("gradient_norm", gnorm)):
        if v is not None and v.size != infid.size:
            raise BadFile(f"/history/{name} has {v.size} entries, /history/infidelity {infid.size}")
    stop = text(f.attrs["stop_reason"]) if "stop_reason" in f.attrs else ""
    label, values, extra = history_objective(f, infid)

    def draw(ax):
        ax.semilogy(it, log_floor(values), "o-", ms=3, color="C0", label=label)
        for k, (name, v) in enumerate(extra):
            ax.semilogy(it, log_floor(v), ":", marker=".", ms=3, lw=1, color=f"C{k + 2}", label=name)
        ax.set_xlabel("iteration")
        ax.set_ylabel(label if not extra else f"{label}; " + ", ".join(n for n, _ in extra), color="C0")
        label_log_axis(ax.yaxis)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        log_grid(ax)
        handles = ax.get_lines()
        if gnorm is not None and np.any(gnorm > 0):
            twin = ax.twinx()
            twin.semilogy(it, np.maximum(gnorm, FLOOR), "s--", ms=3, color="C1", label="gradient norm")
            twin.set_ylabel("|gradient|", color="C1")
            label_log_axis(twin.yaxis)
            handles = handles + twin.get_lines()
        ax.legend(handles, [h.get_label() for h in handles], fontsize=8, loc="upper right")
        title = f"optimisation: {label} {values[0]:.3g} → {values[-1]:.3g} in {values.size - 1} iterations"
        # A long stop reason wrapped to the panel's width (it was clipped at the figure's edge).
        ax.set_title(title + ("\n" + textwrap.fill(f"stop: {stop}", 64) if stop else ""), fontsize=10)

    return [draw]


def initial_labels(f, dataset, n):
    for source in (dataset.attrs.get("initial_states"), f["/initial_states"][()] if "/initial_states" in f else None):
        if source is not None and np.size(source) == n:
            return [text(s) for s in np.ravel(source)]
    return [f"column {k}" for k in range(n)]


def trace_columns(f, path, rank, length):
    """The dataset's first MAX_TRACE_PANELS initial states (last axis) only: a trace may hold
    gigabytes. Checks its rank and that its first axis has `length` entries."""
    if path not in f or not isinstance(f[path], h5py.Dataset):
        raise BadFile(f"{path}: no such dataset")
    ds = f[path]
    if len(ds.shape) != rank or ds.shape[0] != length:
        want = ", ".join([str(length)] + ["any"] * (rank - 1))
        raise BadFile(f"{path} has shape {list(ds.shape)}, expected [{want}]")
    return ds, np.real(ds[..., :MAX_TRACE_PANELS]).astype(float)


def trace_panels(f, dims):
    time = np.real(np.ravel(read(f, "/trace/time"))).astype(float)
    if "/trace/populations" in f:
        ds, pops = trace_columns(f, "/trace/populations", 3, time.size)
        if dims is not None and int(np.prod(dims)) == pops.shape[1]:
            names = [f"|{flat_label(i, dims)}⟩" for i in range(pops.shape[1])]
        else:
            names = [f"index {i}" for i in range(pops.shape[1])]
        curves = [(pops[:, :, k], names) for k in range(pops.shape[2])]
        what = "basis-state populations"
    else:
        ds, marg = trace_columns(f, "/trace/mode_populations", 4, time.size)
        modes, levels = marg.shape[1], marg.shape[2]
        mode_names = [text(s) for s in ds.attrs.get("modes", [])]
        if len(mode_names) != modes:
            mode_names = [f"mode {m}" for m in range(modes)]
        first = 0 if modes == 1 else 1  # with several modes level 0 is 1 - the others
        pairs = [(m, l) for m in range(modes) for l in range(first, levels)]
        names = [f"{mode_names[m]}: |{level_char(l)}⟩" for m, l in pairs]
        curves = [(np.stack([marg[:, m, l, k] for m, l in pairs], axis=1), names) for k in range(marg.shape[3])]
        what = "mode-level populations"
    n = ds.shape[-1]
    labels = initial_labels(f, ds, n)
    more = f" ({len(curves)} of {n} initial states)" if n > len(curves) else ""
    return [lambda ax, k=k: population_panel(ax, time, *curves[k], f"initial |{labels[k]}⟩: {what}{more}")
            for k in range(len(curves))]


def population_panel(ax, time, pops, names, title):
    peak = pops.max(axis=0)
    # The most populated curves in index order. With at most 10 curves a curve's colour is fixed
    # by its index, the same in every panel; with more, colours follow the order in the panel.
    order = sorted([i for i in np.argsort(-peak) if peak[i] >= MIN_SHOWN][:MAX_LINES])
    # Few recorded times: mark them, so that the straight lines between them do not read as
    # the dynamics (a trace only knows the populations at its recorded times).
    marker = dict(marker="o", ms=3) if time.size <= MARKED_SAMPLES else {}
    for n, i in enumerate(order):
        ax.plot(time, pops[:, i], lw=1.3, color=f"C{i if pops.shape[1] <= 10 else n}", label=names[i], **marker)
    rest = [i for i in range(pops.shape[1]) if i not in order]
    if rest and pops[:, rest].sum(axis=1).max() >= MIN_SHOWN and "|" in names[0] and ":" not in names[0]:
        ax.plot(time, pops[:, rest].sum(axis=1), "--", lw=1, color="gray", label=f"{len(rest)} others (sum)")
    ax.set_ylim(-0.03, 1.05)
    ax.set_xlabel("time [ns]")
    ax.set_ylabel("population")
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best", ncol=2 if len(order) > 4 else 1)


def pulse_rows(f, units):
    """The pulses: (draw(fig, spec), rows), one row per pulse (at most MAX_PULSES) sharing the
    time axis, so that simultaneous pulses with fast carriers do not hide each other."""
    time = np.real(np.ravel(read(f, "/pulses/time"))).astype(float)
    values = np.asarray(read(f, "/pulses/values"))
    if values.ndim == 1:
        values = values.reshape(1, -1)
    need_shape("/pulses/values", values, (None, time.size))
    names = strings(f, "/pulses/names") if "/pulses/names" in f else []
    if len(names) != values.shape[0]:
        names = [f"pulses[{p}]" for p in range(values.shape[0])]
    shown = min(values.shape[0], MAX_PULSES)
    row_units = [units.pulse_unit(p) for p in range(shown)]
    if len(set(row_units)) == 1:
        unit = row_units[0] if row_units[0] != "GHz or Φ0" else "GHz or Φ0 (flux)"
    else:  # each row names its own unit
        unit = "GHz; flux pulses Φ0"
        names = [f"{n} [{row_units[p]}]" if p < shown else n for p, n in enumerate(names)]

    peaks = np.abs(values[:shown]).max(axis=1) if values.size else np.zeros(shown)
    limits = np.maximum(peaks, (peaks.max(initial=0.0) or 1.0) / 20)

    def draw(fig, spec):
        grid = spec.subgridspec(shown, 1, hspace=0.06)
        axes = []
        for p in range(shown):
            ax = fig.add_subplot(grid[p], sharex=axes[0] if axes else None)
            axes.append(ax)
            v = values[p]
            ax.plot(time, np.real(v), lw=0.9, color=f"C{p % 10}", label="I (real part)")
            if np.iscomplexobj(v) and np.any(np.imag(v) != 0):
                ax.plot(time, np.imag(v), lw=0.9, ls="--", color=f"C{p % 10}", alpha=0.8, label="Q (imaginary part)")
                ax.legend(fontsize=7, loc="upper right")
            # Each row its own scale, but none finer than 1/20 of the largest pulse: a pulse that
            # is numerically zero (a carrier sampled at its nodes) stays a flat line.
            # A one-signed pulse (a flux pulse, a baseband envelope) keeps the other side small.
            lo, hi = -1.15 * limits[p], 1.15 * limits[p]
            negative = np.all(np.real(v) <= 0) and np.any(np.real(v) < 0)
            if np.all(np.real(v) >= 0):
                lo = -0.08 * limits[p]
            elif negative:
                hi = 0.08 * limits[p]
            ax.set_ylim(lo, hi)
            # The name in the corner the pulse leaves free (a negative one starts at the top).
            ax.text(0.005, 0.07 if negative else 0.93, names[p], transform=ax.transAxes, fontsize=8,
                    va="bottom" if negative else "top", bbox=dict(facecolor="white", alpha=0.7, lw=0))
            ax.grid(True, alpha=0.3)
            if p < shown - 1:
                ax.tick_params(labelbottom=False)
        more = f" ({shown} of {values.shape[0]})" if values.shape[0] > shown else ""
        axes[0].set_title(f"pulses as the solver used them{more}", fontsize=10)
        axes[-1].set_xlabel("time [ns]")
        axes[len(axes) // 2].set_ylabel(f"value [{unit}]")

    return draw, shown


def computational_labels(f, d):
    labels = strings(f, "/initial_states") if "/initial_states" in f else []
    return labels if len(labels) == d else [str(k) for k in range(d)]


def unitary_panels(f):
    u = np.asarray(read(f, "/unitary"))
    need_shape("/unitary", u, (None, u.shape[0] if u.ndim == 2 else None))
    labels = computational_labels(f, u.shape[0])
    title = "|U|² of the computational block (before compensation)"
    panels = [lambda ax: transfer_map(ax, np.abs(u) ** 2, labels, "|U|²", title)]
    # After compensation too, when it changes the picture (single-qubit layers; virtual-Z
    # layers are diagonal phases and leave |U|² as it is): the gate the fidelity is about.
    if "/unitary_compensated" in f:
        uc = np.asarray(read(f, "/unitary_compensated"))
        need_shape("/unitary_compensated", uc, u.shape)
        if np.max(np.abs(np.abs(uc) ** 2 - np.abs(u) ** 2)) > 1e-9:
            kind = f.attrs.get("compensation", b"")
            kind = kind.decode() if isinstance(kind, bytes) else str(kind)
            title_c = f"|U|² after compensation ({kind})"
            panels.append(lambda ax: transfer_map(ax, np.abs(uc) ** 2, labels, "|U|²", title_c))
    return panels


def channel_panels(f):
    """Open systems: the population transfer ⟨a|E(|i⟩⟨i|)|a⟩ of the channel on the initial
    states, the element (a + n a, i + n i) of /superoperator (column stacking)."""
    s = np.asarray(read(f, "/superoperator"))
    n = math.isqrt(s.shape[0]) if s.ndim == 2 else 0
    if s.ndim != 2 or s.shape != (n * n, n * n) or n == 0:
        raise BadFile(f"/superoperator has shape {list(s.shape)}, expected [n², n²]")
    diag = [a + n * a for a in range(n)]
    p = np.real(s[np.ix_(diag, diag)])
    title = "population transfer ⟨a|E(|i⟩⟨i|)|a⟩ of the channel"
    return [lambda ax: transfer_map(ax, p, computational_labels(f, n), "probability", title)]


def transfer_map(ax, p, labels, name, title):
    """A d x d map of probabilities (output row, input column) from 0 to 1."""
    d = p.shape[0]
    image = ax.imshow(p, cmap="Blues", vmin=0.0, vmax=1.0, origin="upper")
    ax.figure.colorbar(image, ax=ax, label=name)
    if d <= 32:
        ticks = [f"|{s}⟩" for s in labels]
        ax.set_xticks(range(d), ticks, rotation=90 if d > 8 else 0, fontsize=8 if d > 8 else 10)
        ax.set_yticks(range(d), ticks, fontsize=8 if d > 8 else 10)
    if d <= 8:
        for r in range(d):
            for c in range(d):
                ax.text(c, r, f"{p[r, c]:.4f}" if p[r, c] >= 1e-3 else f"{p[r, c]:.1e}", ha="center",
                        va="center", fontsize=9, color="white" if p[r, c] > 0.5 else "black")
    ax.set_xlabel("input (column)")
    ax.set_ylabel("output (row)")
    ax.set_title(title, fontsize=10)


def energy_panels(f):
    e = np.real(np.ravel(read(f, "/energies"))).astype(float)
    labels = strings(f, "/labels") if "/labels" in f else []
    if len(labels) != e.size:
        labels = [str(k) for k in range(e.size)]
    k = min(e.size, MAX_LEVELS)
    rel = e[:k] - e[0]

    def draw(ax):
        ax.hlines(rel, np.arange(k) - 0.35, np.arange(k) + 0.35, lw=2, color="C0")
        span = max(rel[-1], 1e-9)
        for i in range(k):
            ax.annotate(f"|{labels[i]}⟩ {rel[i]:.4g}", (i, rel[i]), textcoords="offset points", xytext=(0, 4),
                        ha="center", va="bottom", fontsize=7, rotation=90)
        ax.set_ylim(-0.05 * span, 1.35 * span)
        ax.set_xlim(-0.7, k - 0.3)
        ax.set_xticks(range(k))
        ax.set_xlabel("level (ascending dressed energy)")
        ax.set_ylabel("E − E₀ [GHz]")
        ax.set_title(f"dressed levels: lowest {k} of {e.size}", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)

    return [draw]


def zz_panels(f):
    zz = np.real(np.ravel(read(f, "/zz"))).astype(float)
    pairs = strings(f, "/zz_pairs") if "/zz_pairs" in f else []
    if len(pairs) != zz.size:
        pairs = [str(k) for k in range(zz.size)]

    def draw(ax):
        bars = ax.bar(range(zz.size), zz, color="C2")
        ax.bar_label(bars, fmt="%.4g", fontsize=8)
        ax.set_xticks(range(zz.size), pairs, rotation=45 if zz.size > 6 else 0)
        ax.axhline(0.0, color="black", lw=0.8)
        ax.set_xlabel("pair")
        ax.set_ylabel("static ZZ [kHz]")
        ax.set_title("static ZZ of coupled qubit pairs", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)

    return [draw]


# ---------------------------------------------------------------------------------------------


def title_of(f, path):
    kind = "optimiser checkpoint" if text(f.attrs.get("kind", "")) == "qevolve optimize checkpoint" else ""
    if not kind:
        kind = ("qevolve sweep" if "/sweep" in f else "qevolve optimize" if "/history" in f else
                "qevolve run" if "steps" in f.attrs else "qevolve spectrum")
    parts = [f"{os.path.basename(path)}  ({kind})"]
    if "fidelity" in f.attrs:
        fid = float(f.attrs["fidelity"])
        parts.append(f"F = {fid:.8g} (1 − F = {1 - fid:.3g})")
    if "leakage" in f.attrs:
        parts.append(f"leakage {float(f.attrs['leakage']):.3g}")
    if "duration_ns" in f.attrs and "steps" in f.attrs:
        parts.append(f"T = {float(f.attrs['duration_ns']):.6g} ns, {int(f.attrs['steps'])} steps")
    return ",  ".join(parts)


def collect_panels(f):
    """The panels (functions draw(ax)) and the pulses (draw(fig, spec), rows) or None."""
    units = Units(text(f.attrs.get("config", "")), f.attrs.get("flux_pulses"))
    dims = [int(d) for d in np.ravel(f.attrs["dims"])] if "dims" in f.attrs else None
    panels = []
    if "/sweep/fidelity" in f:
        panels += sweep_panels(f, units)
    if "/history/infidelity" in f:
        panels += history_panels(f)
    if "/trace/time" in f and ("/trace/populations" in f or "/trace/mode_populations" in f):
        panels += trace_panels(f, dims)
    if "/unitary" in f:
        panels += unitary_panels(f)
    elif "/superoperator" in f:
        panels += channel_panels(f)
    if "/energies" in f:
        panels += energy_panels(f)
    if "/zz" in f:
        panels += zz_panels(f)
    pulses = pulse_rows(f, units) if "/pulses/time" in f and "/pulses/values" in f else None
    return panels, pulses


def draw(h5_path, out_path):
    try:
        f = h5py.File(h5_path, "r")
    except OSError as e:
        raise BadFile(f"cannot open HDF5 file: {e}") from None
    with f:
        panels, pulses = collect_panels(f)
        if not panels and not pulses:
            raise BadFile("nothing to draw (no /sweep, /history, /trace, /unitary, /superoperator, /energies, /zz "
                          "or /pulses)")
        # Two columns (three for three panels; an odd last panel spans the row), then the pulses
        # across the whole width.
        cols = 1 if len(panels) <= 1 else 3 if len(panels) == 3 else 2
        rows = math.ceil(len(panels) / cols)
        heights = [4.4] * rows + ([4.4 if pulses[1] == 1 else 1.0 + 1.1 * pulses[1]] if pulses else [])
        width = {1: 9.0 if pulses else 7.5, 2: 13.0, 3: 18.0}[cols]
        fig = plt.figure(figsize=(width, 0.6 + sum(heights)), layout="constrained")
        grid = fig.add_gridspec(len(heights), cols, height_ratios=heights)
        for i, draw_panel in enumerate(panels):
            r, c = divmod(i, cols)
            last_odd = cols == 2 and i == len(panels) - 1 and len(panels) % 2 == 1
            draw_panel(fig.add_subplot(grid[r, :] if last_odd else grid[r, c]))
        if pulses:
            pulses[0](fig, grid[rows, :])
        fig.suptitle(title_of(f, h5_path), fontsize=11)
    ext = os.path.splitext(out_path)[1][1:].lower()
    fmt = ext if ext in fig.canvas.get_supported_filetypes() else "png"
    tmp = f"{out_path}.tmp-{os.getpid()}"
    try:
        fig.savefig(tmp, dpi=110, format=fmt)
        os.replace(tmp, out_path)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise CannotWrite(f"cannot write {out_path}: {e.strerror or e}") from None


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    try:
        draw(argv[1], argv[2])
    except BadFile as e:
        print(f"{argv[1]}: {e}", file=sys.stderr)
        sys.exit(2)
    except CannotWrite as e:
        print(e, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
