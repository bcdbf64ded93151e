#!/bin/bash
# SPDX-License-Identifier: MIT
# CI on a fresh Debian 12, as a new machine would run it: a minimal Debian 12 tree made with
# debootstrap (minbase plus git, nothing else), a clean clone of this checkout's HEAD in it,
# and `CI=true bash .ci/run` inside, with no standard input. Run it before a submission that
# changes scripts/setup.sh or .ci/run: a used machine hides a missing install step.
#
#   sudo scripts/fresh-check.sh [--keep] [--lock FILE] [DIR]
#
# --lock FILE: hold an flock on FILE while .ci/run runs (not while the tree is made), for a
# machine whose network tests share one lock.
# DIR (default /var/tmp/pktbench-fresh) is made anew and removed afterwards (--keep leaves
# the tree for a look). The tree is bind-mounted onto itself, so that `ip netns exec` can make
# / a slave mount inside it, with /proc, /sys and /dev; everything mounted is unmounted on
# exit, also on failure or Ctrl-C. Takes about 20 minutes; the exit status is .ci/run's.
set -eu
keep=0 lock=""
while [ $# -gt 0 ]; do
	case $1 in
	--keep) keep=1 ;;
	--lock) lock=${2:?--lock needs a file}; shift ;;
	-*) echo "usage: $0 [--keep] [--lock FILE] [DIR]" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
ROOT=${1:-/var/tmp/pktbench-fresh}
SRC=$(cd "$(dirname "$0")/.." && pwd)
SUITE=bookworm

die() { echo "fresh-check: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "run as root (debootstrap, mounts, namespaces)"
command -v debootstrap >/dev/null || die "debootstrap not found (Debian package debootstrap)"
git -C "$SRC" diff --quiet HEAD || echo "fresh-check: uncommitted changes are not checked: the clone is of HEAD"
# the mirror this machine's apt uses (Debian's package registry), for the new tree's apt too
. "$SRC/scripts/apt-mirror.sh"
MIRROR=$(pb_apt_mirror "$SUITE")

unmount_all() {
	# the deepest first: whatever tests, apt or bpffs mounted below the tree too
	local m
	for m in $(awk -v r="$ROOT" '$2 == r || index($2, r "/") == 1 {print $2}' /proc/self/mounts | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}
stop_inside() {
	# processes left running inside the tree are ours (we started the only way into it)
	local p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] && kill -KILL "${p#/proc/}" 2>/dev/null
	done
	return 0
}
cleanup() {
	stop_inside
	unmount_all
	if [ $keep = 0 ]; then
		[ -z "$(awk -v r="$ROOT" 'index($2, r) == 1' /proc/self/mounts)" ] && rm -rf "$ROOT"
	fi
}
[ -e "$ROOT" ] && { unmount_all; rm -rf "$ROOT"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$(date +%s)
echo "fresh-check: debootstrap $SUITE (minbase + git) into $ROOT from $MIRROR"
debootstrap --variant=minbase --include=git,ca-certificates "$SUITE" "$ROOT" "$MIRROR" \
	>"$ROOT.debootstrap.log" 2>&1 || { tail -20 "$ROOT.debootstrap.log"; die "debootstrap failed"; }
rm -f "$ROOT.debootstrap.log"
cat >"$ROOT/etc/apt/sources.list" <<EOT
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
EOT
# no service a package brings is started in the tree: it would run in the host's network
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod +x "$ROOT/usr/sbin/policy-rc.d"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true

git clone -q "$SRC" "$ROOT/root/pktbench"
echo "fresh-check: checking $(git -C "$ROOT/root/pktbench" log -1 --format='%h %s')"

mount --bind "$ROOT" "$ROOT"
mount --make-private "$ROOT"
mount -t proc proc "$ROOT/proc"
mount -t sysfs sysfs "$ROOT/sys"
# the host's cgroups, where podman (tests/container) puts its containers
mount --rbind /sys/fs/cgroup "$ROOT/sys/fs/cgroup"
mount --make-rslave "$ROOT/sys/fs/cgroup"
mount --rbind /dev "$ROOT/dev"
mount --make-rslave "$ROOT/dev"
mount -t tmpfs tmpfs "$ROOT/run"
mount -t tmpfs tmpfs "$ROOT/tmp"

if [ -n "$lock" ]; then
	exec 9>>"$lock"
	echo "fresh-check: waiting for $lock"
	flock 9
fi
set +e
chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 CI=true \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	bash -c 'cd /root/pktbench && bash .ci/run' </dev/null 9>&- 2>&1 | tee "$ROOT.log"
rc=${PIPESTATUS[0]}
set -e
echo "fresh-check: .ci/run exited $rc after $(( ($(date +%s) - start) / 60 )) min; log in $ROOT.log"
exit "$rc"
