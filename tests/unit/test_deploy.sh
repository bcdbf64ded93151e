# SPDX-License-Identifier: MIT
# deploy/kubernetes renders from one env file into manifests that say what a fleet test
# needs: an Indexed Job of PB_SHARDS senders (shard from JOB_COMPLETION_INDEX, hostNetwork,
# NET_ADMIN NET_RAW BPF SYS_ADMIN, one per node), a DaemonSet of agents with a Service and a
# PodMonitor, the example queries; each value from the env file where it belongs. A bad value
# fails in one line. With kubectl: the kustomization builds, and kubectl's client-side decode
# (annotate --local --dry-run=client) reads every object; without it, that part is skipped.
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

cat >"$T/test.env" <<'ENV'
PB_TEST_ID=6F9619FF-8B86-4011-B42D-00C04FC964FF
PB_START_AT=2026-12-01T16:30:00Z
PB_PPS=90000
PB_DURATION=10
PB_SHARDS=3
PB_METHOD=af_packet
PB_SEND_IFACE=ens1f0
PB_DSTIP=198.18.0.2
PB_AGENT_IFACE=ens1f1
PB_AGENT_API=http://198.18.0.2:9310
PB_AGENT_PORT=9310
PB_IMAGE=registry.example/pktbench:1
PB_NAMESPACE=pbtest
ENV
if "$K/render" "$T/test.env" >"$T/fleet.yaml" 2>"$T/err"; then ok "render"; else bad "render: $(cat "$T/err")"; fi
/usr/bin/python3 - "$T/fleet.yaml" <<'PY' && ok "the manifests say what a fleet test needs" || bad "the manifests"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
errs = []
def need(cond, what):
    if not cond:
        errs.append(what)
need(all(d["metadata"].get("namespace") == "pbtest" for d in docs if d["kind"] != "Namespace"),
     "every object in PB_NAMESPACE")
job = by.get(("Job", "pktbench-senders"))
need(job, "the sender Job")
if job:
    s, pod = job["spec"], job["spec"]["template"]["spec"]
    c = pod["containers"][0]
    args = " ".join(c["args"])
    need(s["completionMode"] == "Indexed", "completionMode Indexed")
    need(s["completions"] == 3 and s["parallelism"] == 3, "completions = parallelism = PB_SHARDS, as numbers")
    need(pod["hostNetwork"] is True, "senders on the host network")
    need(set(c["securityContext"]["capabilities"]["add"]) == {"NET_ADMIN", "NET_RAW", "BPF", "SYS_ADMIN"}, "sender capabilities")
    aa = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
    need(aa["topologyKey"] == "kubernetes.io/hostname", "one sender per node")
    env = {e["name"]: e for e in c["env"]}
    need("job-completion-index" in env["JOB_COMPLETION_INDEX"]["valueFrom"]["fieldRef"]["fieldPath"], "the index from the Job")
    need("--shard $(JOB_COMPLETION_INDEX)/3" in args, "--shard INDEX/PB_SHARDS")
    need("--test-id 6F9619FF-8B86-4011-B42D-00C04FC964FF" in args, "--test-id")
    need("--start-at 2026-12-01T16:30:00Z" in args and "--pps 90000" in args, "--start-at and --pps")
    need("--receiver http://198.18.0.2:9310" in args and "--iface ens1f0" in args, "--receiver and --iface")
    need(c["image"] == "registry.example/pktbench:1", "the image")
ds = by.get(("DaemonSet", "pktbench-agent"))
need(ds, "the agent DaemonSet")
if ds:
    pod = ds["spec"]["template"]["spec"]
    c = pod["containers"][0]
    need(pod["hostNetwork"] is True, "agents on the host network")
    need(c["args"][:3] == ["receive", "--iface", "ens1f1"], "the agent's interface")
    need(c["ports"][0]["containerPort"] == 9310, "the agent's port, as a number")
    need(set(c["securityContext"]["capabilities"]["add"]) == {"NET_ADMIN", "NET_RAW", "BPF", "SYS_ADMIN"}, "agent capabilities")
    need(ds["spec"]["selector"]["matchLabels"].items() <= ds["spec"]["template"]["metadata"]["labels"].items(), "the selector matches the pods")
svc = by.get(("Service", "pktbench-agent"))
need(svc and svc["spec"]["ports"][0]["port"] == 9310, "the agents' Service")
pm = by.get(("PodMonitor", "pktbench-agent"))
need(pm and pm["spec"]["podMetricsEndpoints"][0]["path"] == "/metrics" and pm["apiVersion"].startswith("monitoring.coreos.com/"), "the PodMonitor")
q = by.get(("ConfigMap", "pktbench-queries"))
# the test's label: printf %s 6f9619ff-8b86-4011-b42d-00c04fc964ff | sha256sum | cut -c1-16
need(q and all('test="80e3efa180ebafd5"' in v for k, v in q["data"].items() if "test" in k or "shard" in k), "the queries name the test by its label")
for e in errs:
    print("  missing:", e)
sys.exit(1 if errs else 0)
PY
# a bad value, an unknown placeholder: one line each, exit 2
sed 's/^PB_SHARDS=3/PB_SHARDS=three/' "$T/test.env" >"$T/bad.env"
"$K/render" "$T/bad.env" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q PB_SHARDS "$T/err" &&
	ok "a bad PB_SHARDS: one line ($(cat "$T/err"))" || bad "a bad PB_SHARDS: exit $rc: $(cat "$T/err")"
grep -v '^PB_IMAGE=' "$T/test.env" >"$T/noimg.env"
env -u PB_IMAGE "$K/render" "$T/noimg.env" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q 'PB_IMAGE} has no value' "$T/err" &&
	ok "a value missing: one line ($(cat "$T/err"))" || bad "a value missing: exit $rc: $(cat "$T/err")"
PB_START_AT=auto PB_START_LEAD=60 "$K/render" "$T/test.env" | grep -q -- '"--start-at", "20[0-9-]*T[0-9:.]*Z"' &&
	ok "PB_START_AT=auto: a time PB_START_LEAD ahead" || bad "PB_START_AT=auto"

if command -v kubectl >/dev/null; then
	if kubectl kustomize "$K" >"$T/k.yaml" 2>"$T/err" && [ "$(grep -c '^kind:' "$T/k.yaml")" = 7 ]; then
		ok "kubectl kustomize builds the kustomization (7 objects)"
	else
		bad "kubectl kustomize: $(head -c 300 "$T/err")"
	fi
	if kubectl annotate --local --dry-run=client -o name -f "$T/fleet.yaml" pktbench.io/checked=1 \
		>"$T/names" 2>"$T/err" && [ "$(wc -l <"$T/names")" = 7 ]; then
		ok "kubectl --dry-run=client reads every rendered object: $(tr '\n' ' ' <"$T/names")"
	else
		bad "kubectl --dry-run=client: $(head -c 300 "$T/err")"
	fi
else
	echo "skip: kubectl checks: kubectl not found (Debian package kubernetes-client)"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
