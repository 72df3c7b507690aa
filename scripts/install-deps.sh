#!/bin/sh
# Installs the Debian packages dynac needs, if any is missing (the test suite
# package gives Debian's python3 the stdlib tests the acceptance test runs;
# python3-numpy gives it numpy, for the ndarray tests and the heat example;
# pip, venv, setuptools and wheel let suite_install test `pip install .` offline;
# chromium renders `dynac annotate`'s page in the workflow suite).
# Used by `make`; safe to run again (it does nothing when all are present).
# `install-deps.sh bench` adds the peers `make bench` measures (PyPy, and Numba
# and Cython for Debian's python3).
set -eu
PKGS="libtree-sitter-dev libcjson-dev libmd-dev python3-dev libpython3.11-testsuite python3-numpy
      python3-pip python3-venv python3-setuptools python3-wheel chromium"
[ "${1:-}" = bench ] && PKGS="$PKGS pypy3 python3-numba cython3"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Tools: any installation will do (node/npm may come from outside Debian).
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
command -v g++ >/dev/null 2>&1 || missing="$missing g++"           # the header is tested as C++
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkgconf" # make install is tested with it
[ -z "$missing" ] && exit 0
echo "dynac: installing Debian packages:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq $missing
