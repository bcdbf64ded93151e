# SPDX-License-Identifier: MIT
# The fleet's image by the name a cluster's runtime gives it, through the docs' route without
# a registry: `podman save IMAGE | ctr -n k8s.io images import -` into containerd (Debian's,
# a daemon of this test's own: its root, state and socket in the scratch dir, stopped by its
# PID on exit). Known answers:
#   - the name containerd lists is build-image's localhost/pktbench:VERSION, and it is the
#     image the rendered manifests (fleet.env's defaults) name, so a kubelet's IfNotPresent
#     finds it on the node instead of pulling;
#   - containerd's own naming of the same archive under other names (its RepoTags rewritten):
#     a short name is docker.io/library/NAME, a path without a registry docker.io/PATH, a
#     registry's name is kept; and render refuses each name containerd changes, naming what
#     containerd made of it.
# Needs root, podman and containerd (Debian package containerd); no network.
. "$(dirname "$0")/../net/lib.sh"
need podman podman
need containerd containerd
need ctr containerd
/usr/bin/python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml needed"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$(dirname "$PB")" && pwd)
K=$top/deploy/kubernetes

# build-image's name for this version, and the image itself (built when podman lacks it)
VERSION=$(sed -n 's/^project(pktbench VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")
IMAGE=$(sed -n 's/^NAME=\${PB_IMAGE_NAME:-\(.*\)}$/\1/p' "$top/deploy/container/build-image"):$VERSION
if ! podman image exists "$IMAGE"; then
	deb=$(ls -t "$BUILD"/pktbench_*.deb 2>/dev/null | head -1)
	[ -n "$deb" ] || cmake --build "$BUILD" --target package >"$T/package.log" 2>&1
	"$top/deploy/container/build-image" >"$T/build.out" 2>"$T/build.err"
fi
check "the image $IMAGE is in podman" podman image exists "$IMAGE"

# containerd of this test's own: nothing of the host's (if any) is touched
C=$T/containerd
mkdir -p "$C"
cat >"$C/config.toml" <<EOF
version = 2
root = "$C/root"
state = "$C/state"
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$C/sock"
[ttrpc]
  address = "$C/sock.ttrpc"
EOF
containerd --config "$C/config.toml" >"$C/log" 2>&1 &
CTRD=$!
PIDS+=("$CTRD")
trap 'kill "$CTRD" 2>/dev/null; wait "$CTRD" 2>/dev/null; cleanup' EXIT
ctr_() { ctr -a "$C/sock" "$@"; }
ctr_up() { ctr_ version >/dev/null 2>&1; }
for _ in $(seq 50); do ctr_up && break; sleep 0.1; done
check "containerd of the test's own answers ($(containerd --version | cut -d' ' -f3))" ctr_up

# the docs' route: podman save | ctr -n k8s.io images import -
podman save "$IMAGE" 2>"$T/save.err" >"$T/image.tar"
check "podman save $IMAGE ($(du -m "$T/image.tar" | cut -f1) MB)" [ -s "$T/image.tar" ]
ctr_ -n k8s.io images import - <"$T/image.tar" >"$T/import.out" 2>&1
listed=$(ctr_ -n k8s.io images ls -q)
check "ctr -n k8s.io lists build-image's name: $listed" [ "$listed" = "$IMAGE" ]
"$K/render" "$K/fleet.env" >"$T/fleet.yaml" 2>"$T/render.err" &&
	PB_START_AT=2099-01-01T00:00:00Z "$K/render" --senders "$K/fleet.env" >"$T/senders.yaml" 2>>"$T/render.err"
check "render of fleet.env's defaults ($(cat "$T/render.err"))" [ -s "$T/fleet.yaml" -a -s "$T/senders.yaml" ]
images=$(/usr/bin/python3 -c '
import sys, yaml
print(" ".join(sorted({c["image"] for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d
                       and d["kind"] in ("DaemonSet", "Job")
                       for c in d["spec"]["template"]["spec"]["containers"]})))' "$T/fleet.yaml" "$T/senders.yaml")
check "every container of the manifests names the image containerd holds ($images)" [ "$images" = "$listed" ]

# containerd's naming, by its own import: the archive's RepoTags rewritten to other names
NAMES="pktbench:$VERSION lab/pktbench:$VERSION registry.example:5000/lab/pktbench:$VERSION"
/usr/bin/python3 - "$T/image.tar" "$T/renamed.tar" $NAMES <<'PY'
import io, json, sys, tarfile
src, dst, names = sys.argv[1], sys.argv[2], sys.argv[3:]
with tarfile.open(src) as i, tarfile.open(dst, "w") as o:
    for m in i.getmembers():
        f = i.extractfile(m) if m.isfile() else None
        if m.name == "manifest.json":
            man = json.load(f)
            man[0]["RepoTags"] = names
            data = json.dumps(man).encode()
            m.size = len(data)
            f = io.BytesIO(data)
        o.addfile(m, f)
PY
ctr_ -n names images import - <"$T/renamed.tar" >"$T/import2.out" 2>&1
ctr_ -n names images ls -q >"$T/names"
echo "containerd named them: $(tr '\n' ' ' <"$T/names")"
for n in $NAMES; do
	case $n in
	*/*/*) want=$n ;;
	*/*) want=docker.io/$n ;;
	*) want=docker.io/library/$n ;;
	esac
	check "containerd names $n $want" grep -qx "$want" "$T/names"
	sed "s|^PB_IMAGE=.*|PB_IMAGE=$n|" "$K/fleet.env" >"$T/n.env"
	"$K/render" "$T/n.env" >/dev/null 2>"$T/err"
	rc=$?
	if [ "$want" = "$n" ]; then
		check "render takes $n, a name containerd keeps" [ $rc = 0 ]
	else
		check "render refuses $n, naming containerd's $want ($(cat "$T/err"))" \
			sh -c "[ $rc = 2 ] && grep -q ' $want,' '$T/err'"
	fi
done
kill "$CTRD" 2>/dev/null
wait "$CTRD" 2>/dev/null
check "containerd stopped, none of its mounts left" sh -c "! grep -q ' $C/' /proc/mounts"
finish
