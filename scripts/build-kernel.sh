#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a small kernel for the VM from Debian's kernel source package, with
# configuration fragments and patches, incrementally and with ccache.
#
#   scripts/build-kernel.sh [-s SERIES] [-b BASE] [-c FRAGMENT]... [-k] [-p PATCH]... NAME
#
# -s SERIES   Debian source package linux-source-SERIES (default 6.12: the
#             bookworm-security one, which this machine's gcc builds)
# -b BASE     vm (default): x86_64_defconfig and the VM base config
#             (kernels/base.config); tiny: tinyconfig and kernels/tiny.config,
#             the smallest kernel that boots the test initramfs and traces
#             (no BTF, no fprobe; a first build of minutes)
# -c FRAG     a config fragment (CONFIG_X=y / # CONFIG_X is not set lines),
#             merged on top of the base
# -k          kstats built in (scripts/kstats-into-tree.sh, CONFIG_KSTATS=y)
#             for this build only, so that patches may annotate core code
#             with include/linux/kstats.h; the variant shares the object
#             tree of its configuration
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
#                            went into the build (info), the object tree
#                            (objdir), and build/: what external modules
#                            build against, this variant's own (.config,
#                            Module.symvers, generated headers, vmlinux
#                            BTF; scripts and tools linked from the tree),
#                            since the tree holds the last variant built
# A variant whose inputs did not change is not rebuilt.  The modules for a
# variant are built with scripts/kernels.sh make NAME (it knows this cache).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${KSTATS_CACHE:-/var/cache/kstats}
series=6.12 frags=() patches=() base=vm intree=0
while getopts s:b:c:kp: o; do
	case $o in
	s)	series=$OPTARG ;;
	b)	base=$OPTARG ;;
	k)	intree=1 ;;
	c)	frags+=("$(realpath "$OPTARG")") ;;
	p)	patches+=("$(realpath "$OPTARG")") ;;
	*)	exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-s SERIES] [-b vm|tiny] [-c FRAG]... [-k] [-p PATCH]... NAME" >&2; exit 2; }
case $base in
vm)	base_target=x86_64_defconfig base_cfg=$top/kernels/base.config ;;
tiny)	base_target=tinyconfig base_cfg=$top/kernels/tiny.config ;;
*)	echo "build-kernel: -b vm or -b tiny, not '$base'" >&2; exit 2 ;;
esac
name=$1
T0=$(date +%s)
say() { printf '[%4ds] %s\n' $(($(date +%s) - T0)) "$*"; }

tarball=/usr/src/linux-source-$series.tar.xz
[ -f "$tarball" ] || { echo "build-kernel: no $tarball (apt-get install linux-source-$series)" >&2; exit 1; }
src=$CACHE/src/linux-$series
# One build at a time per source tree: a build patches it.
mkdir -p "$CACHE/src"
exec {lockfd}> "$CACHE/src/.lock-$series"
if ! flock -n "$lockfd"; then
	say "waiting for another build of linux-$series"
	flock "$lockfd"
fi
if [ ! -f "$src/.kstats-extracted" ] || [ "$tarball" -nt "$src/.kstats-extracted" ]; then
	say "extracting $tarball"
	rm -rf "$src"
	mkdir -p "$CACHE/src"
	tar -xJf "$tarball" -C "$CACHE/src"
	mv "$CACHE/src/linux-source-$series" "$src"
	touch "$src/.kstats-extracted"
fi

# The configuration: base + fragments; its hash names the object tree.
cfg_inputs=("$base_cfg" "${frags[@]}")
# (comments do not count; "# CONFIG_X is not set" lines do; the vm base
# hashes as it did before there was a choice)
cfg_hash=$( { [ "$base" = vm ] || echo "base=$base"; cat "${cfg_inputs[@]}"; } |
	sed '/^# CONFIG_/!{/^#/d}' | sha1sum | cut -c1-12)
