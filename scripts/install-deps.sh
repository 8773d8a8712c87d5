#!/usr/bin/env bash
# Installs every Debian 12 package sonnx needs to build, test and prove. Idempotent: re-running only
# installs what is missing. Run as root (or with sudo available).
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libonnx-dev libprotobuf-dev protobuf-compiler
  libgtest-dev libgmock-dev librapidcheck-dev
  libz3-dev z3 why3 cvc4
  nlohmann-json3-dev libcli11-dev
  python3 python3-onnx python3-numpy
  python3-dev pybind11-dev python3-pytest python3-sklearn
  dpkg-dev file
  clang libclang-rt-14-dev clang-format-14
  cppcheck
  libdnnl-dev
  libmpfr-dev
  libre2-dev
  libjpeg62-turbo-dev libpng-dev libtiff-dev libwebp-dev libopenjp2-7-dev
  chromium
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
