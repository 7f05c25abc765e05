# The floors, sourced by test/run.sh (uses check): base <- io <- model <-
# render <- formats <- main.c, with nanopb_gen/ (generated, ours to
# include, including nothing of ours) beside base. A file may include
# from its own floor or one below, never from above: each quoted
# #include is resolved to its floor and ranked.
floor_rank() { # DIR: the floor's height, or nothing for a directory that is no floor
	case $1 in
	base | nanopb_gen) echo 0 ;; io) echo 1 ;; model) echo 2 ;; render) echo 3 ;; formats) echo 4 ;; .) echo 5 ;;
	esac
}
includes_up() { # FILE...: prints each include that runs up a floor, or leaves the floors
	for file; do
		own=$(dirname "$file")
		grep -o '^#include "[^"]*"' "$file" | sed 's/^#include "\(.*\)"$/\1/' | while read -r inc; do
			case $inc in
			../*/*) target=${inc#../}; target=${target%%/*} ;;
			*/*) target=$(dirname "$inc") ;;
			*) target=$own ;;
			esac
			rank=$(floor_rank "$target") own_rank=$(floor_rank "$own")
			if [ -z "$rank" ] || [ "$rank" -gt "$own_rank" ]; then
				echo "$file includes $inc"
			fi
		done
	done
}
floors_hold() {
	includes_up main.c base/*.[ch] io/*.[ch] model/*.[ch] render/*.[ch] formats/*.[ch] nanopb_gen/*.[ch] > "$TMP/up"
	[ ! -s "$TMP/up" ] || { cat "$TMP/up"; false; }
}
check "no file includes one from a floor above its own" floors_hold
# The check itself can fail: a render file that includes a format's header.
mkdir -p "$TMP/floors/render"
printf '#include "../formats/format.h"\n' > "$TMP/floors/render/up.h"
check "... and it sees a render file include formats/format.h" \
	[ "$(cd "$TMP/floors" && includes_up render/up.h)" = "render/up.h includes ../formats/format.h" ]
