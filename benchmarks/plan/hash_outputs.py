#!/usr/bin/env python3
"""Fingerprints of qevolve's outputs, to show that a refactor leaves every output bitwise identical
(issue 35, acceptance 1: every example, the N = 8 standard workload, the Lindblad example with
gradient, a 3-iteration optimize and a sweep).

It runs a fixed set of qevolve commands (commands() below), each writing its files into its own
folder OUT/<label>/, walks every group, dataset and attribute of every HDF5 file they write (and
hashes any other file whole, e.g. the optimiser's *.optimized.yaml), and writes one line per item,
sorted, to OUT/hashes.txt:

    <label>/<file>  /path[@attribute]  sha256(type + shape + raw data)

plus one `<label>  (exit)` line per command with its exit status. Items that differ between two
runs of the same binary (wall times; EXCLUDED below, each with its reason) are left out and only
listed, in OUT/excluded.txt. OUT/commands.txt has every command, its folder and its time; the
commands' stdout and stderr are in OUT/logs/.

Usage (from anywhere; commands run from the repository root, or from their own folder where the
command writes a file named relative to the working directory):

    python3 benchmarks/plan/hash_outputs.py --qevolve /tmp/base/qevolve --out /tmp/base/hashes
    python3 benchmarks/plan/hash_outputs.py --qevolve build/release/bin/qevolve --out /tmp/new \\
        --compare /tmp/base/hashes/hashes.txt          # run, then diff against a baseline
    python3 benchmarks/plan/hash_outputs.py --compare A/hashes.txt B/hashes.txt   # diff only
    ... --quick   # a subset of the commands (~15 s on 2 cores); same labels and arguments as
                  # the full set, so a quick run compares against a full baseline (the commands a
                  # file lacks are skipped and named)

--compare prints every differing item and `N items, M differ`; exit status 1 when any differ (or
when a command failed), else 0. Needs Python 3 with numpy and h5py. Every command runs with
`--threads 2`, a fresh XDG_CACHE_HOME (qevolve's time-estimate cache) and OMP/BLAS thread
variables fixed, so that two runs of one binary give the same bytes.
"""

import argparse
import fnmatch
import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import h5py
import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks" / "python"))
import standard_workload  # noqa: E402  (benchmarks/python/standard_workload.py)

THREADS = "2"
TIMEOUT_S = 600  # per command; every command here takes well under a minute on 2 cores

# Items that are not deterministic between two runs of the same binary, as fnmatch patterns on
# "<label>/<file>  <item>" (found by running this script twice with one binary and diffing):
EXCLUDED = [
    # `wall_time_s` on `/` of run, optimize and sweep files: the command's wall time.
    ("*/*.h5  /@wall_time_s", "wall time of the command"),
    # optimize: `/history/wall_time_s` in the output and in the checkpoint (the wall time at each
    # iteration).
    ("*/*.h5  /history/wall_time_s", "wall time of each optimiser iteration"),
]

# Not excluded (deterministic for one binary, and checked here on purpose): `qevolve_version`
# (the version string "0.1.0", no commit hash or date in it: a refactor should not change it),
# `config` and `overrides` (the config text as run; every path in a command is relative, so the
# text does not depend on OUT), the thread count (written nowhere).


# Examples that hold a device only (no pulses, no duration: `run` refuses them, exit 2); their
# headers say they are for `qevolve spectrum`, which the spectrum commands cover.
DEVICE_ONLY = {"mpc_chain_4q.yaml"}


def _examples():
    return sorted(p.name for p in (REPO / "examples").glob("*.yaml"))


def _std8_yaml():
    # The N = 8 standard workload (docs/presets.md "The standard workload", src/commands/workloads.cpp),
    # 500 steps as `qevolve bench scaling` and docs/performance.md time it.
    return standard_workload.workload_yaml(8, 500)


