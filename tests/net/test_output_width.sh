# SPDX-License-Identifier: MIT
# What a person sees on an 80- and a 100-column terminal has no wrapped line: the live line,
# the results table (with --latency, its widest), compare's table and, at 80, rfc2544's report.
# Run under tmux at each width; capture-pane -J joins what the terminal wrapped, so a joined
# line wider than the pane is a wrap.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || { echo "SKIP: tmux (Debian package tmux)"; exit 77; }
DATA=$(cd "$(dirname "$0")/../unit/data" && pwd)
PBABS=$(cd "$(dirname "$PB")" && pwd)/$(basename "$PB")
SESSIONS=()
kill_sessions() {
	local s
	for s in "${SESSIONS[@]}"; do tmux kill-session -t "$s" 2>/dev/null; done
}
trap 'kill_sessions; cleanup' EXIT

# run_in_tmux WIDTH SCRIPT: runs SCRIPT in a detached WIDTHx50 pane, waits for its end and
# writes the pane's whole history, wrapped lines joined, to $T/pane$WIDTH.
run_in_tmux() {
	local w=$1 s=pbw$$-$1 i
	SESSIONS+=("$s")
	printf '%s\necho PB_PANE_DONE\nsleep 120\n' "$2" >"$T/script$w.sh"
	tmux new-session -d -s "$s" -x "$w" -y 50 "bash $T/script$w.sh"
	for ((i = 0; i < 120; i++)); do
		tmux capture-pane -p -J -S - -t "$s" >"$T/pane$w" 2>/dev/null
		grep -q '^PB_PANE_DONE' "$T/pane$w" && break
		sleep 0.5
	done
	tmux kill-session -t "$s" 2>/dev/null
}

for w in 80 100; do
	script="COLUMNS= $PBABS --method udp_sendto,af_packet --latency --duration 1.5
COLUMNS= $PBABS compare $DATA/bench_a.json $DATA/bench_b.json"
	[ "$w" = 80 ] && script="$script
COLUMNS= $PBABS rfc2544 --lab direct --method udp_sendto --tests throughput,latency --frame-sizes 64 --trial 0.3 --trial-gap 0.05 --max-trials 6"
	run_in_tmux "$w" "$script"
	check "$w columns: the runs ended" grep -q '^PB_PANE_DONE' "$T/pane$w"
	check "$w columns: a live line was shown" grep -q 'sent .*pps' "$T/pane$w"
	check "$w columns: the results table was shown" grep -q '^| udp_sendto' "$T/pane$w"
	check "$w columns: compare's table was shown" grep -q '^| gso_mmsg' "$T/pane$w"
	[ "$w" = 80 ] && check "80 columns: rfc2544's report was shown" \
		grep -q '^RFC 2544 26.1 throughput' "$T/pane$w"
	wide=$(awk -v w="$w" 'length > w { print length ": " $0 }' "$T/pane$w")
	check "$w columns: no wrapped line (widest $(awk '{ if (length > m) m = length } END { print m }' "$T/pane$w"))$([ -n "$wide" ] && printf '\n%s' "$wide")" \
		[ -z "$wide" ]
done
check "no lab left" no_leftovers
finish
