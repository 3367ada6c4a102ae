#!/usr/bin/env python3
"""No file includes a header of a higher layer (docs/architecture.md, the layer table).

The layer order is read from docs/architecture.md itself: the rows of the table headed
`| layer (folder) |`, first row lowest. A file may include headers of its own layer and of the
layers in earlier rows, nothing else. A file's layer:

- src/<folder>/...: the table row whose folder is the longest prefix (src/backend/cpu/x.cpp is
  `backend/cpu`; src/comm/nccl/nccl_communicator.cpp is `comm`, although it is built into the
  CUDA plugin);
- apps/qevolve/...: `apps/qevolve`; python/...: `python`;
- include/qevolve/...: the public header's row in PUBLIC_HEADERS below (one line a header:
  the layer whose folder implements what it declares). A public header missing from it fails,
  and so does a line naming a header that no longer exists.

Every `#include "..."` of the C++ files (.cpp .hpp .h .cu .cuh) under src/, include/, apps/
and python/ is resolved as the compiler does (the including file's folder, include/, src/;
qevolve/version.hpp is generated from cmake/version.hpp.in) and checked. The known violations
that issue 35's refactor removes are listed in tests/architecture/layer_exceptions.txt, one
`FILE -> HEADER  # reason` a line; they pass, and an exception that no longer occurs fails, so
the list only shrinks.

Validation once (docs/architecture.md "Errors"): input errors are raised by the loader and the
resolution stage (src/io) alone; the engine layers (ENGINE_LAYERS: device, pulse, backend,
solver, fidelity, gradient, optimize, and their public headers) assert preconditions
(precondition(), std::logic_error) and never validate input. So no code of theirs -- comments
and string literals aside -- names InputError (throwing, building or catching one), calls
`unvalidated(` or calls a `.fail(` / `->fail(` / `io::fail(` of the stage. Known exceptions are
listed in tests/architecture/input_error_exceptions.txt, one `FILE: CONSTRUCT  # reason` a line
(CONSTRUCT: InputError, unvalidated or fail); like layer_exceptions.txt the list only shrinks: a
listed construct the file no longer uses fails.

Prints one line per failure, FILE:LINE: problem, and exits 1; exits 0 otherwise. With
--all, prints every upward include, excepted or not (exit status unchanged).
Run from anywhere:  python3 tests/architecture/check_layers.py [ROOT]   (standard library only)
"""

import os
import re
import sys