def commands():
    """The fixed set: dicts with label, argv (qevolve's arguments; OUT/<label>/out.h5 is added
    as `-o`), cwd ("repo": the repository root; "own": OUT/<label>/, with `copy` files from the
    repository copied there first), stdin (text or None) and quick (in the --quick subset)."""
    cmds = []
    # --quick leaves out the runs that take more than ~2 s on 2 cores (4-36 s under load).
    slow_examples = {"cz_transmon_coupler.yaml", "cz_with_line.yaml", "iswap_parametric.yaml"}
    for name in _examples():
        stem = name[:-5]
        # `run` on every example (an optimize example too: run evaluates its start point, with the
        # gradient), except DEVICE_ONLY.
        if name not in DEVICE_ONLY:
            cmds.append(dict(label=f"run-{stem}", argv=["run", f"examples/{name}"], cwd="repo",
                             quick=name not in slow_examples))
        # `spectrum` of every example's device (cheap: < 0.1 s each), but an ensemble's (spectrum
        # refuses it: docs/ensembles.md).
        if "\nensemble:" not in (REPO / "examples" / name).read_text():
            cmds.append(dict(label=f"spectrum-{stem}", argv=["spectrum", f"examples/{name}"], cwd="repo",
                             quick=True))
    # The N = 8 standard workload (from stdin: the config attribute holds the text only), and the
    # same with a trace, with bonds splitting and vz compensation.
    cmds.append(dict(label="run-std8", argv=["run", "-"], stdin=_std8_yaml(), cwd="repo", quick=True))
    cmds.append(dict(label="run-std8-trace", argv=["run", "-", "--set", "output.trace={every: 10}"],
                     stdin=_std8_yaml(), cwd="repo", quick=True))
    cmds.append(dict(label="run-std8-bonds-vz",
                     argv=["run", "-", "--set", "evolution.splitting=bonds", "--set", "target.compensation=vz"],
                     stdin=_std8_yaml(), cwd="repo", quick=True))
    # The Lindblad example with gradient: the example itself already trains amplitude, frequency
    # and T1 (run-fluxonium_x_lindblad writes /gradient); this one trains every pulse parameter
    # and both noise rates.
    cmds.append(dict(label="run-lindblad-grad",
                     argv=["run", "examples/fluxonium_x_lindblad.yaml",
                           "--set", "evolution.noise.q0.optimize=[t1, tphi]",
                           "--set", "pulses[0].optimize=[amplitude, frequency, phase, duration]"],
                     cwd="repo", quick=True))
    # 3-iteration optimize runs, with a checkpoint (relative to the working directory, so these
    # run in their own folder on a copy of the config: no OUT path lands in the outputs).
    cmds.append(dict(label="optimize-fluxonium_x",
                     argv=["optimize", "fluxonium_x_optimize.yaml", "--set", "optimize.max_iterations=3",
                           "--set", "optimize.checkpoint=ckpt.h5"],
                     cwd="own", copy=["examples/fluxonium_x_optimize.yaml"], quick=True))
    cmds.append(dict(label="optimize-cnot_cr_pair",  # single_qubit compensation; ~17 s on 2 cores
                     argv=["optimize", "cnot_cr_pair.yaml", "--set", "optimize.max_iterations=3",
                           "--set", "optimize.checkpoint=ckpt.h5"],
                     cwd="own", copy=["examples/cnot_cr_pair.yaml"], quick=False))
    # Sweeps: the chevron on a 4 x 3 grid (pulse keys: cached simulators), and a device axis.
    cmds.append(dict(label="sweep-chevron",
                     argv=["sweep", "examples/fluxonium_pair_chevron.yaml",
                           "--vary", "pulses[0].amplitude=0.06589474920099888:0.09884212380149832:4",
                           "--vary", "pulses[0].frequency=0.5723664862818624:0.5923664862818624:3"],
                     cwd="repo", quick=True))
    cmds.append(dict(label="sweep-device",
                     argv=["sweep", "examples/fluxonium_x.yaml", "--set", "evolution.steps=500",
                           "--vary", "device.qubits[q0].el=0.98,1.02",
                           "--vary", "pulses[0].frequency=0.578,0.586", "--set", "target.compensation=vz"],
                     cwd="repo", quick=True))
    labels = [c["label"] for c in cmds]
    assert len(labels) == len(set(labels)), "duplicate labels"
    return cmds


