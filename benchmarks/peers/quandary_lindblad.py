#!/usr/bin/env python3
"""qevolve against Quandary on Quandary's own Lindblad example (issue 5, acceptance 5).

Quandary (LLNL, https://github.com/LLNL/quandary) solves the Lindblad equation with an implicit
midpoint rule and stores every state for its adjoint. Its example
examples/gate_cnot/cnot_FWD_optimized_withnoise.cfg is a CNOT on two Duffing oscillators with
T1 = 56 us and T2 = 28 us, 16 basis initial conditions (all |i><j| of the essential levels),
1000 steps of 0.1 ns, spline controls (150 per carrier, 3 carriers per oscillator).

This script runs, for --levels L (2: the example as shipped; 4: two guard levels per
oscillator, D = 16) and --steps S:
  * Quandary with runtype simulation and runtype gradient (the example's cfg with nlevels,
    ntime, dt changed; output every S steps only), under /usr/bin/time -v;
  * qevolve on a config of the same size: two Duffing modes (same frequencies and
    anharmonicities, cross-Kerr 0.1 GHz), the same T1/Tphi numbers, the computational 2 x 2
    inputs (16 |i><j|), S steps over 100 ns, six spline pulses of 150 values (the carriers),
    forward and with every spline value trainable (900 parameters against Quandary's 1800
    real control parameters), under /usr/bin/time -v.
The models' conventions differ (Quandary's rotating-frame Duffing Hamiltonian and control
parametrisation vs qevolve's lab-frame modes and pulses), so this compares cost at equal
Hilbert-space size, input count and step count, not numbers.

Build Quandary first (Debian: apt-get install libpetsc-real-dev; a checkout with its blt and
examples submodules; cmake -S . -B build && cmake --build build), then:
  python3 benchmarks/peers/quandary_lindblad.py --quandary /path/to/quandary --levels 4 --steps 2000
Without --quandary (or when its executable is missing) the Quandary half is skipped with a note
and only qevolve's rows are printed; the smoke run of CI (tests/benchmarks) is
  python3 benchmarks/peers/quandary_lindblad.py --qevolve build/release/bin/qevolve --steps 20
qevolve's times are the summary's evolve and gradient phases, its peak RSS that of the process
(qevolve_cli.py); Quandary's time is its "Used Time", its peak RSS from wait4 as well.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import qevolve_cli  # noqa: E402

QEVOLVE = os.path.normpath(os.path.join(HERE, "..", "..", "build", "release", "bin", "qevolve"))


def timed(cmd, cwd):
    """Runs cmd; returns (stdout, wall s, peak RSS MB from wait4)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{stdout}\n{stderr}")
    return stdout, seconds, usage.ru_maxrss / 1024.0


def quandary_cfg(src: str, levels: int, steps: int, runtype: str, outdir: str) -> str:
    text = open(src).read()
    text = re.sub(r"^nlevels = .*$", f"nlevels = {levels}, {levels}", text, flags=re.M)
    text = re.sub(r"^nessential = .*$", "nessential = 2, 2", text, flags=re.M)
    text = re.sub(r"^ntime = .*$", f"ntime = {steps}", text, flags=re.M)
    text = re.sub(r"^dt = .*$", f"dt = {100.0 / steps}", text, flags=re.M)
    text = re.sub(r"^output_frequency = .*$", f"output_frequency = {steps}", text, flags=re.M)
    text = re.sub(r"^datadir = .*$", f"datadir = {outdir}", text, flags=re.M)
    text = re.sub(r"^runtype = .*$", f"runtype = {runtype}", text, flags=re.M)
    return text