# The layer of each public header: what it declares and which folder of src/ implements it.
PUBLIC_HEADERS = {
    "qevolve/config.hpp": "core",               # the Config data model (src/core/config.cpp)
    "qevolve/error.hpp": "core",
    "qevolve/gates.hpp": "core",                # gate name table (src/core/gates.cpp)
    "qevolve/linalg.hpp": "core",
    "qevolve/quadrature.hpp": "core",           # Gauss rules (src/core/quadrature.cpp)
    "qevolve/names.hpp": "core",
    "qevolve/text.hpp": "core",
    "qevolve/types.hpp": "core",
    "qevolve/version.hpp": "core",              # generated (cmake/version.hpp.in)
    "qevolve/device.hpp": "device",
    "qevolve/device_derivative.hpp": "device",
    "qevolve/flux_drive.hpp": "device",
    "qevolve/mode.hpp": "device",
    "qevolve/presets.hpp": "device",
    "qevolve/spectrum.hpp": "device",           # qevolve::device (src/device/spectrum.cpp)
    "qevolve/line.hpp": "pulse",
    "qevolve/pulse.hpp": "pulse",
    "qevolve/backend/backend.hpp": "backend/cpu",   # the executor interfaces
    "qevolve/backend/block_layout.hpp": "backend/cpu",
    "qevolve/backend/capabilities.hpp": "backend/cpu",
    "qevolve/backend/host_device.hpp": "backend/cpu",
    "qevolve/backend/local_gate.hpp": "backend/cpu",
    "qevolve/backend/parallel.hpp": "backend/cpu",
    "qevolve/backend/phase.hpp": "backend/cpu",
    "qevolve/backend/chebyshev_series.hpp": "backend/cpu",
    "qevolve/backend/sparse_columns.hpp": "backend/cpu",
    "qevolve/backend/cuda.hpp": "backend/cuda",         # the plugin's API (cuda::impl)
    "qevolve/backend/cuda_plugin.hpp": "backend/cuda",  # the plugin's exported table
    "qevolve/comm.hpp": "comm",
    "qevolve/checkpoints.hpp": "solver",        # the open-system adjoint's checkpointing
    "qevolve/compute_device.hpp": "solver",     # evolution.device's rule (src/solver/device_select.cpp)
    "qevolve/evolution_plan.hpp": "solver",     # what a Simulator is built from
    "qevolve/scheme_traits.hpp": "solver",      # the schemes' table (src/solver/scheme_traits.cpp)
    "qevolve/simulator.hpp": "solver",
    "qevolve/drive_model.hpp": "solver",       # a Simulator's drive (its part)
    "qevolve/state_map.hpp": "solver",         # a Simulator's states and output map (its part)
    "qevolve/trace.hpp": "solver",
    "qevolve/truncation.hpp": "solver",
    "qevolve/fidelity.hpp": "fidelity",
    "qevolve/gradient.hpp": "gradient",
    "qevolve/gradient_plan.hpp": "gradient",    # what a GradientProblem is built from
    "qevolve/ensemble_problem.hpp": "gradient",  # an ensemble of GradientProblems (docs/ensembles.md)
    "qevolve/step_error.hpp": "gradient",
    "qevolve/optimizer.hpp": "optimize",
    "qevolve/config_loader.hpp": "io",
    "qevolve/config_writer.hpp": "io",
    "qevolve/device_param_key.hpp": "io",
    "qevolve/ensemble.hpp": "io",               # ensemble members and their check
    "qevolve/hdf5_file.hpp": "io",
    "qevolve/interrupt.hpp": "io",
    "qevolve/memory_estimate.hpp": "io",        # qevolve::io and ::sizes, for the stage
    "qevolve/optimize_record.hpp": "io",        # the optimiser's checkpoint file (optimize::RecordStore)
    "qevolve/output_contents.hpp": "io",
    "qevolve/output_path.hpp": "io",
    "qevolve/plan.hpp": "io",                   # the stage's plan builders (src/io/evolution_plan.cpp)
    "qevolve/plausibility.hpp": "io",
    "qevolve/resolve.hpp": "io",                # the resolution stage (src/io/resolve.cpp)
    "qevolve/sweep_axis.hpp": "io",
    "qevolve/commands.hpp": "commands",
    "qevolve/session.hpp": "commands",
    "qevolve/workloads.hpp": "commands",
}
GENERATED = {"qevolve/version.hpp"}
SCANNED = ("src", "include", "apps", "python")
SUFFIXES = (".cpp", ".hpp", ".h", ".cu", ".cuh")
OTHER_FOLDERS = {"apps/qevolve": "apps/qevolve", "python": "python"}
# Files of src/ outside the layer folders.
OTHER_FILES = {"src/pch.cpp": "core"}  # builds the layers' precompiled header, includes nothing
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
TABLE_HEAD = re.compile(r"^\|\s*layer \(folder\)\s*\|")
ROW = re.compile(r"^\|\s*`([^`]+?)/?`\s*\|")
EXCEPTION = re.compile(r"^(\S+)\s+->\s+(\S+)\s+#\s*\S")
# Validation once: the layers that must not raise input errors, and what raising one looks like.
ENGINE_LAYERS = ("device", "pulse", "backend", "solver", "fidelity", "gradient", "optimize")
INPUT_ERROR_CONSTRUCTS = {
    "InputError": re.compile(r"\bInputError\b"),
    "unvalidated": re.compile(r"\bunvalidated\s*\("),
    "fail": re.compile(r"(?:\.|->|\bio::)\s*fail\s*\("),
}
INPUT_EXCEPTION = re.compile(r"^(\S+):\s+(\S+)\s+#\s*\S")


def layer_order(root):
    """The table's folders, lowest first: ['core', 'io', ...]."""
    path = os.path.join(root, "docs", "architecture.md")
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = next((i for i, line in enumerate(lines) if TABLE_HEAD.match(line)), None)
    if start is None:
        raise SystemExit(f"{path}: no table headed '| layer (folder) |'")
    order = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        m = ROW.match(line)
        if not m:
            raise SystemExit(f"{path}: a layer row without a `folder/` first cell: {line}")
        order.append(m.group(1).rstrip("/"))
    return order


def source_files(root):
    for top in SCANNED:
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "build", "__pycache__")))
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def layer_of(path, order):
    """The layer of a repository path, or None."""
    if path in OTHER_FILES:
        return OTHER_FILES[path]
    if path.startswith("include/"):
        return PUBLIC_HEADERS.get(path[len("include/"):])
    if path.startswith("src/"):
        rest = path[len("src/"):]
        best = None
        for layer in order:
            if rest.startswith(layer + "/") and (best is None or len(layer) > len(best)):
                best = layer
        return best
    for folder, layer in OTHER_FOLDERS.items():
        if path.startswith(folder + "/"):
            return layer
    return None


def resolve(root, including, name):
    """The repository path an include names, as the compiler finds it, or None."""
    if name in GENERATED:
        return "include/" + name
    for base in (os.path.dirname(including), "include", "src"):
        candidate = os.path.normpath(os.path.join(base, name)).replace(os.sep, "/")
        if not candidate.startswith("..") and os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def read_listing(path, pattern, expected, separator, valid=lambda m: True):
    """{(group 1, group 2): line number} of the lines of a listing of allowed exceptions that
    `pattern` matches (and `valid` accepts); malformed and repeated lines are errors."""
    exceptions, errors = {}, []
    if not os.path.exists(path):
        return exceptions, errors
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            m = pattern.match(text)
            if not m or not valid(m):
                errors.append(f"{number}: expected '{expected}': {text}")
            elif (m.group(1), m.group(2)) in exceptions:
                errors.append(f"{number}: listed twice: {m.group(1)}{separator}{m.group(2)}")
            else:
                exceptions[(m.group(1), m.group(2))] = number
    return exceptions, errors


