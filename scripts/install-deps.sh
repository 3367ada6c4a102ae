#!/usr/bin/env bash
# Installs the Debian packages qevolve builds and tests with, when any is missing.
# Safe to run again: it only calls apt-get when something is absent.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev libopenblas-dev liblapacke-dev
  libhdf5-dev hdf5-tools libyaml-cpp-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin liblbfgspp-dev
  python3-numpy python3-h5py python3-matplotlib python3-scipy python3-pytest python3-dev python3-pip
  procps
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Python module's build and test tools (docs/python.md) for the python3 on PATH, the one
# `import qevolve` and the tests use: what Debian packages above do not give it (a pyenv or
# virtual-environment python; nanobind, which Debian 12 does not package) comes from PyPI.
python_modules=(nanobind pytest numpy scipy h5py matplotlib)
missing_py=()
for m in "${python_modules[@]}"; do
  python3 -c "import $m" 2>/dev/null || missing_py+=("$m")
done
if [ ${#missing_py[@]} -gt 0 ]; then
  pip_flags=(--quiet)
  if python3 -c 'import os, sys, sysconfig; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) and sys.prefix == sys.base_prefix else 1)'; then
    pip_flags+=(--break-system-packages)  # Debian's own python3: pip may not install otherwise
  fi
  [ "$(id -u)" -ne 0 ] || pip_flags+=(--root-user-action=ignore)
  echo "install-deps: python3 -m pip install ${missing_py[*]} (for $(command -v python3))"
  python3 -m pip install "${pip_flags[@]}" "${missing_py[@]}"
fi
