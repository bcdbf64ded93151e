# SPDX-License-Identifier: MIT
# What a run depended on (issue 47): pktbench environment reads an interface's settings as
# ethtool and sysfs show them (known answers the test sets on a veth of its own), a run's
# result set keeps them with where its sender ran, the default placement pins the sender where
# it says (every round on that CPU), --cpus overrides it, compare warns when two sets differ,
# and two senders started together are placed on different CPUs.
. "$(dirname "$0")/lib.sh"
need ethtool ethtool
trap 'test_pair_del; cleanup' EXIT
test_pair env 77 || { echo "FAIL: the test's namespace and veth pair"; exit 1; }
inns() { ip netns exec "$NS" "$@"; }

# known answers: NAPI deferral and GRO flush timeout set here, an offload turned off
inns sh -c "echo 20000 > /sys/class/net/$A/gro_flush_timeout && echo 2 > /sys/class/net/$A/napi_defer_hard_irqs" ||
	fail "cannot set $A's gro_flush_timeout and napi_defer_hard_irqs"
inns ethtool -K "$A" tx-udp-segmentation off 2>/dev/null
inns "$PB" environment --iface "$A" --format json >"$T/env.json" 2>"$T/env.err"
rc=$?
check "environment --iface $A: exit 0 ($(head -1 "$T/env.err"))" [ $rc = 0 ]
envf() { json "$1" "(lambda e: $2)(d['environment'])"; }
check "its gro_flush_timeout and napi_defer_hard_irqs as set" envf "$T/env.json" \
	"e['iface.gro_flush_timeout_ns'] == '20000' and e['iface.napi_defer_hard_irqs'] == '2'"
check "a veth has no IRQs, and says so" envf "$T/env.json" \
	"e['iface.irq_affinity'] == 'none (no device: a virtual interface)'"
check "kernel_release is uname -r ($(uname -r))" envf "$T/env.json" "e['kernel_release'] == '$(uname -r)'"
# the witness: ethtool -k's features that are on, the same set as pktbench's offloads; ethtool
# prints a few by their old names (its off_flag_def), and groups (tx-checksumming, ...) whose
# members follow indented, which are not features of their own
inns ethtool -k "$A" | python3 -c "
import sys
old = {'rx-checksumming': 'rx-checksum', 'generic-segmentation-offload': 'tx-generic-segmentation',
       'generic-receive-offload': 'rx-gro', 'large-receive-offload': 'rx-lro',
       'rx-vlan-offload': 'rx-vlan-hw-parse', 'tx-vlan-offload': 'tx-vlan-hw-insert',
       'ntuple-filters': 'rx-ntuple-filter', 'receive-hashing': 'rx-hashing'}
lines = [l.rstrip('\n') for l in sys.stdin][1:]
for i, l in enumerate(lines):
    name, _, v = l.strip().partition(': ')
    group = not l.startswith('\t') and i + 1 < len(lines) and lines[i + 1].startswith('\t')
    if v.startswith('on') and not group:
        print(old.get(name, name))
" | sort >"$T/k.want"
python3 -c "import json,sys; print('\n'.join(sorted(json.load(open(sys.argv[1]))['environment']['iface.offloads'].split(', '))))" \
	"$T/env.json" >"$T/k.got"
check "iface.offloads is what ethtool -k shows on ($(wc -l <"$T/k.want") features; $(diff "$T/k.want" "$T/k.got" | grep -c '^[<>]') differ)" \
	cmp -s "$T/k.want" "$T/k.got"
check "tx-udp-segmentation, turned off, is not among them" envf "$T/env.json" \
	"'tx-udp-segmentation' not in e['iface.offloads'].split(', ')"
# ethtool -l's current channel counts (veth: rx and tx)
want=$(inns ethtool -l "$A" | awk '/^Current/ {c = 1} c && /^RX:/ {rx = $2} c && /^TX:/ {tx = $2} END {print "rx " rx ", tx " tx}')
check "iface.channels begins as ethtool -l's current ($want)" envf "$T/env.json" \
	"e['iface.channels'].startswith('$want')"
