# SPDX-License-Identifier: MIT
# The fleet as a cluster would run it, with a real container runtime: the image built by
# deploy/container/build-image from the build's .deb (and a debootstrapped Debian 12 base
# when podman has none), the manifests rendered from a fleet.env naming this test's lab, and
# the agent and three senders run as podman containers, each in a network namespace of the
# test's own standing for its node's host network (a bridge joins them: 198.18.96.0/24), with
# --cap-drop all plus exactly the capabilities, command lines, env, read-only root and
# hostPath volumes of the rendered DaemonSet and Job (tests/container/podman_args.py). As
# the recipe does: the agent first, ready when its probe answers where the manifests probe;
# then `render --senders` picks the start instant; the senders' logs (stdout and stderr
# mixed, as `kubectl logs --prefix` gives them) go into the image's own `pktbench merge -`.
# Known answers: every container exits 0, the merged delivered count equals the agent's
# /v1/tests/UUID frames and the shards' sent counts exactly, three shards of three.
#   PB_CONTAINER_FRESH=1: remove the images first (the base too), so the build is from nothing
. "$(dirname "$0")/../net/lib.sh"
need podman podman
/usr/bin/python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml needed"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$(dirname "$PB")" && pwd)
. "$top/deploy/container/podman.sh"

NH=pbct-hub-$$
NRX=pbct-rx-$$
NS=(pbct-s0-$$ pbct-s1-$$ pbct-s2-$$)
AGENT_ADDR=198.18.96.2
PORT=9316
UUID=6f9619ff-8b86-4011-b42d-$(printf '%012x' $$)
CTRS=()
ct_cleanup() {
	local c
	for c in "${CTRS[@]}"; do podman rm -f -t 2 "$c" >/dev/null 2>&1; done
	for n in "$NH" "$NRX" "${NS[@]}"; do ip netns del "$n" 2>/dev/null; done
}
trap 'ct_cleanup; cleanup' EXIT

# the image, tagged with the package's version, from a package of this build (made again when
# older than the binary: an image of an older build would test that build)
deb=$(ls -t "$BUILD"/pktbench_*.deb 2>/dev/null | head -1)
if [ -z "$deb" ] || [ "$deb" -ot "$PB" ]; then
	cmake --build "$BUILD" --target package >"$T/package.log" 2>&1
	deb=$(ls -t "$BUILD"/pktbench_*.deb 2>/dev/null | head -1)
fi
check "the package ($(basename "${deb:-none}"))" [ -n "$deb" ]
[ -n "$deb" ] || { finish; exit 1; }
if [ "${PB_CONTAINER_FRESH:-0}" = 1 ]; then
	podman rmi -f "localhost/pktbench:$(dpkg-deb -f "$deb" Version)" localhost/pktbench-base:bookworm >/dev/null 2>&1
fi
t0=$(date +%s.%N)
IMAGE=$("$top/deploy/container/build-image" "$deb" 2>"$T/build.err")
rc=$?
build_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
check "build-image: $IMAGE in $build_s s ($(tail -1 "$T/build.err"))" [ $rc = 0 -a -n "$IMAGE" ]
[ -n "$IMAGE" ] || { finish; exit 1; }
pb_podman_probe "$IMAGE"
check "a container starts here (podman ${PB_PODMAN:-(defaults)} ${PB_PODMAN_LIMITS}) ${PB_PODMAN_ERR:-}" [ $? = 0 ]

# The lab: each namespace is a node's host network, its test interface named as fleet.env says
setup() {
	local i
	ip netns add "$NH" && ip netns add "$NRX" || return 1
	ip -n "$NH" link add br0 type bridge && ip -n "$NH" link set br0 up && ip -n "$NH" link set lo up || return 1
	ip -n "$NRX" link add pbagent type veth peer name ha netns "$NH" || return 1
	ip -n "$NH" link set ha master br0 up || return 1
	ip netns exec "$NRX" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || return 1
	ip -n "$NRX" addr add $AGENT_ADDR/24 dev pbagent && ip -n "$NRX" link set pbagent up &&
		ip -n "$NRX" link set lo up || return 1
	for i in 0 1 2; do
		ip netns add "${NS[$i]}" || return 1
		ip netns exec "${NS[$i]}" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || return 1
		ip -n "${NS[$i]}" link add pbsend type veth peer name hs$i netns "$NH" || return 1
		ip -n "$NH" link set hs$i master br0 up || return 1
		ip -n "${NS[$i]}" addr add 198.18.96.1$i/24 dev pbsend || return 1
		ip -n "${NS[$i]}" link set pbsend up && ip -n "${NS[$i]}" link set lo up || return 1
	done
	ip netns exec "$NH" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
}
setup
check "a bridge joining three sender namespaces and an agent's (198.18.96.0/24)" [ $? = 0 ]

# the manifests' default image is the one build-image made, by the name a kubelet pulls (a
# short name would pass here: podman alone looks in localhost/ for it)
DEFAULT_IMAGE=$(sed -n 's/^PB_IMAGE=//p' "$top/deploy/kubernetes/fleet.env")
check "fleet.env's PB_IMAGE is build-image's $IMAGE ($DEFAULT_IMAGE)" [ "$DEFAULT_IMAGE" = "$IMAGE" ]
cat >"$T/fleet.env" <<ENV
PB_TEST_ID=$UUID
PB_START_AT=auto
PB_START_LEAD=5
PB_PPS=30000
PB_DURATION=2
PB_SHARDS=3
PB_METHOD=af_xdp
PB_SEND_IFACE=pbsend
PB_AGENT_IFACE=pbagent
PB_AGENT_ADDR=$AGENT_ADDR
PB_AGENT_PORT=$PORT
PB_DSTIP=
PB_IMAGE=$DEFAULT_IMAGE
PB_NAMESPACE=pktbench
PB_PODMONITOR=no
ENV
"$top/deploy/kubernetes/render" "$T/fleet.env" >"$T/fleet.yaml" 2>"$T/render.err"
rc=$?
check "render ($(cat "$T/render.err"))" [ $rc = 0 ]

