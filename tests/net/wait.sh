# SPDX-License-Identifier: MIT
# Readiness waits for the net tests, sourced after lib.sh: a test waits for the thing it
# needs (a socket listening, a counter moving), polled with a bound, never a fixed sleep
# that a slow start on a busy machine outlasts.

# wait_until SECONDS command...: 0 as soon as the command succeeds, 1 if it never did within
# SECONDS (polled every 20 ms; at most one second more)
wait_until() {
	local end=$((SECONDS + $1 + 1)) # SECONDS counts whole seconds: +1 so the bound is never short
	shift
	while :; do
		"$@" && return 0
		[ $SECONDS -ge $end ] && return 1
		sleep 0.02
	done
}

# listening NETNS PROTO ADDR:PORT: a socket of PROTO (tcp or udp) is bound to ADDR:PORT in
# NETNS (and, for tcp, listening)
listening() {
	local opt=-ltnH
	[ "$2" = udp ] && opt=-lunH
	ip netns exec "$1" ss $opt "src $3" 2>/dev/null | grep -q .
}

# if_counter NETNS IFACE STAT: the interface's statistics/STAT (rx_packets, tx_packets...)
if_counter() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3" 2>/dev/null || echo 0; }

# counter_above NETNS IFACE STAT VALUE: the counter exceeds VALUE
counter_above() { [ "$(if_counter "$1" "$2" "$3")" -gt "$4" ]; }
