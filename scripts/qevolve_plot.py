#!/usr/bin/env python3
"""Draws what a qevolve HDF5 file holds: the picture of `qevolve plot FILE.h5 [-o OUT.png]`.

Usage: qevolve_plot.py FILE.h5 OUT.png [--population OUT [--from IN]]

One figure, one panel per part the file holds (docs/output.md "What `qevolve plot` draws"):
- /sweep/fidelity: 1 axis: 1 - F and leakage against the axis (log scale); 2 axes: heat maps of
  1 - F and leakage (log colour scale), the best point marked; more axes: the 2-D slice of the
  first two axes through the best point. Text axes (e.g. solver names) are drawn as categories;
  without a fidelity (NaN: no target) the leakage alone. Leakage below 1e-12 (rounding) is not
  drawn. With --population, first the population of |OUT> starting in |IN> (default: the first
  computational state) from /sweep/populations, on a linear scale (qevolve_plot_sweep.py).
- /history: what the optimiser minimised per iteration (1 - F, or (1 - F) + w leakage with 1 - F
  and leakage beside it; log scale) and the gradient norm.
- /ensemble/fidelity (a config with `ensemble:`): 1 - F per member (log scale), against the key
  of a one-key ensemble, else against the member index; the objective as a line, the worst
  member marked, marker areas by weight (qevolve_plot_ensemble.py). Such a file has no /unitary.
- /trace: populations against time, one panel per initial state (at most 4): the most populated
  basis states of /trace/populations, or the mode levels of /trace/mode_populations.
- /unitary: |U|^2 of the computational block, labelled with /initial_states, and the phases of U
  after compensation with a CZ's conditional phase; without it, /superoperator (open systems):
  the channel's population transfer <a|E(|i><i|)|a> (qevolve_plot_unitary.py).
- /energies (with /labels): the lowest dressed levels above the ground state; /zz: static ZZ.
- /pulses: every pulse's samples against time (real and imaginary parts when complex); with
  /pulses/ideal (control lines) also, thin and dashed, each pulse on a line before its line.
The output format follows OUT's extension (png, pdf, svg, ...; anything else: png); the file is
written under a temporary name and renamed, with the figure's titles and legend entries as its
description (PNG and SVG `Description`, PDF `Subject`). A file it cannot draw: one line
`FILE: problem` on stderr and exit status 2; a flag value the file does not fit (a state it does
not have): one line `FLAG: problem (expected ...)` and exit status 2.
"""
import math
import os
import sys
import textwrap

import h5py
import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from qevolve_plot_common import (FLOOR, BadFile, BadFlag, CannotWrite, Units, label_log_axis,  # noqa: E402,F401
                                 log_floor, log_grid, need_shape, read, strings, text)
from qevolve_plot_ensemble import ensemble_panels  # noqa: E402
from qevolve_plot_sweep import sweep_panels  # noqa: E402
from qevolve_plot_unitary import channel_panels, unitary_panels  # noqa: E402

MAX_TRACE_PANELS = 4    # initial states drawn
MAX_LINES = 8           # curves per population panel
MIN_SHOWN = 0.01        # a population curve is drawn when it reaches this somewhere
MAX_LEVELS = 12         # levels of the level diagram
MAX_PULSES = 8
MARKED_SAMPLES = 60     # traces with at most this many recorded times show a marker at each


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


# ---------------------------------------------------------------------------------------------
# Panels: each function returns a list of functions draw(ax), one per panel.


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
    if "/ensemble/fidelity" in f:  # the ensemble's objective (docs/ensembles.md)
        return f"1 − F ({text(f['/ensemble/fidelity'].attrs.get('objective', 'mean'))} of the ensemble)", infid, []
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


def row_limits(curves, limit):
    """The y range of a pulse row drawing `curves` (real arrays): the side the curves reach
    furthest gets 1.15 `limit`, the other side as far as the curves reach there (in proportion),
    but at least a margin of 0.08 `limit`. Returns (lo, hi, negative): negative when the curves
    reach further below zero than above."""
    up = max([max(float(np.max(c, initial=0.0)), 0.0) for c in curves], default=0.0)
    down = max([max(-float(np.min(c, initial=0.0)), 0.0) for c in curves], default=0.0)
    reach = max(up, down)
    if reach == 0.0:
        return -0.08 * limit, 1.15 * limit, False

    def side(x):
        return limit * max(0.08, 1.15 * x / reach)

    return -side(down), side(up), down > up


