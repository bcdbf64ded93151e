# SPDX-License-Identifier: MIT
# deploy/kubernetes renders from one env file into manifests that say what a fleet test
# needs, for the defaults (fleet.env) and for a changed env file (other interfaces, address,
# port, namespace, image, method): the agent listens on PB_AGENT_ADDR:PB_AGENT_PORT, is probed
# there and counts on PB_AGENT_IFACE; the senders' --receiver is that same address and port,
# their --iface PB_SEND_IFACE, --dstip the agent's address; the namespace admits privileged
# pods; capabilities are the least that work (NET_ADMIN, SYS_ADMIN for the agent; NET_RAW for
# an af_xdp sender, + NET_ADMIN, SYS_ADMIN for xdp_live), and allowPrivilegeEscalation: false
# never sits beside SYS_ADMIN; every container's image is pktbench's version, pulled
# IfNotPresent; the PodMonitor only with PB_PODMONITOR=yes; `render --senders` picks a start
# PB_START_LEAD s ahead and refuses one in the past. A bad value fails in one line. Every
# rendered object is read with python's yaml against the fields used, and with kubectl (when
# installed) decoded client-side (annotate --local --dry-run=client) and the kustomization
# built; the names in the docs and kustomization.yaml are the script's.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
K=$top/deploy/kubernetes
T=$(mktemp -d /tmp/pbdeploy.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
/usr/bin/python3 -c 'import yaml' 2>/dev/null ||
	{ echo "SKIP: /usr/bin/python3 has no yaml module (Debian package python3-yaml)"; exit 77; }
# the environment must not change what the env files say
for v in $(env | sed -n 's/^\(PB_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
VERSION=$(sed -n 's/^project(pktbench VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")

cat >"$T/test.env" <<'ENV'
PB_TEST_ID=6F9619FF-8B86-4011-B42D-00C04FC964FF
PB_START_AT=2099-12-01T16:30:00Z
PB_START_LEAD=30
PB_PPS=90000
PB_DURATION=10
PB_SHARDS=4
PB_METHOD=af_packet
PB_SEND_IFACE=ens1f0
PB_AGENT_IFACE=ens1f1
PB_AGENT_ADDR=198.19.7.20
PB_AGENT_PORT=9444
PB_DSTIP=
PB_IMAGE=registry.example:5000/lab/pktbench:0.1.0
PB_NAMESPACE=pbtest
PB_PODMONITOR=yes
PB_SYNCED_CLOCKS=yes
PB_AGENT_CPU=500m
PB_AGENT_MEMORY=128Mi
PB_SENDER_CPU=1.5
PB_SENDER_MEMORY=1Gi
ENV

# check NAME ENV_FILE IFACE_A IFACE_S ADDR PORT SHARDS NS IMAGE CAPS PODMONITOR [EXTRA_ENV]:
# renders both parts and checks them, the values it must find given
check() {
	local name=$1 env=$2
	shift 2
	if ! env "${@:10}" "$K/render" "$env" >"$T/$name.yaml" 2>"$T/err" ||
		! env "${@:10}" "$K/render" --senders "$env" >"$T/$name-senders.yaml" 2>>"$T/err"; then
		bad "$name: render: $(cat "$T/err")"
		return
	fi
	if /usr/bin/python3 - "$T/$name.yaml" "$T/$name-senders.yaml" "$VERSION" "$@" <<'PY'; then
import datetime, sys, yaml
fleet, senders, version, a_if, s_if, addr, port, shards, ns, image, caps, pm = sys.argv[1:13]
docs = [d for f in (fleet, senders) for d in yaml.safe_load_all(open(f)) if d]
by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
errs = []
def need(cond, what):
    if not cond:
        errs.append(what)
host = "[%s]" % addr if ":" in addr else addr
objs = [d for d in docs if d["kind"] != "Namespace"]
need(objs and all(d["metadata"].get("namespace") == ns for d in objs), "every object in PB_NAMESPACE")
nsd = by.get(("Namespace", ns))
need(nsd and nsd["metadata"]["labels"].get("pod-security.kubernetes.io/enforce") == "privileged",
     "the namespace admits privileged pods")
pods = [d["spec"]["template"]["spec"] for d in docs if d["kind"] in ("DaemonSet", "Job")]
for p in pods:
    for c in p["containers"] + p.get("initContainers", []):
        need(c["image"] == image, "%s: the image %s" % (c["name"], image))
        need(c.get("imagePullPolicy") == "IfNotPresent", "%s: pulled IfNotPresent" % c["name"])
        sc = c.get("securityContext", {})
        add = set(sc.get("capabilities", {}).get("add", []))
        need(sc.get("capabilities", {}).get("drop") == ["ALL"], "%s: drops ALL" % c["name"])
        need(not ("SYS_ADMIN" in add and sc.get("allowPrivilegeEscalation") is False),
             "%s: no allowPrivilegeEscalation: false beside SYS_ADMIN" % c["name"])
        need("SYS_ADMIN" in add or sc.get("allowPrivilegeEscalation") is False,
             "%s: allowPrivilegeEscalation: false without SYS_ADMIN" % c["name"])
need(image.rsplit(":", 1)[1] == version, "the image is tagged with pktbench's version %s" % version)
# requests and limits on every container, measured (docs/fleet.md): not BestEffort, admitted
# where a ResourceQuota demands them; a request never above its limit
qty = lambda v: float(v[:-2]) * 2 ** {"Ki": 10, "Mi": 20, "Gi": 30}[v[-2:]] if v[-2:] in ("Ki", "Mi", "Gi") \
    else float(v[:-1]) / 1000 if str(v).endswith("m") else float(v)
for p in pods:
    for c in p["containers"]:
        r = c.get("resources", {})
        for k in ("cpu", "memory"):
            q, l = r.get("requests", {}).get(k), r.get("limits", {}).get(k)
            need(q is not None and l is not None and qty(str(q)) <= qty(str(l)),
                 "%s: %s requested and limited (%s, %s)" % (c["name"], k, q, l))
# a Service of host-network pods has the nodes' addresses as endpoints, where the agent does
# not listen (only on PB_AGENT_ADDR): none
hostnet = [d["spec"]["template"] for d in docs if d["kind"] in ("DaemonSet", "Job") and
           d["spec"]["template"]["spec"].get("hostNetwork")]
for svc in (d for d in docs if d["kind"] == "Service"):
    sel = svc["spec"].get("selector") or {}
    need(not (sel and any(sel.items() <= t["metadata"]["labels"].items() for t in hostnet)),
         "no Service selects host-network pods (%s)" % svc["metadata"]["name"])
ds = by.get(("DaemonSet", "pktbench-agent"))
job = by.get(("Job", "pktbench-senders"))
need(ds and job, "the agent DaemonSet and the sender Job")
if ds and job:
    ac = ds["spec"]["template"]["spec"]["containers"][0]
    sc = job["spec"]["template"]["spec"]["containers"][0]
    aa, sa = ac["args"], sc["args"]
    arg = lambda args, k: args[args.index(k) + 1] if k in args else None
    listen = arg(aa, "--listen")
    need(aa[0] == "receive" and arg(aa, "--iface") == a_if, "the agent counts on %s" % a_if)
    need(listen == "%s:%s" % (host, port), "the agent listens on %s:%s (%s)" % (host, port, listen))
    need(arg(sa, "--receiver") == "http://" + listen, "the senders' --receiver is where the agent "
         "listens (%s, %s)" % (arg(sa, "--receiver"), listen))
    need(arg(sa, "--iface") == s_if and arg(sa, "--dstip") == addr, "the senders' --iface %s and "
         "--dstip the agent's address" % s_if)
    rp = ac["readinessProbe"]["httpGet"]
    need(rp["host"] == addr and rp["port"] == "api" and ac["ports"][0]["containerPort"] == int(port),
         "the agent is probed where it listens")
    need(set(ac["securityContext"]["capabilities"]["add"]) == {"NET_ADMIN", "SYS_ADMIN"},
         "agent capabilities NET_ADMIN, SYS_ADMIN")
    need(set(sc["securityContext"]["capabilities"]["add"]) == set(caps.split(",")),
         "sender capabilities %s" % caps)
    s, pod = job["spec"], job["spec"]["template"]["spec"]
    need(s["completionMode"] == "Indexed" and s["completions"] == s["parallelism"] == int(shards),
         "completions = parallelism = PB_SHARDS, as numbers")
    need(pod["hostNetwork"] is True and ds["spec"]["template"]["spec"]["hostNetwork"] is True,
         "host network")
    aff = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
    need(aff["topologyKey"] == "kubernetes.io/hostname", "one sender per node")
    env = {e["name"]: e for e in sc["env"]}
    need("job-completion-index" in env["JOB_COMPLETION_INDEX"]["valueFrom"]["fieldRef"]["fieldPath"],
         "the index from the Job")
    need(arg(sa, "--shard") == "$(JOB_COMPLETION_INDEX)/%s" % shards, "--shard INDEX/PB_SHARDS")
    # the dashboard's probe panels need the probes; CLOCK_TAI's only with PB_SYNCED_CLOCKS=yes
    need("--latency" in sa and ("--synced-clocks" in sa) == (ns == "pbtest"),
         "--latency, and --synced-clocks as PB_SYNCED_CLOCKS says")
    need(arg(sa, "--test-id") == "6F9619FF-8B86-4011-B42D-00C04FC964FF" or ns == "pktbench",
         "--test-id")
    need(ds["spec"]["selector"]["matchLabels"].items() <= ds["spec"]["template"]["metadata"]["labels"].items(),
         "the selector matches the pods")
img = by.get(("DaemonSet", "pktbench-sender-image"))
need(img and img["spec"]["template"]["spec"]["nodeSelector"] == {"pktbench.io/sender": "true"},
     "the image on the sender nodes before the start")
pmd = by.get(("PodMonitor", "pktbench-agent"))
need(bool(pmd) == (pm == "yes"), "the PodMonitor only with PB_PODMONITOR=yes")
if pmd:
    ep = pmd["spec"]["podMetricsEndpoints"][0]
    need(ep["path"] == "/metrics" and ep["relabelings"][0]["replacement"] == "%s:%s" % (host, port),
         "the PodMonitor scrapes where the agent listens")
for e in errs:
    print("  missing:", e)
sys.exit(1 if errs else 0)
PY
		ok "$name: agent on $1 at $3:$4, senders' --receiver the same, caps $8$([ "$9" = yes ] && echo ', PodMonitor')"
	else
		bad "$name: the manifests"
	fi
}
# the default image is the one build-image tags, by a name every runtime resolves to it
built=$(sed -n 's/^NAME=\${PB_IMAGE_NAME:-\(.*\)}$/\1/p' "$top/deploy/container/build-image"):$VERSION
[ "$built" = "localhost/pktbench:$VERSION" ] && ok "build-image tags $built" || bad "build-image tags $built"
check defaults "$K/fleet.env" eth1 eth1 198.18.0.2 9310 3 pktbench "$built" NET_RAW no
check changed "$T/test.env" ens1f1 ens1f0 198.19.7.20 9444 4 pbtest registry.example:5000/lab/pktbench:0.1.0 NET_RAW yes
sed 's/^PB_METHOD=.*/PB_METHOD=xdp_live/; s/^PB_AGENT_ADDR=.*/PB_AGENT_ADDR=2001:2::20/' "$T/test.env" >"$T/v6.env"
check xdp_live-v6 "$T/v6.env" ens1f1 ens1f0 2001:2::20 9444 4 pbtest registry.example:5000/lab/pktbench:0.1.0 NET_RAW,NET_ADMIN,SYS_ADMIN yes
# the queries name the test by its label: printf %s 6f9619ff-... | sha256sum | cut -c1-16
/usr/bin/python3 - "$T/changed.yaml" <<'PY' && ok "the queries name the test by its label" || bad "the queries' label"
import sys, yaml
q = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["metadata"]["name"] == "pktbench-queries"][0]
qs = [v for k, v in q["data"].items() if "test" in k or "shard" in k]
sys.exit(0 if qs and all('test="80e3efa180ebafd5"' in v for v in qs) else 1)
PY

# --senders: auto is PB_START_LEAD s ahead; a start in the past is refused
t0=$(date +%s)
PB_START_AT=auto PB_START_LEAD=60 "$K/render" --senders "$T/test.env" >"$T/auto.yaml" 2>"$T/err"
at=$(sed -n 's/.*"--start-at", "\([^"]*\)".*/\1/p' "$T/auto.yaml")
d=$(($(date -d "$at" +%s 2>/dev/null || echo 0) - t0))
[ "$d" -ge 59 ] && [ "$d" -le 62 ] && ok "PB_START_AT=auto: $at, PB_START_LEAD (60 s) ahead" ||
	bad "PB_START_AT=auto: $at ($d s ahead): $(cat "$T/err")"

# one line each, exit 2
refused() { # refused WHAT WANT SED-EXPR [render args]: the env file changed by SED-EXPR
	local what=$1 want=$2 expr=$3 rc
	shift 3
	sed "$expr" "$T/test.env" >"$T/bad.env"
	"$K/render" "$@" "$T/bad.env" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$want" "$T/err" &&
		ok "$what: refused in one line ($(cat "$T/err"))" || bad "$what: exit $rc: $(cat "$T/err")"
}
refused "a bad PB_SHARDS" PB_SHARDS 's/^PB_SHARDS=.*/PB_SHARDS=three/'
refused "PB_AGENT_ADDR 0.0.0.0 (no sender reaches it)" PB_AGENT_ADDR 's/^PB_AGENT_ADDR=.*/PB_AGENT_ADDR=0.0.0.0/'
refused "PB_AGENT_ADDR a name" PB_AGENT_ADDR 's/^PB_AGENT_ADDR=.*/PB_AGENT_ADDR=agent.local/'
refused "PB_AGENT_IFACE with a slash" PB_AGENT_IFACE 's|^PB_AGENT_IFACE=.*|PB_AGENT_IFACE=eth1/2|'
refused "PB_DSTIP of the other family" PB_DSTIP 's/^PB_DSTIP=.*/PB_DSTIP=2001:2::1/'
refused "PB_AGENT_API (gone: one address for both)" PB_AGENT_ADDR '$a PB_AGENT_API=http://198.18.0.2:9310'
refused "an image tagged latest" PB_IMAGE 's|^PB_IMAGE=.*|PB_IMAGE=pktbench:latest|'
refused "an unknown method" PB_METHOD 's/^PB_METHOD=.*/PB_METHOD=af_packet,warp/'
refused "a start in the past" "in the past" 's/^PB_START_AT=.*/PB_START_AT=2020-01-01T00:00:00Z/' --senders
refused "a value missing" 'PB_IMAGE} has no value' '/^PB_IMAGE=/d'
# names the API server rejects (RFC 1123 labels)
refused "a namespace with capitals and _" PB_NAMESPACE 's/^PB_NAMESPACE=.*/PB_NAMESPACE=Pkt_Bench/'
refused "a namespace of 64 characters" PB_NAMESPACE "s/^PB_NAMESPACE=.*/PB_NAMESPACE=$(printf 'a%.0s' $(seq 64))/"
refused "a namespace ending in -" PB_NAMESPACE 's/^PB_NAMESPACE=.*/PB_NAMESPACE=pktbench-/'
refused "a memory without its unit" PB_SENDER_MEMORY 's/^PB_SENDER_MEMORY=.*/PB_SENDER_MEMORY=512/'
refused "no CPU at all" PB_AGENT_CPU 's/^PB_AGENT_CPU=.*/PB_AGENT_CPU=0/'
refused "PB_SYNCED_CLOCKS not yes or no" PB_SYNCED_CLOCKS 's/^PB_SYNCED_CLOCKS=.*/PB_SYNCED_CLOCKS=1/'
# a short name is docker.io/library/NAME to a kubelet (containerd, CRI-O and docker normalise
# it so), never the image build-image made; podman alone looks in localhost/ first
refused "a short image name (docker.io/library/ to a kubelet)" docker.io/library/pktbench:0.1.0 \
	's|^PB_IMAGE=.*|PB_IMAGE=pktbench:0.1.0|'
refused "a name without a registry (docker.io/ to a kubelet)" docker.io/lab/pktbench:0.1.0 \
	's|^PB_IMAGE=.*|PB_IMAGE=lab/pktbench:0.1.0|'
for img in localhost/pktbench:0.1.0 docker.io/library/pktbench:0.1.0 registry.example/pktbench:0.1.0 \
	registry.example:5000/lab/pktbench:0.1.0 "[2001:2::5]:5000/pktbench:0.1.0"; do
	sed "s|^PB_IMAGE=.*|PB_IMAGE=$img|" "$T/test.env" >"$T/img.env"
	"$K/render" "$T/img.env" >/dev/null 2>"$T/err" && ok "PB_IMAGE=$img taken" || bad "PB_IMAGE=$img: $(cat "$T/err")"
done

# the script's name, where the docs and the files name it
n=$(grep -rn 'render\.sh' "$K" "$top/docs" "$top/README.md" | wc -l)
[ "$n" = 0 ] && ok "render is named render everywhere" || bad "render.sh named $n times: $(grep -rln 'render\.sh' "$K" "$top/docs")"
for f in $(sed -n 's/^  - \(.*\.yaml\)$/\1/p' "$K/kustomization.yaml" "$K/components/podmonitor/kustomization.yaml"); do
	[ -f "$K/$f" ] || [ -f "$K/components/podmonitor/$f" ] || bad "kustomization names $f, which is not there"
done

if command -v kubectl >/dev/null; then
	if kubectl kustomize "$K" >"$T/k.yaml" 2>"$T/err" && [ "$(grep -c '^kind:' "$T/k.yaml")" = 5 ]; then
		ok "kubectl kustomize builds the kustomization (5 objects)"
	else
		bad "kubectl kustomize: $(head -c 300 "$T/err")"
	fi
	for name in defaults changed xdp_live-v6; do
		want=$(cat "$T/$name.yaml" "$T/$name-senders.yaml" | grep -c '^kind:')
		if kubectl annotate --local --dry-run=client -o name -f "$T/$name.yaml" -f "$T/$name-senders.yaml" \
			pktbench.io/checked=1 >"$T/names" 2>"$T/err" && [ "$(wc -l <"$T/names")" = "$want" ]; then
			ok "$name: kubectl --dry-run=client reads every rendered object: $(tr '\n' ' ' <"$T/names")"
		else
			bad "$name: kubectl --dry-run=client: $(head -c 300 "$T/err")"
		fi
	done
else
	echo "skip: kubectl checks: kubectl not found (Debian package kubernetes-client)"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
