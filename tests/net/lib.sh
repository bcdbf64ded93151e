# SPDX-License-Identifier: MIT
# Shared by the net tests: root check, a scratch dir, and the promise that nothing of a lab
# outlives a test. Each test runs pktbench, which builds and removes its own lab; the trap
# below kills only the pktbench processes this test started and checks for leftovers.
set -u
PB=${1:?usage: $0 path/to/pktbench}
T=$(mktemp -d /tmp/pbtest.XXXXXX)
PIDS=()
FAILS=0
PASSES=0

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: net tests need root (namespaces, veth, XDP)"
	exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to read the JSON"; exit 77; }

lab_namespaces() { ip netns list 2>/dev/null | awk '{print $1}' | grep '^pktbench-' | sort; }
NS_BEFORE=$(lab_namespaces)

# A lab whose owner still runs holds its lock: it is somebody's live run, not a leftover.
lab_is_live() {
	local id=${1#pktbench-}
	id=${id%-tx}
	id=${id%-rx}
	[ -e "/run/pktbench/$id.lock" ] && ! flock -n "/run/pktbench/$id.lock" true
}

cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	# anything this test left is removed here, so a failure cannot poison later tests
	for ns in $(new_namespaces); do
		echo "cleanup: removing leftover namespace $ns"
		ip netns del "$ns"
	done
	rm -rf "$T"
}
trap cleanup EXIT

ok() { PASSES=$((PASSES + 1)); echo "ok: $*"; }
fail() { FAILS=$((FAILS + 1)); echo "FAIL: $*"; }
check() { # check "what" command...
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}

# Labs that appeared during this test and whose owner is gone (there must be none).
new_namespaces() {
	local ns
	for ns in $(comm -13 <(echo "$NS_BEFORE") <(lab_namespaces)); do
		lab_is_live "$ns" || echo "$ns"
	done
}
no_leftovers() {
	local left
	left=$(new_namespaces)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	[ -z "$(ip -o link show type veth 2>/dev/null | grep -E 'pb[tr]-')" ] || return 1
	return 0
}

# json FILE PYTHON-EXPR: evaluates the expression with d = the parsed JSON; exit 0 if truthy.
json() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

finish() {
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" = 0 ]
}
