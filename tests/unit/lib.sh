# SPDX-License-Identifier: MIT
# Shared by the unit tests written in shell (no root, no network): the checkout's top, a
# scratch directory removed on exit, and the check and tally every such test prints.
#   . "$(dirname "$0")/lib.sh"       then check "what" command..., and finish last
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
T=$(mktemp -d /tmp/pbunit.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

check() { # NAME, then the condition as a command
	local name=$1
	shift
	if "$@"; then pass=$((pass + 1)); echo "ok: $name"; else fail=$((fail + 1)); echo "FAIL: $name"; fi
}

finish() {
	echo "$pass passed, $fail failed"
	[ $fail = 0 ]
}
