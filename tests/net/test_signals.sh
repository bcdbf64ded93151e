# SPDX-License-Identifier: MIT
# Ctrl-C prints the partial result and removes the lab; a SIGKILLed run's lab is removed by
# the next run.
. "$(dirname "$0")/lib.sh"

# SIGINT in the middle of a run
"$PB" --method udp_sendto --duration 30 --format json --output "$T/int.json" -q 2>"$T/int.err" &
pid=$!
PIDS+=($pid)
sleep 3
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130 (got $rc)" [ $rc = 130 ]
check "SIGINT: the partial result is written" json "$T/int.json" \
	"d['results'][0]['interrupted'] and d['results'][0]['frames_sent'] > 0 and d['results'][0]['duration_s'] < 20"
check "SIGINT: the partial result has deliveries" json "$T/int.json" \
	"d['results'][0]['frames_delivered'] == d['results'][0]['frames_sent']"
check "SIGINT: no lab left" no_leftovers

# SIGTERM in the middle of a benchmark: the table still prints what finished
"$PB" --method benchmark --duration 2 -q >"$T/term.txt" 2>"$T/term.err" &
pid=$!
PIDS+=($pid)
sleep 5
kill -TERM $pid
wait $pid
rc=$?
check "SIGTERM: exit 130 (got $rc)" [ $rc = 130 ]
check "SIGTERM: a table is printed" grep -q "Packets/s" "$T/term.txt"
check "SIGTERM: no lab left" no_leftovers

# SIGKILL leaves the lab behind; the next run removes it
"$PB" --method udp_sendto --duration 30 -q >/dev/null 2>&1 &
pid=$!
PIDS+=($pid)
sleep 3
kill -KILL $pid
wait $pid 2>/dev/null
check "SIGKILL: the lab is still there (as expected)" [ -n "$(new_namespaces)" ]
"$PB" --method udp_sendto --count 1000 -q >"$T/next.txt" 2>"$T/next.err"
rc=$?
check "next run succeeds (got $rc)" [ $rc = 0 ]
check "next run says it removed the stale lab" grep -q "removed 1 lab" "$T/next.err"
check "SIGKILL: no lab left after the next run" no_leftovers
finish
