"""The sweep part of qevolve_plot.py (docs/output.md "What `qevolve plot` draws"): 1 - F and
leakage against one axis, or heat maps of two; a CZ's conditional phase; with `--population OUT
[--from IN]` the population of |OUT⟩ starting in |IN⟩ (a chevron) from /sweep/populations.

Leakage below LEAKAGE_FLOOR is rounding noise of 1 - Tr(U†U)/d (a two-level model leaks exactly
nothing, and computes ~1e-16): it is not drawn, and the legend or title says so."""
import math
import textwrap

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LogNorm

from qevolve_plot_common import BadFile, BadFlag, label_log_axis, log_floor, log_grid, read, strings, text

LEAKAGE_FLOOR = 1e-12   # leakage below this is not drawn (rounding noise)
MASKED_GREY = "0.82"    # the colour of the leakage map's cells below LEAKAGE_FLOOR


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


def grid_beside(f, path, fid):
    """The real values of `path` shaped as /sweep/fidelity, or None when the file lacks it."""
    if path not in f:
        return None
    values = np.real(np.asarray(read(f, path), dtype=complex))
    if values.size != fid.size:
        raise BadFile(f"{path} has shape {list(values.shape)}, /sweep/fidelity {list(fid.shape)}")
    return values.reshape(fid.shape)


def state_index(flag, label, labels, file):
    """The index of `label` (`1`, `|1⟩` or `|1>`) in the computational labels; BadFlag otherwise."""
    shown = ", ".join(labels) if len(labels) <= 32 else ", ".join(labels[:8]) + ", …"
    bare = label.strip()
    bare = bare[1:] if bare.startswith("|") else bare
    bare = bare[:-1] if bare.endswith((">", "⟩")) else bare
    if not bare:
        raise BadFlag(flag, "the state is empty", f"one of {shown}")
    if bare not in labels:
        raise BadFlag(flag, f"`{label}` is not a computational state of {file}", f"one of {shown}")
    return labels.index(bare)


def population_grid(f, fid, request):
    """(P, OUT, IN): the population of output |OUT⟩ starting in |IN⟩ at every point, from
    /sweep/populations [n0, ..., d, d] (rows outputs, columns inputs); IN defaults to the first
    computational state (all qubits in 0)."""
    out_label, in_label = request
    if "/sweep/populations" not in f:
        raise BadFlag("--population", f"{f.filename} holds no /sweep/populations",
                      "the output of qevolve sweep")
    labels = strings(f, "/sweep/labels")
    pops = np.real(np.asarray(read(f, "/sweep/populations"), dtype=complex))
    d = len(labels)
    if pops.shape != fid.shape + (d, d):
        want = ", ".join(str(n) for n in fid.shape + (d, d))
        raise BadFile(f"/sweep/populations has shape {list(pops.shape)}, expected [{want}]")
    out = state_index("--population", out_label, labels, f.filename)
    start = 0 if in_label is None else state_index("--from", in_label, labels, f.filename)
    return pops[..., out, start], labels[out], labels[start]


