"""The unitary and channel parts of qevolve_plot.py (docs/output.md "What `qevolve plot` draws"):
|U|² of the computational block and, beside it, the phases of U after compensation, with the
conditional phase of a CZ / CPHASE target; for open systems the channel's population transfer.

The phases are those of /unitary_compensated (the gate the fidelity is about: for a CZ with `vz`
compensation, diag(1, 1, 1, −1) up to a global phase, whatever single-qubit phases the pulse
left), with the global phase removed so that the largest element of the first column is real and
positive. A cell whose |U|² is below PHASE_SHOWN has no phase worth reading and is hatched."""
import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import Normalize
from matplotlib.patches import Rectangle

from qevolve_plot_common import BadFile, need_shape, read, strings, text

PHASE_SHOWN = 0.01      # |U|² below which a cell's phase is not drawn
CELL_TEXT_MAX = 8       # values are written in the cells of a d x d map up to this d
TICKS_MAX = 32          # states are named on the axes up to this d


def computational_labels(f, d):
    labels = strings(f, "/initial_states") if "/initial_states" in f else []
    return labels if len(labels) == d else [str(k) for k in range(d)]


def unitary_panels(f):
    u = np.asarray(read(f, "/unitary"))
    need_shape("/unitary", u, (None, u.shape[0] if u.ndim == 2 else None))
    labels = computational_labels(f, u.shape[0])
    title = "|U|² of the computational block (before compensation)"
    panels = [lambda ax: transfer_map(ax, np.abs(u) ** 2, labels, "|U|²", title)]
    kind = text(f.attrs.get("compensation", ""))
    uc = None
    if "/unitary_compensated" in f:
        uc = np.asarray(read(f, "/unitary_compensated"))
        need_shape("/unitary_compensated", uc, u.shape)
    # After compensation too, when it changes the picture (single-qubit layers; virtual-Z
    # layers are diagonal phases and leave |U|² as it is): the gate the fidelity is about.
    if uc is not None and np.max(np.abs(np.abs(uc) ** 2 - np.abs(u) ** 2)) > 1e-9:
        title_c = f"|U|² after compensation ({kind})"
        panels.append(lambda ax: transfer_map(ax, np.abs(uc) ** 2, labels, "|U|²", title_c))
    when = ("before compensation" if uc is None else
            "(compensation none)" if kind == "none" else f"after compensation ({kind})")
    cphase = float(np.real(f.attrs["conditional_phase"])) if "conditional_phase" in f.attrs else None
    panels.append(lambda ax: phase_map(ax, u if uc is None else uc, labels, when, cphase))
    return panels


def relative_phases(u):
    """arg U / π in (−1, 1] with the global phase that makes the largest element of the first
    column real and positive, and the row of that element."""
    ref = int(np.argmax(np.abs(u[:, 0])))
    z = u * np.exp(-1j * np.angle(u[ref, 0]))
    phase = np.angle(z) / math.pi
    return np.where(phase <= -1.0 + 1e-9, 1.0, phase), ref


def pi_text(value, digits=3):
    """`0.998π`, `−0.500π` (a minus sign, not a hyphen; no `−0.000π`)."""
    value = round(float(value), digits) + 0.0  # + 0.0 turns −0.0 into 0.0
    return f"{value:.{digits}f}π".replace("-", "−")


def conditional_phase_text(cphase, labels):
    """The conditional phase with its formula in the labels of the four states (docs/output.md:
    arg(U₀₀ U₁₁ U₀₁* U₁₀*) of the diagonal)."""
    value = f"{pi_text(cphase / math.pi, 4)} = {math.degrees(cphase):.2f}°".replace("-", "−")
    if len(labels) != 4:
        return f"conditional phase {value}"
    s00, s01, s10, s11 = (f"φ({s})" for s in labels)
    return f"conditional phase {s11} − {s10} − {s01} + {s00} = {value}"


def phase_map(ax, u, labels, when, cphase):
    """The phases of U on a cyclic colour scale from −π to π, cells with |U|² < PHASE_SHOWN
    hatched, the values written in the cells (d ≤ CELL_TEXT_MAX); the conditional phase in the
    title when the file has one."""
    d = u.shape[0]
    phase, ref = relative_phases(u)
    shown = np.abs(u) ** 2 >= PHASE_SHOWN
    norm = Normalize(vmin=-1.0, vmax=1.0)
    cmap = plt.get_cmap("twilight_shifted").with_extremes(bad="white")
    image = ax.imshow(np.ma.masked_where(~shown, phase), cmap=cmap, norm=norm, origin="upper")
    ax.figure.colorbar(image, cax=colour_bar_axes(ax), label="phase / π", ticks=[-1, -0.5, 0, 0.5, 1])
    for r, c in zip(*np.nonzero(~shown)):
        ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.8", lw=0))
    label_axes(ax, labels)
    if d <= CELL_TEXT_MAX:
        for r, c in zip(*np.nonzero(shown)):
            red, green, blue, _ = cmap(norm(phase[r, c]))
            dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
            ax.text(c, r, pi_text(phase[r, c]), ha="center", va="center", fontsize=9,
                    color="white" if dark else "black")
    lines = [f"phase arg U {when}",
             f"global phase: ⟨{labels[ref]}|U|{labels[0]}⟩ real; hatched: |U|² < {PHASE_SHOWN:g}"]
    if cphase is not None:
        lines.append(conditional_phase_text(cphase, labels))
    ax.set_title("\n".join(lines), fontsize=9.5)


def colour_bar_axes(ax):
    """The colour bar's axes, glued to the map's right edge (a child of the map's axes, which the
    layout keeps clear of the next panel: a bar placed by the layout drifted away from a map
    whose column is shared with a wider panel, its label over the next panel's)."""
    return ax.inset_axes([1.03, 0.0, 0.045, 1.0])


def label_axes(ax, labels):
    """States on the axes (d ≤ TICKS_MAX), inputs on x, outputs on y."""
    d = len(labels)
    if d <= TICKS_MAX:
        ticks = [f"|{s}⟩" for s in labels]
        ax.set_xticks(range(d), ticks, rotation=90 if d > 8 else 0, fontsize=8 if d > 8 else 10)
        ax.set_yticks(range(d), ticks, fontsize=8 if d > 8 else 10)
    ax.set_xlabel("input (column)")
    ax.set_ylabel("output (row)")


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
    ax.figure.colorbar(image, cax=colour_bar_axes(ax), label=name)
    label_axes(ax, labels)
    if d <= CELL_TEXT_MAX:
        for r in range(d):
            for c in range(d):
                ax.text(c, r, f"{p[r, c]:.4f}" if p[r, c] >= 1e-3 else f"{p[r, c]:.1e}", ha="center",
                        va="center", fontsize=9, color="white" if p[r, c] > 0.5 else "black")
    ax.set_title(title, fontsize=10)
