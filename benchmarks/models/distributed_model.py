#!/usr/bin/env python3
"""Model of 1 -> 8 GPU and multi-node efficiency of the standard workload (docs/performance.md,
"Distributed runs"), from quantities measured by `qevolve bench scaling --ranks` and stated
hardware assumptions. Nothing here is a measurement on a GPU: no GPU exists on this machine.

usage: distributed_model.py [SCALING.csv]
  SCALING.csv from `qevolve bench scaling --csv SCALING.csv` (any --ranks; the 1-rank row of the
  largest N is used). CI's smoke run (tests/benchmarks) makes one with --qubits 3:4 --steps 20.

Inputs
- flops per column and step, F(N) = 8 D sum_k g_k (docs/solvers.md): the CSV's gflops * seconds /
  (columns * steps) for the N it holds; the sum of gate sizes grows linearly in N (measured:
  67.9 at N = 10, i.e. 6.8 N), which extrapolates F to N = 12..16.
- one vz fidelity evaluation: E objective all-reduces of (8N + 3) doubles each (E measured from
  bytes_per_fidelity / bytes_per_objective: ~800) plus the 2d-complex start sums; each
  all-reduce is reduce + broadcast (2 latency terms per tree level).
- output: rank 0 gathers D x 2^N complex (N = 16: 69 GB, beyond one node's memory: parallel HDF5
  would be needed, and this model says so).
Assumptions (stated, not measured)
- GPU rate R: the local-gate kernel streams the state once per gate (read + write 16 bytes per
  amplitude for ~8 g flops), memory bound: R ~ HBM bandwidth x 8g / 32 flop/byte, 3.35 TB/s
  (H100 SXM) x 1 = 3.35 TFLOP/s for g = 4.
- NCCL latency alpha: 10 us per tree level inside a node (NVLink), 30 us across nodes (IB);
  bandwidth 150 GB/s (NVLink) / 25 GB/s (HDR IB) for the output gather.
"""
import csv
import math
import sys

STEPS = 500
R_GPU = 3.35e12            # flop/s per GPU (memory-bound local gates, see above)
ALPHA = {"node": 10e-6, "cluster": 30e-6}
BW = {"node": 150e9, "cluster": 25e9}
OBJECTIVE_EVALS = 800      # measured: bytes_per_fidelity / bytes_per_objective (N = 8..10)


def flops_per_column_step(n, per_qubit=6.8):
    return 8.0 * 2**n * per_qubit * n


def main():
    per_qubit = 6.8
    if len(sys.argv) > 1:
        table = csv.DictReader(open(sys.argv[1]))
        missing = {"ranks", "qubits", "gflops", "seconds", "columns", "steps"} - set(table.fieldnames or [])
        if missing:
            sys.exit(f"{sys.argv[1]}: not a `qevolve bench scaling --csv` table: no column "
                     + ", ".join(sorted(missing)))
        rows = [r for r in table if int(r["ranks"]) == 1]
        if not rows:
            sys.exit(f"{sys.argv[1]}: no 1-rank row")
        r = max(rows, key=lambda x: int(x["qubits"]))
        n = int(r["qubits"])
        f = float(r["gflops"]) * 1e9 * float(r["seconds"]) / (int(r["columns"]) * int(r["steps"]))
        per_qubit = f / (8.0 * 2**n * n)
        print(f"measured F({n}) = {f:.4g} flop per column-step -> sum of gate sizes = {per_qubit:.2f} N")
    print(f"{'N':>3} {'GPUs':>4} {'where':>8} {'compute s':>10} {'reduce s':>9} {'gather s':>9} {'efficiency':>10}")
    for n in (12, 13, 14, 15, 16):
        work = STEPS * 2**n * flops_per_column_step(n, per_qubit)
        for k in (1, 2, 4, 8, 16, 32):
            where = "node" if k <= 8 else "cluster"
            compute = work / (k * R_GPU)
            levels = max(1, math.ceil(math.log2(k))) if k > 1 else 0
            reduce = OBJECTIVE_EVALS * 2 * levels * ALPHA[where]
            gather_bytes = 16.0 * 2**n * 2**n * (k - 1) / k
            gather = gather_bytes / BW[where] if k > 1 else 0.0
            eff = compute / (compute + reduce + gather)
            note = "  (gathered U: %.0f GB on rank 0)" % (16.0 * 4**n / 1e9) if n == 16 and k == 1 else ""
            print(f"{n:>3} {k:>4} {where:>8} {compute:>10.3g} {reduce:>9.3g} {gather:>9.3g} {eff:>10.3f}{note}")


if __name__ == "__main__":
    main()
