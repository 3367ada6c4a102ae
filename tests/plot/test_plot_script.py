#!/usr/bin/env python3
"""ctest PlotScript: scripts/qevolve_plot.py on the synthetic trace and sweep files of
make_plot_inputs.py. Each must give a PNG with the expected panels; a malformed file must give
exit status 2 and one line naming the dataset. Exit 77 (skipped) without matplotlib or h5py.

Usage: test_plot_script.py [KEEP_FOLDER]  (the PNGs stay there to be looked at)
"""
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
sys.path.insert(0, HERE)
import make_plot_inputs  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
# file -> the number of panels (4 initial states and the pulses; 1 or 2 sweep panels)
EXPECTED = {"trace.h5": 5, "trace_modes.h5": 5, "sweep1.h5": 1, "chevron.h5": 2, "sweep3.h5": 2,
            "sweep_text.h5": 2, "sweep_notarget.h5": 1}


def panels_of(h5):
    """The titles of the panels the script draws for `h5` (through its own functions); the
    pulses, one panel of rows, come last."""
    sys.path.insert(0, os.path.dirname(SCRIPT))
    import qevolve_plot
    import matplotlib.pyplot as plt
    with h5py.File(h5, "r") as f:
        panels, pulses = qevolve_plot.collect_panels(f)
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


def run(h5, png):
    return subprocess.run([sys.executable, SCRIPT, h5, png], capture_output=True, text=True)


def unit_and_phase_failures():
    """Axis units of flux pulses (the attribute flux_pulses, or the config text of older files)
    and the conditional-phase line, unwrapped through +-pi with the best point in (-1, 1]."""
    sys.path.insert(0, os.path.dirname(SCRIPT))
    import types
    import numpy as np
    import matplotlib.pyplot as plt
    import qevolve_plot
    failures = []
    cases = [(qevolve_plot.Units("", [1]), "pulses[1].amplitude", "Φ0"),
             (qevolve_plot.Units("", [1]), "pulses[0].amplitude", "GHz"),
             (qevolve_plot.Units("", [1]), "pulses[1].values[2]", "Φ0"),
             (qevolve_plot.Units("", [1]), "pulses[1].duration", "ns"),
             (qevolve_plot.Units("pulses:\n  - {operator: flux}\n"), "pulses[0].amplitude", "GHz or Φ0"),
             (qevolve_plot.Units("pulses:\n  - {operator: phi}\n"), "pulses[0].amplitude", "GHz")]
    for units, key, want in cases:
        if units.unit(key) != want:
            failures.append(f"unit of {key}: {units.unit(key)!r}, expected {want!r}")
    fig = plt.figure()
    ax = fig.add_subplot()
    axis = types.SimpleNamespace(x=np.arange(5.0), label=lambda a: None)
    qevolve_plot.phase_line(ax, axis, np.array([-0.92, -0.96, 0.995, 0.945, 0.89]), (2,))
    drawn = [line.get_ydata() for line in ax.lines if len(line.get_xdata()) == 5]
    plt.close(fig)
    want = [1.08, 1.04, 0.995, 0.945, 0.89]
    if len(drawn) != 1 or not np.allclose(drawn[0], want, atol=1e-12):
        failures.append(f"conditional phase line {drawn}, expected {want}")
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
    print(f"{len(EXPECTED)} files drawn, the best point, the slice, a malformed file and an unwritable image "
          f"checked: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit(main(sys.argv[1]))
    with tempfile.TemporaryDirectory() as tmp:
        sys.exit(main(tmp))
