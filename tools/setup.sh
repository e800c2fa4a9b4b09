#!/bin/sh
# SPDX-License-Identifier: MIT
# install what touche needs from Debian 12's packages (only what is missing), then configure and
# build. Set WITH_LATEX=1 to also install LaTeX for the PDF report.
set -eu
cd "$(dirname "$0")/.."
pkgs="gcc pkg-config meson ninja-build libgsl-dev libcriterion-dev libconfig-dev libmujoco-dev gnuplot-nox git calculix-ccx libqhull-dev tetgen libccd-dev libsiconos-numerics-dev"
[ "${WITH_LATEX:-0}" = 1 ] && pkgs="$pkgs texlive-latex-extra"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing:$missing"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi
# release build; warnings are errors so CI and newcomers see the same build
[ -d build ] || meson setup build -Dwerror=true
ninja -C build
