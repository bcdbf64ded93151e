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
# /v1/tests/UUID frames and the shards' sent counts exactly, three shards of three; so does
# `podman logs -t 2>&1` of the senders (the runtime's stamps, a second one inside a line it
# read in two parts, maybe a stderr line between the parts); each container, run under the manifests' limits, peaks below its memory request
# and its CPU limit (VmHWM, utime + stime read from the host).
#   PB_CT_PPS, PB_CT_DURATION: the test's rate and window (30000, 2); fleet.env's figures
#   were measured with PB_CT_PPS=900000 PB_CT_DURATION=5
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
PB_SYNCED=$(sed -n 's/^PB_SYNCED_CLOCKS=//p' "$top/deploy/kubernetes/fleet.env")
cat >"$T/fleet.env" <<ENV
PB_TEST_ID=$UUID
PB_START_AT=auto
PB_START_LEAD=5
PB_PPS=${PB_CT_PPS:-30000}
PB_DURATION=${PB_CT_DURATION:-2}
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
PB_SYNCED_CLOCKS=$PB_SYNCED
$(grep -E '^PB_(AGENT|SENDER)_(CPU|MEMORY)=' "$top/deploy/kubernetes/fleet.env")
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
# each container's pktbench, sampled from the host while it runs: its peak RSS (VmHWM) and
# CPU time (utime + stime of all its threads), the last reading before it ends
sample() { # NAME: "peak_kib cpu_ticks" lines into $T/use-NAME until the container ends
	local pid
	pid=$(podman inspect -f '{{.State.Pid}}' "$1" 2>/dev/null)
	[ -n "$pid" ] && [ "$pid" != 0 ] || return 0
	while [ -r "/proc/$pid/stat" ]; do
		{ awk '/^VmHWM:/ { printf "%s ", $2 }' "/proc/$pid/status" &&
			awk '{ print $14 + $15 }' "/proc/$pid/stat"; } >>"$T/use-$1" 2>/dev/null
		sleep 0.2
	done
}
SAMPLERS=()
for c in pbct-agent-$$ pbct-s0-$$ pbct-s1-$$ pbct-s2-$$; do
	sample "$c" &
	SAMPLERS+=($!)
	PIDS+=($!)
done
echo "--- what ran (from the rendered manifests):"
cut -c1-400 "$T/commands"
rcs=""
for i in 0 1 2; do rcs="$rcs$(timeout 60 podman wait pbct-s$i-$$ 2>/dev/null || echo x)"; done
check "the senders exit 0 (exit codes $rcs)" [ "$rcs" = 000 ]
# logs NAME: the container's stdout and stderr as containerd keeps them: whole lines of each
# stream, stderr's put in the middle of stdout's (podman logs gives the streams apart; its
# 2>&1 can put a stderr line inside a stdout line that conmon read in two parts, which without
# the stamps no reader can take apart)
logs() {
	local o=$T/o.$$ e=$T/e.$$ n
	podman logs "$1" 2>/dev/null >"$o"
	podman logs "$1" 2>"$e" >/dev/null
	n=$(($(wc -l <"$o") / 2))
	head -n "$n" "$o"
	cat "$e"
	tail -n +"$((n + 1))" "$o"
}
# where a merge stopped: the lines around the one its message names
around() { # FILE ERR_FILE
	local l
	l=$(grep -o ':[0-9]*[: ]' "$2" | head -1 | tr -d ': ')
	[ -n "$l" ] && sed -n "$((l > 3 ? l - 3 : 1)),$((l + 1))p" "$1" | cut -c1-300
}
# `kubectl logs -l job-name=... --prefix`: each pod's stdout and stderr, its lines prefixed
for i in 0 1 2; do
	logs pbct-s$i-$$ | sed "s|^|[pod/pktbench-senders-$i-ct$$/sender] |"
done >"$T/senders.log"
echo "--- senders' logs (head):"
head -5 "$T/senders.log"
podman $PB_PODMAN run --rm -i --network none $PB_PODMAN_LIMITS --cap-drop all "$IMAGE" \
	pktbench merge - --format json <"$T/senders.log" >"$T/merged.json" 2>"$T/merge.err"
