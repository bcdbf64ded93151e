#!/bin/bash
# SPDX-License-Identifier: MIT
# Installs what pktbench needs (Debian 12 packages, only those missing) and builds it in
# build/. Run as root. Safe to run again: it installs nothing that is already there.
#   PB_BUILD_DIR   build directory (default: build)
#   PB_CMAKE_ARGS  extra CMake arguments (CI adds -DPB_WERROR=ON)
set -eu
cd "$(dirname "$0")/.."

PKGS="build-essential cmake pkg-config clang llvm bpftool libbpf-dev libxdp-dev libpcap-dev
liburing-dev libyaml-dev libnl-3-dev libnl-route-3-dev libjson-c-dev libcmocka-dev
libclang-rt-14-dev libelf-dev zlib1g-dev libmicrohttpd-dev libcurl4-openssl-dev iproute2 ethtool
util-linux python3 python3-matplotlib git dpkg-dev man-db strace"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "setup: missing packages:$missing; run this as root to install them" >&2
		exit 1
	fi
	echo "setup: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

BUILD=${PB_BUILD_DIR:-build}
# shellcheck disable=SC2086
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${PB_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
echo "setup: built $BUILD/pktbench ($("$BUILD"/pktbench --version))"
