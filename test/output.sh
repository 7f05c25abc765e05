# -o's target, sourced by test/run.sh (uses test/lib.sh, PROF, TMP): a
# regular file is replaced by rename, through its symlinks, and keeps its
# mode; a device, a FIFO, /dev/fd/N and /dev/stdout are written in place,
# as `cat > FILE` writes them, and stay what they were. Device nodes are
# made with mknod in a scratch directory, never in /dev, which takes root.
# Rprof round-trips byte for byte, so the bytes written are the sample's.
sample=testdata/rprof/kmeans-default.out
out=$TMP/output
mkdir "$out"
no_temporaries() { ! ls -A "$1" | grep -q 'prof-'; }
mode_of() { ls -ld "$1" | cut -c 1-10; }
inode_of() { ls -di "$1" | awk '{ print $1 }'; }

# Regular files: replaced whole, beside the file a link chain ends at.
kept_mode() {
	rm -f "$out/mode.out" && printf 'old\n' > "$out/mode.out" && chmod 640 "$out/mode.out" &&
		says_nothing sh -c 'umask 022 && exec "$@"' - "$PROF" -o "$out/mode.out" "$sample" &&
		cmp -s "$out/mode.out" "$sample" && [ "$(mode_of "$out/mode.out")" = -rw-r----- ] &&
		no_temporaries "$out"
}
check "an existing file keeps its mode (0640 under umask 022)" kept_mode
mkdir "$out/l"
link_stays() {
	rm -f "$out/l/"* && printf 'old\n' > "$out/l/target.out" && ln -s target.out "$out/l/link.out" &&
		says_nothing "$PROF" -o "$out/l/link.out" "$sample" &&
		[ -L "$out/l/link.out" ] && [ "$(readlink "$out/l/link.out")" = target.out ] &&
		cmp -s "$out/l/target.out" "$sample" && no_temporaries "$out/l"
}
check "a symlink stays a link, and its target gets the output" link_stays
mkdir "$out/c" "$out/c/a" "$out/c/b" "$out/c/d"
# Relative links, each from its own directory.
chain_stays() {
	rm -f "$out/c/a/"* "$out/c/b/"* "$out/c/d/"* && printf 'old\n' > "$out/c/d/file.out" &&
		ln -s ../b/second.out "$out/c/a/first.out" && ln -s ../d/file.out "$out/c/b/second.out" &&
		says_nothing "$PROF" -o "$out/c/a/first.out" "$sample" &&
		[ "$(readlink "$out/c/a/first.out")" = ../b/second.out ] &&
		[ "$(readlink "$out/c/b/second.out")" = ../d/file.out ] &&
		cmp -s "$out/c/d/file.out" "$sample" &&
		no_temporaries "$out/c/a" && no_temporaries "$out/c/b" && no_temporaries "$out/c/d"
}
check "a chain of relative symlinks stays, and its last file gets the output" chain_stays
mkdir "$out/g" "$out/g/a" "$out/g/b"
dangling_made() {
	rm -f "$out/g/a/"* "$out/g/b/"* && ln -s ../b/new.out "$out/g/a/link.out" &&
		says_nothing "$PROF" -o "$out/g/a/link.out" "$sample" &&
		[ "$(readlink "$out/g/a/link.out")" = ../b/new.out ] && cmp -s "$out/g/b/new.out" "$sample" &&
		no_temporaries "$out/g/a" && no_temporaries "$out/g/b"
}
check "a dangling symlink stays, and the file it names is made" dangling_made
looping() {
	ln -s loop2.out "$out/loop1.out" && ln -s loop1.out "$out/loop2.out" &&
		says 1 "loop1.out: cannot create: Too many levels of symbolic links" "$PROF" -o "$out/loop1.out" "$sample" &&
		[ -L "$out/loop1.out" ] && [ -L "$out/loop2.out" ] && no_temporaries "$out"
}
check "a loop of symlinks says so, and stays" looping

