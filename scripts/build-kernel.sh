#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a small kernel for the VM from Debian's kernel source package, with
# configuration fragments and patches, incrementally and with ccache.
#
#   scripts/build-kernel.sh [-s SERIES] [-c FRAGMENT]... [-p PATCH]... NAME
#
# -s SERIES   Debian source package linux-source-SERIES (default 6.12: the
#             bookworm-security one, which this machine's gcc builds)
# -c FRAG     a config fragment (CONFIG_X=y / # CONFIG_X is not set lines),
#             merged on top of x86_64_defconfig and the VM base config
#             (kernels/base.config)
# -p PATCH    a patch applied with patch -p1 for this build only
# NAME        the variant's name: the result goes to
#             $KSTATS_CACHE/kernels/NAME/{bzImage,config,kver,info,objdir}
#
# Layout under $KSTATS_CACHE (default /var/cache/kstats), kept between runs:
#   src/linux-SERIES         the extracted source, pristine between builds
#   obj/SERIES-CONFIGHASH    one object tree per configuration (make O=):
#                            variants that differ only by a patch share it,
#                            so switching between them rebuilds the patched
#                            files only
#   ccache/                  ccache's store
#   kernels/NAME/            bzImage, .config, the release string, what
#                            went into the build, and the object tree to
#                            build external modules against (objdir)
# A variant whose inputs did not change is not rebuilt.  The modules for a
# variant are built with scripts/kernels.sh make NAME (it knows this cache).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${KSTATS_CACHE:-/var/cache/kstats}
series=6.12 frags=() patches=()
while getopts s:c:p: o; do
	case $o in
	s)	series=$OPTARG ;;
	c)	frags+=("$(realpath "$OPTARG")") ;;
	p)	patches+=("$(realpath "$OPTARG")") ;;
	*)	exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-s SERIES] [-c FRAG]... [-p PATCH]... NAME" >&2; exit 2; }
name=$1
T0=$(date +%s)
say() { printf '[%4ds] %s\n' $(($(date +%s) - T0)) "$*"; }

tarball=/usr/src/linux-source-$series.tar.xz
[ -f "$tarball" ] || { echo "build-kernel: no $tarball (apt-get install linux-source-$series)" >&2; exit 1; }
src=$CACHE/src/linux-$series
if [ ! -f "$src/.kstats-extracted" ] || [ "$tarball" -nt "$src/.kstats-extracted" ]; then
	say "extracting $tarball"
	rm -rf "$src"
	mkdir -p "$CACHE/src"
	tar -xJf "$tarball" -C "$CACHE/src"
	mv "$CACHE/src/linux-source-$series" "$src"
	touch "$src/.kstats-extracted"
fi

# The configuration: base + fragments; its hash names the object tree.
cfg_inputs=("$top/kernels/base.config" "${frags[@]}")
# (comments do not count; "# CONFIG_X is not set" lines do)
cfg_hash=$(cat "${cfg_inputs[@]}" | sed '/^# CONFIG_/!{/^#/d}' | sha1sum | cut -c1-12)
obj=$CACHE/obj/$series-$cfg_hash
patch_hash=$( { echo "$series $cfg_hash"; cat "${patches[@]}" /dev/null; } | sha1sum | cut -c1-12)
dest=$CACHE/kernels/$name
if [ -f "$dest/inputs" ] && [ "$(cat "$dest/inputs")" = "$patch_hash" ] && [ -f "$dest/bzImage" ]; then
	say "$name: up to date ($(cat "$dest/kver"))"
	exit 0
fi

export CCACHE_DIR=$CACHE/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$CACHE CCACHE_SLOPPINESS=time_macros,include_file_mtime
mk() { make -C "$src" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" "$@"; }

mkdir -p "$obj"
if [ ! -f "$obj/.config" ] || [ ! -f "$obj/.kstats-config-done" ]; then
	say "configuring $obj"
	mk -s x86_64_defconfig > /dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${cfg_inputs[@]}" > /dev/null
	mk -s olddefconfig > /dev/null
	# Every option asked for must have survived olddefconfig.
	bad=$(cat "${cfg_inputs[@]}" | sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)$/\1=\2/p' |
		while IFS= read -r l; do grep -qxF "$l" "$obj/.config" || echo "$l"; done)
	if [ -n "$bad" ]; then
		echo "build-kernel: options that did not take: $bad" >&2
		exit 1
	fi
	touch "$obj/.kstats-config-done"
fi

# Apply the patches for this build only; undo them whatever happens.
applied=()
unapply() {
	local i
	for ((i = ${#applied[@]} - 1; i >= 0; i--)); do
		patch -s -R -p1 -d "$src" < "${applied[$i]}" || echo "build-kernel: could not revert ${applied[$i]}" >&2
	done
}
trap unapply EXIT
for p in "${patches[@]}"; do
	patch -s -p1 -d "$src" --dry-run < "$p" > /dev/null ||
		{ echo "build-kernel: $p does not apply to linux-$series" >&2; exit 1; }
	patch -s -p1 -d "$src" < "$p"
	applied+=("$p")
done

jobs=$(nproc)
say "building $name (linux-$series, config $cfg_hash, ${#patches[@]} patch(es)) in $obj, $jobs jobs"
log=$obj/build-$name.log
( mk bzImage modules > "$log" 2>&1 ) &
bpid=$!
# A progress line while building: objects compiled so far.
while kill -0 $bpid 2>/dev/null; do
	sleep 30
	kill -0 $bpid 2>/dev/null || break
	say "  ... $(grep -c '^  CC' "$log" 2>/dev/null || true) files compiled; last: $(grep -E '^  (CC|LD|AR)' "$log" | tail -n 1 | awk '{print $2}')"
done
if ! wait $bpid; then
	tail -n 30 "$log" >&2
	echo "build-kernel: build failed, log: $log" >&2
	exit 1
fi
unapply
trap - EXIT
applied=()

kver=$(cat "$obj/include/config/kernel.release")
say "built $kver"
rm -rf "$dest.new"
mkdir -p "$dest.new"
cp "$obj/arch/x86/boot/bzImage" "$dest.new/bzImage"
cp "$obj/.config" "$dest.new/config"
# External modules build against the object tree (objdir), which every
# variant of this configuration shares.
echo "$kver" > "$dest.new/kver"
{
	echo "name=$name"
	echo "series=$series"
	echo "source=$(basename "$tarball") $(dpkg-query -W -f='${Version}' "linux-source-$series" 2>/dev/null || true)"
	echo "config=$cfg_hash"
	for f in "${frags[@]}"; do echo "fragment=${f#"$top"/}"; done
	for p in "${patches[@]}"; do echo "patch=${p#"$top"/}"; done
} > "$dest.new/info"
echo "$patch_hash" > "$dest.new/inputs"
echo "$obj" > "$dest.new/objdir"
rm -rf "$dest"
mv "$dest.new" "$dest"
say "$name ready: $dest"
