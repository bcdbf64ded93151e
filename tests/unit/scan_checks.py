# SPDX-License-Identifier: MIT
"""Scans of the test scripts for checks that cannot fail (unit/test_check_vacuous):

  scan_checks.py all FILE...    an all() over a list the same check never tests non-empty
  scan_checks.py setup FILE...  a set-up function whose status is not every step's, or a call
                                of one whose status nobody reads

Each line found is printed as FILE:LINE: why; exit 1 if any. The rules (docs/testing.md):

all: all(... for x in ITER) is True on an empty ITER, so a check of every row passes when
  pktbench wrote none. In the same check (the shell command with its here-documents: the
  python of `json FILE "..."`, of `python3 -c`, of a `<<'PY'` body) ITER must be tested
  non-empty: `len(ITER)`, `ITER and ...`, `not ITER`, or a list over it compared with a
  non-empty literal (`[r['x'] for r in ITER] == ['a', 'b']`). For zip(A, B) each of A, B;
  for enumerate(A), sorted(A), A.values() ... and A[i:], A. A literal with something in it
  needs nothing. A filtered generator (`all(... for r in ITER if ...)`) is refused: the
  filter can leave nothing, so the filtered list is named and tested itself.

setup: a set-up function (named setup, setup_*, *_setup, or one that adds a namespace, link,
  address, route or neighbour with ip) answers for the whole lab: every step (a command,
  not an assignment, local, trap or a loop's and an if's own words) must end in
  `|| return N` (or exit, or skip_cap, which exits), be joined to the next by && or ||, or be the function's last; a
  step inside a loop or an if always needs its `|| return`. set -e does not count: bash
  ignores it in a function called from `&&`, `||`, `!` or `if`, so the status would be the
  last step's again. And a call of a set-up function reads its status: in an `&&`/`||`
  chain, under `if`, or `$?` in the next command (rc=$?, check "..." [ $? = 0 ]).
"""
import re
import sys


def commands(text):
    """The script's commands as (first line, text, here-documents' text): a command ends at a
    newline or `;` outside quotes, $(...), a group after && or || ({ ...; }) and continuations
    (a trailing backslash, &&, || or | joins the next line). Comments are dropped."""
    out, buf, stack, depth, docs = [], [], ["top"], [0], []
    i, n, line, start = 0, len(text), 1, 1

    def end(body=""):
        s = "".join(buf)
        if s.strip() or body.strip():
            out.append((start, s, body))

    while i < n:
        c, ctx = text[i], stack[-1]
        if c == "\\" and ctx != "sq" and i + 1 < n:
            buf.append(text[i:i + 2])
            line += text[i + 1] == "\n"
            i += 2
            continue
        if c == "\n":
            line += 1
        if ctx == "sq":
            if c == "'":
                stack.pop()
        elif ctx == "dq" and c == '"':
            stack.pop()
        elif ctx != "dq" and c in "'\"":
            stack.append("sq" if c == "'" else "dq")
        elif text.startswith("$(", i):
            buf.append("$(")
            stack.append("cmd")
            depth.append(0)
            i += 2
            continue
        elif ctx == "dq":
            pass
        elif c == "#" and (not buf or buf[-1][-1] in " \t\n;(|&"):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif c == "{" and re.search(r"(&&|\|\|)\s*$", "".join(buf)):
            stack.append("grp")  # { ...; } after && or ||: one command with what it follows
        elif ctx == "grp" and c == "}" and (not buf or buf[-1][-1] in " \t\n;"):
            stack.pop()
        elif ctx == "cmd" and c == "(":
            depth[-1] += 1
        elif ctx == "cmd" and c == ")":
            if depth[-1]:
                depth[-1] -= 1
            else:
                stack.pop()
                depth.pop()
        elif text.startswith("<<", i) and not text.startswith("<<<", i):
            m = re.match(r"<<-?\s*(['\"]?)(\w+)\1", text[i:])
            if m:
                docs.append(m.group(2))
                buf.append(m.group(0))
                i += len(m.group(0))
                continue
        elif c == ";" and ctx == "top":
            end()
            buf, start = [], line
            i += 1
            continue
        elif c == "\n" and ctx == "top":
            if not docs and re.search(r"(&&|\|\|?)\s*$", "".join(buf)):
                buf.append(c)  # the command goes on on the next line
                i += 1
                continue
            # the here-documents start on the next line, each up to its word alone on a line
            body = []
            for word in docs:
                while i + 1 < n:
                    j = text.find("\n", i + 1)
                    j = n if j < 0 else j
                    l, i = text[i + 1:j], j
                    line += 1
                    if l.lstrip("\t") == word:
                        break
                    body.append(l)
            end("\n".join(body))
            buf, docs, start = [], [], line
            i += 1
            continue
        buf.append(c)
        i += 1
    end()
    return out