def run_commands(qevolve, out, quick):
    qevolve = str(Path(qevolve).resolve())
    out.mkdir(parents=True, exist_ok=True)
    logs = out / "logs"
    logs.mkdir(exist_ok=True)
    record = []
    status = {}
    total = time.monotonic()
    for c in commands():
        if quick and not c["quick"]:
            continue
        label = c["label"]
        own = out / label
        if own.exists():
            shutil.rmtree(own)
        own.mkdir()
        for f in c.get("copy", []):
            shutil.copy(REPO / f, own / Path(f).name)
        cache = out / "cache" / label  # a fresh, empty time-estimate cache per command
        if cache.exists():
            shutil.rmtree(cache)
        cache.mkdir(parents=True)
        env = dict(os.environ, XDG_CACHE_HOME=str(cache), OMP_NUM_THREADS=THREADS, OMP_DYNAMIC="false",
                   OMP_WAIT_POLICY="passive",
                   OPENBLAS_NUM_THREADS="1", LC_ALL="C")
        env.pop("QEVOLVE_CUDA_PLUGIN", None)
        argv = [qevolve] + c["argv"] + ["-o", str(own / "out.h5"), "--force"]
        if c["argv"][0] != "spectrum":  # spectrum has no --threads (its dense phases use OMP_NUM_THREADS)
            argv += ["--threads", THREADS]
        cwd = REPO if c["cwd"] == "repo" else own
        t0 = time.monotonic()
        try:
            p = subprocess.run(argv, cwd=cwd, env=env, input=c.get("stdin"), capture_output=True, text=True,
                               timeout=TIMEOUT_S)
            rc, so, se = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, so, se = "timeout", str(e.stdout or ""), str(e.stderr or "")
        dt = time.monotonic() - t0
        (logs / f"{label}.out").write_text(so)
        (logs / f"{label}.err").write_text(se)
        status[label] = (rc, {Path(f).name for f in c.get("copy", [])})
        shown = " ".join(a if a.isprintable() and " " not in a else repr(a) for a in argv[1:])
        record.append(f"{label}\t{dt:.2f} s\trc={rc}\tcwd={cwd}\t{shown}" + ("\t(stdin: config text)" if c.get("stdin") else ""))
        print(f"{label:32s} {dt:7.2f} s  rc={rc}", flush=True)
    (out / "commands.txt").write_text("\n".join(record) + f"\n# total {time.monotonic() - total:.1f} s\n")
    return status


# --- hashing ---------------------------------------------------------------------------------

def _type_desc(dtype):
    s = h5py.check_string_dtype(dtype)
    if s is not None:
        return f"str:{s.encoding}:{'vlen' if s.length is None else s.length}"
    v = h5py.check_vlen_dtype(dtype)
    if v is not None:
        return f"vlen:{np.dtype(v).str}"
    return str(dtype.descr) if dtype.fields else dtype.str


def _hash_value(dtype, shape, value):
    """sha256 of the type, the shape and the raw data (strings: each element's UTF-8 bytes with
    its length; vlen sequences: each element's bytes with its length)."""
    h = hashlib.sha256()
    h.update(f"{_type_desc(dtype)}|{shape}|".encode())
    if shape is None:  # an empty (null dataspace) item
        h.update(b"<empty>")
        return h.hexdigest()
    if h5py.check_string_dtype(dtype) is not None or h5py.check_vlen_dtype(dtype) is not None:
        for e in np.asarray(value, dtype=object).reshape(-1):
            b = e.encode() if isinstance(e, str) else bytes(e) if isinstance(e, (bytes, np.bytes_)) \
                else np.ascontiguousarray(e).tobytes()
            h.update(len(b).to_bytes(8, "little"))
            h.update(b)
    else:
        h.update(np.ascontiguousarray(np.asarray(value, dtype=dtype)).tobytes())
    return h.hexdigest()


def _hash_attrs(obj, path, items):
    for name in sorted(obj.attrs.keys()):
        aid = h5py.h5a.open(obj.id, name.encode())
        shape = aid.shape if aid.get_space().get_simple_extent_type() != h5py.h5s.NULL else None
        value = None if shape is None else obj.attrs[name]
        items.append((f"{path}@{name}", _hash_value(aid.dtype, shape, value)))


def _hash_group(grp, path, items):
    items.append((path if path.endswith("/") else path + "/", hashlib.sha256(b"group").hexdigest()))
    _hash_attrs(grp, path.rstrip("/") if path != "/" else "/", items)
    for name in sorted(grp.keys()):
        child = f"{path.rstrip('/')}/{name}"
        link = grp.get(name, getlink=True)
        if isinstance(link, (h5py.SoftLink, h5py.ExternalLink)):
            items.append((f"{child}[link]", hashlib.sha256(repr(link.__dict__).encode()).hexdigest()))
            continue
        obj = grp[name]
        if isinstance(obj, h5py.Group):
            _hash_group(obj, child, items)
        else:
            shape = obj.shape  # None for an empty (null dataspace) dataset
            value = None if shape is None else obj[()]
            items.append((child, _hash_value(obj.dtype, shape, value)))
            _hash_attrs(obj, child, items)