def pulse_rows(f, units):
    """The pulses: (draw(fig, spec), rows), one row per pulse (at most MAX_PULSES) sharing the
    time axis, so that simultaneous pulses with fast carriers do not hide each other. With
    /pulses/ideal (a run with control lines, docs/lines.md) a pulse on a line is drawn twice:
    its line's output (what the mode sees, /pulses/values) and, thin and dashed, the pulse
    before the line."""
    time = np.real(np.ravel(read(f, "/pulses/time"))).astype(float)
    values = np.asarray(read(f, "/pulses/values"))
    if values.ndim == 1:
        values = values.reshape(1, -1)
    need_shape("/pulses/values", values, (None, time.size))
    ideal = None
    if "/pulses/ideal" in f:
        ideal = np.asarray(read(f, "/pulses/ideal"))
        if ideal.ndim == 1:
            ideal = ideal.reshape(1, -1)
        need_shape("/pulses/ideal", ideal, values.shape)
        ideal = np.real(ideal).astype(float)
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

    # The rows whose pulse went through a line: its ideal differs from what the mode saw.
    lined = [ideal is not None and not np.array_equal(ideal[p], np.real(values[p])) for p in range(shown)]
    peaks = np.abs(values[:shown]).max(axis=1) if values.size else np.zeros(shown)
    if ideal is not None and values.size:
        peaks = np.maximum(peaks, np.abs(ideal[:shown]).max(axis=1))
    limits = np.maximum(peaks, (peaks.max(initial=0.0) or 1.0) / 20)

    def draw(fig, spec):
        grid = spec.subgridspec(shown, 1, hspace=0.06)
        axes = []
        for p in range(shown):
            ax = fig.add_subplot(grid[p], sharex=axes[0] if axes else None)
            axes.append(ax)
            v = values[p]
            color = f"C{p % 10}"
            curves = [np.real(v)]
            complex_row = np.iscomplexobj(v) and np.any(np.imag(v) != 0)
            after = "after the line (what the mode sees)"
            ax.plot(time, np.real(v), lw=0.9, color=color,
                    label=(f"I (real part), {after}" if complex_row else after) if lined[p] else "I (real part)")
            if complex_row:
                curves.append(np.imag(v))
                ax.plot(time, np.imag(v), lw=0.9, ls="--", color=color, alpha=0.8, label="Q (imaginary part)")
            if lined[p]:
                curves.append(ideal[p])
                ax.plot(time, ideal[p], lw=0.6, ls=(0, (4, 2)), color=color, alpha=0.9, label="before the line")
            if complex_row or lined[p]:
                ax.legend(fontsize=7, loc="upper right")
            # Each row its own scale (both curves of a pulse on a line), but none finer than
            # 1/20 of the largest pulse: a pulse that is numerically zero (a carrier sampled at
            # its nodes) stays a flat line. A one-signed pulse (a flux pulse, a baseband
            # envelope) keeps a small margin on the other side, or as much as an undershoot
            # (a line's high-pass after the pulse) needs.
            lo, hi, negative = row_limits(curves, limits[p])
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
        objective = (f", ensemble {text(f['/ensemble/fidelity'].attrs.get('objective', 'mean'))}"
                     if "/ensemble/fidelity" in f else "")
        parts.append(f"F = {fid:.8g} (1 − F = {1 - fid:.3g}{objective})")
    if "leakage" in f.attrs:
        parts.append(f"leakage {float(f.attrs['leakage']):.3g}")
    if "duration_ns" in f.attrs and "steps" in f.attrs:
        parts.append(f"T = {float(f.attrs['duration_ns']):.6g} ns, {int(f.attrs['steps'])} steps")
    return ",  ".join(parts)


def collect_panels(f, population=None):
    """The panels (functions draw(ax)) and the pulses (draw(fig, spec), rows) or None;
    `population` = (OUT, IN or None) of --population and --from (a sweep's only)."""
    units = Units(text(f.attrs.get("config", "")), f.attrs.get("flux_pulses"))
    dims = [int(d) for d in np.ravel(f.attrs["dims"])] if "dims" in f.attrs else None
    panels = []
    if population and "/sweep/fidelity" not in f:
        raise BadFlag("--population", f"{f.filename} is not a sweep: it holds no /sweep/populations",
                      "the output of qevolve sweep")
    if "/sweep/fidelity" in f:
        panels += sweep_panels(f, units, population)
    if "/history/infidelity" in f:
        panels += history_panels(f)
    if "/ensemble/fidelity" in f:
        panels += ensemble_panels(f, units)
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


def description(fig):
    """The figure's text in reading order: the title, then each panel's title and legend entries
    (written into the image file, where a test or a search can read what was drawn)."""
    parts = [fig._suptitle.get_text()] if fig._suptitle else []
    for ax in fig.axes:
        parts += [t for t in (ax.get_title(),) if t]
        legend = ax.get_legend()
        parts += [t.get_text() for t in legend.get_texts()] if legend else []
    return "\n".join(parts)


METADATA_KEY = {"png": "Description", "svg": "Description", "pdf": "Subject"}


def draw(h5_path, out_path, population=None):
    try:
        f = h5py.File(h5_path, "r")
    except OSError as e:
        raise BadFile(f"cannot open HDF5 file: {e}") from None
    with f:
        panels, pulses = collect_panels(f, population)
        if not panels and not pulses:
            raise BadFile("nothing to draw (no /sweep, /history, /ensemble, /trace, /unitary, /superoperator, "
                          "/energies, /zz or /pulses)")
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
    key = METADATA_KEY.get(fmt)
    tmp = f"{out_path}.tmp-{os.getpid()}"
    try:
        fig.savefig(tmp, dpi=110, format=fmt, metadata={key: description(fig)} if key else None)
        os.replace(tmp, out_path)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise CannotWrite(f"cannot write {out_path}: {e.strerror or e}") from None


def arguments(argv):
    """(FILE, OUT, population): population = (OUT state, IN state or None) or None. Anything
    else than the usage (the CLI checks its flags first) prints the usage, exit status 1."""
    if len(argv) < 3 or len(argv) % 2 == 0:
        sys.exit(__doc__)
    flags = dict(zip(argv[3::2], argv[4::2]))
    if len(flags) != (len(argv) - 3) // 2 or not set(flags) <= {"--population", "--from"} or \
            ("--from" in flags and "--population" not in flags):
        sys.exit(__doc__)
    population = (flags["--population"], flags.get("--from")) if "--population" in flags else None
    return argv[1], argv[2], population


def main(argv):
    h5, out, population = arguments(argv)
    try:
        draw(h5, out, population)
    except BadFile as e:
        print(f"{h5}: {e}", file=sys.stderr)
        sys.exit(2)
    except (BadFlag, CannotWrite) as e:
        print(e, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
