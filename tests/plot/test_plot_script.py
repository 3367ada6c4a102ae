#!/usr/bin/env python3
"""ctest PlotScript: scripts/qevolve_plot.py on the synthetic trace, sweep and run files of
make_plot_inputs.py. Each must give a PNG with the expected panels; the phases of a CZ-like gate
after compensation and its conditional phase, leakage below 1e-12 left out of the log scales,
and a sweep's population (--population OUT --from IN) are checked against the numbers the files
were made from (a two-level chevron against the Rabi formula); a malformed file or a state the
sweep does not have must give exit status 2 and one line naming the problem; a run with a control
line draws each pulse on a line before and after it (/pulses/ideal); an ensemble file draws 1 − F
per member (against the key of a one-key ensemble). Exit 77 (skipped)
without matplotlib or h5py.

Usage: test_plot_script.py [KEEP_FOLDER]  (the PNGs stay there to be looked at)
"""
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "qevolve_plot.py")

try:
    import h5py  # noqa: F401
    import matplotlib  # noqa: F401
    import numpy  # noqa: F401
except ImportError as e:
    print(f"skipped: {sys.executable} lacks {e.name}")
    sys.exit(77)

sys.dont_write_bytecode = True  # nothing written into the source tree
import numpy as np  # noqa: E402

sys.path.insert(0, HERE)
import make_plot_inputs  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
# file -> the number of panels (4 initial states and the pulses; 1 or 2 sweep panels)
EXPECTED = {"trace.h5": 5, "trace_modes.h5": 5, "sweep1.h5": 1, "chevron.h5": 2, "sweep3.h5": 2,
            "sweep_text.h5": 2, "sweep_notarget.h5": 1, "chevron_2level.h5": 2, "leak_line.h5": 1,
            "leak_map.h5": 2, "cz_run.h5": 2, "lined_run.h5": 1, "ensemble1.h5": 1, "ensemble1_opt.h5": 2,
            "ensemble2.h5": 1}
LEAKAGE_FLOOR = 1e-12  # docs/output.md: leakage below this is not drawn


def panels_of(h5, population=None):
    """The titles of the panels the script draws for `h5` (through its own functions); the
    pulses, one panel of rows, come last."""
    sys.path.insert(0, os.path.dirname(SCRIPT))
    import qevolve_plot
    import matplotlib.pyplot as plt
    with h5py.File(h5, "r") as f:
        panels, pulses = qevolve_plot.collect_panels(f, population)
        titles = []
        for draw in panels:
            fig = plt.figure()
            ax = fig.add_subplot()
            draw(ax)
            titles.append(ax.get_title())
            plt.close(fig)
        if pulses:
            fig = plt.figure()
            pulses[0](fig, fig.add_gridspec(1, 1)[0])
            titles.append(fig.axes[0].get_title())
            plt.close(fig)
    return titles


def drawn_axes(h5, population=None):
    """The main axes of each panel the script draws for `h5`, in one open figure (the caller
    closes it with plt.close("all"))."""
    sys.path.insert(0, os.path.dirname(SCRIPT))
    import qevolve_plot
    import matplotlib.pyplot as plt
    axes = []
    with h5py.File(h5, "r") as f:
        panels, _ = qevolve_plot.collect_panels(f, population)
        for draw in panels:
            axes.append(plt.figure().add_subplot())
            draw(axes[-1])
    return axes


def run(h5, png, *flags):
    return subprocess.run([sys.executable, SCRIPT, h5, png, *flags], capture_output=True, text=True)


