#!/usr/bin/env python3
"""Issue 37, acceptance 3: what an ensemble costs against its members run one by one.

  python3 benchmarks/ensemble/ab_ensemble.py [--qevolve BIN] [--rounds R] [--mpi]

(1) A K = 5 ensemble of the N = 6 (--qubits) standard workload (docs/presets.md "The standard workload";
    members: q0's EL at the 5 Gauss-Hermite nodes of 1 % around its preset value) with
    `qevolve run --threads 1`, against the 5 members as separate `qevolve run --set ...
    --threads 1`: the ratio of wall times (target <= 1.05), alternating A and B R times, medians.
(2) --mpi: a K = 4 ensemble under `mpirun -n 2` against one process (target >= 1.9x).
Prints one line per measurement and the medians."""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "python"))
import standard_workload  # noqa: E402


def ensemble_yaml(base, key, mean, std, points):
    return base + ("ensemble:\n  vary:\n    - {key: \"%s\", distribution: normal, mean: %r, std: %r, points: %d}\n"
                   % (key, mean, std, points))


def timed(cmd, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit(" ".join(map(str, cmd)) + "\n" + p.stderr)
    return time.perf_counter() - t0, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qevolve", default=str(ROOT / "build" / "release" / "bin" / "qevolve"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mpi", action="store_true")
    ap.add_argument("--qubits", type=int, default=6, help="N of the standard workload (default 6)")
    a = ap.parse_args()
    base = standard_workload.workload_yaml(a.qubits, 500)
    key, el = "device.qubits[q0].el", 0.9  # q0's EL in mpc_fluxonium_1d (docs/presets.md)
    tmp = pathlib.Path(tempfile.mkdtemp())
    if not a.mpi:
        cfg = tmp / "ens.yaml"
        cfg.write_text(ensemble_yaml(base, key, el, 0.01 * el, 5))
        plain = tmp / "plain.yaml"
        plain.write_text(base)
        _, out = timed([a.qevolve, "run", str(cfg), "--threads", "1"])
        values = [line.split(" = ")[-1].split()[0] for line in out.splitlines()
                  if line.strip() and line.split()[0].isdigit() and key in line]
        assert len(values) == 5, out
        ens, sep = [], []
        for r in range(a.rounds):
            t_e, _ = timed([a.qevolve, "run", str(cfg), "--threads", "1"])
            t_s = sum(timed([a.qevolve, "run", str(plain), "--threads", "1", "--set", f"{key}={v}"])[0] for v in values)
            ens.append(t_e)
            sep.append(t_s)
            print(f"round {r}: ensemble {t_e:.3f} s, 5 separate runs {t_s:.3f} s, ratio {t_e / t_s:.3f}", flush=True)
        print(f"median: ensemble {statistics.median(ens):.3f} s, separate {statistics.median(sep):.3f} s, "
              f"ratio {statistics.median(ens) / statistics.median(sep):.3f} (target <= 1.05)")
    else:
        cfg = tmp / "ens4.yaml"
        cfg.write_text(ensemble_yaml(base, key, el, 0.01 * el, 4))
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_orte_tmpdir_base=str(tmp))
        one, two = [], []
        for r in range(a.rounds):
            t1, _ = timed([a.qevolve, "run", str(cfg), "--threads", "1"])
            t2, _ = timed(["mpirun", "-n", "2", a.qevolve, "run", str(cfg), "--threads", "1"], env=env)
            one.append(t1)
            two.append(t2)
            print(f"round {r}: one process {t1:.3f} s, mpirun -n 2 {t2:.3f} s, speedup {t1 / t2:.3f}", flush=True)
        print(f"median: one {statistics.median(one):.3f} s, two ranks {statistics.median(two):.3f} s, "
              f"speedup {statistics.median(one) / statistics.median(two):.3f} (target >= 1.9)")


if __name__ == "__main__":
    main()