def sweep_panels(f, units, population=None):
    """The sweep's panels; `population` = (OUT, IN or None) adds the population panel first."""
    fid = np.atleast_1d(np.real(np.asarray(read(f, "/sweep/fidelity"), dtype=complex)))
    leak = grid_beside(f, "/sweep/leakage", fid)
    if leak is not None and not np.isfinite(leak).any():
        leak = None
    axes = [SweepAxis(f, k, fid.shape[k], units) for k in range(fid.ndim)]
    phase = grid_beside(f, "/sweep/conditional_phase", fid)
    phase = None if phase is None else phase / math.pi
    pop = population_grid(f, fid, population) if population else None
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
        leak, phase = (None if g is None else g[index] for g in (leak, phase))
        pop = None if pop is None else (pop[0][index],) + pop[1:]
    best = best[:2] if has_fid else None
    best_text = ""
    if has_fid:
        best_text = f"1 − F = {infid[best]:.3g} at " + ", ".join(axes[k].value(best[k]) for k in range(len(best)))
    if fid.ndim == 1:
        panels = [lambda ax: population_line(ax, axes[0], pop, best)] if pop else []
        panels.append(lambda ax: sweep_line(ax, axes[0], infid if has_fid else None, leak, best, best_text))
        if phase is not None:
            panels.append(lambda ax: phase_line(ax, axes[0], phase, best))
        return panels
    panels = [lambda ax: population_map(ax, axes, pop, best, note)] if pop else []
    if has_fid:
        best_line = textwrap.fill(f"best ★: {best_text}", 64)
        panels.append(lambda ax: sweep_map(ax, axes, infid, "1 − F", best, f"1 − F\n{best_line}{note}"))
    if leak is not None:
        title = "leakage" + ("" if has_fid else " (no fidelity: the config has no target)")
        panels.append(lambda ax: leakage_map(ax, axes, leak, best, title + note))
    if phase is not None:
        panels.append(lambda ax: phase_map(ax, axes, phase, best, note))
    return panels


def population_title(pop):
    return f"population of |{pop[1]}⟩ starting in |{pop[2]}⟩"


def population_line(ax, axis, pop, best):
    """The population of one state against the sweep's one axis, on a linear scale."""
    ax.plot(axis.x, pop[0], "o-", ms=3, color="C4", label=f"P(|{pop[1]}⟩)")
    if best is not None:
        ax.plot([axis.x[best[0]]], [pop[0][best[0]]], "*", ms=14, color="C3", label="best point (max F)")
    ax.set_ylim(-0.03, 1.05)
    axis.label(ax.xaxis)
    ax.set_ylabel(f"P(|{pop[1]}⟩)")
    ax.set_title(f"sweep: {population_title(pop)}", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)


def bounded_map(ax, axes, values, best, note, scale, title, star_sep):
    """A map over two axes on a fixed colour scale (`scale`: vmin, vmax, colour map, bar label),
    the best point starred."""
    y_axis, x_axis = axes[0], axes[1]
    vmin, vmax, cmap, label = scale
    mesh = ax.pcolormesh(cell_edges(x_axis.x), cell_edges(y_axis.x), np.ma.masked_invalid(values),
                         vmin=vmin, vmax=vmax, cmap=cmap, shading="flat")
    ax.figure.colorbar(mesh, ax=ax, label=label)
    if best is not None:
        ax.plot([x_axis.x[best[1]]], [y_axis.x[best[0]]], "*", ms=16, color="white", mec="black", mew=0.8)
        title += f"{star_sep}(★: the best point, max F)"
    x_axis.label(ax.xaxis)
    y_axis.label(ax.yaxis)
    ax.set_title(f"sweep: {title}{note}", fontsize=9.5)


def population_map(ax, axes, pop, best, note):
    """The population of one state over two axes (a chevron), on a linear scale from 0 to 1."""
    bounded_map(ax, axes, pop[0], best, note, (0.0, 1.0, "magma", f"P(|{pop[1]}⟩)"), population_title(pop), "\n")


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
    bounded_map(ax, axes, phase, best, note, (-1.0, 1.0, "twilight_shifted", "conditional phase / π"),
                "conditional phase", " ")


def leakage_shown(leak):
    """The leakage with the points below LEAKAGE_FLOOR (and NaN) as NaN, and whether any was."""
    above = np.asarray(leak) >= LEAKAGE_FLOOR  # NaN compares False
    return np.where(above, leak, np.nan), bool((~above).any())