def unit_and_phase_failures():
    """Axis units of flux pulses (the attribute flux_pulses, or the config text of older files)
    and the conditional-phase line, unwrapped through +-pi with the best point in (-1, 1]."""
    sys.path.insert(0, os.path.dirname(SCRIPT))
    import types
    import numpy as np
    import matplotlib.pyplot as plt
    import qevolve_plot
    import qevolve_plot_sweep
    failures = []
    cases = [(qevolve_plot.Units("", [1]), "pulses[1].amplitude", "Φ0"),
             (qevolve_plot.Units("", [1]), "pulses[0].amplitude", "GHz"),
             (qevolve_plot.Units("", [1]), "pulses[1].values[2]", "Φ0"),
             (qevolve_plot.Units("", [1]), "pulses[1].duration", "ns"),
             (qevolve_plot.Units("pulses:\n  - {operator: flux}\n"), "pulses[0].amplitude", "GHz or Φ0"),
             (qevolve_plot.Units("pulses:\n  - {operator: phi}\n"), "pulses[0].amplitude", "GHz"),
             # control lines (docs/config.md "lines"): an exponential's amplitude has no unit
             (qevolve_plot.Units(""), "lines[zline].filters[1].tau", "ns"),
             (qevolve_plot.Units(""), "lines[0].sample_rate", "GS/s"),
             (qevolve_plot.Units(""), "lines[0].filters[2].amplitude", "")]
    for units, key, want in cases:
        if units.unit(key) != want:
            failures.append(f"unit of {key}: {units.unit(key)!r}, expected {want!r}")
    fig = plt.figure()
    ax = fig.add_subplot()
    axis = types.SimpleNamespace(x=np.arange(5.0), label=lambda a: None)
    qevolve_plot_sweep.phase_line(ax, axis, np.array([-0.92, -0.96, 0.995, 0.945, 0.89]), (2,))
    drawn = [line.get_ydata() for line in ax.lines if len(line.get_xdata()) == 5]
    plt.close(fig)
    want = [1.08, 1.04, 0.995, 0.945, 0.89]
    if len(drawn) != 1 or not np.allclose(drawn[0], want, atol=1e-12):
        failures.append(f"conditional phase line {drawn}, expected {want}")
    return failures


def cell_texts(ax):
    """{(row, column): text} of the values written in a d x d map."""
    return {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}


def phase_failures(folder):
    """cz_run.h5: the phases of /unitary_compensated relative to its (00, 00) element, in units
    of π (make_plot_inputs.cz_file: 0 on the diagonal but 0.97 at |11>, −0.5 for the swap
    elements, nothing where |U|² < 0.01), and the conditional phase in the title; the sum of the
    drawn diagonal phases φ(11) − φ(10) − φ(01) + φ(00) must be that attribute."""
    import matplotlib.pyplot as plt
    failures = []
    h5 = os.path.join(folder, "cz_run.h5")
    axes = drawn_axes(h5)
    ax = axes[-1]
    texts = cell_texts(ax)
    want = {(0, 0): "0.000π", (1, 1): "0.000π", (2, 2): "0.000π", (3, 3): "0.970π",
            (1, 2): "−0.500π", (2, 1): "−0.500π"}
    if texts != want:
        failures.append(f"cz_run.h5: phases written {texts}, expected {want}")
    hatched = sum(1 for p in ax.patches if p.get_hatch() == "///")
    if hatched != 10:
        failures.append(f"cz_run.h5: {hatched} hatched cells, expected the 10 with |U|² = 0")
    title = ax.get_title()
    with h5py.File(h5, "r") as f:
        cphase = float(f.attrs["conditional_phase"])
    label = f"conditional phase φ(11) − φ(10) − φ(01) + φ(00) = {cphase / math.pi:.4f}π = {math.degrees(cphase):.2f}°"
    if label not in title or "phase arg U after compensation (vz)" not in title or "⟨00|U|00⟩ real" not in title:
        failures.append(f"cz_run.h5: phase title {title!r}, expected it to name the compensation, the "
                        f"reference and {label!r}")
    drawn = {k: float(v.replace("−", "-").rstrip("π")) for k, v in texts.items()}
    summed = drawn[(3, 3)] - drawn[(2, 2)] - drawn[(1, 1)] + drawn[(0, 0)]
    if abs(summed - cphase / math.pi) > 1e-3:
        failures.append(f"cz_run.h5: drawn phases give a conditional phase {summed}π, the file {cphase / math.pi}π")
    plt.close("all")
    return failures