def hash_file(path):
    """[(item, sha256)] of one output file: every group, dataset and attribute of an HDF5 file;
    any other file whole."""
    if h5py.is_hdf5(path):
        items = []
        with h5py.File(path, "r") as f:
            _hash_group(f, "/", items)
        return items
    return [("(file)", hashlib.sha256(Path(path).read_bytes()).hexdigest())]


def _excluded(key):
    for pattern, reason in EXCLUDED:
        if fnmatch.fnmatchcase(key, pattern):
            return reason
    return None


def hash_outputs(out, status):
    lines, excluded = [], []
    for label, (rc, inputs) in status.items():
        lines.append(f"{label}  (exit)  {hashlib.sha256(str(rc).encode()).hexdigest()}")
        own = out / label
        for f in sorted(own.rglob("*")):
            if not f.is_file() or (f.parent == own and f.name in inputs):
                continue
            where = f"{label}/{f.relative_to(own).as_posix()}"
            for item, digest in hash_file(f):
                key = f"{where}  {item}"
                reason = _excluded(key)
                if reason:
                    excluded.append(f"{key}  # {reason}")
                else:
                    lines.append(f"{key}  {digest}")
    lines.sort()
    excluded.sort()
    (out / "hashes.txt").write_text("\n".join(lines) + "\n")
    (out / "excluded.txt").write_text("\n".join(excluded) + "\n")
    return lines


# --- comparing -------------------------------------------------------------------------------

def _read(path):
    items = {}
    for line in Path(path).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            where, item, digest = line.split("  ")
            if not _excluded(f"{where}  {item}"):  # EXCLUDED applies to a file written without it too
                items[f"{where}  {item}"] = digest
    return items


def _label(key):
    return key.split("  ")[0].split("/")[0]


def compare(a_path, b_path):
    a, b = _read(a_path), _read(b_path)
    la, lb = {_label(k) for k in a}, {_label(k) for k in b}
    common = la & lb
    for side, only in ((a_path, sorted(la - lb)), (b_path, sorted(lb - la))):
        if only:
            print(f"skipped (commands only in {side}): {', '.join(only)}")
    keys = sorted(k for k in set(a) | set(b) if _label(k) in common)
    differ = 0
    for k in keys:
        if a.get(k) != b.get(k):
            differ += 1
            print(f"DIFFER  {k}  {a.get(k, '(missing)')[:16]}  {b.get(k, '(missing)')[:16]}")
    print(f"{len(keys)} items, {differ} differ")
    return 1 if differ else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qevolve", help="the qevolve binary to run")
    ap.add_argument("--out", type=Path, help="output folder (its command folders are replaced)")
    ap.add_argument("--quick", action="store_true", help="the quick subset of the commands")
    ap.add_argument("--compare", nargs="+", metavar="HASHES",
                    help="BASE: compare OUT/hashes.txt with BASE; A B: compare two files (no run)")
    args = ap.parse_args()
    if args.compare and len(args.compare) == 2:
        if args.qevolve:
            ap.error("--compare A B compares two files; give one file to compare a run with")
        sys.exit(compare(*args.compare))
    if args.compare and len(args.compare) > 2:
        ap.error("--compare takes one or two files")
    if not args.out:
        ap.error("--out is required")
    out = args.out.resolve()
    failed = False
    if args.qevolve:
        t0 = time.monotonic()
        status = run_commands(args.qevolve, out, args.quick)
        lines = hash_outputs(out, status)
        bad = [f"{k}: rc={rc}" for k, (rc, _) in status.items() if rc != 0]
        failed = bool(bad)
        print(f"{len(lines)} items in {out / 'hashes.txt'} ({len(status)} commands, "
              f"{time.monotonic() - t0:.1f} s)")
        if bad:
            print("FAILED commands (see OUT/logs): " + ", ".join(bad))
    elif not args.compare:
        ap.error("--qevolve is required (or --compare)")
    rc = compare(out / "hashes.txt", args.compare[0]) if args.compare else 0
    sys.exit(1 if failed or rc else 0)


if __name__ == "__main__":
    main()
