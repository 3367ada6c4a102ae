"""docs/performance.md "Python": the cost of the Python module over the engine.

    PYTHONPATH=build/release/python python3 benchmarks/python/bench_python.py [BUILD_DIR] [REPEAT] [--smoke]

(1) Per-call overhead of Simulation.run on the fluxonium X gate (examples/fluxonium_x.yaml at
    docs/reference.md's reference point: expm, 1279 steps; one thread): the wall time of the call minus the engine's own time (evolution + fidelity,
    Result.engine_seconds), median of 200 calls; without overrides, and with one pulse override
    (which adds the config read, validation and Simulator::set_drive per call).
(2) The 15 x 15 chevron of docs/performance.md "Sweeps" (amplitude +-20 %, frequency +-0.02 GHz)
    as a Python loop of 225 run(overrides) calls against `qevolve sweep --threads 1` of the same
    grid, best of REPEAT; and Simulation.sweep with one thread.
Prints the load average it ran under. --smoke (CI, tests/benchmarks): 20 calls in (1) and a
3 x 3 grid in (2), once; it checks that the loop, the CLI sweep and Simulation.sweep agree.
"""
import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import tempfile
import time

import numpy as np

import qevolve

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The example at docs/reference.md's reference point (expm, 1279 steps), the figures' config.
_SHIPPED = (ROOT / "examples" / "fluxonium_x.yaml").read_text()
_MAGNUS = "solver: magnus4\n  splitting: dense\n  steps: 2000"
assert _MAGNUS in _SHIPPED, "examples/fluxonium_x.yaml changed its evolution section"
X = pathlib.Path(tempfile.mkdtemp()) / "fluxonium_x_expm.yaml"
X.write_text(_SHIPPED.replace(_MAGNUS, "solver: expm\n  steps: 1279"))
A, F = 0.0823684365012486, 0.5823664862818624


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def overhead(sim, overrides_of, calls):
    walls, engine = [], []
    for k in range(calls):
        o = overrides_of(k)
        t0 = time.perf_counter()
        r = sim.run(o)
        walls.append(time.perf_counter() - t0)
        engine.append(r.engine_seconds)
    d = sorted(w - e for w, e in zip(walls, engine))
    return statistics.median(walls), statistics.median(engine), d


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("build", nargs="?", default=str(ROOT / "build" / "release"),
                   help="build folder holding bin/qevolve (default build/release)")
    p.add_argument("repeat", nargs="?", type=int, default=3, help="best of this many (default 3)")
    p.add_argument("--smoke", action="store_true", help="tiny sizes for CI: 20 calls, 3 x 3 grid, once")
    args = p.parse_args()
    calls, n, repeat = (20, 3, 1) if args.smoke else (200, 15, args.repeat)
    qevolve_exe = pathlib.Path(args.build) / "bin" / "qevolve"
    print(f"machine: {os.cpu_count()} cores, load average {load()}")
    sim = qevolve.load(X, threads=1)
    sim.run()
    for label, of in (("run()", lambda k: None),
                      ("run({amplitude})", lambda k: {"pulses[0].amplitude": A * (1 + 1e-4 * (k % 7))})):
        w, e, d = overhead(sim, of, calls)
        print(f"(1) {label}: median wall {w * 1e3:.3f} ms, engine {e * 1e3:.3f} ms; overhead (wall - engine) "
              f"min {d[0] * 1e3:.3f} ms, 10 % {d[calls // 10] * 1e3:.3f} ms, median {d[calls // 2] * 1e3:.3f} ms "
              f"({calls} calls)")

    amplitudes = np.linspace(0.8 * A, 1.2 * A, n)
    frequencies = np.linspace(F - 0.02, F + 0.02, n)
    axes = [f"--vary=pulses[0].amplitude={0.8 * A!r}:{1.2 * A!r}:{n}",
            f"--vary=pulses[0].frequency={F - 0.02!r}:{F + 0.02!r}:{n}"]
    tmp = tempfile.TemporaryDirectory(prefix="bench_python_")
    h5 = os.path.join(tmp.name, "sweep.h5")
    out = ["-o", h5] if args.smoke else []  # the timed CLI sweep writes no file, as the loop
    loop, cli, sweep, loop_cpu, cli_cpu = [], [], [], [], []
    for _ in range(repeat):  # interleaved, so that the three see the same load
        sim = qevolve.load(X, threads=1)
        t0, c0 = time.perf_counter(), time.process_time()
        fid = [sim.run({"pulses[0].amplitude": a, "pulses[0].frequency": f}).fidelity
               for a in amplitudes for f in frequencies]
        loop.append(time.perf_counter() - t0)
        loop_cpu.append(time.process_time() - c0)
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([str(qevolve_exe), "sweep", str(X), *axes, "--threads", "1", *out, "--quiet"],
                       check=True)
        cli.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cli_cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        sim = qevolve.load(X, threads=1)
        t0 = time.perf_counter()
        s = sim.sweep({"pulses[0].amplitude": amplitudes, "pulses[0].frequency": frequencies})
        sweep.append(time.perf_counter() - t0)
    assert np.allclose(np.reshape(fid, (n, n)), s.fidelity, rtol=0, atol=1e-12)
    if args.smoke:
        import h5py

        with h5py.File(h5, "r") as f:
            assert np.allclose(f["sweep/fidelity"][()], s.fidelity, rtol=0, atol=1e-12)
        print("smoke: the loop, Simulation.sweep and the CLI sweep's /sweep/fidelity agree")
    tmp.cleanup()
    print(f"(2) Python loop of {n * n} run(overrides): {min(loop):.3f} s (best of {repeat}; all: "
          + ", ".join(f"{t:.2f}" for t in loop) + ")")
    print(f"(2) qevolve sweep --threads 1 (process): {min(cli):.3f} s (all: " + ", ".join(f"{t:.2f}" for t in cli) + ")")
    print(f"(2) ratio loop / CLI sweep: {min(loop) / min(cli):.3f} (wall), "
          f"{min(loop_cpu) / min(cli_cpu):.3f} (CPU: {min(loop_cpu):.3f} s / {min(cli_cpu):.3f} s)")
    print(f"(2) Simulation.sweep, 1 thread: {min(sweep):.3f} s")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