def sweep_line(ax, axis, infid, leak, best, best_text):
    x = axis.x
    if infid is not None:
        ax.semilogy(x, log_floor(infid), "o-", ms=3, label="1 − F")
    if leak is not None:
        shown, hidden = leakage_shown(leak)
        if np.isfinite(shown).any():
            label = "leakage" + (f" (points < {LEAKAGE_FLOOR:.0e}: rounding, not drawn)" if hidden else "")
            ax.semilogy(x, shown, "s--", ms=3, color="C1", label=label)
        else:  # an entry in the legend, no curve
            ax.plot([], [], "s--", ms=3, color="C1", label=f"leakage < {LEAKAGE_FLOOR:.0e} at every point "
                                                          "(rounding): not drawn")
    if best is not None:
        ax.plot([x[best[0]]], [max(infid[best[0]], 1e-16)], "*", ms=14, color="C3", label=f"best: {best_text}")
    ax.set_yscale("log")
    axis.label(ax.xaxis)
    ax.set_ylabel("1 − F, leakage" if infid is not None else "leakage")
    label_log_axis(ax.yaxis)
    ax.set_title("sweep: 1 − F and leakage" if infid is not None else "sweep: leakage (no fidelity: no target)",
                 fontsize=10)
    log_grid(ax)
    ax.legend(fontsize=8)


def log_mesh(ax, axes, data, name):
    """A pcolormesh of the masked array `data` on a log colour scale of at least one decade, with
    its colour bar; masked cells grey."""
    y_axis, x_axis = axes[0], axes[1]
    lo, hi = float(data.min()), float(data.max())
    cmap = plt.get_cmap("viridis").with_extremes(bad=MASKED_GREY)
    mesh = ax.pcolormesh(cell_edges(x_axis.x), cell_edges(y_axis.x), data, norm=LogNorm(vmin=lo, vmax=max(hi, lo * 10)),
                         cmap=cmap, shading="flat")
    label_log_axis(ax.figure.colorbar(mesh, ax=ax, label=f"{name} (log scale)").ax.yaxis)


def finish_map(ax, axes, best, title):
    """Stars the best point, labels the axes, sets the title."""
    y_axis, x_axis = axes[0], axes[1]
    if best is not None:
        # Named in the title rather than by a legend box, which would hide cells of the map.
        ax.plot([x_axis.x[best[1]]], [y_axis.x[best[0]]], "*", ms=16, color="white", mec="black", mew=0.8)
        if "★" not in title:
            title += " (★: the best point, max F)"
    x_axis.label(ax.xaxis)
    y_axis.label(ax.yaxis)
    ax.set_title(f"sweep: {title}", fontsize=9.5)


def sweep_map(ax, axes, values, name, best, title):
    log_mesh(ax, axes, np.ma.masked_invalid(log_floor(values)), name)
    finish_map(ax, axes, best, title)


def leakage_map(ax, axes, leak, best, title):
    """The leakage map: cells below LEAKAGE_FLOOR grey (rounding noise), the title says so; all
    of them: a grey panel, without the best point, saying that the leakage is below it everywhere."""
    shown, hidden = leakage_shown(leak)
    data = np.ma.masked_invalid(shown)
    head, _, rest = title.partition("\n")
    if data.count() == 0:
        ax.pcolormesh(cell_edges(axes[1].x), cell_edges(axes[0].x), np.zeros(leak.shape),
                      cmap=plt.get_cmap("Greys").with_extremes(under=MASKED_GREY), vmin=1, vmax=2, shading="flat")
        head += f"\n< {LEAKAGE_FLOOR:.0e} at every point (rounding): not drawn"
        ax.text(0.5, 0.5, f"leakage < {LEAKAGE_FLOOR:.0e}\nat every point", transform=ax.transAxes, ha="center",
                va="center", fontsize=12, color="0.3")
        best = None  # a star on an empty map points at nothing
    else:
        log_mesh(ax, axes, data, "leakage")
        if hidden:
            head += f"\ngrey: < {LEAKAGE_FLOOR:.0e} (rounding), not drawn"
    finish_map(ax, axes, best, head + ("\n" + rest if rest else ""))