def leakage_line_of(ax):
    """(y data, label) of the leakage entry of a sweep line panel."""
    for line in ax.get_lines():
        if line.get_label().startswith("leakage"):
            return np.asarray(line.get_ydata(), dtype=float), line.get_label()
    return None, None


def leakage_failures(folder):
    """Leakage below 1e-12 is not drawn on the log scales: a line has NaN there (and the legend
    says so), a map masks those cells (and the title says so); all of them: no curve, no colour
    scale, and the legend or title says that the leakage is below 1e-12 everywhere."""
    import matplotlib.pyplot as plt
    failures = []

    def leakage(name):
        with h5py.File(os.path.join(folder, name), "r") as f:
            return f["/sweep/leakage"][()]

    leak = leakage("leak_line.h5")
    y, label = leakage_line_of(drawn_axes(os.path.join(folder, "leak_line.h5"))[0])
    want = np.where(leak >= LEAKAGE_FLOOR, leak, np.nan)
    if not (0 < np.sum(leak < LEAKAGE_FLOOR) < leak.size):
        failures.append(f"leak_line.h5: {np.sum(leak < LEAKAGE_FLOOR)} of {leak.size} points below 1e-12: no mixed test")
    if y is None or not np.array_equal(y, want, equal_nan=True):
        failures.append(f"leak_line.h5: leakage drawn {y}, expected {want}")
    if label != "leakage (points < 1e-12: rounding, not drawn)":
        failures.append(f"leak_line.h5: leakage legend {label!r}")
    y, label = leakage_line_of(drawn_axes(os.path.join(folder, "sweep1.h5"))[0])
    if label != "leakage" or not np.array_equal(y, leakage("sweep1.h5")):
        failures.append(f"sweep1.h5: leakage above 1e-12 everywhere drawn as {label!r} {y}")
    leak = leakage("leak_map.h5")
    ax = drawn_axes(os.path.join(folder, "leak_map.h5"))[1]
    data = ax.collections[0].get_array()
    if not np.array_equal(np.ma.getmaskarray(data).ravel(), (leak < LEAKAGE_FLOOR).ravel()) or \
            not np.array_equal(data.compressed(), leak[leak >= LEAKAGE_FLOOR]):
        failures.append(f"leak_map.h5: leakage map {data}, expected {leak} masked below 1e-12")
    if "grey: < 1e-12 (rounding), not drawn" not in ax.get_title():
        failures.append(f"leak_map.h5: leakage title {ax.get_title()!r}")
    if np.all(leakage("chevron_2level.h5") < LEAKAGE_FLOOR):
        title = drawn_axes(os.path.join(folder, "chevron_2level.h5"))[1].get_title()
        if "< 1e-12 at every point (rounding): not drawn" not in title:
            failures.append(f"chevron_2level.h5: leakage title {title!r}")
    else:
        failures.append("chevron_2level.h5: a two-level qubit's leakage reaches 1e-12")
    plt.close("all")
    return failures


def rabi(omega, delta, t):
    """P(|1>) starting in |0> under H = diag(0, Δ) + (Ω/2) σx (GHz, exp(−i 2π H t))."""
    w2 = omega ** 2 + delta ** 2
    return omega ** 2 / w2 * np.sin(np.pi * np.sqrt(w2) * t) ** 2


