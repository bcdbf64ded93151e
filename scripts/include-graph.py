#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints which part (top-level folder) of pktbench includes which, from the sources, and
checks the layout docs/architecture.md describes. Exits 1 when:
  - the folders' includes form a cycle;
  - two files include each other, counting a header and the .c of the same name in the
    same folder as one file (x.c and x.h), or any longer cycle of such files;
  - the engine (harness/) includes anything outside itself but bpf/ (it reaches the
    receive side through harness/rx_source.h alone, the fleet through harness/fleet_door.h,
    and nothing above it);
  - a folder holds more than a third of the lines.
Usage: scripts/include-graph.py [SOURCE_DIR]  (default: the checkout this script is in)"""
import os
import re
import sys

# The parts, and what each may include besides itself (bottom to top). A folder not listed
# here is not a part (tests/, scripts/, ...) and is neither read nor counted.
PARTS = ["bpf", "harness", "fleet", "methods", "replay", "lab", "options", "results", "receiver", "suites", "cli",
         "dist"]
ENGINE, ENGINE_MAY = "harness", {"bpf"}
# Headers the build writes: a BPF program's skeleton belongs to bpf/; the version to the build.
GENERATED = [(re.compile(r".*\.skel\.h$"), "bpf"), (re.compile(r"^pb_version\.h$"), None)]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    for part in PARTS:
        d = os.path.join(root, part)
        for dirpath, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield part, os.path.relpath(os.path.join(dirpath, f), root)


def module(path):
    """x.c and x.h in one folder are one file of the graph."""
    return os.path.splitext(path)[0]


def find_cycle(graph):
    """One cycle of the directed graph {node: set(nodes)} as a list, or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if not state.get(m):
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if not state.get(n):
            c = visit(n)
            if c:
                return c
    return None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    files = list(sources(root))
    by_name, lines, problems = {}, {p: 0 for p in PARTS}, []
    for part, path in files:
        by_name.setdefault(os.path.basename(path), []).append((part, path))
    folders, mods, edges = {p: set() for p in PARTS}, {}, {}
    for part, path in files:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines[part] += text.count("\n")
        mods.setdefault(module(path), set())
        for inc in INCLUDE.findall(text):
            name = os.path.basename(inc)
            gen = [p for rx, p in GENERATED if rx.match(name)]
            hits = by_name.get(name, [])
            if gen:
                if not gen[0]:
                    continue
                tpart, tpath = gen[0], os.path.join(gen[0], name)
            elif len(hits) == 1:
                tpart, tpath = hits[0]
            else:
                why = "ambiguous" if hits else "not a file of any part"
                problems.append(f'{path}: #include "{inc}" is {why}')
                continue
            if module(tpath) != module(path):
                mods[module(path)].add(module(tpath))
            if tpart == part:
                continue
            folders[part].add(tpart)
            edges[(part, tpart)] = edges.get((part, tpart), 0) + 1
            if part == ENGINE and tpart not in ENGINE_MAY:
                problems.append(f"{path}: the engine includes {tpath}")

    total = sum(lines.values())
    print(f"parts: lines (share of {total})")
    for p in PARTS:
        print(f"  {p:9} {lines[p]:6}  {100.0 * lines[p] / total:5.1f} %")
        if 3 * lines[p] > total:
            problems.append(f"{p}/ holds {lines[p]} of {total} lines, more than a third")
    print("includes: folder -> folder (how many #include lines)")
    for p in PARTS:
        for q in sorted(folders[p], key=PARTS.index):
            print(f"  {p:9} -> {q:9} {edges[(p, q)]:4}")
    c = find_cycle(folders)
    if c:
        problems.append("the folders' includes form a cycle: " + " -> ".join(c))
    c = find_cycle(mods)
    if c:
        problems.append("files include each other: " + " -> ".join(c))
    for msg in problems:
        print("FAIL: " + msg)
    print("ok: no cycle, the engine includes nothing above it, no folder over a third"
          if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
