# SPDX-License-Identifier: MIT
# The Debian package, as a user gets it: cpack builds the .deb from this build; its Depends
# must be exactly the packages of the libraries the binary links; dpkg installs it into an
# empty tree (dpkg --root, a fresh dpkg database); from there pktbench runs, loads the
# shipped scenarios, its man page renders (man -l) and names files the package really has,
# the completion completes, the systemd unit verifies; then dpkg removes it without a trace.
#   tests/pkg/test_deb.sh BUILD_DIR       (no network, no traffic; root only for dpkg --root)
set -u
build=$(cd "$1" && pwd)
for cp in cpack:cmake dpkg:dpkg dpkg-deb:dpkg readelf:binutils man:man-db zcat:gzip file:file; do
	command -v "${cp%%:*}" >/dev/null ||
		{ echo "SKIP: ${cp%%:*} not found (Debian package ${cp#*:})"; exit 77; }
done
T=$(mktemp -d /tmp/pbdeb.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
check() { # check "what" command...
	local what=$1
	shift
	if "$@" >"$T/out" 2>&1; then ok "$what"; else bad "$what: $(head -c 400 "$T/out")"; fi
}

# --- build it
if ! cpack --config "$build/CPackConfig.cmake" -B "$T/out.d" >"$T/cpack.log" 2>&1; then
	tail -n 30 "$T/cpack.log"
	echo "FAIL: cpack"; exit 1
fi
deb=$(ls "$T"/out.d/*.deb 2>/dev/null)
[ "$(echo "$deb" | wc -w)" = 1 ] || { echo "FAIL: not one .deb: $deb"; exit 1; }
version=$(dpkg-deb -f "$deb" Version)
arch=$(dpkg-deb -f "$deb" Architecture)
depends=$(dpkg-deb -f "$deb" Depends)
echo "package: $(basename "$deb"), Depends: $depends"
check "named pktbench_VERSION_ARCH.deb" test "$(basename "$deb")" = "pktbench_${version}_${arch}.deb"

# --- Depends = the packages of the libraries pktbench links, no more, no fewer
dep_names=$(echo "$depends" | tr ',' '\n' | sed 's/(.*//; s/|.*//; s/ //g' | grep . | sort -u)
linked=""
for lib in $(readelf -d "$build/pktbench" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
	path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64|x86_64|64/ {print $NF; exit}')
	[ -n "$path" ] || path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
	pkg=""
	for p in "$path" "$(readlink -f "$path")" "${path#/usr}" "/usr$path"; do
		pkg=$(dpkg -S "$p" 2>/dev/null | head -n1 | cut -d: -f1) && [ -n "$pkg" ] && break
	done
	if [ -z "$pkg" ]; then
		bad "no Debian package owns $lib ($path)"
		continue
	fi
	linked="$linked $pkg"
	if echo "$dep_names" | grep -qx "$pkg"; then
		ok "Depends has $pkg (for $lib)"
	else
		bad "Depends lacks $pkg, which has $lib"
	fi
done
for d in $dep_names; do
	echo " $linked " | grep -q " $d " || bad "Depends has $d, which no linked library needs"
done

# --- install into an empty tree through dpkg itself
root=$T/root
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
	: >"$root/var/lib/dpkg/status"
	: >"$root/var/lib/dpkg/available"
	# the tree has no libraries of its own: dependencies are the host's (checked above)
	if dpkg --root="$root" --log=/dev/null --force-depends --force-script-chrootless -i "$deb" \
		>"$T/dpkg.log" 2>&1; then
		ok "dpkg --root installs it into an empty tree"
	else
		bad "dpkg --root -i: $(tail -n 5 "$T/dpkg.log")"
	fi
	via=dpkg
else
	dpkg -x "$deb" "$root"
	echo "note: not root, so dpkg -x instead of dpkg --root"
	via=x
fi
for f in usr/sbin/pktbench usr/bin/pktbench-plot usr/share/man/man8/pktbench.8.gz \
	usr/share/bash-completion/completions/pktbench usr/share/pktbench/scenarios/ci-smoke.yaml \
	usr/lib/systemd/system/pktbench-receive@.service usr/share/doc/pktbench/copyright \
	usr/share/doc/pktbench/examples/pktbench-receive.default; do
	check "installs /$f" test -s "$root/$f"
done
check "nothing under /usr/local or /etc" test -z "$(cd "$root" && ls -d usr/local etc 2>/dev/null)"

# --- use it
pb=$root/usr/sbin/pktbench
check "pktbench --version says $version" sh -c "'$pb' --version | grep -qx 'pktbench $version-.*'"
for s in "$root"/usr/share/pktbench/scenarios/*.yaml; do
	check "the installed $(basename "$s") loads" "$pb" --config "$s" --help
done
check "pktbench compare --help" sh -c "'$pb' compare --help | grep -q 'usage: pktbench compare'"

man=$root/usr/share/man/man8/pktbench.8.gz
if LC_ALL=C MANWIDTH=100 man --warnings -l "$man" >"$T/man.txt" 2>"$T/man.err" && [ ! -s "$T/man.err" ]; then
	ok "man -l renders it without a warning"
else
	bad "man -l: $(head -c 400 "$T/man.err")"
fi
check "man page: NAME, a COMPARE section" grep -q "PKTBENCH COMPARE" "$T/man.txt"
missing=""
for o in $("$pb" --help | sed -n 's/^  \(-., \)\{0,1\} *--\([a-z0-9-]*\).*/\2/p'); do
	grep -q -- "--$o" "$T/man.txt" || missing="$missing --$o"
done
check "man page has every option of the installed --help" test -z "$missing"
# the FILES section names files the package has (or says are the admin's)
files=$(zcat "$man" | sed -n '/^\.SH FILES/,/^\.SH/p' | sed -n 's/^\\fI\(.*\)\\fR$/\1/p' | sed 's/\\-/-/g')
for f in $files; do
	case $f in
	*%i* | /run/*) continue ;;
	esac
	check "man FILES: $f is in the package" test -e "$root$f"
done

comp=$root/usr/share/bash-completion/completions/pktbench
check "completion completes --version" sh -c "bash -c 'source \"$comp\"; COMP_WORDS=(pktbench --vers); COMP_CWORD=1; _pktbench; echo \"\${COMPREPLY[*]}\"' | grep -qx -- --version"
check "completion is registered for pktbench" bash -c "source '$comp'; complete -p pktbench"

unit=$root/usr/lib/systemd/system/pktbench-receive@.service
check "unit: ExecStart runs the installed binary" grep -q '^ExecStart=/usr/sbin/pktbench receive --iface %i --listen ${PKTBENCH_LISTEN}' "$unit"
check "unit: EnvironmentFile in /etc/default" grep -qx 'EnvironmentFile=/etc/default/pktbench-receive-%i' "$unit"
for k in NoNewPrivileges=yes ProtectSystem=strict PrivateTmp=yes DynamicUser=yes; do
	check "unit: $k" grep -qx "$k" "$unit"
done
check "unit: no capability beyond BPF, PERFMON, NET_ADMIN, SYS_ADMIN" sh -c \
	"grep '^CapabilityBoundingSet=' '$unit' | tr ' =' '\n\n' | grep '^CAP_' | grep -vxE 'CAP_(BPF|PERFMON|NET_ADMIN|SYS_ADMIN)' | wc -l | grep -qx 0"
if command -v systemd-analyze >/dev/null; then
	# against the host's units (the tree has none); the binary it starts is the tree's
	mkdir -p "$T/units"
	sed "s|^ExecStart=/usr/sbin/pktbench|ExecStart=$pb|" "$unit" >"$T/units/pktbench-receive@.service"
	if systemd-analyze verify --man=no \
		"$T/units/pktbench-receive@.service" >"$T/verify" 2>&1 && [ ! -s "$T/verify" ]; then
		ok "systemd-analyze verify"
	else
		bad "systemd-analyze verify: $(head -c 400 "$T/verify")"
	fi
	score=$(systemd-analyze security --offline=yes --root="$root" pktbench-receive@eth0.service 2>/dev/null |
		sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p')
	[ -n "$score" ] && echo "note: systemd-analyze security: exposure $score (0 best, 10 worst)"
else
	echo "note: no systemd-analyze; the unit is checked by its text only"
fi

# resolvable on this Debian: apt would install it with its dependencies
if command -v apt-get >/dev/null; then
	check "apt-get -s install ./$(basename "$deb") resolves" apt-get -s -o Debug::NoLocking=1 install "$deb"
fi

if [ $via = dpkg ]; then
	dpkg --root="$root" --log=/dev/null --force-script-chrootless -r pktbench >"$T/dpkg.log" 2>&1
	check "dpkg -r leaves no file behind" test -z "$(find "$root/usr" -type f 2>/dev/null)"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