def population_failures(folder):
    """--population OUT [--from IN]: the first panel draws /sweep/populations[..., OUT, IN] (IN
    by default 0), a two-level chevron the Rabi formula; on three axes, the slice through the best
    point."""
    import matplotlib.pyplot as plt
    failures = []

    def first_panel_values(name, population):
        ax = drawn_axes(os.path.join(folder, name), population)[0]
        if ax.collections:  # a map
            return np.ma.getdata(ax.collections[0].get_array()).ravel(), ax.get_title()
        return np.asarray(ax.get_lines()[0].get_ydata(), dtype=float), ax.get_title()

    def populations(name):
        with h5py.File(os.path.join(folder, name), "r") as f:
            return (f["/sweep/populations"][()], f["/sweep/fidelity"][()],
                    [f[f"/sweep/axes/{k}"][()] for k in range(f["/sweep/fidelity"].ndim)])

    pops, fid, _ = populations("chevron.h5")
    for request, (out, start) in ((("1", None), (1, 0)), (("|0⟩", "|1>"), (0, 1)), (("0", "0"), (0, 0))):
        got, title = first_panel_values("chevron.h5", request)
        if not np.array_equal(got, pops[..., out, start].ravel()):
            failures.append(f"chevron.h5 --population {request}: drawn {got[:4]}..., expected P({out} | {start})")
        if f"population of |{out}⟩ starting in |{start}⟩" not in title:
            failures.append(f"chevron.h5 --population {request}: title {title!r}")
    got, _ = first_panel_values("chevron_2level.h5", ("1", None))
    _, _, (amps, freqs) = populations("chevron_2level.h5")
    want = rabi(amps[:, None], freqs[None, :] - make_plot_inputs.F01, make_plot_inputs.T_GATE).ravel()
    if np.max(np.abs(got - want)) > 1e-12:
        failures.append(f"chevron_2level.h5: P(1) differs from the Rabi formula by {np.max(np.abs(got - want)):.3g}")
    pops, fid, _ = populations("sweep1.h5")
    got, _ = first_panel_values("sweep1.h5", ("1", "0"))
    if not np.array_equal(got, pops[:, 1, 0]):
        failures.append(f"sweep1.h5 --population 1: drawn {got}, expected {pops[:, 1, 0]}")
    pops, fid, _ = populations("sweep3.h5")
    best = np.unravel_index(np.argmax(fid), fid.shape)
    got, title = first_panel_values("sweep3.h5", ("1", None))
    if not np.array_equal(got, pops[:, :, best[2], 1, 0].ravel()) or "slice through the best point" not in title:
        failures.append(f"sweep3.h5 --population 1: not the slice through the best point ({title!r})")
    plt.close("all")
    return failures


def flag_error_failures(folder):
    """A state the sweep does not have, an empty one, a file without /sweep/populations: exit 2,
    one line `FLAG: problem (expected ...)`, no image."""
    failures = []
    chevron, trace, text_axis = (os.path.join(folder, n) for n in ("chevron.h5", "trace.h5", "sweep_text.h5"))
    cases = [(chevron, ["--population", "2"], f"--population: `2` is not a computational state of {chevron} "
                                              "(expected one of 0, 1)"),
             (chevron, ["--population", "1", "--from", "|3>"], f"--from: `|3>` is not a computational state of "
                                                               f"{chevron} (expected one of 0, 1)"),
             (chevron, ["--population", ""], "--population: the state is empty (expected one of 0, 1)"),
             (trace, ["--population", "1"], f"--population: {trace} is not a sweep: it holds no /sweep/populations "
                                            "(expected the output of qevolve sweep)"),
             (text_axis, ["--population", "1"], f"--population: {text_axis} holds no /sweep/populations "
                                                "(expected the output of qevolve sweep)")]
    png = os.path.join(folder, "flag_error.png")
    for h5, flags, want in cases:
        r = run(h5, png, *flags)
        if r.returncode != 2 or r.stderr.strip() != want or os.path.exists(png):
            failures.append(f"{flags}: exit {r.returncode}, stderr {r.stderr.strip()!r}, expected 2 and {want!r}")
    return failures


def pulse_axes(h5):
    """The rows of the pulses panel the script draws for `h5`, in one open figure (the caller
    closes it with plt.close("all"))."""
    sys.path.insert(0, os.path.dirname(SCRIPT))
    import qevolve_plot
    import matplotlib.pyplot as plt
    with h5py.File(h5, "r") as f:
        _, pulses = qevolve_plot.collect_panels(f, None)
    fig = plt.figure()
    pulses[0](fig, fig.add_gridspec(1, 1)[0])
    return fig.axes


