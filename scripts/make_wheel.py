#!/usr/bin/env python3
"""Packs the Python module that a CMake build made into a wheel, so that pip installs that very
module (the engine compiled once, with the CLI's flags) instead of compiling it again.

    python3 scripts/make_wheel.py BUILD_DIR OUT_DIR    # prints the wheel's path

BUILD_DIR/python/qevolve holds the package (__init__.py, _core.pyi, py.typed) and the compiled
extension _core.<SOABI>.so (python/CMakeLists.txt). The wheel (PEP 427) is tagged for the python3
that runs this script, which must be the one the extension was built for: its SOABI is checked.
"""
import base64
import hashlib
import pathlib
import re
import sys
import sysconfig
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(qevolve VERSION ([0-9.]+)", text).group(1)


def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    package = pathlib.Path(sys.argv[1]) / "python" / "qevolve"
    out = pathlib.Path(sys.argv[2])
    soabi = sysconfig.get_config_var("SOABI")
    extension = package / f"_core.{soabi}.so"
    if not extension.is_file():
        found = sorted(p.name for p in package.glob("_core*.so")) if package.is_dir() else []
        sys.exit(f"make_wheel: {extension} is missing (found: {', '.join(found) or 'none'}); build the target "
                 f"qevolve_python for {sys.executable} first")
    files = [package / n for n in ("__init__.py", "_core.pyi", "py.typed")] + [extension]
    v = version()
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    tag = f"{py}-{py}-{platform}"
    info = f"qevolve-{v}.dist-info"
    meta = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: qevolve\nVersion: {v}\n"
                            "Summary: Gate simulation and optimisation on superconducting qubits: the qevolve "
                            "engine from Python\nRequires-Python: >=3.8\nRequires-Dist: numpy\n",
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: qevolve scripts/make_wheel.py\nRoot-Is-Purelib: false\n"
                         f"Tag: {tag}\n",
        f"{info}/top_level.txt": "qevolve\n",
    }
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"qevolve-{v}-{tag}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            data = f.read_bytes()
            name = f"qevolve/{f.name}"
            z.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
            record.append(f"{name},{digest(data)},{len(data)}")
        for name, text in meta.items():
            data = text.encode()
            z.writestr(name, data)
            record.append(f"{name},{digest(data)},{len(data)}")
        record.append(f"{info}/RECORD,,")
        z.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    print(wheel)


if __name__ == "__main__":
    main()
