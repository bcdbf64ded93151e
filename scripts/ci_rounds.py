#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The CI gate's arithmetic (scripts/ci-bench.sh): interleaved rounds of the base and of the
change in, two result sets for `pktbench compare` out; then, from compare's JSON, what the
gate judged and what it did not, one line each.

  ci_rounds.py merge OUT_BASE OUT_NEW --base R1.json ... --new R1.json ...
  ci_rounds.py judged COMPARE.json BASE_DESC      (prints the lines; exit 1 if nothing judged)

Round k of the base and round k of the change ran next to each other on the same CPU, so
the CPU signal is paired: the change's CPU/frame over the base's in the same round, the
median of those ratios. The change's row then carries the base's CPU/frame (the cheapest
of its rounds) times that median, so compare's NEW/BASE is the paired median and its
centring over the rows is unchanged. The rate is the median over the rounds of each
row's rate over udp_sendto's in the same round (compare --normalize then reads it).
A row not ok in some round of a side is that round's row: compare fails it when the change
is the side (a method that failed once fails) and lists it as not judged when the base is.
"""
import json
import statistics
import sys

REF = 'udp_sendto'


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def side_rows(sets):
    """One row per method over a side's rounds; also each method's per-round rows."""
    byname = [{r['method']: r for r in s['results']} for s in sets]
    ref_ok = all(REF in b and b[REF]['status'] == 'ok' and b[REF]['pps'] > 0 for b in byname)
    ref_pps = statistics.median(b[REF]['pps'] for b in byname) if ref_ok else None
    rows, per_round = {}, {}
    for first in sets[0]['results']:
        m = first['method']
        runs = [b.get(m) for b in byname]
        per_round[m] = runs
        bad = [r for r in runs if r is None or r['status'] != 'ok']
        if bad:
            row = dict(next((r for r in bad if r), first))
            row['bad_rounds'] = len(bad)
            rows[m] = row
            continue
        row = dict(sorted(runs, key=lambda r: r['pps'])[len(runs) // 2])
        if ref_ok:
            row['pps'] = statistics.median(r['pps'] / b[REF]['pps']
                                           for r, b in zip(runs, byname)) * ref_pps
        for key in ('syscalls_per_frame', 'delivered_pct', 'accounted_pct'):
            v = [r[key] for r in runs if num(r.get(key))]
            row[key] = statistics.median(v) if len(v) == len(runs) else None
        cpu = [r['cpu_ns_per_pkt'] for r in runs if num(r.get('cpu_ns_per_pkt'))]
        row['cpu_ns_per_pkt'] = min(cpu) if len(cpu) == len(runs) and min(cpu) > 0 else None
        row['interrupted'] = any(r['interrupted'] for r in runs)
        row['timed_out'] = any(r['timed_out'] for r in runs)
        row['runs'] = len(runs)
        row['pps_min'] = row['pps_max'] = None  # the median decides, not the runs' overlap
        rows[m] = row
    return rows, per_round


def paired_cpu(base_runs, new_runs):
    """Median over rounds of NEW/BASE CPU per frame, rounds paired; None if any is missing."""
    ratios = []
    for b, n in zip(base_runs, new_runs):
        if not (b and n and num(b.get('cpu_ns_per_pkt')) and num(n.get('cpu_ns_per_pkt'))):
            return None
        if b['cpu_ns_per_pkt'] <= 0 or n['cpu_ns_per_pkt'] <= 0:
            return None
        ratios.append(n['cpu_ns_per_pkt'] / b['cpu_ns_per_pkt'])
    return statistics.median(ratios) if ratios else None


def merge(argv):
    out_base, out_new = argv[0], argv[1]
    i = argv.index('--new')
    base_paths, new_paths = argv[argv.index('--base') + 1:i], argv[i + 1:]
    if not base_paths or len(base_paths) != len(new_paths):
        print('ci_rounds: as many base rounds as new ones, at least one', file=sys.stderr)
        return 2
    base_sets = [json.load(open(p)) for p in base_paths]
    new_sets = [json.load(open(p)) for p in new_paths]
    brows, bruns = side_rows(base_sets)
    nrows, nruns = side_rows(new_sets)
    for m, row in nrows.items():
        b = brows.get(m)
        if row['status'] != 'ok' or not b or b['status'] != 'ok':
            continue
        ratio = paired_cpu(bruns[m], nruns[m])
        if ratio is not None and b.get('cpu_ns_per_pkt'):
            row['cpu_ns_per_pkt'] = b['cpu_ns_per_pkt'] * ratio
            row['cpu_paired_ratio'] = ratio
        else:
            row['cpu_ns_per_pkt'] = None
    for sets, rows, path, what in ((base_sets, brows, out_base, 'base'),
                                   (new_sets, nrows, out_new, 'change')):
        res = dict(sets[0])
        res['command'] = 'scripts/ci-bench.sh: the %s, %d rounds interleaved with the %s\'s: %s' % (
            what, len(sets), 'change' if what == 'base' else 'base', sets[0]['command'])
        res['rounds'] = len(sets)
        res['results'] = [rows[r['method']] for r in sets[0]['results']]
        with open(path, 'w') as f:
            json.dump(res, f, indent=1)
    return 0


def judged(argv):
    """What the comparison judged, and every way it judged less than everything."""
    d = json.load(open(argv[0]))
    base_desc = argv[1]
    rows = d.get('rows') or []
    lines, n_judged = [], 0
    for r in rows:
        m = r['method']
        if r['base_status'] != 'ok':
            lines.append('NOT JUDGED %s: %s in the base (%s)' % (
                m, r['base_status'] or 'missing', r.get('base_reason') or r.get('detail') or
                'no reason'))
            continue
        if r['verdict'] in ('missing_in_new', 'not_ok_in_new', 'interrupted'):
            n_judged += 1  # judged, and failed: compare says so in its table
            continue
        if r.get('ratio') is None and r['verdict'] != 'reference':
            lines.append('NOT JUDGED %s: no rate to compare (%s)' % (m, r.get('detail')))
            continue
        n_judged += 1
        if r.get('cpu_ratio') is None:
            lines.append('CPU NOT JUDGED %s: no CPU/frame in every round of both sides' % m)
        if r.get('base_syscalls_per_frame') is None or r.get('new_syscalls_per_frame') is None:
            lines.append('SYSCALLS NOT JUDGED %s: not counted in every round' % m)
    if d.get('cpu_centre') is None:
        lines.append('CPU NOT JUDGED for any row: too few rows with CPU/frame for a centre')
    for k in ('cpu_centre_batched', 'cpu_centre_per_call'):
        if d.get('cpu_centre') is not None and d.get(k) is None:
            lines.append('CPU of the %s rows judged against all rows\' centre: too few of them' %
                         ('batched' if k.endswith('batched') else 'syscall-per-frame'))
    for ln in lines:
        print('gate: ' + ln)
    print('gate: judged %d of %d rows against %s' % (n_judged, len(rows), base_desc))
    if n_judged == 0:
        print('gate: FAIL: compared nothing')
        return 1
    return 0


if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] == 'merge':
        sys.exit(merge(sys.argv[2:]))
    if len(sys.argv) == 4 and sys.argv[1] == 'judged':
        sys.exit(judged(sys.argv[2:]))
    print(__doc__.split('\n\n')[1], file=sys.stderr)
    sys.exit(2)