def ideal_failures(folder):
    """A run with a control line (lined_run.h5): the row of the pulse on the line draws its
    line's output (solid, "after the line (what the mode sees)") and, thin, dashed and in the
    same colour, the pulse before the line ("before the line"); its scale holds both (the ideal's
    peak above the drooped output, the undershoot after the pulse below zero, that side only as
    far as the undershoot needs). The pulse without a line is drawn once, without a legend. The
    legend entries reach the PNG's Description; a /pulses/ideal of the wrong shape is refused."""
    import matplotlib.pyplot as plt
    from PIL import Image
    failures = []
    h5 = os.path.join(folder, "lined_run.h5")
    with h5py.File(h5, "r") as f:
        values, ideal = f["/pulses/values"][()], f["/pulses/ideal"][()]
    axes = pulse_axes(h5)
    after, before = "after the line (what the mode sees)", "before the line"
    lined = axes[0].get_lines()
    labels = [line.get_label() for line in lined]
    if labels != [after, before]:
        failures.append(f"lined_run.h5 row 0: curves {labels}, expected {[after, before]}")
    else:
        out, inp = lined
        if not (np.array_equal(out.get_ydata(), values[0]) and np.array_equal(inp.get_ydata(), ideal[0])):
            failures.append("lined_run.h5 row 0: the curves are not /pulses/values[0] and /pulses/ideal[0]")
        if inp.get_linestyle() != "--" or out.get_linestyle() != "-" or inp.get_linewidth() >= out.get_linewidth() \
                or inp.get_color() != out.get_color():
            failures.append(f"lined_run.h5 row 0: ideal {inp.get_linestyle()} {inp.get_linewidth()} "
                            f"{inp.get_color()}, output {out.get_linestyle()} {out.get_linewidth()} {out.get_color()}: "
                            "expected a thinner dashed curve of the same colour")
    legend = axes[0].get_legend()
    texts = [t.get_text() for t in legend.get_texts()] if legend else []
    if texts != [after, before]:
        failures.append(f"lined_run.h5 row 0: legend {texts}")
    lo, hi = axes[0].get_ylim()
    peak, under = ideal[0].max(), values[0].min()
    if not (values[0].max() < peak <= hi and lo <= under < 0 and lo > -0.5 * peak):
        failures.append(f"lined_run.h5 row 0: y range [{lo:.4g}, {hi:.4g}] does not hold the ideal's peak "
                        f"{peak:.4g} and the undershoot {under:.4g} (or is symmetric)")
    plain = axes[1].get_lines()
    if len(plain) != 1 or axes[1].get_legend() is not None or axes[1].get_ylim()[0] > -0.07 * ideal[1].max():
        failures.append(f"lined_run.h5 row 1 (no line): {len(plain)} curves, legend {axes[1].get_legend()}, "
                        f"y range {axes[1].get_ylim()}")
    plt.close("all")
    png = os.path.join(folder, "lined_run_described.png")
    r = run(h5, png)
    description = Image.open(png).info.get("Description", "") if r.returncode == 0 else r.stderr
    if after not in description or before not in description:
        failures.append(f"lined_run.h5: Description {description!r} lacks the legend entries")
    bad = os.path.join(folder, "bad_ideal.h5")
    r = run(bad, os.path.join(folder, "bad_ideal.png"))
    want = f"{bad}: /pulses/ideal has shape [1, 7], expected [2, 400]"
    if r.returncode != 2 or r.stderr.strip() != want:
        failures.append(f"bad_ideal.h5: exit {r.returncode}, stderr {r.stderr.strip()!r}, expected 2 and {want!r}")
    return failures


