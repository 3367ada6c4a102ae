#!/usr/bin/env python3
"""Every Markdown file the repository cites must exist in the repository.

Scans the tracked text files (git ls-files; sources, scripts, CMake files, YAML and Markdown)
for cited Markdown files: paths such as docs/models.md, bare names such as README.md, and the
targets of relative Markdown links. A citation passes when the file exists relative to the
citing file's folder, the repository root or docs/. A citation followed by a quoted section,
as in  docs/models.md "Phase convention",  must also name a heading of that file (a prefix of
the heading text, backticks ignored). Any mention of the design folder outside the repository
(the parent folder's shared/ tree) fails too.

Prints one line per failure, FILE:LINE: problem, and exits 1; exits 0 when all citations
resolve. Run from anywhere inside the checkout:  python3 tests/docs/check_doc_links.py
Standard library only.
"""

import os
import re
import subprocess
import sys

SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh", ".h", ".py", ".sh", ".md", ".txt", ".cmake",
            ".yaml", ".yml")
NAMES = ("CMakeLists.txt",)

URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+")
# A cited Markdown file: a path of name characters ending in .md (not followed by a name
# character, so "x.mdx" or "x.md5" are not citations).
MD = re.compile(r"(?<![A-Za-z0-9_.\-/])((?:\.{1,2}/)*[A-Za-z0-9_\-]+(?:[./][A-Za-z0-9_\-]+)*\.md)"
                r"(?![A-Za-z0-9_])")
# A section cited after the file, as in  docs/models.md "Phase convention"  (straight or
# typographic quotes).
SECTION = re.compile(r"\s+[\"\u201c]([^\"\u201d\n]{1,80})[\"\u201d]")
# The specification folder outside the repository (spelt in two pieces so that this file does
# not mention it itself).
OUTSIDE = re.compile(r"\.\./" + "shared" + r"|(?<![A-Za-z0-9_])" + "shared" + r"/spec\b")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
BOLD_LEAD = re.compile(r"^\s*\*\*([^*]+)\*\*")


def repo_root():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=here,
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return os.path.dirname(os.path.dirname(here))


def tracked_files(root):
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                             check=True)
        files = [f for f in out.stdout.decode("utf-8", "replace").split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
            files += [os.path.relpath(os.path.join(folder, n), root) for n in names]
    return sorted(f for f in files
                  if f.endswith(SUFFIXES) or os.path.basename(f) in NAMES)


def normalise(text):
    text = text.replace("`", "").replace("*", "").strip().rstrip(".:").strip()
    return " ".join(text.split()).casefold()


_headings = {}


def headings(path):
    if path not in _headings:
        found = []
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                fenced = False
                for line in f:
                    if line.lstrip().startswith("```"):
                        fenced = not fenced
                        continue
                    if fenced:
                        continue
                    m = HEADING.match(line) or BOLD_LEAD.match(line)
                    if m:
                        found.append(normalise(m.group(1)))
        except OSError:
            pass
        _headings[path] = found
    return _headings[path]


def resolve(root, citing, cited):
    folder = os.path.dirname(os.path.join(root, citing))
    for base in (folder, root, os.path.join(root, "docs")):
        candidate = os.path.normpath(os.path.join(base, cited))
        if candidate.startswith(root + os.sep) and os.path.isfile(candidate):
            return candidate
    return None


def check_file(root, rel):
    problems, count = [], 0
    try:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        return [f"{rel}: cannot read: {e}"], 0
    for number, line in enumerate(lines, 1):
        if OUTSIDE.search(line):
            problems.append(f"{rel}:{number}: points outside the repository: {line.strip()}")
        text = URL.sub(lambda m: " " * len(m.group(0)), line)
        for m in MD.finditer(text):
            count += 1
            cited = m.group(1)
            target = resolve(root, rel, cited)
            if target is None:
                problems.append(f"{rel}:{number}: cites {cited}, which is not in the repository")
                continue
            s = SECTION.match(text, m.end())
            if s:
                want = normalise(s.group(1))
                if want and not any(h.startswith(want) for h in headings(target)):
                    problems.append(f"{rel}:{number}: cites {cited} \"{s.group(1)}\", "
                                    f"but {os.path.relpath(target, root)} has no such section")
    return problems, count


def main():
    root = os.path.realpath(repo_root())
    files = tracked_files(root)
    problems, citations = [], 0
    for rel in files:
        p, n = check_file(root, rel)
        problems += p
        citations += n
    for p in problems:
        print(p)
    if problems:
        print(f"check_doc_links: {len(problems)} broken citation(s) in {len(files)} files")
        return 1
    print(f"check_doc_links: ok ({citations} citations of .md files in {len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