def read_exceptions(path):
    """{(file, header): line number} from layer_exceptions.txt; malformed lines are errors."""
    return read_listing(path, EXCEPTION, "FILE -> HEADER  # reason", " -> ")


def is_engine(layer):
    return layer is not None and any(layer == e or layer.startswith(e + "/") for e in ENGINE_LAYERS)


def code_only(text):
    """`text` with comments, string and character literals blanked (newlines kept), so that
    a construct named in a comment or a message is not taken for code."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2:open_paren]
            j = text.find(")" + delimiter + '"', open_paren)
            j = n if j < 0 else j + len(delimiter) + 2
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # not a digit separator
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_input_exceptions(path):
    """{(file, construct): line number} from input_error_exceptions.txt; malformed lines are errors."""
    return read_listing(path, INPUT_EXCEPTION, "FILE: InputError|unvalidated|fail  # reason", ": ",
                        lambda m: m.group(2) in INPUT_ERROR_CONSTRUCTS)


def input_error_failures(root, order):
    """Validation once: FILE:LINE failures of engine-layer code that raises input errors."""
    listing = "tests/architecture/input_error_exceptions.txt"
    exceptions, errors = read_input_exceptions(os.path.join(root, listing))
    failures = [f"{listing}:{e}" for e in errors]
    seen = set()
    for path in source_files(root):
        layer = layer_of(path, order)
        if not is_engine(layer):
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = code_only(f.read()).splitlines()
        for number, line in enumerate(lines, 1):
            for construct, pattern in INPUT_ERROR_CONSTRUCTS.items():
                if not pattern.search(line):
                    continue
                if (path, construct) in exceptions:
                    seen.add((path, construct))
                    continue
                failures.append(f"{path}:{number}: {construct} in engine layer {layer}: input errors are "
                                "raised by the resolution stage (src/io, its message table); an engine layer "
                                "asserts its preconditions (precondition(), docs/architecture.md \"Errors\")")
    for (path, construct), number in sorted(exceptions.items(), key=lambda item: item[1]):
        if (path, construct) not in seen:
            failures.append(f"{listing}:{number}: stale: {path} no longer uses {construct} (remove the line)")
    return failures, len(exceptions)


def main(argv):
    show_all = "--all" in argv
    args = [a for a in argv if a != "--all"]
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(args[0]) if args else os.path.dirname(os.path.dirname(here))
    order = layer_order(root)
    rank = {layer: i for i, layer in enumerate(order)}
    exceptions_path = os.path.join(root, "tests", "architecture", "layer_exceptions.txt")
    exceptions, errors = read_exceptions(exceptions_path)
    failures = [f"tests/architecture/layer_exceptions.txt:{e}" for e in errors]

    for layer in PUBLIC_HEADERS.values():
        if layer not in rank:
            failures.append(f"check_layers.py: PUBLIC_HEADERS names '{layer}', not a row of "
                            "docs/architecture.md's layer table")
    for header in PUBLIC_HEADERS:
        if header not in GENERATED and not os.path.isfile(os.path.join(root, "include", header)):
            failures.append(f"check_layers.py: PUBLIC_HEADERS lists include/{header}, "
                            "which does not exist")
    for layer in order:
        if layer not in OTHER_FOLDERS.values() and not os.path.isdir(os.path.join(root, "src", layer)):
            if not os.path.isdir(os.path.join(root, layer)):
                failures.append(f"docs/architecture.md: the layer table's `{layer}/` is no folder")

    seen = set()
    for path in source_files(root):
        own = layer_of(path, order)
        if own is None:
            failures.append(f"{path}: no layer (a folder missing from docs/architecture.md's "
                            "table, or a public header missing from check_layers.py's "
                            "PUBLIC_HEADERS)")
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = resolve(root, path, m.group(1))
            if target is None:
                failures.append(f"{path}:{number}: includes \"{m.group(1)}\", found nowhere")
                continue
            theirs = layer_of(target, order)
            if theirs is None or rank[theirs] <= rank[own]:
                continue  # an unmapped target fails on its own as a scanned file
            message = (f"{path}:{number}: includes {target} of layer {theirs} above layer "
                       f"{own}")
            excepted = (path, target) in exceptions
            if excepted:
                seen.add((path, target))
            if show_all:
                print(message + ("  [excepted]" if excepted else ""))
            elif not excepted:
                failures.append(message)

    for (path, target), number in sorted(exceptions.items(), key=lambda item: item[1]):
        if (path, target) not in seen:
            failures.append(f"tests/architecture/layer_exceptions.txt:{number}: stale: {path} "
                            f"no longer includes {target} (remove the line)")
    input_failures, input_exceptions = input_error_failures(root, order)
    failures += input_failures
    for failure in failures:
        print(failure)
    if not show_all:
        print(f"check_layers: {len(order)} layers, {len(exceptions)} listed exceptions, "
              f"{input_exceptions} listed input-error exceptions, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
