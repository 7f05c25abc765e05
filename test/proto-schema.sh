#!/bin/sh
# Checks nanopb_gen/profile.proto against pprof's own schema as Debian ships
# it (golang-github-google-pprof-dev): every canonical field must be ours
# with the same message, type, name and number. Ours may add only the
# fields newer than Debian's copy: Profile.doc_url and Line.column.
set -u
canonical=${1:-/usr/share/gocode/src/github.com/google/pprof/proto/profile.proto}
ours=$(dirname "$0")/../nanopb_gen/profile.proto
fields() { # "Message repeated? type name number", one per line
	sed 's|//.*||' "$1" | awk '
		/^[ \t]*message[ \t]/ { msg = $2 }
		/=[ \t]*[0-9]+[ \t]*;/ && msg != "" {
			sub(/;.*/, ""); sub(/=/, " = ")
			n = split($0, w, /[ \t]+/); line = msg
			for (i = 1; i <= n; i++) if (w[i] != "" && w[i] != "=") line = line " " w[i]
			print line
		}' | sort
}
[ -f "$canonical" ] || { echo "no canonical schema at $canonical"; exit 1; }
fields "$canonical" > "${TMPDIR:-/tmp}/canonical.$$"
fields "$ours" | grep -v -e '^Profile int64 doc_url 15$' -e '^Line int64 column 3$' > "${TMPDIR:-/tmp}/ours.$$"
diff "${TMPDIR:-/tmp}/canonical.$$" "${TMPDIR:-/tmp}/ours.$$"
status=$?
rm -f "${TMPDIR:-/tmp}/canonical.$$" "${TMPDIR:-/tmp}/ours.$$"
exit $status