# run NAME NETNS KIND OBJECT INDEX [podman options]: the manifests' container, detached
run() {
	local name=$1 ns=$2 args
	mapfile -d '' args < <(/usr/bin/python3 "$top/tests/container/podman_args.py" "$T/$3.yaml" "$4" "$5" "$6")
	[ ${#args[@]} -gt 2 ] || return 1
	echo "podman run $name: ${args[*]}" >>"$T/commands"
	CTRS+=("$name")
	# shellcheck disable=SC2086
	podman $PB_PODMAN run -d --name "$name" --network "ns:/run/netns/$ns" $PB_PODMAN_LIMITS \
		"${args[@]}" >/dev/null 2>>"$T/podman.err"
}
get() { # the agent's answer to PATH, asked from sender 0's node
	ip netns exec "${NS[0]}" python3 -c "
import sys, urllib.request
print(urllib.request.urlopen('http://$AGENT_ADDR:$PORT' + sys.argv[1], timeout=3).read().decode())" "$1" 2>/dev/null
}

run pbct-agent-$$ "$NRX" fleet DaemonSet pktbench-agent 0
rc=$?
check "the agent's container starts ($(tail -1 "$T/podman.err" 2>/dev/null))" [ $rc = 0 ]
# the readiness probe's request, from the agent's node as the kubelet's
ready() { ip netns exec "$NRX" python3 -c "
import urllib.request; urllib.request.urlopen('http://$AGENT_ADDR:$PORT/v1/info', timeout=1)" 2>/dev/null; }
for _ in $(seq 100); do ready && break; sleep 0.1; done
check "the agent is ready where the manifests probe it ($(podman logs pbct-agent-$$ 2>&1 | head -1))" ready

"$top/deploy/kubernetes/render" --senders "$T/fleet.env" >"$T/senders.yaml" 2>"$T/render.err"
rc=$?
check "render --senders: --start-at $(grep -o '"--start-at", "[^"]*"' "$T/senders.yaml" | cut -d'"' -f4)" [ $rc = 0 ]
for i in 0 1 2; do
	run pbct-s$i-$$ "${NS[$i]}" senders Job pktbench-senders $i || echo "sender $i did not start" >>"$T/podman.err"
done
check "three sender containers start ($(tail -1 "$T/podman.err" 2>/dev/null))" \
	[ "$(podman ps -a --filter "name=pbct-s[0-2]-$$" -q | wc -l)" = 3 ]
echo "--- what ran (from the rendered manifests):"
cut -c1-400 "$T/commands"
rcs=""
for i in 0 1 2; do rcs="$rcs$(timeout 60 podman wait pbct-s$i-$$ 2>/dev/null || echo x)"; done
check "the senders exit 0 (exit codes $rcs)" [ "$rcs" = 000 ]
# `kubectl logs -l job-name=... --prefix`: each pod's stdout and stderr, its lines prefixed
for i in 0 1 2; do
	podman logs pbct-s$i-$$ 2>&1 | sed "s|^|[pod/pktbench-senders-$i-ct$$/sender] |"
done >"$T/senders.log"
echo "--- senders' logs (head):"
head -5 "$T/senders.log"
podman $PB_PODMAN run --rm -i --network none $PB_PODMAN_LIMITS --cap-drop all "$IMAGE" \
	pktbench merge - --format json <"$T/senders.log" >"$T/merged.json" 2>"$T/merge.err"
rc=$?
check "the image's pktbench merge - of the logs ($(head -c 300 "$T/merge.err"))" [ $rc = 0 ]
get "/v1/tests/$UUID" >"$T/test.json"
echo "agent: $(cat "$T/test.json")"
check "merged delivered = sent = the agent's /v1/tests frames exactly, three shards of three" \
	python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
m = json.load(open(d + "/merged.json"))["results"][0]
t = json.load(open(d + "/test.json"))
print("merged: %d sent, %d delivered, %d of %d shards, %.0f pps; agent: %s frames, %s runs, shards %s" % (
    m["frames_sent"], m["frames_delivered"], m["shards_merged"], m["shards_total"], m["pps"],
    t.get("frames"), t.get("runs"), sorted(t.get("shards", {}))))
sys.exit(0 if m["senders"] == 3 and m["shards_merged"] == m["shards_total"] == 3 and
         m["frames_delivered"] == m["frames_sent"] == t["frames"] and m["frames_sent"] > 0 and
         t["runs"] == 3 and sorted(t["shards"]) == ["0/3", "1/3", "2/3"] else 1)
PY
podman $PB_PODMAN stop -t 5 pbct-agent-$$ >/dev/null 2>&1
arc=$(podman wait pbct-agent-$$ 2>/dev/null)
check "the agent's container ends cleanly on SIGTERM (exit $arc: $(podman logs pbct-agent-$$ 2>&1 | tail -1))" [ "$arc" = 0 ]
ct_cleanup
CTRS=()
check "the test's containers and namespaces are gone" \
	[ -z "$(podman ps -a --filter "name=pbct-.*-$$" -q)" -a -z "$(ip netns list | grep -- "-$$")" ]
finish
