# DTrace, SystemTap and bpftrace stack aggregations (-f dtrace), sourced by
# test/run.sh (uses test/lib.sh, PROF, TMP). The inputs: bpftrace's maps
# recorded here (testdata/dtrace/, test/make-dtrace-samples.sh), and files
# made below in the shapes DTrace on macOS and Windows and SystemTap print
# (docs/formats/dtrace.md; neither runs here). Each is judged by awk's
# reading of the collapsers' rules as docs/formats/dtrace.md states them
# (CI's cross-check holds FlameGraph's own example to stackcollapse.pl's
# output); the addresses by go tool pprof.
DTRACE=testdata/dtrace
prints_line() { # LINE COMMAND...: exit 0, and LINE alone on stdout
	expected=$1; shift
	status_is 0 "$@" && printf '%s\n' "$expected" | cmp -s - "$TMP/cli.out"
}

# awk's reading: "root;...;leaf COUNT" per stack, summed, sorted; stacks
# with no frame left out (no folded line holds them). Frames are named by
# the dialect's collapser: bpftrace's when a line starts a map's key,
# SystemTap's when the first frame is "0x... : ", else stackcollapse.pl's.
dtrace_reference() { # FILE
	if LC_ALL=C grep -q '^@[A-Za-z_0-9]*\[' "$1"; then dialect=bpftrace; else dialect=stacks; fi
	LC_ALL=C awk -v dialect="$dialect" '
		function unblank(s) { sub(/^[ \t\r\f\v]+/, "", s); return s }
		function before_last_plus(s) { if (match(s, /\+[^+]*$/)) s = substr(s, 1, RSTART - 1); return s }
		function push(f) { stack = n++ ? f ";" stack : f }
		function dtrace_frame(f,   i, rest, k, parts, line) {
			f = before_last_plus(unblank(f))
			if ((i = index(f, "::")) > 0 && match(rest = substr(f, i + 2), /[(<][^(<]*$/))
				f = substr(f, 1, i + RSTART)
			if (f == "") f = "-"
			k = split(f, parts, "->")
			while (k > 0 && parts[k] == "") k--
			line = ""
			for (i = 1; i <= k; i++) {
				gsub(/;/, ":", parts[i]); sub(/^L/, "", parts[i])
				line = line (i > 1 ? ";" : "") parts[i] (i > 1 ? "_[i]" : "")
			}
			if (k) push(line)
		}
		function stap_frame(f) {
			f = before_last_plus(unblank(f))
			if (match(f, /.* : /)) f = substr(f, RSTART + RLENGTH)
			push(f == "" ? "-" : f)
		}
		function count(c) { if (n) sum[stack] += c; stack = ""; n = 0 }
		function is_header(s) {
			return s ~ /^[ \t]*CPU[ \t]+ID[ \t]+FUNCTION:NAME[ \t\r]*$/ ||
				s ~ /^[ \t]*[0-9]+[ \t]+[0-9]+[ \t]+[^ \t]*:[^ \t]*[^: \t][ \t\r]*$/
		}
		dialect == "stacks" {
			if ($0 ~ /^[ \t\r\f\v]*[0-9]+\r?$/) { sub(/\r$/, ""); count($1 + 0); next }
			if ($0 ~ /^[ \t\r\f\v]*$/ || (n == 0 && stap != 1 && is_header($0))) next
			sub(/\r$/, "")
			if (stap == "") stap = $0 ~ /^[ \t\r\f\v]*0x[0-9a-fA-F]+ : /
			if (stap) stap_frame($0); else dtrace_frame($0)
			next
		}
		!inkey && !/^@\[/ { next }
		!inkey { inkey = 1; $0 = substr($0, 3); if ($0 == "") next }
		match($0, /^,?[ \t\r\f\v]?.*\]: [0-9]+/) {
			text = substr($0, 1, RLENGTH); c = text; sub(/.*\]: /, "", c)
			sub(/^,?[ \t\r\f\v]?/, "", text); sub(/\]: [0-9]+$/, "", text)
			if (text != "") push(text)
			count(c + 0); inkey = 0; next
		}
		/^,/ { f = unblank(substr($0, 2)); sub(/[ \t\r\f\v,]+$/, "", f); if (f != "") push(f); next }
		{ push(unblank($0)) }
		END { for (s in sum) print s, sum[s] }' "$1" | LC_ALL=C sort
}
folds_as_reference() { # FILE: prof's folded stacks, summed, are awk's
	dtrace_reference "$1" > "$TMP/dtrace.want" && [ -s "$TMP/dtrace.want" ] &&
		"$PROF" -q -t folded "$1" | LC_ALL=C awk '{ c = $NF; sub(/ [0-9]+$/, ""); sum[$0] += c }
			END { for (s in sum) print s, sum[s] }' | LC_ALL=C sort | cmp -s - "$TMP/dtrace.want"
}

