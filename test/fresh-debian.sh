#!/bin/sh
# Proves README.md true on a fresh Debian 12: builds a minimal bookworm
# root with debootstrap, clones this repository into it at REF (default:
# the HEAD of the checkout this script is in; uncommitted changes are not
# taken), and runs, as root inside that root, README's two commands as
# REF's README.md spells them (read from it, not retyped): the one that
# installs the packages and runs `make demo`, then `make check`. Prints
# each one's wall time and the suite's last line; exits 0 only when both
# commands succeed and that line is `N passed, 0 failed`.
#   sh test/fresh-debian.sh [REF]        (as root; needs debootstrap, git,
#                                         and the network: Debian's mirror, npm)
# Not part of CI: it takes many minutes and the mirror. The root, with the
# commands' logs (install.log, check.log), is left in DIR (default a new
# directory under /var/tmp) for a look afterwards; FRESH_DIR=DIR picks it.
# MIRROR picks the Debian mirror (default http://deb.debian.org/debian).
# Behind a proxy that intercepts TLS, NODE_EXTRA_CA_CERTS=FILE (its CA)
# is copied into the root and set there, so that npm trusts the proxy as
# the machine running this script does; nothing else is taken from it.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
ref=$(git -C "$here" rev-parse --verify "${1:-HEAD}^{commit}") || exit 2
mirror=${MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian.sh: run as root (debootstrap, chroot, mount)" >&2; exit 2; }

# README's first command is its one indented line that ends in `make demo`;
# its second, the indented line `make check`. Each must be there once.
readme_command() { # PATTERN: REF's README's indented line matching PATTERN, once
	lines=$(git -C "$here" show "$ref:README.md" | grep -c "^    $1\$")
	[ "$lines" -eq 1 ] || { echo "fresh-debian.sh: README.md has $lines indented lines matching '$1', not 1" >&2; exit 2; }
	git -C "$here" show "$ref:README.md" | grep "^    $1\$" | sed 's/^    //'
}
install_command=$(readme_command '.*&& make demo') || exit 2
check_command=$(readme_command 'make check') || exit 2

root=${FRESH_DIR:-$(mktemp -d /var/tmp/prof-fresh-debian.XXXXXX)}
mounted=
unmount_all() {
	for m in $mounted; do umount "$m" 2> /dev/null || umount -l "$m"; done
	mounted=
}
trap unmount_all EXIT
trap 'exit 130' INT TERM HUP
mount_in_root() { # TARGET MOUNT_ARGUMENTS...: mounts at TARGET inside the root
	target=$root$1; shift
	mkdir -p "$target"
	mount "$@" "$target" || exit 1
	mounted="$target $mounted"
}

echo "fresh-debian: debootstrap --variant=minbase bookworm into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1 ||
	{ tail -n 20 "$root.debootstrap.log"; echo "fresh-debian: debootstrap failed"; exit 1; }
# An installed Debian also takes its security and point-release updates.
cat > "$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount_in_root /proc -t proc proc
mount_in_root /sys -t sysfs sys
mount_in_root /dev --bind /dev
mount_in_root /dev/pts --bind /dev/pts
mount_in_root /dev/shm -t tmpfs -o mode=1777 shm  # Chromium's shared memory

git clone -q --no-checkout "$(git -C "$here" rev-parse --path-format=absolute --git-common-dir)" "$root/root/prof" &&
	git -C "$root/root/prof" checkout -q "$ref" || exit 1
echo "fresh-debian: prof at $ref"

extra_ca=
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
	cp "$NODE_EXTRA_CA_CERTS" "$root/etc/extra-ca.crt" || exit 1
	extra_ca=NODE_EXTRA_CA_CERTS=/etc/extra-ca.crt
fi

failed=0
run_in_root() { # NAME COMMAND: runs COMMAND in the clone as a root login would, logged to NAME.log
	start=$(date +%s)
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin $extra_ca \
		/bin/sh -c "cd /root/prof && $2" < /dev/null > "$root/$1.log" 2>&1
	status=$?
	echo "fresh-debian: $1: exit $status after $(( $(date +%s) - start )) s: $2"
	[ "$status" -eq 0 ] || failed=1
}
run_in_root install "$install_command"
run_in_root check "$check_command"
last=$(grep -v '^make: ' "$root/check.log" | tail -n 1)  # make adds its own line on failure
echo "fresh-debian: the suite's last line: $last"
echo "$last" | grep -Eqx '[0-9]+ passed, 0 failed' || failed=1
[ "$failed" -eq 0 ] && echo "fresh-debian: README's two commands passed on a fresh Debian 12 ($(date -u '+%Y-%m-%d'))"
echo "fresh-debian: logs in $root/install.log and $root/check.log"
exit "$failed"