rc=$?
check "the image's pktbench merge - of the logs ($(head -c 300 "$T/merge.err"))" [ $rc = 0 ]
[ $rc = 0 ] || around "$T/senders.log" "$T/merge.err"
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
# `podman logs -t 2>&1`: the runtime's own stamps, before every line and inside a line it
# read in two parts, where a stderr line may come between the parts
for i in 0 1 2; do podman logs -t pbct-s$i-$$ 2>&1; done >"$T/senders-t.log"
"$PB" merge "$T/senders-t.log" --format json >"$T/merged-t.json" 2>"$T/merge-t.err"
rc=$?
check "merge of podman logs -t: exit $rc ($(grep -c '[0-9]Z .*[0-9]Z ' "$T/senders-t.log") lines in two parts; $(head -c 200 "$T/merge-t.err"))" [ $rc = 0 ]
[ $rc = 0 ] || around "$T/senders-t.log" "$T/merge-t.err"
check "podman logs -t merged: delivered = the agent's frames" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["results"][0]; t = json.load(open(sys.argv[2]))
sys.exit(0 if m["frames_delivered"] == t["frames"] and m["senders"] == 3 else 1)' "$T/merged-t.json" "$T/test.json"
podman $PB_PODMAN stop -t 5 pbct-agent-$$ >/dev/null 2>&1
arc=$(podman wait pbct-agent-$$ 2>/dev/null)
check "the agent's container ends cleanly on SIGTERM (exit $arc: $(podman logs pbct-agent-$$ 2>&1 | tail -1))" [ "$arc" = 0 ]
# what each used against what the manifests request and limit: a limit below a real run's
# use would have the pod killed (memory) or throttled (CPU)
for p in "${SAMPLERS[@]}"; do wait "$p" 2>/dev/null; done
check "each container's peak RSS and CPU within the manifests' requests ($(cd "$T" && tail -qn1 use-* 2>/dev/null | tr '\n' ' '))" \
	python3 - "$T" "${PB_CT_DURATION:-2}" "$$" <<'PY'
import os, sys, yaml
d, dur, pid = sys.argv[1], float(sys.argv[2]), sys.argv[3]
docs = [x for f in ("fleet.yaml", "senders.yaml") for x in yaml.safe_load_all(open(os.path.join(d, f))) if x]
res = {x["metadata"]["name"]: x["spec"]["template"]["spec"]["containers"][0]["resources"] for x in docs
       if x["kind"] in ("DaemonSet", "Job")}
qty = lambda v: float(v[:-2]) * {"Ki": 1, "Mi": 1024, "Gi": 1 << 20}[v[-2:]]  # KiB
cpu = lambda v: float(v[:-1]) / 1000 if str(v).endswith("m") else float(v)
hz = os.sysconf("SC_CLK_TCK")
bad = 0
for name, obj in [("pbct-agent-" + pid, "pktbench-agent")] + [("pbct-s%d-%s" % (i, pid), "pktbench-senders") for i in range(3)]:
    try:
        rows = [l.split() for l in open(os.path.join(d, "use-" + name)) if len(l.split()) == 2]
    except OSError:
        rows = []
    if not rows:
        print("%s: not sampled" % name); bad = 1; continue
    kib, ticks = int(rows[-1][0]), int(rows[-1][1])
    r = res[obj]
    # the agent's CPU over the senders' window; a sender's over its own life (start wait too)
    cores = ticks / hz / dur
    print("%s: peak RSS %.1f MiB (request %s, limit %s), CPU %.2f s = %.2f cores over %g s "
          "(request %s, limit %s)" % (name, kib / 1024, r["requests"]["memory"], r["limits"]["memory"],
          ticks / hz, cores, dur, r["requests"]["cpu"], r["limits"]["cpu"]))
    if kib > qty(r["requests"]["memory"]) or cores > cpu(r["limits"]["cpu"]):
        bad = 1
sys.exit(bad)
PY
ct_cleanup
CTRS=()
check "the test's containers and namespaces are gone" \
	[ -z "$(podman ps -a --filter "name=pbct-.*-$$" -q)" -a -z "$(ip netns list | grep -- "-$$")" ]
finish