# DTrace on macOS: its header block three times (each "CPU ID
# FUNCTION:NAME", then the probe that fired), C++ frames, a symbol cut
# at a byte that is not UTF-8, an unsymbolized address, inlined frames
# ("a->b"), a module starting with L, a frame with no offset, and an
# empty user stack (a kernel thread's).
{
	for _ in 1 2 3; do printf 'CPU     ID                    FUNCTION:NAME\n  1  4851                        :tick-60s \n\n'; done
	printf '              libsystem_kernel.dylib`__psynch_cvwait+0xa\n'
	printf '              libc++.1.dylib`std::__1::basic_string<char>::append(char const*)+0x2c\n'
	printf '              Foundation`-[NSThread main]+0x30\n'
	printf '              prog`_ZN4absl12lts_2023080213flat_hash_setINS_\337+0x1c\n'
	printf '              prog`outer->middle->inner+0x3\n'
	printf '              Lua`LuaCall(lua_State*, int)+0x10\n'
	printf '              0x18bc3a010\n'
	printf '              dyld`start\n              12\n\n'
	printf '              libsystem_kernel.dylib`__psynch_cvwait+0xa\n              dyld`start\n              30\n\n'
	printf '\n              4\n\n'
} > "$TMP/macos.stacks"
# DTrace on Windows: tab-indented, CR LF, upper-case offsets, and a
# kernel stack then (after a blank line) the user stack, @[stack(), ustack()].
printf '\tnt!KiIdleLoop+0x3A\r\n\tnt!KiSystemStartup+0x2F\r\n\r\n\tntdll`RtlFreeHeap+0xA\r\n\tntdll`RtlUserThreadStart+0x21\r\n\t7\r\n\r\n' > "$TMP/windows.stacks"
# SystemTap: print_backtrace()'s frames, a tab-indented count.
printf ' 0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]\n 0xffffffff8101c6a3 : default_idle+0x53/0x1d0 [kernel]\n 0xffffffff81013236 : cpu_idle+0xd6/0x120 [kernel]\n\t2404\n 0xffffffff8101c6a3 : default_idle+0x53/0x1d0 [kernel]\n\t3\n' > "$TMP/stap.stacks"
# bpftrace: a one-line key "@[, x]", a key whose parts are a stack, a
# command printed on a separator line, and another stack, and a named map.
printf 'Attaching 1 probe...\n\n\n@[, swapper/0]: 5\n@[\n    do_idle+5\n, sh, \n    main+9\n    __libc_start_call_main+122\n]: 2\n@hist[\n    do_idle+5\n]: 1\n' > "$TMP/maps.bpftrace"

for f in "$DTRACE"/*.bpftrace testdata/any-bytes/dtrace.stacks "$TMP/macos.stacks" "$TMP/windows.stacks" \
	"$TMP/stap.stacks" "$TMP/maps.bpftrace"; do
	check "$f sniffed as dtrace" prints 0 'valid dtrace profile' "$PROF" --check "$f"
	check "$f: folded as the collapsers' rules fold it" folds_as_reference "$f"
done

# The names on files made here, as the rules give them (awk checks every
# file above; these say the rules awk and prof share are the right ones).
check "C++ arguments, inlined parts, Java's L and the cut byte, as stackcollapse.pl names them" prints_line \
	"dyld\`start;0x18bc3a010;ua\`LuaCall(lua_State*, int);prog\`outer;middle_[i];inner_[i];prog\`_ZN4absl12lts_2023080213flat_hash_setINS_$(printf '\337');Foundation\`-[NSThread main];libc++.1.dylib\`std::__1::basic_string<char>::append;libsystem_kernel.dylib\`__psynch_cvwait 12" \
	sh -c '"$1" -q -t folded "$2" | head -n 1' - "$PROF" "$TMP/macos.stacks"
check "Windows: the user stack under the kernel's, CR LF taken off" prints_line \
	'ntdll`RtlUserThreadStart;ntdll`RtlFreeHeap;nt!KiSystemStartup;nt!KiIdleLoop 7' "$PROF" -t folded "$TMP/windows.stacks"
check "bpftrace: the key's last part the root, separator lines no frames" prints_line \
	'__libc_start_call_main+122;main+9;sh;do_idle+5 2' sh -c '"$1" -q -t folded "$2" | sed -n 2p' - "$PROF" "$TMP/maps.bpftrace"
check "bpftrace: named maps left out, with a warning" says 0 \
	"warning: 1 entries of named maps (@NAME\[...\]) left out" "$PROF" -t folded "$TMP/maps.bpftrace"
check "an empty stack is kept: the folded writer says it leaves it out" says 0 \
	'1 samples with an empty stack left out' "$PROF" -t folded "$TMP/macos.stacks"

# Offsets and addresses as the locations' addresses, as go tool pprof shows them.
shows_address() { # FILE ADDRESS NAME: a location at ADDRESS named NAME in go tool pprof -raw
	"$PROF" -q -t pprof -o "$TMP/dtrace.pb.gz" "$1" &&
		go tool pprof -raw "$TMP/dtrace.pb.gz" 2> /dev/null | grep -qF ": $2 M=" &&
		go tool pprof -raw "$TMP/dtrace.pb.gz" 2> /dev/null | grep -q "^ *[0-9]*: $2 .* $3 "
}
heavy "Windows' upper-case offset +0xA is the address 0xa" shows_address "$TMP/windows.stacks" 0xa 'ntdll`RtlFreeHeap'
heavy "an unsymbolized frame's address" shows_address "$TMP/macos.stacks" 0x18bc3a010 0x18bc3a010
heavy "SystemTap's address, not its offset" shows_address "$TMP/stap.stacks" 0xffffffff8103ce3b native_safe_halt
heavy "bpftrace's decimal offset +122" shows_address "$TMP/maps.bpftrace" 0x7a '__libc_start_call_main+122'

# A stack cut off before its count: left out, as the collapsers do, with a warning naming where it began.
printf '  unix`i86_mwait+0xd\n  3\n  unix`idle+0x114\n' > "$TMP/cut.stacks"
check "a stack with no count at the end is left out, with a warning at its first line" says 0 \
	"cut.stacks:3: warning: a stack with no count at the end" "$PROF" -t folded "$TMP/cut.stacks"
check "... the stacks before it kept" prints_line 'unix`i86_mwait 3' "$PROF" -q -t folded "$TMP/cut.stacks"
