# SPDX-License-Identifier: MIT
"""The `podman run` arguments of one container of the rendered manifests, so that the test
runs what a kubelet would: the image, command and args (with $(VAR) expanded from the env, as
the kubelet does), the env (fieldRef: the Job's completion index alone), the capabilities
(--cap-drop all, then each one added), readOnlyRootFilesystem, allowPrivilegeEscalation:
false as no-new-privileges, and hostPath volumes (made when DirectoryOrCreate, as the kubelet
makes them), and the limits (--memory, --cpus). hostNetwork is the caller's (--network).

  podman_args.py MANIFESTS.yaml KIND NAME INDEX    NUL-separated arguments on stdout
"""
import os
import re
import sys

import yaml

path, kind, name, index = sys.argv[1:5]
objs = [d for d in yaml.safe_load_all(open(path)) if d]
obj = next(d for d in objs if d["kind"] == kind and d["metadata"]["name"] == name)
pod = obj["spec"]["template"]["spec"]
if not pod.get("hostNetwork"):
    sys.exit("%s/%s: not on the host network: this test cannot stand for its network" % (kind, name))
(c,) = pod["containers"]
out, env = [], {}
for e in c.get("env", []):
    if "value" in e:
        env[e["name"]] = e["value"]
    elif "job-completion-index" in e["valueFrom"]["fieldRef"]["fieldPath"]:
        env[e["name"]] = index
    else:
        sys.exit("%s: env %s from %s: not emulated" % (name, e["name"], e["valueFrom"]))
    out += ["--env", "%s=%s" % (e["name"], env[e["name"]])]
# the limits, as the kubelet sets them on the container's cgroup (memory; CPU as a quota)
lim = c.get("resources", {}).get("limits", {})
if "memory" in lim:
    m = re.match(r"^([0-9]+)(Ki|Mi|Gi)$", str(lim["memory"]))
    if not m:
        sys.exit("%s: memory limit %s: not emulated" % (name, lim["memory"]))
    out += ["--memory", "%d%s" % (int(m.group(1)), m.group(2)[0].lower())]
if "cpu" in lim:
    v = str(lim["cpu"])
    out += ["--cpus", "%g" % (float(v[:-1]) / 1000 if v.endswith("m") else float(v))]
sc = c.get("securityContext", {})
caps = sc.get("capabilities", {})
if caps.get("drop") != ["ALL"]:
    sys.exit("%s: capabilities do not drop ALL" % name)
out += ["--cap-drop", "all"]
for cap in caps.get("add", []):
    out += ["--cap-add", cap]
if sc.get("readOnlyRootFilesystem"):
    # as the kubelet's: no tmpfs on /run and /tmp, which podman's --read-only adds
    out += ["--read-only", "--read-only-tmpfs=false"]
if sc.get("allowPrivilegeEscalation") is False:
    out += ["--security-opt", "no-new-privileges"]
vols = {v["name"]: v for v in pod.get("volumes", [])}
for m in c.get("volumeMounts", []):
    hp = vols[m["name"]].get("hostPath")
    if not hp:
        sys.exit("%s: volume %s is not a hostPath: not emulated" % (name, m["name"]))
    # as the kubelet does for this type (a fresh node has no /run/pktbench); podman refuses
    # a volume whose source is missing
    if hp.get("type") == "DirectoryOrCreate":
        os.makedirs(hp["path"], 0o755, exist_ok=True)
    elif hp.get("type") == "Directory" and not os.path.isdir(hp["path"]):
        sys.exit("%s: hostPath %s is not a directory" % (name, hp["path"]))
    out += ["--volume", "%s:%s" % (hp["path"], m["mountPath"])]
# the kubelet's expansion of $(VAR) in command and args; $$ is a literal $
expand = lambda s: re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                          lambda m: "$" if m.group(0) == "$$" else env.get(m.group(1), m.group(0)), s)
out += [c["image"]]  # the image has no ENTRYPOINT: command and args are what runs
out += [expand(a) for a in c.get("command", []) + c.get("args", [])]
sys.stdout.write("\0".join(out) + "\0")