def qevolve_yaml(levels: int, steps: int, trainable: bool) -> str:
    rng = random.Random(1)
    freqs = [4.10595, 4.81526]
    carriers = [[0.0, -0.2198, -0.1], [0.0, -0.2252, -0.1]]
    out = ["device:", "  qubits:",
           f"    - {{name: q0, type: duffing, frequency: 4.10595, anharmonicity: -0.2198, levels: {levels}}}",
           f"    - {{name: q1, type: duffing, frequency: 4.81526, anharmonicity: -0.2252, levels: {levels}}}",
           "  couplings:", "    - {qubits: [q0, q1], cross_kerr: 0.1}", "pulses:"]
    opt = ", optimize: [values]" if trainable else ""
    for q in range(2):
        for c in carriers[q]:
            vals = ", ".join(f"{rng.uniform(-0.004, 0.004):.6f}" for _ in range(150))
            out.append(f"  - {{qubit: q{q}, shape: spline, values: [{vals}], frequency: {freqs[q] + c:.5f}, "
                       f"duration: 100.0{opt}}}")
    out += ["evolution:", "  solver: trotter", "  order: 2", f"  steps: {steps}", "  frame: rotating", "  noise:",
            "    q0: {t1: 56000.0, tphi: 28000.0}", "    q1: {t1: 56000.0, tphi: 28000.0}",
            "target:", "  gates: [{gate: CNOT, qubits: [q0, q1]}]"]
    return "\n".join(out) + "\n"


def run_quandary(a, tmp: str) -> list:
    """Quandary's simulation and gradient runs of its example, resized (rows of the table)."""
    exe = os.path.join(a.quandary, "quandary")
    example = os.path.join(a.quandary, "examples", "gate_cnot")
    src = os.path.join(example, "cnot_FWD_optimized_withnoise.cfg")
    if not os.path.exists(src):
        sys.exit(f"need {src}")
    for f in os.listdir(example):
        if f.endswith(".dat"):
            os.symlink(os.path.join(example, f), os.path.join(tmp, f))
    rows = []
    for runtype in ("simulation", "gradient"):
        cfg = os.path.join(tmp, f"{runtype}.cfg")
        open(cfg, "w").write(quandary_cfg(src, a.levels, a.steps, runtype, os.path.join(tmp, "out_" + runtype)))
        out, wall, rss = timed([exe, cfg], tmp)
        used = float(re.search(r"Used Time:\s+([\d.]+)", out).group(1))
        rows.append(("Quandary", runtype, used, wall, rss))
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quandary", help="Quandary checkout with the built `quandary` executable "
                                      "(without it only qevolve runs)")
    p.add_argument("--qevolve", default=QEVOLVE, help="the qevolve executable")
    p.add_argument("--levels", type=int, default=2)
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--threads", type=int, default=1, help="qevolve --threads")
    a = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if a.quandary is None:
            print("note: no --quandary: the Quandary half is skipped, qevolve's rows only")
        elif not os.path.exists(os.path.join(a.quandary, "quandary")):
            print(f"note: {os.path.join(a.quandary, 'quandary')} not found: the Quandary half is "
                  "skipped, qevolve's rows only")
        else:
            rows += run_quandary(a, tmp)
        for trainable in (False, True):
            y = os.path.join(tmp, f"qevolve_{trainable}.yaml")
            open(y, "w").write(qevolve_yaml(a.levels, a.steps, trainable))
            try:
                r = qevolve_cli.run(a.qevolve, y, y + ".h5", ["--threads", str(a.threads)], cwd=tmp)
            except RuntimeError as e:
                sys.exit(f"qevolve failed: {e}")
            if trainable and "gradient" not in r["times"]:
                sys.exit("qevolve printed no gradient time for the trainable config:\n" + r["summary"])
            compute = r["times"]["evolve"] + r["times"].get("gradient", 0.0)
            rows.append(("qevolve", "gradient" if trainable else "simulation", compute,
                         r["process_s"], r["peak_rss_mb"]))
    print(f"levels {a.levels} per oscillator (D = {a.levels ** 2}), 16 inputs, {a.steps} steps, qevolve --threads {a.threads}")
    print(f"{'tool':<10} {'run':<11} {'compute [s]':>12} {'process [s]':>12} {'peak RSS [MB]':>14}")
    for r in rows:
        print(f"{r[0]:<10} {r[1]:<11} {r[2]:>12.3f} {r[3]:>12.2f} {r[4]:>14.1f}")
    q = {r[1]: r for r in rows if r[0] == "Quandary"}
    e = {r[1]: r for r in rows if r[0] == "qevolve"}
    for k in q:
        print(f"{k}: qevolve {q[k][2] / e[k][2]:.1f}x faster (compute), peak RSS {e[k][4]:.1f} vs {q[k][4]:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
