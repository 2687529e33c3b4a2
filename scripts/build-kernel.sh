#!/bin/bash
# Build the reclaimlab UML kernel.
#
#   source:  Debian's linux-source-6.12 tarball, unpacked once into a git
#            repository whose first commit ("pristine") is the tarball as is;
#   series:  kernel-patches/series applied as one commit per patch on top of
#            "pristine".  The new commits are made in a scratch index and the
#            work tree is then switched to them with `git checkout`, which
#            rewrites only files whose content changed, so make and ccache
#            rebuild only what a patch edit really touched;
#   config:  `allnoconfig` + kernel-patches/*.config fragments, checked for
#            options that did not survive;
#   build:   out of tree in build/kernel/<flavour>, with ccache.
#
# Usage: scripts/build-kernel.sh [--prepare-only | --apply-only]
#        KERNEL_FLAVOR=debug scripts/build-kernel.sh   (lockdep/KASAN kernel)
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
check_flavor

PATCHDIR=${RL_PATCHDIR:-$RL_TOP/kernel-patches}
SERIES=$PATCHDIR/series
stop_after=build
case "${1:-}" in
"") ;;
--prepare-only) stop_after=config ;;
--apply-only) stop_after=series ;;
*) die "unknown option '$1' (valid: --prepare-only --apply-only)" ;;
esac

git_k() { git -C "$RL_KSRC" -c user.name=reclaimlab -c user.email=reclaimlab@localhost "$@"; }

source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown
}

unpack_source() {
	local version tmp
	[ -r "$RL_KERNEL_TARBALL" ] ||
		die "kernel source $RL_KERNEL_TARBALL not found (install linux-source-6.12: scripts/deps.sh)"
	version=$(source_version)
	if [ -f "$RL_KSRC/.git/reclaimlab-source-version" ]; then
		[ "$(cat "$RL_KSRC/.git/reclaimlab-source-version")" = "$version" ] && return 0
		note "linux-source-6.12 changed to $version; unpacking it again"
	fi
	note "unpacking $RL_KERNEL_TARBALL ($version)"
	tmp=$RL_BUILD/src/unpack.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	tar -xJf "$RL_KERNEL_TARBALL" -C "$tmp"
	rm -rf "$RL_KSRC"
	mv "$tmp"/linux-source-6.12 "$RL_KSRC"
	rmdir "$tmp"
	git -C "$RL_KSRC" init -q
	git -C "$RL_KSRC" config gc.auto 0
	# Debian's top-level .gitignore ignores everything: add with -f.
	git_k add -f -A
	git_k commit -q -m "linux-source-6.12 $version (pristine)"
	git_k tag -f pristine >/dev/null
	echo "$version" >"$RL_KSRC/.git/reclaimlab-source-version"
	rm -f "$RL_KSRC/.git/reclaimlab-series-applied"
}

series_patches() {
	[ -f "$SERIES" ] || die "missing $SERIES"
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$SERIES"
}

apply_series() {
	local stamp idx parent p info tree subject author email date
	stamp=$( (cat "$SERIES"; series_patches | while read -r p; do
		[ -f "$PATCHDIR/$p" ] || die "series names $p, which is not in kernel-patches/"
		cat "$PATCHDIR/$p"
	done) | sha256sum | cut -d' ' -f1)
	if [ -f "$RL_KSRC/.git/reclaimlab-series-applied" ] &&
		[ "$(cat "$RL_KSRC/.git/reclaimlab-series-applied")" = "$stamp" ] &&
		[ -z "$(git -C "$RL_KSRC" status --porcelain --untracked-files=no)" ]; then
		return 0
	fi
	if [ -n "$(git -C "$RL_KSRC" status --porcelain --untracked-files=no)" ]; then
		die "$RL_KSRC has uncommitted edits; turn them into a patch in kernel-patches/ (git -C $RL_KSRC diff) or drop them (git -C $RL_KSRC checkout -- .)"
	fi
	idx=$(mktemp "$RL_BUILD/src/index.XXXXXX")
	info=$(mktemp "$RL_BUILD/src/info.XXXXXX")
	trap 'rm -f "$idx" "$info" "$info.msg" "$info.patch"' RETURN
	GIT_INDEX_FILE=$idx git -C "$RL_KSRC" read-tree pristine
	parent=$(git -C "$RL_KSRC" rev-parse pristine)
	while read -r p; do
		git -C "$RL_KSRC" mailinfo "$info.msg" "$info.patch" <"$PATCHDIR/$p" >"$info"
		GIT_INDEX_FILE=$idx git -C "$RL_KSRC" apply --cached "$info.patch" 2>"$info.err" || {
			cat "$info.err" >&2
			rm -f "$info.err"
			die "patch $p does not apply to linux-source-6.12 $(source_version) (after the patches before it in kernel-patches/series)"
		}
		rm -f "$info.err"
		tree=$(GIT_INDEX_FILE=$idx git -C "$RL_KSRC" write-tree)
		subject=$(sed -n 's/^Subject: //p' "$info")
		author=$(sed -n 's/^Author: //p' "$info")
		email=$(sed -n 's/^Email: //p' "$info")
		date=$(sed -n 's/^Date: //p' "$info")
		parent=$(printf '%s\n\n%s\n' "$subject" "$(cat "$info.msg")" |
			GIT_AUTHOR_NAME=${author:-reclaimlab} GIT_AUTHOR_EMAIL=${email:-reclaimlab@localhost} \
			GIT_AUTHOR_DATE=${date:-now} git_k commit-tree "$tree" -p "$parent")
	done < <(series_patches)
	# A two-way checkout: only files that differ between the old and the new
	# stack are written, so untouched objects stay valid for make.
	git_k checkout -q -B reclaimlab "$parent"
	echo "$stamp" >"$RL_KSRC/.git/reclaimlab-series-applied"
	note "series applied: $(series_patches | wc -l) patch(es) on $(source_version)"
}

