# SPDX-License-Identifier: MIT
# Checks that pass on nothing, in every script under tests/ (scan_checks.py says the rules):
# - all(... for r in d['results']) is True when pktbench wrote no row at all: the same check
#   must test the list non-empty (len(...), `X and all(...)`); faults injected into a copy of
#   the code passed net/test_replay and net/test_rfc2544 so;
# - a set-up function that returns only its last step's status (net/test_fleet's setup did:
#   its last sysctl's) passes a broken lab to the check after it: every step ends in
#   `|| return 1` or is joined by &&, and a call of one reads its status.
# Each scan is shown on made-up scripts to name each kind of line it refuses, and no other.
command -v python3 >/dev/null || { echo "SKIP: no python3 (Debian package python3)"; exit 77; }
. "$(dirname "$0")/lib.sh"
SCAN="python3 $(dirname "$0")/scan_checks.py"

# the lines a scan named, as "LINE LINE ..."
lines_of() { cut -d: -f2 "$1" | tr '\n' ' '; }

find "$top/tests" -name '*.sh' ! -name "$(basename "$0")" -print0 | xargs -0 $SCAN all >"$T/all.out" 2>&1
rc=$?
cat "$T/all.out"
check "every all() under tests/ is over a list its check tests non-empty (exit 0)" [ $rc = 0 ]

find "$top/tests" -name '*.sh' ! -name "$(basename "$0")" -print0 | xargs -0 $SCAN setup >"$T/setup.out" 2>&1
rc=$?
cat "$T/setup.out"
check "every set-up function under tests/ fails when a step fails, and its callers read it (exit 0)" \
	[ $rc = 0 ]

cat >"$T/all.sh" <<'SH'
check "rows" json "$T/a.json" "all(r['frames_delivered'] == 6 for r in d['results'])"
check "rows, counted" json "$T/a.json" \
	"len(d['results']) == 2 and all(r['frames_delivered'] == 6 for r in d['results'])"
check "filtered" json "$T/a.json" "all(r['ok'] for r in d['results'] if r['status'] == 'ok')"
check "named first" python3 - "$T/a.json" <<'PY'
import json, sys
t = [r for r in json.load(open(sys.argv[1]))["results"] if not r["summary"]]
sys.exit(0 if t and all(r["passed"] for r in t) else 1)
PY
check "zip, one side tested" py "$F" "
sys.exit(0 if len(a) == 3 and all(x < y for x, y in zip(a, b)) else 1)"
check "a literal" json "$F" "all(k in d for k in ('schema', 'results'))"
check "a sequence of each row" json "$F" "[r['mode'] for r in d['results']] == ['a', 'b'] and
	all(r['sent'] == 2 for r in d['results'])"
python3 -c "import sys; v = []
sys.exit(1 if not all(x > 0 for x in v) else 0)"
s.sendall(b"x"); re.findall("a", b); yaml.safe_load_all(f)
SH
$SCAN all "$T/all.sh" >"$T/all-made.out" 2>&1
rc=$?
cat "$T/all-made.out"
check "all: a made-up script: exit 1" [ $rc = 1 ]
check "... names the untested list (1), the filtered one (4, twice: filtered, untested), zip's untested side (10) and the list a negated all() reads (15), and no other" \
	[ "$(lines_of "$T/all-made.out")" = "1 4 4 10 15 " ]

cat >"$T/setup.sh" <<'SH'
setup() {
	ip netns add a && ip netns add b || return 1
	ip -n a link add x type veth peer name y netns b
	local i
	for i in 0 1; do
		ip -n a addr add 198.18.0.$i/24 dev x || return 1
		ip -n b link set y up
	done
	if [ -n "$V6" ]; then
		ip -n a addr add 2001:2::1/64 dev x || { echo "no v6"; return 1; }
	fi
	ip netns exec a sysctl -qw net.ipv6.conf.all.disable_ipv6=1
}
lab_setup() {
	ip netns add c || return 1
	M=$(ip netns exec c cat /sys/class/net/lo/address)
	ip -n c link set lo up
}
pair() (
	set -e
	ip netns add d
	ip -n d link add p type veth peer name q
)
chained() {
	ip netns add e &&
		ip -n e link add r type veth peer name s &&
		ip -n e link set r up
}
setup
rc=$?
setup
trap 'x' EXIT
check "lab" [ $? = 0 ]
chained || exit 1
if ! lab_setup; then exit 1; fi
chained
check "lab" [ $? = 0 ]
SH
$SCAN setup "$T/setup.sh" >"$T/setup-made.out" 2>&1
rc=$?
cat "$T/setup-made.out"
check "setup: a made-up script: exit 1" [ $rc = 1 ]
check "... names the unchained veth (3), the loop's bare step (7), the assignment from a command (16), set -e and the step it was to cover (20, 21), the call whose status a trap hides (31), and no other" \
	[ "$(lines_of "$T/setup-made.out")" = "3 7 16 20 21 31 " ]

# and bash itself: set -e is ignored in a function called from ||, so it cannot be the rule
got=$(bash -c 'f() ( set -e; false; echo on; ); f || echo failed')
check "bash runs on past a failing step under set -e when the call is in || (got '$got')" \
	[ "$got" = on ]
# and python: all() of nothing is True
check "python: all([]) is True" python3 -c "import sys; sys.exit(0 if all([]) else 1)"

finish
