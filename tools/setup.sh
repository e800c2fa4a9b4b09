#!/bin/sh
# SPDX-License-Identifier: MIT
# install what touche needs from Debian 12's packages (only what is missing), then configure and
# build. LaTeX (pdflatex, booktabs, Latin Modern fonts) builds the PDF report; poppler's
# pdfinfo checks it in the tests.
set -eu
cd "$(dirname "$0")/.."
pkgs="gcc pkg-config meson ninja-build libgsl-dev libcriterion-dev libconfig-dev libmujoco-dev gnuplot-nox git calculix-ccx libqhull-dev tetgen libccd-dev libsiconos-numerics-dev"
# FCLIB 3.1 (HDF5 underneath) for touche run --dump-problems and touche solve (docs/fclib.md)
pkgs="$pkgs libfclib-dev"
# the ODE engine adapter (src/engines/engine_ode.c)
pkgs="$pkgs libode-dev"
# Bullet 3.24 (double precision, bullet-float64.pc) and the C++ compiler for its one adapter file
pkgs="$pkgs g++ libbullet-dev"
# sweeps split over MPI ranks (docs/mpi.md; meson's -Dmpi=disabled builds without them)
pkgs="$pkgs libopenmpi-dev openmpi-bin"
# the fuzz harnesses (tools/fuzz.sh): clang with libFuzzer and its OpenMP runtime
pkgs="$pkgs clang libclang-rt-14-dev libomp-dev"
# the style check (tests/format_check.sh): clang-format with the repository's .clang-format
pkgs="$pkgs clang-format"
# the complexity check of the upper half (tests/complexity_check.sh)
pkgs="$pkgs pmccabe"
# LaTeX without its recommendations (the documentation and fonts the report does not use)
latex="texlive-latex-base texlive-latex-recommended texlive-fonts-recommended poppler-utils"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
updated=0
# install_missing [apt options] -- packages: those not installed yet
install_missing() {
    opts=""
    while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    shift
    missing=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
    done
    [ -n "$missing" ] || return 0
    echo "setup: installing:$missing"
    [ "$updated" = 1 ] || { $sudo apt-get update -qq; updated=1; }
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $opts $missing >/dev/null
}
install_missing -- $pkgs
install_missing --no-install-recommends -- $latex
# release build; warnings are errors so CI and newcomers see the same build; all three engines
# (their packages are installed above: a missing one fails here instead of leaving the engine out
# of the reference results; docs/building.md)
[ -d build ] || meson setup build -Dwerror=true -Dmujoco=enabled -Dode=enabled -Dbullet=enabled
ninja -C build
