"""The ensemble part of qevolve_plot.py (docs/output.md "What `qevolve plot` draws"): 1 - F of
each member of a device ensemble (docs/ensembles.md) on a log scale, the objective as a line,
the worst member marked, the weights as the markers' areas (and written beside them).

A one-key ensemble (every member overrides exactly one and the same key, to a number) is drawn
against that key's value; any other against the member index, the overrides (shortened: the
last part of each key, the value to 6 digits) as tick labels. An optimize file also holds the
members at the start point (/ensemble/start_fidelity), drawn as open markers; an older file
without them says so in the title.

Leakage below LEAKAGE_FLOOR is rounding noise (as in the sweep panels) and is not drawn."""
import re

import numpy as np

from qevolve_plot_common import BadFile, label_log_axis, log_floor, log_grid, read, strings, text

LEAKAGE_FLOOR = 1e-12   # leakage below this is not drawn (rounding noise)
WRITTEN_MAX = 12        # the weights are written beside the markers up to this many members
TICKS_MAX = 24          # tick labels of a many-key ensemble: at most this many (evenly spread)
MARKER_AREA = 260.0     # the area (points²) of the heaviest member's marker


def parse_overrides(texts):
    """[[(key, value text), ...] per member] of `KEY = VALUE, KEY = VALUE` strings."""
    members = []
    for s in texts:
        pairs = []
        for part in re.split(r",\s*(?=[^,=]+\s=\s)", s.strip()) if s.strip() else []:
            key, _, value = part.partition("=")
            pairs.append((key.strip(), value.strip()))
        members.append(pairs)
    return members


def number(value):
    try:
        return float(value)
    except ValueError:
        return None


def one_key(members):
    """(key, values) when every member overrides exactly one and the same key to a number;
    else None."""
    if not members or any(len(m) != 1 for m in members) or len({m[0][0] for m in members}) != 1:
        return None
    values = [number(m[0][1]) for m in members]
    return None if any(v is None for v in values) else (members[0][0][0], np.array(values))


def short_label(pairs):
    """`el = 0.994286, frequency = 0.583077`: the last part of each key, the value to 6 digits."""
    def short(key, value):
        v = number(value)
        return f"{key.split('.')[-1]} = {value if v is None else format(v, '.6g')}"
    return "\n".join(short(k, v) for k, v in pairs) if pairs else "nominal"


