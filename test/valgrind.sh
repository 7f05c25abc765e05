#!/bin/sh
# Runs prof (or the program given first, when it is not an option or a
# file to read) under valgrind memcheck: any error or leak makes the exit
# status 99, which no test accepts. Used by `make check VALGRIND=1`.
# Inlined frames are left out of its error reports: reading them makes
# each start (most of what the suite costs under valgrind) a fifth slower.
case ${1:-} in
*/unit) program=$1; shift ;;
*) program=${VALGRIND_PROF:-build-valgrind/prof} ;;
esac
# VALGRIND_SEEN=DIR (test/run.sh): a run valgrind has already seen in this
# test run, the same in all prof can read (the program, its arguments, the
# bytes of each argument that names a file, its standard input, its
# environment, limits, directory and what its output goes to), runs
# without it: memcheck would follow the same instructions over the same
# bytes again. A standard input that cannot be read twice (a pipe), or a
# list of inputs (--files-from) prof opens itself, is run under valgrind
# every time.
seen_key() {
	[ ! -p /dev/stdin ] && [ ! -S /dev/stdin ] || return 1
	for arg in "$@"; do
		case $arg in --files-from*) return 1 ;; esac
	done
	{
		printf '%s\n' "$program" "$@" "$ends" "$(pwd)" "$(umask)"
		ulimit -a
		env | LC_ALL=C sort
		[ ! -f /dev/stdin ] || sha1sum < "/proc/$$/fd/0"
		for arg in "$@"; do
			for file in "$arg" "${arg#*=}"; do
				[ ! -f "$file" ] || sha1sum < "$file"
			done
		done
	} | sha1sum | cut -c 1-40
}
if [ -n "${VALGRIND_SEEN:-}" ]; then
	ends=
	for fd in 0 1 2; do
		ends="$ends $(stat -L -c '%F %t:%T' "/proc/$$/fd/$fd")"
		[ ! -t "$fd" ] || ends="$ends tty"
	done
	if key=$(seen_key "$@"); then
		[ ! -e "$VALGRIND_SEEN/$key" ] || exec "$program" "$@"
		: > "$VALGRIND_SEEN/$key"
	fi
fi
exec valgrind -q --read-inline-info=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	--show-leak-kinds=definite,indirect "$program" "$@"
