"""docs/performance.md "Python": the cost of the Python module over the engine.

    PYTHONPATH=build/release/python python3 benchmarks/python/bench_python.py [BUILD_DIR] [REPEAT]

(1) Per-call overhead of Simulation.run on the fluxonium X gate (examples/fluxonium_x.yaml,
    one thread): the wall time of the call minus the engine's own time (evolution + fidelity,
    Result.engine_seconds), median of 200 calls; without overrides, and with one pulse override
    (which adds the config read, validation and Simulator::set_pulses per call).
(2) The 15 x 15 chevron of docs/performance.md "Sweeps" (amplitude +-20 %, frequency +-0.02 GHz)
    as a Python loop of 225 run(overrides) calls against `qevolve sweep --threads 1` of the same
    grid, best of REPEAT; and Simulation.sweep with one thread.
Prints the load average it ran under.
"""
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

import qevolve

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "release"
REPEAT = int(sys.argv[2]) if len(sys.argv) > 2 else 3
X = ROOT / "examples" / "fluxonium_x.yaml"
A, F = 0.0823684365012486, 0.5823664862818624


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def overhead(sim, overrides_of):
    walls, engine = [], []
    for k in range(200):
        o = overrides_of(k)
        t0 = time.perf_counter()
        r = sim.run(o)
        walls.append(time.perf_counter() - t0)
        engine.append(r.engine_seconds)
    d = sorted(w - e for w, e in zip(walls, engine))
    return statistics.median(walls), statistics.median(engine), d


def main():
    print(f"machine: {os.cpu_count()} cores, load average {load()}")
    sim = qevolve.load(X, threads=1)
    sim.run()
    for label, of in (("run()", lambda k: None),
                      ("run({amplitude})", lambda k: {"pulses[0].amplitude": A * (1 + 1e-4 * (k % 7))})):
        w, e, d = overhead(sim, of)
        print(f"(1) {label}: median wall {w * 1e3:.3f} ms, engine {e * 1e3:.3f} ms; overhead (wall - engine) "
              f"min {d[0] * 1e3:.3f} ms, 10 % {d[20] * 1e3:.3f} ms, median {d[100] * 1e3:.3f} ms (200 calls)")

    amplitudes = np.linspace(0.8 * A, 1.2 * A, 15)
    frequencies = np.linspace(F - 0.02, F + 0.02, 15)
    axes = [f"--vary=pulses[0].amplitude={0.8 * A!r}:{1.2 * A!r}:15",
            f"--vary=pulses[0].frequency={F - 0.02!r}:{F + 0.02!r}:15"]
    loop, cli, sweep, loop_cpu, cli_cpu = [], [], [], [], []
    for _ in range(REPEAT):  # interleaved, so that the three see the same load
        sim = qevolve.load(X, threads=1)
        t0, c0 = time.perf_counter(), time.process_time()
        fid = [sim.run({"pulses[0].amplitude": a, "pulses[0].frequency": f}).fidelity
               for a in amplitudes for f in frequencies]
        loop.append(time.perf_counter() - t0)
        loop_cpu.append(time.process_time() - c0)
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([str(BUILD / "bin" / "qevolve"), "sweep", str(X), *axes, "--threads", "1", "--quiet"],
                       check=True)
        cli.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cli_cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        sim = qevolve.load(X, threads=1)
        t0 = time.perf_counter()
        s = sim.sweep({"pulses[0].amplitude": amplitudes, "pulses[0].frequency": frequencies})
        sweep.append(time.perf_counter() - t0)
    assert np.allclose(np.reshape(fid, (15, 15)), s.fidelity, rtol=0, atol=1e-12)
    print(f"(2) Python loop of 225 run(overrides): {min(loop):.3f} s (best of {REPEAT}; all: "
          + ", ".join(f"{t:.2f}" for t in loop) + ")")
    print(f"(2) qevolve sweep --threads 1 (process): {min(cli):.3f} s (all: " + ", ".join(f"{t:.2f}" for t in cli) + ")")
    print(f"(2) ratio loop / CLI sweep: {min(loop) / min(cli):.3f} (wall), "
          f"{min(loop_cpu) / min(cli_cpu):.3f} (CPU: {min(loop_cpu):.3f} s / {min(cli_cpu):.3f} s)")
    print(f"(2) Simulation.sweep, 1 thread: {min(sweep):.3f} s")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