# In place: FIFOs, descriptors, devices.
mkfifo "$out/fifo"
fifo_reader_gets_all() {
	timeout 20 cat "$out/fifo" > "$out/fifo.got" &
	reader=$!
	says_nothing "$PROF" -o "$out/fifo" -t rprof "$sample"
	wrote=$?
	# A FIFO renamed away leaves its reader waiting for a writer that never comes.
	[ -p "$out/fifo" ] || kill "$reader"
	wait "$reader" && [ "$wrote" -eq 0 ] && [ -p "$out/fifo" ] && cmp -s "$out/fifo.got" "$sample" &&
		no_temporaries "$out"
}
check "a FIFO stays a FIFO, and its reader gets the whole output" fifo_reader_gets_all
# sh has no process substitution: fd 3 is a pipe's end, named /dev/fd/3.
descriptor_pipe() {
	{ "$PROF" -t rprof -o /dev/fd/3 "$sample" 3>&1 > "$out/fd.out" 2> "$TMP/cli.err"
	  echo $? > "$out/fd.status"; } | cat > "$out/fd.got"
	[ "$(cat "$out/fd.status")" -eq 0 ] && [ ! -s "$TMP/cli.err" ] && [ ! -s "$out/fd.out" ] &&
		cmp -s "$out/fd.got" "$sample"
}
check "-o /dev/fd/3 onto a pipe writes the pipe" descriptor_pipe
if command -v bash > /dev/null; then
	substituted() {
		rm -f "$out/sub.got"
		says_nothing bash -c '"$1" -t rprof -o >(cat > "$2") "$3"; wrote=$?; wait $!; exit $wrote' \
			- "$PROF" "$out/sub.got" "$sample" && cmp -s "$out/sub.got" "$sample"
	}
	check "-o >(cat > FILE), bash's process substitution" substituted
fi
# Standard output opened on a file without emptying it (1<>): the file is
# emptied and written in place, as `>` would, so a second name for it
# (a hard link) sees the bytes, and its inode is the one it was.
stdout_in_place() { # PATH: a path that leads to standard output
	cat "$sample" "$sample" > "$out/stdout.file" && ln -f "$out/stdout.file" "$out/stdout.alias" &&
		before=$(inode_of "$out/stdout.file") &&
		"$PROF" -t rprof -o "$1" "$sample" 1<> "$out/stdout.file" 2> "$TMP/cli.err" &&
		[ ! -s "$TMP/cli.err" ] && cmp -s "$out/stdout.alias" "$sample" &&
		[ "$(inode_of "$out/stdout.file")" = "$before" ] && no_temporaries "$out"
}
# As /dev/stdout is: a plain link to /proc/self/fd/1. Tried first, so that
# a prof that would replace the link never gets at the machine's /dev/stdout.
ln -s /proc/self/fd/1 "$out/stdout"
if stdout_in_place "$out/stdout"; then
	pass
	check "-o /dev/stdout on a file writes that file in place" stdout_in_place /dev/stdout
	check "... and /dev/fd/1" stdout_in_place /dev/fd/1
else
	fail "-o a link to /proc/self/fd/1 on a file writes that file in place, and the link stays"
fi

if mknod "$out/null" c 1 3 2> /dev/null && mknod "$out/full" c 1 7; then
	null_stays() { # PATH: leads to $out/null
		says_nothing "$PROF" -t rprof -o "$1" "$sample" && [ -c "$out/null" ] &&
			printf 'more\n' > "$out/null" && [ "$(wc -c < "$out/null")" -eq 0 ] && no_temporaries "$out"
	}
	check "a copy of /dev/null stays a character device that takes writes and reads empty" null_stays "$out/null"
	ln -s null "$out/to-null"
	linked_null_stays() { null_stays "$out/to-null" && [ -L "$out/to-null" ]; }
	check "... also through a symlink, which stays" linked_null_stays
	full_says() {
		says 1 "^prof: $out/full: write error: No space left on device$" "$PROF" -t rprof -o "$out/full" "$sample" &&
			[ -c "$out/full" ] && no_temporaries "$out"
	}
	check "a copy of /dev/full: exit 1 naming it, and it stays a device" full_says
	# Killed while reading a FIFO with the device open for writing.
	killed_writing_device() {
		rm -f "$out/input"
		mkfifo "$out/input"
		"$PROF" -f rprof -t rprof -o "$out/null" "$out/input" 2> /dev/null &
		pid=$!
		i=0
		until [ -n "$(find "/proc/$pid/fd" -lname "$out/null" 2> /dev/null)" ] || [ $i -ge 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -TERM "$pid"
		wait "$pid" 2> /dev/null
		[ $? -eq 143 ] && [ $i -lt 100 ] && [ -c "$out/null" ] && no_temporaries "$out"
	}
	check "SIGTERM with a device open for -o leaves the device" killed_writing_device
else
	skipped=$((skipped + 5)) # mknod takes root
fi
