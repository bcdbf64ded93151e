#!/bin/sh
# SPDX-License-Identifier: MIT
# An example for --lab-dut-setup: a device under test with a known limit. pktbench runs it in
# the DUT's namespace, with $PB_DUT_IN/$PB_DUT_OUT naming its interfaces towards the sender
# and the receiver. A tbf on the egress passes RATE bit/s, counted as tc counts them: the
# frame without FCS (skb->len), so an RFC frame of S bytes passes RATE / 8 / (S - 4) a
# second (20 Mbit/s: 41667 of 64 bytes, 1651 of 1518), after a BURST-byte bucket and a
# LIMIT-byte queue.
# dut: a tbf of 20 Mbit/s (unless PB_TBF_RATE said otherwise), 16 KB bucket, 32 KB queue
#   pktbench rfc2544 --lab router --lab-dut-setup scripts/dut-tbf.sh
#   PB_TBF_RATE=100mbit pktbench rfc2544 --lab router --lab-dut-setup scripts/dut-tbf.sh
set -e
tc qdisc add dev "$PB_DUT_OUT" root tbf rate "${PB_TBF_RATE:-20mbit}" \
	burst "${PB_TBF_BURST:-16kb}" limit "${PB_TBF_LIMIT:-32kb}"