obj=$CACHE/obj/$series-$cfg_hash
# kstats built in: its sources are inputs of the variant too
intree_sum=""
[ $intree = 1 ] && intree_sum=$(cat "$top"/scripts/kstats-into-tree.sh "$top"/kmod/Kbuild \
	"$top"/kmod/*.[chS] "$top"/common/*.c "$top"/include/kstats/*.h "$top"/include/linux/kstats.h | sha1sum)
patch_hash=$( { echo "$series $cfg_hash"; echo "$intree_sum"; cat "${patches[@]}" /dev/null; } |
	sha1sum | cut -c1-12)
dest=$CACHE/kernels/$name
if [ -f "$dest/inputs" ] && [ "$(cat "$dest/inputs")" = "$patch_hash" ] && [ -f "$dest/bzImage" ] &&
   [ -d "$dest/build" ]; then
	say "$name: up to date ($(cat "$dest/kver"))"
	exit 0
fi

export CCACHE_DIR=$CACHE/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$CACHE CCACHE_SLOPPINESS=time_macros,include_file_mtime
mk() { make -C "$src" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" "$@"; }

mkdir -p "$obj"
if [ ! -f "$obj/.config" ] || [ ! -f "$obj/.kstats-config-done" ]; then
	say "configuring $obj"
	mk -s $base_target > /dev/null
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

# Apply the patches (and kstats) for this build only; undo them whatever
# happens.  kstats-into-tree.sh adds files and appends to two: those two
# are saved with their times, so that putting them back changes nothing.
applied=()
saved=$obj/.kstats-intree-saved
unapply() {
	local i
	for ((i = ${#applied[@]} - 1; i >= 0; i--)); do
		patch -s -R -p1 -d "$src" < "${applied[$i]}" || echo "build-kernel: could not revert ${applied[$i]}" >&2
	done
	applied=()
	if [ -d "$saved" ]; then
		cp -p "$saved/Kconfig.debug" "$src/lib/Kconfig.debug"
		cp -p "$saved/Makefile" "$src/lib/Makefile"
		rm -rf "$src/lib/kstats" "$src/include/kstats" "$src/include/linux/kstats.h" "$saved"
	fi
}
trap unapply EXIT
unapply		# what an interrupted build may have left
if [ $intree = 1 ]; then
	mkdir -p "$saved"
	cp -p "$src/lib/Kconfig.debug" "$src/lib/Makefile" "$saved/"
	"$top/scripts/kstats-into-tree.sh" "$src" > /dev/null
fi
# CONFIG_KSTATS on exactly when kstats is in the tree
if [ $intree = 1 ] && ! grep -qx 'CONFIG_KSTATS=y' "$obj/.config"; then
	"$src/scripts/config" --file "$obj/.config" -e KSTATS
	mk -s olddefconfig > /dev/null
	grep -qx 'CONFIG_KSTATS=y' "$obj/.config" ||
		{ echo "build-kernel: CONFIG_KSTATS did not take (its dependencies: lib/Kconfig.debug)" >&2; exit 1; }
elif [ $intree = 0 ] && grep -q '^CONFIG_KSTATS=' "$obj/.config"; then
	"$src/scripts/config" --file "$obj/.config" -d KSTATS
	mk -s olddefconfig > /dev/null
fi
for p in "${patches[@]}"; do
	patch -s -p1 -d "$src" --dry-run < "$p" > /dev/null ||
		{ echo "build-kernel: $p does not apply to linux-$series" >&2; exit 1; }
	patch -s -p1 -d "$src" < "$p"
	applied+=("$p")
done

jobs=$(nproc)
[ -f "$obj/vmlinux" ] ||
	say "$name: a first build of this configuration (every file; 26-28 minutes for the vm base, 11 for tiny, on 2 shared cores here)"
say "building $name (linux-$series, $base config $cfg_hash, ${#patches[@]} patch(es)$([ $intree = 1 ] && echo ", kstats built in")) in $obj, $jobs jobs"
log=$obj/build-$name.log
( mk bzImage modules > "$log" 2>&1 ) &
bpid=$!
# A progress line while building: objects compiled so far.
ticks=0
while kill -0 $bpid 2>/dev/null; do
	sleep 1
	ticks=$((ticks + 1))
	[ $((ticks % 30)) = 0 ] || continue
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

kver=$(cat "$obj/include/config/kernel.release")
say "built $kver"
rm -rf "$dest.new"
mkdir -p "$dest.new"
cp "$obj/arch/x86/boot/bzImage" "$dest.new/bzImage"
cp "$obj/.config" "$dest.new/config"
# External modules build against build/, this variant's view of the
# object tree that every variant of its configuration shares (a later
# variant's build changes the tree's .config and Module.symvers).
b=$dest.new/build
mkdir -p "$b/arch/x86"
cp "$obj/Makefile" "$obj/.config" "$obj/Module.symvers" "$b/"
cp -a "$obj/include" "$b/include"
cp -a "$obj/arch/x86/include" "$b/arch/x86/include"
ln -s "$obj/scripts" "$b/scripts"
ln -s "$obj/tools" "$b/tools"
[ -e "$obj/source" ] && ln -s "$src" "$b/source"
# the key the kernel trusts, to sign a module as Debian's build tree would
# (scripts/sign-file sha256 build/certs/signing_key.pem build/certs/signing_key.x509 M.ko)
if grep -qx 'CONFIG_MODULE_SIG=y' "$obj/.config" && [ -f "$obj/certs/signing_key.pem" ]; then
	mkdir -p "$b/certs"
	cp "$obj/certs/signing_key.pem" "$obj/certs/signing_key.x509" "$b/certs/"
fi
if grep -qx 'CONFIG_DEBUG_INFO_BTF=y' "$obj/.config"; then
	# module BTF is split on vmlinux's: its .BTF section is enough
	# (objcopy warns of the segments it empties: not an error)
	objcopy --only-section=.BTF "$obj/vmlinux" "$b/vmlinux" 2> "$obj/objcopy-btf.log" ||
		{ cat "$obj/objcopy-btf.log" >&2; exit 1; }
fi
echo "$kver" > "$dest.new/kver"
{
	echo "name=$name"
	echo "series=$series"
	echo "source=$(basename "$tarball") $(dpkg-query -W -f='${Version}' "linux-source-$series" 2>/dev/null || true)"
	echo "config=$cfg_hash"
	echo "base=$base"
	[ $intree = 1 ] && echo "kstats=built in (scripts/kstats-into-tree.sh)"
	for f in "${frags[@]}"; do echo "fragment=${f#"$top"/}"; done
	for p in "${patches[@]}"; do echo "patch=${p#"$top"/}"; done
} > "$dest.new/info"
echo "$patch_hash" > "$dest.new/inputs"
echo "$obj" > "$dest.new/objdir"
rm -rf "$dest"
mv "$dest.new" "$dest"
say "$name ready: $dest"