# --- all ------------------------------------------------------------------------------------


def blank_strings(s):
    """s with the insides of python's string literals blanked (same length)."""
    return re.sub(r"'[^'\n]*'|\"[^\"\n]*\"",
                  lambda m: m.group(0)[0] + "_" * (len(m.group(0)) - 2) + m.group(0)[0], s)


def closing(s, i):
    """The index of the bracket closing the one at s[i], python's strings skipped."""
    d, j = 0, i
    while j < len(s):
        if s[j] in "'\"":
            k = s.find(s[j], j + 1)
            j = k if k >= 0 else len(s)
        elif s[j] in "([{":
            d += 1
        elif s[j] in ")]}":
            d -= 1
            if not d:
                return j
        j += 1
    return len(s)


def top_level(s, pattern):
    """The (start, end) of pattern's matches in s outside brackets and strings."""
    b, d, found = blank_strings(s), 0, []
    for i, ch in enumerate(b):
        if ch in "([{":
            d += 1
        elif ch in ")]}":
            d -= 1
        elif not d:
            m = re.match(pattern, b[i:])
            if m:
                found.append((i, i + m.end()))
    return found


def literal(it):
    """A literal tuple, list or set with something in it, or a sum with one: never empty."""
    it = it.strip()
    cuts = [0] + [e for _, e in top_level(it, r"\+")] + [len(it) + 1]
    if len(cuts) > 2:
        return any(literal(it[a:b - 1]) for a, b in zip(cuts, cuts[1:]))
    return bool(re.match(r"[(\[{]\s*[^\s)\]}]", it)) and closing(it, 0) == len(it) - 1 and \
        not top_level(it[1:-1], r"\sfor\s")


def bases(it):
    """What must be non-empty for it to be: each argument of zip, the argument of enumerate,
    sorted, list..., X of X.values(), X.items(), X.keys(), X[i:]; else it itself."""
    it = it.strip()
    m = re.fullmatch(r"(zip|enumerate|sorted|list|reversed|tuple|set)\((.*)\)", it, re.S)
    if m and closing(it, len(m.group(1))) == len(it) - 1:
        arg = m.group(2)
        cuts = [0] + [e for _, e in top_level(arg, r",")] + [len(arg) + 1]
        args = [arg[a:b - 1].strip() for a, b in zip(cuts, cuts[1:])]
        return [x for a in (args if m.group(1) == "zip" else args[:1]) for x in bases(a)]
    m = re.fullmatch(r"(.*)\.(values|items|keys)\(\)", it, re.S) or \
        re.fullmatch(r"(.*)\[[^\]]*:[^\]]*\]", it, re.S)
    return bases(m.group(1)) if m else [it]


def tested(check, b):
    """Does the check test b non-empty: len(b), b and ..., not b, [... for v in b] == [x...]?"""
    e = r"\s*".join(re.escape(t) for t in b.split())
    return bool(re.search(r"\blen\(\s*" + e + r"\s*\)", check) or
                re.search(r"(?<![\w.'\"\])])" + e + r"\s+and\b", check) or
                re.search(r"\bnot\s+" + e + r"(?![\w.(\[])", check) or
                re.search(r"\sin\s+" + e + r"\s*\]\s*==\s*[\[(]\s*[^\s\])]", check))


def vacuous(check, arg):
    """Why all(arg) in check could pass on nothing: each reason."""
    clauses = top_level(arg, r"\s(for|if)\s")
    its = [arg] if not clauses else []
    for k, (a, e) in enumerate(clauses):
        end = clauses[k + 1][0] if k + 1 < len(clauses) else len(arg)
        if arg[a:e].strip() == "if":
            yield "all() over a filtered list (name the list it filters to and test it non-empty)"
            continue
        m = re.search(r"\sin\s", blank_strings(arg[e:end]))
        its.append(arg[e + m.end():end] if m else arg[e:end])
    for it in its:
        if literal(it):
            continue
        for b in bases(it):
            if not literal(b) and not tested(check, b):
                yield "all() over %s, never tested non-empty in this check (len(%s) ...)" % (b, b)


def scan_all(path):
    for line, cmd, body in commands(open(path, errors="replace").read()):
        check = cmd + "\n" + body
        for m in re.finditer(r"(?<![\w.])all\(", check):
            for why in vacuous(check, check[m.end():closing(check, m.end() - 1)]):
                yield line, why


# --- setup ----------------------------------------------------------------------------------

HEAD = re.compile(r"^(\s*)(?:function\s+)?([A-Za-z_]\w*)\s*\(\)\s*([{(])(.*)$")
LAB = re.compile(r"\bip\b(\s+-\S+(\s+[^-\s]\S*)?)*\s+(netns|link|addr|address|route|neigh)\s+add\b")


