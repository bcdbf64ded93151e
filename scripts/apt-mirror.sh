# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Sourced by scripts/fresh-check.sh and deploy/container/build-image: where this host's apt
# fetches Debian from (its sources in deb822 or one-line form), so that what they bootstrap
# comes from the machine's own registry, as scripts/setup.sh's packages do.
#   pb_apt_mirror SUITE    the mirror for SUITE: the first URI this host's apt fetches SUITE
#                          from, else its first that is not a security archive, else
#                          http://deb.debian.org/debian
#   pb_apt_uri SUITE       the first URI this host's apt fetches SUITE from, or nothing

pb_apt_uri() {
	{
		awk -v s="$1" 'BEGIN { RS = "" } /(^|\n)Types:[^\n]*deb( |\n|$)/ {
			u = ""; ok = 0
			n = split($0, l, "\n")
			for (i = 1; i <= n; i++) {
				if (l[i] ~ /^URIs:/) { split(l[i], w, " "); u = w[2] }
				if (l[i] ~ /^Suites:/) { m = split(l[i], w, " "); for (j = 2; j <= m; j++) if (w[j] == s) ok = 1 }
			}
			if (ok && u != "") print u
		}' /etc/apt/sources.list.d/*.sources 2>/dev/null
		sed -n "s/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) $1 .*/\2/p" \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
	} | head -1
}

pb_apt_mirror() {
	local m
	m=$(pb_apt_uri "$1")
	[ -n "$m" ] || m=$(sed -n 's/^URIs: *//p; s/^deb \(\[[^]]*\] \)\{0,1\}\(http[^ ]*\) .*/\2/p' \
		/etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | grep -v security | head -1)
	echo "${m:-http://deb.debian.org/debian}"
}
