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
exec valgrind -q --read-inline-info=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	--show-leak-kinds=definite,indirect "$program" "$@"