def functions(text):
    """The script's functions as (name, first line of the body, body text)."""
    lines = text.split("\n")
    for k, l in enumerate(lines):
        m = HEAD.match(l)
        if not m:
            continue
        indent, name, brace, rest = m.groups()
        close = "}" if brace == "{" else ")"
        if rest.rstrip().endswith(close) and rest.strip() != "":  # on one line
            yield name, k + 1, rest.rstrip()[:-1]
            continue
        for j in range(k + 1, len(lines)):
            if re.match(re.escape(indent) + re.escape(close) + r"\s*$", lines[j]):
                yield name, k + 2, "\n".join(lines[k + 1:j])
                break


def is_setup(name, body):
    return bool(re.fullmatch(r"setup|setup_\w+|\w+_setup", name) or LAB.search(body))


OPEN = re.compile(r"(for|while|until|if|case|select)\s")
CLOSE = re.compile(r"(done|fi|esac)\b")
QUIET = re.compile(r"(local|declare|export|readonly|trap|shift|:|true|set)(\s|$)")


def steps(body):
    """The body's statements as (line, text, nesting): its loops' and ifs' own words
    (for ...; do, then, else, done, fi) are not statements; what follows them on a line is."""
    nest = 0
    for line, cmd, _ in commands(body):
        s = cmd.strip()
        while True:
            m = re.match(r"(do|then|else|\{)\s+", s + " ")
            if not m or not s:
                break
            s = s[m.end():].strip()
        if not s or s in ("do", "then", "else", "{", "}"):
            continue
        if OPEN.match(s) or s.startswith("elif "):
            nest += not s.startswith("elif ")
            continue
        if CLOSE.match(s):
            nest -= 1
            continue
        yield line, s, nest


def quiet(s):
    """A statement that is no step of a lab: an assignment or local with no command in it,
    trap, shift, set."""
    if "$(" in s or "`" in s:
        return False
    return bool(QUIET.match(s) or re.fullmatch(r"(\w+(\[[^\]]*\])?\+?=\S*\s*)+", s))


def unquoted(s):
    return re.sub(r"'[^']*'|\"(\\.|[^\"\\])*\"", "''", s)


def guarded(s):
    """Does the statement give up when it fails: ... || return [N], || exit [N], || { ...; },
    || skip_cap ... (which exits)?"""
    return bool(re.search(r"\|\|\s*(return|exit)(\s+\S+)?\s*$", s) or
                re.search(r"\|\|\s*skip_cap\s", s) or
                re.search(r"\|\|\s*\{[^{}]*\b(return|exit)\b[^{}]*\}\s*$", s, re.S))


def scan_setup_defs(path, text):
    for name, first, body in functions(text):
        if not is_setup(name, body):
            continue
        if re.match(r"\s*set\s+-\w*e", body):
            yield first, "set-up function %s: set -e is ignored when it is called from &&, ||, ! or if" % name
        st = list(steps(body))
        for k, (line, s, nest) in enumerate(st):
            last = k == len(st) - 1 and nest == 0
            if quiet(s) or guarded(s) or last:
                continue
            yield first + line - 1, "set-up function %s: a step whose failure is lost (end it in || return 1): %s" % (
                name, " ".join(s.split())[:90])


def scan_setup_calls(path, text, names):
    cmds = commands(text)
    for k, (line, cmd, _) in enumerate(cmds):
        s = cmd.strip()
        words = re.match(r"(!\s+|if\s+|while\s+|until\s+)?([A-Za-z_]\w*)\b", s)
        if not words or words.group(2) not in names or HEAD.match(s):
            continue
        if words.group(1) or re.search(r"&&|\|\|", unquoted(s)):
            continue
        nxt = cmds[k + 1][1] if k + 1 < len(cmds) else ""
        if "$?" in nxt:
            continue
        yield line, "set-up function %s called, its status never read (rc=$? next, or || ...)" % words.group(2)


def main(argv):
    what, files = argv[1], argv[2:]
    found = []
    if what == "all":
        for f in files:
            found += [(f, l, w) for l, w in scan_all(f)]
    elif what == "setup":
        texts = {f: open(f, errors="replace").read() for f in files}
        names = {n for t in texts.values() for n, _, b in functions(t) if is_setup(n, b)}
        for f, t in texts.items():
            found += [(f, l, w) for l, w in scan_setup_defs(f, t)]
            found += [(f, l, w) for l, w in scan_setup_calls(f, t, names)]
    else:
        sys.exit("usage: scan_checks.py all|setup FILE...")
    for f, l, w in sorted(set(found)):
        print("%s:%d: %s" % (f, l, w))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