# Fragments: the common one, then the flavour's own (applied last wins).
config_fragments() {
	echo "$PATCHDIR/reclaimlab.config"
	[ "$RL_FLAVOR" = normal ] || echo "$PATCHDIR/$RL_FLAVOR.config"
}

make_config() {
	local scratch frag wanted want got missing=""
	for frag in $(config_fragments); do
		[ -f "$frag" ] || die "missing config fragment $frag"
	done
	scratch=$RL_KOUT.config-gen
	rm -rf "$scratch" && mkdir -p "$scratch" "$RL_KOUT"
	make -s -C "$RL_KSRC" ARCH=um O="$scratch" allnoconfig >/dev/null
	# shellcheck disable=SC2046 # one argument per fragment
	"$RL_KSRC"/scripts/kconfig/merge_config.sh -m -O "$scratch" \
		"$scratch/.config" $(config_fragments) >/dev/null
	make -s -C "$RL_KSRC" ARCH=um O="$scratch" olddefconfig >/dev/null
	# Every option a fragment asks for must be in the result (as kunit.py
	# does); a later fragment overrides an earlier one.
	# shellcheck disable=SC2046 # one argument per fragment
	wanted=$(sed -nE -e 's/^# (CONFIG_[A-Z0-9_]+) is not set/\1=n/p' -e '/^CONFIG_/p' \
		$(config_fragments) | awk -F= '{ v[$1] = $0 } END { for (k in v) print v[k] }')
	for want in $wanted; do
		got=$(grep -E "^${want%%=*}=" "$scratch/.config" || true)
		[ -n "$got" ] || got="${want%%=*}=n"
		[ "$got" = "$want" ] || missing="$missing ${want} (got ${got#*=})"
	done
	[ -z "$missing" ] || die "config options did not survive olddefconfig:$missing"
	# Replace .config only when it changed, so kbuild keeps its state.
	cmp -s "$scratch/.config" "$RL_KOUT/.config" || cp "$scratch/.config" "$RL_KOUT/.config"
	rm -rf "$scratch"
}

mkdir -p "$RL_BUILD/src" "$CCACHE_DIR"
(
	flock 9
	unpack_source
	apply_series
) 9>"$RL_BUILD/src/.lock"
[ "$stop_after" = series ] && exit 0
make_config
[ "$stop_after" = config ] && exit 0

jobs=$(($(nproc) + 1))
note "building $RL_FLAVOR kernel in $RL_KOUT (make -j$jobs, ccache in $CCACHE_DIR)"
make -C "$RL_KSRC" ARCH=um O="$RL_KOUT" -j"$jobs" \
	CC="ccache gcc" HOSTCC="ccache gcc" \
	KBUILD_BUILD_USER=reclaimlab KBUILD_BUILD_HOST=reclaimlab LOCALVERSION= \
	linux scripts_gdb >"$RL_KOUT/build.log" 2>&1 || {
	grep -E -m 20 'error|Error' "$RL_KOUT/build.log" >&2 || tail -20 "$RL_KOUT/build.log" >&2
	die "kernel build failed; full log: $RL_KOUT/build.log"
}
grep -E ' warning: ' "$RL_KOUT/build.log" >&2 || true
# which series this kernel was built from, for the run folders (run.conf)
cp "$RL_KSRC/.git/reclaimlab-series-applied" "$RL_KOUT/reclaimlab-series"
note "kernel ready: $RL_KERNEL ($(cat "$RL_KOUT/include/config/kernel.release"))"
