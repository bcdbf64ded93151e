# SPDX-License-Identifier: MIT
# Skips for want of a capability (a kernel feature, a library the build needs) that are
# failures where the capability is expected: tests/expected-caps lists what the CI machine
# has, and in CI (CI=true) or with PB_EXPECT_CAPS=1 a probe of one of them that fails is a
# regression (a method that stopped working), never "skipped". Sourced by lib.sh; a test
# that uses skip_part has lib.sh's fail().
CAPS_FILE=${PB_CAPS_FILE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/expected-caps}

# cap_expected NAME: 0 when NAME must work here (listed, and expectations on)
cap_expected() {
	[ "${CI:-}" = true ] || [ "${PB_EXPECT_CAPS:-}" = 1 ] || return 1
	[ -f "$CAPS_FILE" ] && sed 's/#.*//; s/[[:space:]]//g' "$CAPS_FILE" | grep -qxF -- "$1" ||
		return 1
	# what the kernel itself no longer gives, as a witness that is not pktbench shows, is the
	# machine's change, not pktbench's regression (live frames: lib.sh's live_frames_refused;
	# 6.18.44-fc-v1300 answers EPERM to every live run, the reference loop's too)
	case $1 in
	xdp_live) ! { declare -F live_frames_refused >/dev/null && live_frames_refused >/dev/null; } ;;
	esac
}

# skip_cap NAME REASON: the whole test skips (exit 77) for want of NAME, saying REASON; where
# NAME is expected, it fails (exit 1), saying why
skip_cap() {
	if cap_expected "$1"; then
		echo "FAIL: $1 is expected here ($CAPS_FILE; CI=${CI:-} PB_EXPECT_CAPS=${PB_EXPECT_CAPS:-}), but: $2"
		exit 1
	fi
	echo "SKIP: $2"
	exit 77
}

# skip_part "NAME..." REASON: one part of a test (a method of several) is left out for want
# of the capabilities NAME... ("": none known), saying "skip: REASON"; where any of them is
# expected it is a failed check instead (lib.sh's fail). The caller moves on either way.
skip_part() {
	local c
	for c in $1; do
		if cap_expected "$c"; then
			fail "$c is expected here ($CAPS_FILE), but: $2"
			return 0
		fi
	done
	echo "skip: $2"
}

# method_caps METHOD: the capabilities of tests/expected-caps a send method needs
method_caps() {
	case $1 in
	af_xdp) echo af_xdp ;;
	xdp_live) echo xdp_live ;;
	io_uring | io_uring_fixed | io_uring_sqpoll) echo io_uring ;;
	io_uring_gso) echo io_uring udp_gso ;;
	gso | gso_mmsg) echo udp_gso ;;
	gso_zerocopy) echo udp_gso msg_zerocopy ;;
	udp_zerocopy) echo msg_zerocopy ;;
	esac
}
