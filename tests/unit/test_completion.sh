# SPDX-License-Identifier: MIT
# The generated bash completion completes what the binary has, and the generated man page
# renders without a warning.   tests/unit/test_completion.sh PATH/TO/pktbench
set -u
build=$(cd "$(dirname "$1")" && pwd)
comp=$build/pktbench.bash-completion
man=$build/pktbench.8
T=$(mktemp -d /tmp/pbcomp.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
check() { # check "what" got want
	if [ "$2" = "$3" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: $1: got '$2', want '$3'"
	fi
}
# complete WORDS...: what bash offers for the last word (sorted, one line)
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pktbench
		printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" " -' _ "$comp" "$@"
}

if ! bash -n "$comp"; then
	echo "FAIL: $comp is not valid bash"; exit 1
fi
check "options" "$(complete_words pktbench --meth)" "--method"
check "subcommands" "$(complete_words pktbench co)" "compare"
methods=$("$1" --help | awk '/^Methods/{m=1; next} m && !NF {exit} m {print $1}' | grep '^af_' | sort | paste -sd" " -)
check "methods from the registry" "$(complete_words pktbench --method af_)" "$methods"
check "a method list" "$(complete_words pktbench -m udp_sendto,af_x)" "udp_sendto,af_xdp"
check "enum values" "$(complete_words pktbench --format '')" "csv json table"
check "--opt=value" "$(complete_words pktbench --xdp-mode = n)" "native"
check "a value with nothing to offer" "$(complete_words pktbench --duration '')" ""
check "interfaces" "$(complete_words pktbench --iface lo)" "$(ls /sys/class/net | grep '^lo' | sort | paste -sd' ' -)"
check "sweep kinds" "$(complete_words pktbench --sweep '')" "batch= frame-size= pps= ring= segments= streams="
mkdir -p "$T/dir/sub"
touch "$T/dir/a.yaml" "$T/dir/b.json" "$T/dir/c.txt"
check "--config: YAML files and directories" "$(complete_words pktbench --config "$T/dir/")" \
	"$T/dir/a.yaml $T/dir/sub"
check "--output: any file" "$(complete_words pktbench -o "$T/dir/")" \
	"$T/dir/a.yaml $T/dir/b.json $T/dir/c.txt $T/dir/sub"
check "compare's own options" "$(complete_words pktbench compare base.json --delivered)" \
	"--delivered-tolerance"
check "compare: JSON files" "$(complete_words pktbench compare "$T/dir/")" "$T/dir/b.json $T/dir/sub"
check "compare --normalize: methods" "$(complete_words pktbench compare --normalize udp_s)" \
	"udp_sendto"
check "compare --format" "$(complete_words pktbench compare a b --format '')" "json table"
check "rfc2544 --tests: its tests" "$(complete_words pktbench rfc2544 --tests '')" \
	"back-to-back latency loss throughput"
check "rfc2544 --tests: a list" "$(complete_words pktbench rfc2544 --tests throughput,l)" \
	"throughput,latency throughput,loss"
check "main options are not compare's" "$(complete_words pktbench compare --dur)" ""

# the man page: renders cleanly, with what it must have
if LC_ALL=C MANWIDTH=100 man --warnings -l "$man" >"$T/man.txt" 2>"$T/man.err" && [ ! -s "$T/man.err" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAIL: man -l $man: $(head -c 500 "$T/man.err")"
fi
for want in "PKTBENCH COMPARE" "SCENARIO FILES" "JSON RESULTS" "EXIT STATUS" "--delivered-tolerance" \
	"--method NAME"; do
	check "man page has '$want'" "$(grep -c -- "$want" "$T/man.txt" | sed 's/^[1-9][0-9]*$/yes/')" yes
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