def ensemble_panels(f, units):
    fid = np.real(np.ravel(read(f, "/ensemble/fidelity"))).astype(float)
    k = fid.size

    def beside(name):
        v = np.real(np.ravel(read(f, f"/ensemble/{name}"))).astype(float)
        if v.size != k:
            raise BadFile(f"/ensemble/{name} has {v.size} entries, /ensemble/fidelity {k}")
        return v

    weights = beside("weights")
    leakage = beside("leakage") if "/ensemble/leakage" in f else None
    overrides = strings(f, "/ensemble/overrides") if "/ensemble/overrides" in f else [""] * k
    if len(overrides) != k:
        raise BadFile(f"/ensemble/overrides has {len(overrides)} entries, /ensemble/fidelity {k}")
    attrs = f["/ensemble/fidelity"].attrs
    objective = text(attrs.get("objective", "mean"))
    worst = int(attrs["worst"]) if "worst" in attrs else int(np.argmin(fid))
    if not 0 <= worst < k:
        raise BadFile(f"/ensemble/fidelity: attribute worst = {worst} is not a member (0 to {k - 1})")
    value = float(np.dot(weights, fid)) if objective == "mean" else float(fid[worst])
    members = parse_overrides(overrides)
    keyed = one_key(members)
    optimised = "/history/infidelity" in f
    start = beside("start_fidelity") if "/ensemble/start_fidelity" in f else None

    def draw(ax):
        x = keyed[1] if keyed else np.arange(k, dtype=float)
        infid = log_floor(1.0 - fid)
        order = np.argsort(x)
        if keyed:  # F against the key: the members joined in the key's order
            ax.plot(x[order], infid[order], "-", lw=0.8, color="C0", alpha=0.5)
        sizes = np.maximum(MARKER_AREA * weights / max(float(weights.max(initial=0.0)), 1e-300), 8.0)
        ax.scatter(x, infid, s=sizes, color="C0", zorder=3, label="1 − F per member (marker area ∝ weight)")
        ax.scatter([x[worst]], [infid[worst]], s=sizes[worst] + 140, facecolors="none", edgecolors="C3", lw=1.6,
                   zorder=4, label=f"worst member (#{worst}): 1 − F = {1 - fid[worst]:.3g}")
        ax.axhline(max(1.0 - value, 1e-16), color="C1", ls="--", lw=1.2,
                   label=f"objective ({objective}): 1 − F = {1 - value:.3g}")
        shown = [infid, [max(1.0 - value, 1e-16)]]
        if start is not None:  # optimize: the same members at the start point
            s_infid = log_floor(1.0 - start)
            if keyed:
                ax.plot(x[order], s_infid[order], "-", lw=0.8, color="0.5", alpha=0.6)
            ax.scatter(x, s_infid, s=sizes, facecolors="none", edgecolors="0.4", zorder=3,
                       label=f"start point: 1 − F per member (worst {1 - float(np.min(start)):.3g})")
            shown.append(s_infid)
        if leakage is not None:
            leak = np.where(leakage >= LEAKAGE_FLOOR, leakage, np.nan)
            if np.all(np.isnan(leak)):
                ax.plot([], [], " ", label="leakage < 1e-12 at every member (rounding): not drawn")
            else:
                hidden = int(np.sum(np.isnan(leak)))
                ax.plot(x[order], leak[order], ":" if keyed else "none", marker=".", color="C2", lw=1,
                        label="leakage" + (f" ({hidden} member(s) below 1e-12, rounding: not drawn)" if hidden else ""))
                shown.append(leak[~np.isnan(leak)])
        if k <= WRITTEN_MAX:
            for i in range(k):
                ax.annotate(f"w {weights[i]:.3g}", (x[i], infid[i]), textcoords="offset points", xytext=(8, -3),
                            fontsize=7, color="0.3")
        ax.set_yscale("log")
        lo, hi = (np.log10(min(float(np.min(v)) for v in shown) / 1.5),
                  np.log10(max(float(np.max(v)) for v in shown) * 1.5))
        # The top third free for the legend; but 1 - F and leakage are at most 1, so an axis that
        # would reach past 1 stops just above it and the legend goes where the data leave room.
        top = 10 ** (lo + (hi - lo) / 0.62)
        ax.set_ylim(10 ** lo, top if top <= 1.0 else max(1.5, 10 ** hi))
        ax.margins(x=0.08)
        label_log_axis(ax.yaxis)
        log_grid(ax)
        ax.set_ylabel("1 − F; leakage" if leakage is not None and not np.all(np.isnan(
            np.where(leakage >= LEAKAGE_FLOOR, leakage, np.nan))) else "1 − F")
        if keyed:
            ax.set_xlabel(units.label(keyed[0]))
        else:
            step = max(1, int(np.ceil(k / TICKS_MAX)))
            ticks = list(range(0, k, step))
            ax.set_xticks(ticks, [f"#{i}: {short_label(members[i])}" for i in ticks],
                          rotation=90 if k > 4 else 0, fontsize=7)
            ax.set_xlabel("member")
        ax.legend(fontsize=7, loc="upper center" if top <= 1.0 else "best")
        pulse = "the optimised pulse" if optimised else "the pulse"
        against = f"against {keyed[0]}" if keyed else "per member"
        note = ("\n(the start point's members are not in the file)" if optimised and start is None
                else "\n(open markers: the start point)" if start is not None else "")
        ax.set_title(f"ensemble: 1 − F of {pulse} {against}\n({k} members, objective {objective} "
                     f"1 − F = {1 - value:.3g}, worst {1 - fid[worst]:.3g}){note}", fontsize=10)

    return [draw]