def ensemble_failures(folder):
    """The ensemble panel (docs/output.md "What `qevolve plot` draws"): 1 − F per member, against
    the key of a one-key ensemble (ensemble1.h5), against the member index with the overrides as
    tick labels otherwise (ensemble2.h5); the objective's line (the weighted mean, or the worst
    member's), the worst member ringed, marker areas in proportion to the weights; an optimize
    file's title says that it is the optimised pulse; a /ensemble/weights of the wrong length is
    refused (exit 2, one line)."""
    import matplotlib.pyplot as plt
    failures = []
    for name, keyed in (("ensemble1.h5", True), ("ensemble1_opt.h5", True), ("ensemble2.h5", False)):
        h5 = os.path.join(folder, name)
        with h5py.File(h5, "r") as f:
            fid, weights = f["/ensemble/fidelity"][()], f["/ensemble/weights"][()]
            objective, worst = f["/ensemble/fidelity"].attrs["objective"], int(f["/ensemble/fidelity"].attrs["worst"])
            overrides = [s.decode() for s in f["/ensemble/overrides"][()]]
        ax = drawn_axes(h5)[-1]
        want_x = (np.array([float(s.split(" = ")[1]) for s in overrides]) if keyed else np.arange(fid.size))
        members, ring = ax.collections[0], ax.collections[1]
        xy = members.get_offsets()
        if not (np.array_equal(xy[:, 0], want_x) and np.allclose(xy[:, 1], 1 - fid, rtol=1e-12, atol=0)):
            failures.append(f"{name}: members drawn at {xy.tolist()}, expected (x, 1 − F) = "
                            f"{list(zip(want_x, 1 - fid))}")
        sizes = members.get_sizes()
        if not np.allclose(sizes, np.maximum(sizes.max() * weights / weights.max(), 8.0), rtol=1e-12):  # 8 pt² least
            failures.append(f"{name}: marker areas {sizes}, expected in proportion to the weights {weights}")
        if not np.allclose(ring.get_offsets()[0], [want_x[worst], 1 - fid[worst]], rtol=1e-12, atol=0) \
                or worst != int(np.argmin(fid)):
            failures.append(f"{name}: worst member ringed at {ring.get_offsets()[0]}, expected #{worst}")
        value = float(np.dot(weights, fid)) if objective == "mean" else float(fid[worst])
        flat = [line for line in ax.get_lines() if line.get_label().startswith(f"objective ({objective})")]
        if len(flat) != 1 or not np.allclose(flat[0].get_ydata(), 1 - value, rtol=1e-12, atol=0):
            failures.append(f"{name}: objective line {[l.get_ydata() for l in flat]}, expected 1 − F = {1 - value}")
        title, label = ax.get_title(), ax.get_xlabel()
        if keyed and (label != "pulses[0].frequency [GHz]" or "against pulses[0].frequency" not in title):
            failures.append(f"{name}: x label {label!r}, title {title!r}: expected F against pulses[0].frequency")
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        if not keyed and (label != "member" or ticks[0] != "#0: frequency = 4.79654\namplitude = 0.0248557"
                          or "per member" not in title):
            failures.append(f"{name}: x label {label!r}, ticks {ticks[:2]}, title {title!r}")
        optimised = "the optimised pulse" in title and "the start point's members are not in the file" in title
        if optimised != (name == "ensemble1_opt.h5"):
            failures.append(f"{name}: title {title!r} (an optimize file's names the optimised pulse)")
        plt.close("all")
    bad = os.path.join(folder, "ensemble_bad.h5")
    make_plot_inputs.ensemble_file(bad, [("pulses[0].frequency", np.array([4.79, 4.81]), np.array([0.5, 0.5]))])
    with h5py.File(bad, "a") as f:
        del f["/ensemble/weights"]
        f["/ensemble/weights"] = np.ones(3) / 3
    r = run(bad, os.path.join(folder, "ensemble_bad.png"))
    want = f"{bad}: /ensemble/weights has 3 entries, /ensemble/fidelity 2"
    if r.returncode != 2 or r.stderr.strip() != want:
        failures.append(f"ensemble_bad.h5: exit {r.returncode}, stderr {r.stderr.strip()!r}, expected 2 and {want!r}")
    return failures


