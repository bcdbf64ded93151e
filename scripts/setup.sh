#!/bin/bash
# SPDX-License-Identifier: MIT
# Installs what pktbench needs (Debian 12 packages, only those missing) and builds it in
# build/. Run as root. Safe to run again: it installs nothing that is already there.
#   PB_BUILD_DIR   build directory (default: build)
#   PB_CMAKE_ARGS  extra CMake arguments (CI adds -DPB_WERROR=ON)
#   PB_TARGETS     build only these targets (default: all); CI's fuzz build makes its two
#                  fuzzers and pb_docs (the fuzz dictionary) and nothing else
# podman, runc and mmdebstrap serve tests/container (the image, built from Debian's packages
# alone; runc where crun refuses the host's cgroups); containerd its test of the image's name
# as a kubelet's runtime reads it (container/test_image_name starts a containerd of its own).
set -eu
cd "$(dirname "$0")/.."

PKGS="build-essential cmake pkg-config clang llvm bpftool libbpf-dev libxdp-dev libpcap-dev
liburing-dev libyaml-dev libnl-3-dev libnl-route-3-dev libjson-c-dev libcmocka-dev
libclang-rt-14-dev libelf-dev zlib1g-dev libmicrohttpd-dev libcurl4-openssl-dev iproute2 ethtool
util-linux procps python3 python3-matplotlib python3-yaml python3-prometheus-client git dpkg-dev
file binutils man-db gzip strace tmux tshark prometheus time podman runc mmdebstrap containerd"

# Every program that the build, the package step and the tests run, and the Debian package
# that brings it: checked after the install, so a fresh machine fails here, in one line,
# rather than deep inside a build or a test. (The package step needs file(1): CPack's
# shlibdeps runs it on every binary.)
PROGS="cc:build-essential make:make cmake:cmake pkg-config:pkg-config clang:clang
bpftool:bpftool git:git file:file dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev readelf:binutils
man:man-db zcat:gzip ip:iproute2 tc:iproute2 ss:iproute2 ethtool:ethtool python3:python3
flock:util-linux setpriv:util-linux taskset:util-linux mount:mount sysctl:procps
timeout:coreutils od:coreutils strace:strace tmux:tmux script:bsdutils tshark:tshark
prometheus:prometheus kubectl:kubernetes-client /usr/bin/time:time podman:podman runc:runc
mmdebstrap:mmdebstrap containerd:containerd ctr:containerd"

missing=""
# a program some machines have from elsewhere (kubectl from another vendor's package, which
# Debian's would collide with): its Debian package only where the program is missing
command -v kubectl >/dev/null || missing=" kubernetes-client"
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
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	# Only the programs are wanted: a package's service (prometheus's, say) is not started,
	# since it would listen on the host's interfaces (policy-rc.d, for this install alone).
	prc=""
	[ -e /usr/sbin/policy-rc.d ] || { prc=/usr/sbin/policy-rc.d; printf '#!/bin/sh\nexit 101\n' >$prc; chmod +x $prc; }
	# shellcheck disable=SC2086
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null ||
		{ [ -z "$prc" ] || rm -f "$prc"; exit 1; }
	[ -z "$prc" ] || rm -f "$prc"
fi

# bpftool, ip and friends live in sbin, which a user's PATH may lack
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin
for pp in $PROGS; do
	command -v "${pp%%:*}" >/dev/null ||
		{ echo "setup: ${pp%%:*} not found: install the Debian package ${pp#*:}" >&2; exit 1; }
done
for pm in matplotlib:python3-matplotlib yaml:python3-yaml prometheus_client:python3-prometheus-client; do
	/usr/bin/python3 -c "import ${pm%%:*}" 2>/dev/null ||
		{ echo "setup: /usr/bin/python3 cannot import ${pm%%:*}: install ${pm#*:}" >&2; exit 1; }
done

BUILD=${PB_BUILD_DIR:-build}
# shellcheck disable=SC2086
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${PB_CMAKE_ARGS:-} >/dev/null
if [ -n "${PB_TARGETS:-}" ]; then
	# shellcheck disable=SC2086
	cmake --build "$BUILD" -j"$(nproc)" --target $PB_TARGETS
	echo "setup: built $PB_TARGETS in $BUILD"
	exit 0
fi
cmake --build "$BUILD" -j"$(nproc)"
echo "setup: built $BUILD/pktbench ($("$BUILD"/pktbench --version))"
