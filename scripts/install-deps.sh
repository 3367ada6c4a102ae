#!/usr/bin/env bash
# Installs what qevolve builds, runs and tests with, when any of it is missing (Debian packages
# by apt-get; for the python3 on PATH, the Python modules from PyPI that Debian does not give it).
# Safe to run again: it only calls apt-get or pip when something is absent.
#   scripts/install-deps.sh             # everything (scripts/test.sh)
#   scripts/install-deps.sh --build     # what configuring and compiling need (scripts/install.sh,
#                                       # before the build)
#   scripts/install-deps.sh --runtime   # what running needs: the Python modules of the plots (Debian's
#                                       # python3) and of the Python module and its examples (the
#                                       # python3 on PATH) (scripts/install.sh, during the build)
# `all` adds what only the tests need (pytest, Debian's python3-scipy).
set -euo pipefail

phase=${1:-all}
case "$phase" in
  all | --build | --runtime) ;;
  *) echo "usage: scripts/install-deps.sh [--build | --runtime]" >&2; exit 2 ;;
esac

build_packages=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev libopenblas-dev liblapacke-dev
  libhdf5-dev hdf5-tools libyaml-cpp-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin liblbfgspp-dev
  python3-dev python3-pip procps
)
runtime_packages=(python3-numpy python3-h5py python3-matplotlib)
test_packages=(python3-scipy python3-pytest)
# For the python3 on PATH, the one `import qevolve` and the tests use (a pyenv or virtual-
# environment python does not see Debian's modules): nanobind builds the module (Debian 12 does
# not package it); the others are the runtime's.
build_modules=(nanobind)
runtime_modules=(numpy scipy h5py matplotlib)
test_modules=(pytest)

packages=() modules=()
case "$phase" in
  --build) packages=("${build_packages[@]}") modules=("${build_modules[@]}") ;;
  --runtime) packages=("${runtime_packages[@]}") modules=("${runtime_modules[@]}") ;;
  all)
    packages=("${build_packages[@]}" "${runtime_packages[@]}" "${test_packages[@]}")
    modules=("${build_modules[@]}" "${runtime_modules[@]}" "${test_modules[@]}")
    ;;
esac

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

missing_py=()
for m in "${modules[@]}"; do
  python3 -c "import $m" 2>/dev/null || missing_py+=("$m")
done
if [ ${#missing_py[@]} -gt 0 ]; then
  pip_flags=(--quiet)
  # During scripts/install.sh's build: no byte-compiling now (Python compiles on first import),
  # the compiler has the cores.
  [ "$phase" != --runtime ] || pip_flags+=(--no-compile)
  if python3 -c 'import os, sys, sysconfig; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) and sys.prefix == sys.base_prefix else 1)'; then
    pip_flags+=(--break-system-packages)  # Debian's own python3: pip may not install otherwise
  fi
  [ "$(id -u)" -ne 0 ] || pip_flags+=(--root-user-action=ignore)
  echo "install-deps: python3 -m pip install ${missing_py[*]} (for $(command -v python3))"
  python3 -m pip install "${pip_flags[@]}" "${missing_py[@]}"
fi