def description_failures(folder):
    """The PNG's Description names what was drawn: the population, the conditional phase."""
    from PIL import Image
    failures = []
    for name, flags, want in (("chevron.h5", ["--population", "1"], "population of |1⟩ starting in |0⟩"),
                              ("cz_run.h5", [], "conditional phase φ(11) − φ(10) − φ(01) + φ(00) = 0.9700π"),
                              ("leak_line.h5", [], "leakage (points < 1e-12: rounding, not drawn)")):
        png = os.path.join(folder, name.replace(".h5", "_described.png"))
        r = run(os.path.join(folder, name), png, *flags)
        description = Image.open(png).info.get("Description", "") if r.returncode == 0 else r.stderr
        if want not in description:
            failures.append(f"{name} {flags}: Description {description!r} lacks {want!r}")
    return failures


def main(folder):
    make_plot_inputs.main(folder)
    failures = []
    for name, count in EXPECTED.items():
        h5 = os.path.join(folder, name)
        png = os.path.join(folder, name.replace(".h5", ".png"))
        r = run(h5, png)
        if r.returncode != 0:
            failures.append(f"{name}: exit {r.returncode}: {r.stderr.strip()}")
            continue
        with open(png, "rb") as f:
            head = f.read(8)
        if head != PNG or os.path.getsize(png) < 20000:
            failures.append(f"{name}: {png} is not a PNG of a figure ({os.path.getsize(png)} bytes)")
        titles = panels_of(h5)
        if len(titles) != count:
            failures.append(f"{name}: {len(titles)} panels {titles}, expected {count}")
    # The chevron's best point is where F is largest: the title names it.
    titles = panels_of(os.path.join(folder, "chevron.h5"))
    with h5py.File(os.path.join(folder, "chevron.h5"), "r") as f:
        fid = f["/sweep/fidelity"][()]
    best = 1 - fid.max()
    if f"1 − F = {best:.3g}" not in titles[0]:
        failures.append(f"chevron.h5: title {titles[0]!r} does not give the best 1 − F {best:.3g}")
    sweep3 = panels_of(os.path.join(folder, "sweep3.h5"))[0]
    if "slice through the best point: pulses[0].duration" not in sweep3.replace("\n", " "):
        failures.append(f"sweep3.h5: title {sweep3!r} does not name the slice")
    notarget = panels_of(os.path.join(folder, "sweep_notarget.h5"))
    if notarget != ["sweep: leakage (no fidelity: the config has no target)"]:
        failures.append(f"sweep_notarget.h5: panels {notarget}")
    failures += unit_and_phase_failures()
    failures += phase_failures(folder) + leakage_failures(folder) + population_failures(folder)
    failures += flag_error_failures(folder) + description_failures(folder) + ideal_failures(folder)
    failures += ensemble_failures(folder)
    # A malformed file: exit 2, one line `FILE: problem`, no image.
    bad = os.path.join(folder, "bad_trace.h5")
    r = run(bad, os.path.join(folder, "bad.png"))
    want = f"{bad}: /trace/populations has shape [7, 2, 1], expected [11, any, any]"
    if r.returncode != 2 or r.stderr.strip() != want or os.path.exists(os.path.join(folder, "bad.png")):
        failures.append(f"bad_trace.h5: exit {r.returncode}, stderr {r.stderr.strip()!r}, expected 2 and {want!r}")
    # An image that cannot be written: exit 2 naming it, nothing left behind.
    out = os.path.join(folder, "no_such_folder", "x.png")
    r = run(os.path.join(folder, "sweep1.h5"), out)
    if r.returncode != 2 or not r.stderr.startswith(f"cannot write {out}: "):
        failures.append(f"unwritable image: exit {r.returncode}, stderr {r.stderr.strip()!r}")
    for f in failures:
        print("FAIL", f)
    print(f"{len(EXPECTED)} files drawn, the best point, the slice, a CZ's phases, leakage below 1e-12, "
          f"populations, flag errors, descriptions, a line's ideal pulses, ensembles, a malformed file and an unwritable "
          f"image checked: "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit(main(sys.argv[1]))
    with tempfile.TemporaryDirectory() as tmp:
        sys.exit(main(tmp))