# what this kernel's veth cannot tell is unknown with the reason, not 0
check "every field (10 or more) is text: a value, or unknown (why)" envf "$T/env.json" \
	"len(e) >= 10 and all(isinstance(v, str) and v and (not v.startswith('unknown') or v.startswith('unknown (')) for v in e.values())"
check "where pktbench would place a sender" envf "$T/env.json" \
	"e['sender_placement'].startswith('cpus ')"
inns "$PB" environment --iface nosuch0 >/dev/null 2>"$T/nosuch.err"
rc=$?
check "no such interface: exit 2, one line ($(head -1 "$T/nosuch.err"))" \
	[ "$rc:$(wc -l <"$T/nosuch.err")" = 2:1 ]

# the lab: the result set keeps the environment, read in the lab's namespace, and the sender
# ran where the placement said, in every round
"$PB" --method udp_sendto --duration 2 --repeat 2 --format json --output "$T/lab.json" -q \
	2>"$T/lab.err"
check "lab run --repeat 2: exit 0" [ $? = 0 ]
check "stderr says where the sender goes and why ($(grep -m1 'sending from' "$T/lab.err"))" \
	grep -q "pktbench: sending from cpus [0-9]*, pktbench's choice: .*; --cpus overrides" "$T/lab.err"
place_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['environment']['sender_placement'])" "$1"; }
cpu=$(place_of "$T/lab.json" | awk '{ print $2 }' | tr -d ,)
check "the lab's environment: its veth's (read in its namespace) and the placement, cpu $cpu" \
	envf "$T/lab.json" "e['iface.irq_affinity'].startswith('none (no device') and e['sender_placement'].startswith('cpus $cpu, pktbench')"
check "both rounds' sender ran on cpu $cpu, as placed" mrow "$T/lab.json" udp_sendto \
	"[x['sender_cpu'] for x in r['rounds']] == [$cpu, $cpu] and r['sender_cpus'] == [$cpu]"
other=$((cpu == 0 ? 1 : 0))
if [ "$(nproc)" -gt 1 ]; then
	"$PB" --method udp_sendto --duration 2 --cpus $other --format json --output "$T/cpus.json" \
		-q 2>"$T/cpus.err"
	check "--cpus $other: exit 0" [ $? = 0 ]
	check "--cpus $other overrides: the sender on cpu $other, the environment says --cpus" \
		json "$T/cpus.json" "d['results'][0]['sender_cpus'] == [$other] and d['environment']['sender_placement'] == 'cpus $other, --cpus'"
	check "--cpus: no placement line" bash -c "! grep -q 'sending from' '$T/cpus.err'"
	"$PB" compare "$T/lab.json" "$T/cpus.json" --tolerance 100 >"$T/cmp.out" 2>&1
	check "compare warns that the placement differs" \
		grep -q "^warning: environment differs in sender_placement: BASE cpus $cpu, pktbench's choice" "$T/cmp.out"

	# senders started together: each holds the CPU it was placed on (/run/pktbench/cpus), so
	# the second goes to the other; before, both saw the same idle CPUs and took the same one
	for i in 1 2; do
		"$PB" --method udp_sendto --duration 2 --format json --output "$T/two$i.json" -q \
			2>"$T/two$i.err" &
		PIDS+=("$!")
	done
	wait "${PIDS[-2]}"
	r1=$?
	wait "${PIDS[-1]}"
	r2=$?
	check "two senders started together: exit 0 and 0 ($r1, $r2)" [ "$r1$r2" = 00 ]
	p1=$(place_of "$T/two1.json") p2=$(place_of "$T/two2.json")
	check "... on different CPUs ($p1 | $p2)" \
		test "$(cut -d, -f1 <<<"$p1")" != "$(cut -d, -f1 <<<"$p2")"
	check "... the one placed second says the other CPU was taken" \
		test "$(printf '%s\n%s\n' "$p1" "$p2" | grep -c "is another pktbench's$")" = 1
fi
check "no lab left" no_leftovers
finish
