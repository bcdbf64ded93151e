# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2034
# Sourced by build-image and tests/container: the podman options under which a container
# starts on this machine. Two things stop the defaults on some hosts: crun refuses a host
# whose cgroups are hybrid (v1 with a v2 hierarchy beside: "drop all controllers from
# cgroupv2"), where runc (Debian package runc) works; and a runtime that sets podman's default
# rlimits (1048576 files) fails where the caller has no CAP_SYS_RESOURCE to raise its own.
# pb_podman_probe IMAGE: sets PB_PODMAN (global options: the runtime) and PB_PODMAN_LIMITS
# (--ulimit options for run and build); 1, with the last error in PB_PODMAN_ERR, if none works.
pb_podman_probe() {
	local rt lim nofile
	nofile=$(ulimit -Hn)
	[ "$nofile" = unlimited ] && nofile=1048576
	for rt in "" "--runtime runc"; do
		# pktbench opens a few dozen files and threads: the caller's file limit, 4096 tasks
		for lim in "" "--ulimit nofile=$nofile:$nofile --ulimit nproc=4096:4096"; do
			# shellcheck disable=SC2086
			if PB_PODMAN_ERR=$(podman $rt run --rm --network none $lim "$1" true 2>&1); then
				PB_PODMAN=$rt
				PB_PODMAN_LIMITS=$lim
				return 0
			fi
		done
	done
	PB_PODMAN_ERR=$(echo "$PB_PODMAN_ERR" | tail -1)
	return 1
}
