"""docs/performance.md "Time estimates": `qevolve check`'s time estimate against the actual wall
time of `qevolve run`, for every example and the standard workload at N = 6 ... 10.

    python3 benchmarks/time_estimate/estimate_vs_actual.py [--qevolve BUILD/bin/qevolve] [--threads 1] [--smoke]

Each config is estimated with an empty cache (the probe, as a first `check` on a machine makes
it), then run once; the actual time is the whole `qevolve run` process (start-up included).
Prints one table row per config: estimate, actual, ratio. Exit 1 when a ratio leaves [1/3, 3].
--smoke (CI, tests/benchmarks): one example and N = 4, checked for the table's format only
(timings of a loaded CI machine prove nothing).
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "python"))
from standard_workload import workload_yaml  # noqa: E402

UNITS = {"s": 1.0, "min": 60.0, "h": 3600.0}


def estimate(exe, cfg, threads, env):
    p = subprocess.run([exe, "check", cfg, "--threads", str(threads)], capture_output=True, text=True, env=env,
                       check=True)
    if "a device alone: for `qevolve spectrum`" in p.stdout:
        return None  # nothing to run
    m = re.search(r"^time: about ([0-9.e+-]+) (s|min|h) ", p.stdout, re.M)
    if not m:
        raise SystemExit(f"{cfg}: no time estimate in\n{p.stdout}")
    return float(m.group(1)) * UNITS[m.group(2)]


def actual(exe, cfg, threads, env, cwd):
    t0 = time.perf_counter()
    p = subprocess.run([exe, "run", cfg, "--threads", str(threads), "--quiet"], capture_output=True, text=True,
                       env=env, cwd=cwd)
    seconds = time.perf_counter() - t0
    return seconds if p.returncode == 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qevolve", default=str(ROOT / "build" / "release" / "bin" / "qevolve"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    examples = sorted(ROOT.glob("examples/*.yaml"))
    qubits = range(6, 11)
    if a.smoke:
        examples, qubits = [ROOT / "examples" / "fluxonium_x.yaml"], [4]
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{a.threads} thread(s)")
    print(f"{'config':32s} {'estimate [s]':>12s} {'actual [s]':>11s} {'ratio':>7s}")
    outside = 0
    with tempfile.TemporaryDirectory(prefix="estimate_") as tmp:
        configs = [str(e) for e in examples]
        for n in qubits:
            path = pathlib.Path(tmp) / f"standard_N{n}.yaml"
            path.write_text(workload_yaml(n))
            configs.append(str(path))
        for k, cfg in enumerate(configs):
            env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, f"cache{k}"))  # empty: the probe runs
            name = pathlib.Path(cfg).name
            try:
                est = estimate(a.qevolve, cfg, a.threads, env)
            except subprocess.CalledProcessError as e:
                print(f"{name:32s} not a run config ({e.stderr.strip().splitlines()[-1][:60]})")
                continue
            if est is None:
                print(f"{name:32s} a device alone (for qevolve spectrum): nothing to run")
                continue
            act = actual(a.qevolve, cfg, a.threads, env, tmp)
            if act is None:
                print(f"{name:32s} {est:12.3g} {'run failed':>11s}")
                outside += 1
                continue
            ratio = est / act
            flag = "" if 1 / 3 <= ratio <= 3 else "  outside [1/3, 3]"
            outside += bool(flag) and not a.smoke
            print(f"{name:32s} {est:12.3g} {act:11.3g} {ratio:7.2f}{flag}")
    sys.exit(1 if outside else 0)


if __name__ == "__main__":
    main()
