#!/usr/bin/env python3
"""Size rules of the code (docs/architecture.md, above "Call order"): no source file over 800 lines, no
function of the library, the CLI, the Python bindings or the C++ benchmarks over 100 lines (a
definition at namespace level, signature to closing brace; the tests' case tables are data, not
counted), and `solver::Simulator` (include/qevolve/simulator.hpp) at most 20 public member functions -- its
drive, states, statistics and outputs are their own types (DriveModel, StateMap, CacheStats,
StepWork), reached through const references.

Run from anywhere:  python3 tests/architecture/check_sizes.py [ROOT]   (standard library only)
Exit status 1 with one line per violation, else 0 with the figures.
"""

import re
import subprocess
import sys
from pathlib import Path

MAX_LINES = 800
MAX_SIMULATOR_PUBLIC = 20
MAX_FUNCTION_LINES = 100
FUNCTION_DIRS = ("src/", "include/", "apps/", "python/src/", "benchmarks/")
# The line that ends a function's signature and opens its body: `) {`, `) const {`, `) -> T {`.
SIGNATURE_END = re.compile(r"\)\s*(const|noexcept|override|final|mutable|->\s*[\w:<>,\s*&]+)*\s*\{\s*(//.*)?$")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cu", ".py")


def public_member_functions(header: str, name: str) -> list[str]:
    """The public member functions of `class name` in `header` (constructors, the destructor and
    deleted or defaulted members not counted), one string each."""
    start = re.search(r"\bclass\s+" + name + r"\s*\{", header)
    if not start:
        raise ValueError(f"class {name} not found")
    body, depth, i = [], 1, start.end()
    while depth and i < len(header):  # the class body, nested braces included
        c = header[i]
        depth += c == "{"
        depth -= c == "}"
        body.append(c)
        i += 1
    text = re.sub(r"//[^\n]*", "", "".join(body))
    # Only the top level of the class: drop the bodies of inline members and nested types.
    flat, depth = [], 0
    for c in text:
        if c == "{":
            depth += 1
            flat.append(";" if depth == 1 else "")
        elif c == "}":
            depth -= 1
        elif depth == 0:
            flat.append(c)
    public, found = False, []
    for stmt in "".join(flat).split(";"):
        stmt = " ".join(stmt.split())
        access = re.match(r"^(public|private|protected)\s*:\s*", stmt)
        while access:
            public = access.group(1) == "public"
            stmt = stmt[access.end():]
            access = re.match(r"^(public|private|protected)\s*:\s*", stmt)
        if not public or "(" not in stmt or stmt.startswith(("friend", "using", "struct", "enum", "class")):
            continue
        if re.search(r"=\s*(delete|default)$", stmt) or "operator=" in stmt:
            continue
        callee = re.search(r"(~?\w+)\s*\(", stmt).group(1)
        if callee in (name, "~" + name):
            continue
        found.append(callee)
    return found


def long_functions(text: str) -> list[tuple[int, int]]:
    """(first line, length) of every function defined at namespace level (unindented, the
    project's style) whose definition spans more than MAX_FUNCTION_LINES lines."""
    lines, found, i = text.splitlines(), [], 0
    while i < len(lines):
        line = lines[i]
        if (not line or line[0].isspace() or "(" not in line
                or line.startswith(("#", "//", "namespace", "struct", "class", "enum", "}"))):
            i += 1
            continue
        opening = None  # the signature may run over a few lines
        for j in range(i, min(i + 8, len(lines))):
            if lines[j].rstrip().endswith(";"):
                break
            if SIGNATURE_END.search(lines[j].rstrip()):
                opening = j
                break
        if opening is None:
            i += 1
            continue
        depth, end = 0, opening
        for end in range(opening, len(lines)):
            depth += lines[end].count("{") - lines[end].count("}")
            if depth == 0:
                break
        if end - i + 1 > MAX_FUNCTION_LINES:
            found.append((i + 1, end - i + 1))
        i = end + 1
    return found


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    failures = []
    files = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True,
                           check=True).stdout.split()
    sources = [f for f in files if f.endswith(SOURCE_SUFFIXES)]
    longest = (0, "")
    functions = 0  # files whose functions were measured
    for f in sources:
        path = root / f
        if not path.is_file():
            continue
        n = len(path.read_text(errors="replace").splitlines())
        longest = max(longest, (n, f))
        if n > MAX_LINES:
            failures.append(f"{f}: {n} lines (at most {MAX_LINES})")
        if f.startswith(FUNCTION_DIRS) and f.endswith((".cpp", ".hpp", ".h", ".cu")):
            functions += 1
            for first, length in long_functions(path.read_text(errors="replace")):
                failures.append(f"{f}:{first}: a function of {length} lines (at most {MAX_FUNCTION_LINES})")
    members = public_member_functions((root / "include/qevolve/simulator.hpp").read_text(), "Simulator")
    if len(members) > MAX_SIMULATOR_PUBLIC:
        failures.append(f"include/qevolve/simulator.hpp: Simulator has {len(members)} public member functions "
                        f"(at most {MAX_SIMULATOR_PUBLIC}): {', '.join(members)}")
    for line in failures:
        print(line)
    if failures:
        return 1
    print(f"check_sizes: {len(sources)} source files, the longest {longest[1]} ({longest[0]} lines); "
          f"no function over {MAX_FUNCTION_LINES} lines in {functions} files; "
          f"Simulator: {len(members)} public member functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
