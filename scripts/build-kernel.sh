#!/bin/bash
# Build the reclaimlab UML kernel.
#
#   source:  a Debian linux-source-X package's tarball (the series folder's
#            `source` file names it; linux-source-6.12 for the lab's own
#            series), unpacked once into a git repository whose first
#            commit ("pristine") is the tarball as is; or, with
#            RL_KERNEL_GIT=REPO@REV, that commit of a kernel git tree;
#   series:  the folder's `series` applied as one commit per patch on top of
#            "pristine" (a line may name another folder's patch and a part
#            of this folder's own for some of its files: series_patches).
#            The new commits are made in a scratch index and the
#            work tree is then switched to them with `git checkout`, which
#            rewrites only files whose content changed, so make and ccache
#            rebuild only what a patch edit really touched;
#   config:  `allnoconfig` + kernel-patches/reclaimlab.config + the flavour's
#            fragment + the series folder's own *.config, checked for
#            options that did not survive;
#   build:   out of tree in build/kernel/<flavour>, with ccache.
#
# Usage: scripts/build-kernel.sh [--prepare-only | --apply-only]
#        KERNEL_FLAVOR=debug scripts/build-kernel.sh   (lockdep/KASAN kernel)
#        scripts/build-kernel.sh --kernel NAME=SPEC    (a kernel of compare.sh
#            --kernel: SPEC lab, lab:FLAVOUR, series:DIR or git:REPO@REV;
#            scripts/lib/kernels.sh)
#        RL_PATCHDIR=DIR RL_KSRC=SRC scripts/build-kernel.sh --apply-only
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
check_flavor

LAB_PATCHDIR=$RL_TOP/kernel-patches
PATCHDIR=${RL_PATCHDIR:-$LAB_PATCHDIR}
GIT_SPEC=""
OTHER_KERNEL=0
stop_after=build
while [ $# -gt 0 ]; do
	case "$1" in
	--prepare-only) stop_after=config; shift ;;
	--apply-only) stop_after=series; shift ;;
	--kernel)
		[ $# -ge 2 ] || die "option --kernel needs NAME=SPEC"
		spec=$(kernel_spec "$2")
		read -r PATCHDIR RL_KSRC RL_KOUT GIT_SPEC <<<"$(kernel_places "${spec%%=*}" "${spec#*=}")"
		[ "$GIT_SPEC" != - ] || GIT_SPEC=""
		case ${spec#*=} in
		lab) ;;
		lab:*) RL_FLAVOR=${spec#*=lab:} ;;
		*) OTHER_KERNEL=1 ;;
		esac
		RL_KERNEL=$RL_KOUT/linux
		mkdir -p "$(dirname "$RL_KSRC")"
		shift 2
		;;
	*) die "unknown option '$1' (valid: --prepare-only --apply-only --kernel NAME=SPEC)" ;;
	esac
done
SERIES=$PATCHDIR/series

# A git tree's kernel is compiled in the lab's own layout, LAYOUT/src/linux
# and LAYOUT/kernel/FLAVOUR as build/src/linux and build/kernel/FLAVOUR
# are, with LAYOUT build/kernels/NAME/layout: ccache hashes the paths below
# its base folder (the one above both trees) as they are written, so only
# the same layout lets it serve the lab's compile (a tree carrying the
# lab's series builds from the cache; a bisect step compiles what changed).
# It is published where kernel_places says: build/kernels/NAME/src, a link
# to the tree, and build/kernels/NAME/FLAVOUR, a folder of links to the
# build's files with the binary itself hard-linked (job lists name a
# kernel by the path it really has).
PUB_KSRC="" PUB_KOUT=""
if [ -n "$GIT_SPEC" ]; then
	PUB_KSRC=$RL_KSRC PUB_KOUT=$RL_KOUT
	RL_KSRC=$(dirname "$PUB_KOUT")/layout/src/linux
	RL_KOUT=$(dirname "$PUB_KOUT")/layout/kernel/$RL_FLAVOR
	mkdir -p "$(dirname "$RL_KSRC")"
fi

# publish_tree: the source tree's link (a git tree's kernel); a tree left
# by a build before the layout (a folder there) is removed with its
# objects, and so is a git tree's build when the name is another spec's now
publish_tree() {
	if [ -z "$PUB_KSRC" ]; then
		[ "$OTHER_KERNEL" = 1 ] && [ -L "$RL_KSRC" ] || return 0
		note "removing the git tree's build of $(dirname "$RL_KSRC"); building another spec there"
		rm -rf "$RL_KSRC" "$RL_KOUT" "$(dirname "$RL_KOUT")/layout"
		return 0
	fi
	if [ -e "$PUB_KSRC" ] && [ ! -L "$PUB_KSRC" ]; then
		note "removing $PUB_KSRC and $PUB_KOUT, built before the lab's layout; building in $(dirname "$RL_KOUT")"
		rm -rf "$PUB_KSRC" "$PUB_KOUT"
	fi
	ln -sfn layout/src/linux "$PUB_KSRC"
}

# publish_build: the build's files in the published folder, the binary as
# a hard link (a new link each build: the linker writes a new file)
publish_build() {
	local f
	[ -n "$PUB_KOUT" ] || return 0
	mkdir -p "$PUB_KOUT"
	for f in "$RL_KOUT"/* "$RL_KOUT"/.config; do
		[ "${f##*/}" != linux ] || continue
		[ -e "$PUB_KOUT/${f##*/}" ] || ln -sfn "../layout/kernel/$RL_FLAVOR/${f##*/}" "$PUB_KOUT/${f##*/}"
	done
	ln -f "$RL_KOUT/linux" "$PUB_KOUT/linux"
}

git_k() { git -C "$RL_KSRC" -c user.name=reclaimlab -c user.email=reclaimlab@localhost "$@"; }

# The Debian source package of the series: its folder's `source` file, a
# package name read as data.
source_package() {
	local pkg=$RL_KERNEL_SOURCE
	[ ! -f "$PATCHDIR/source" ] || pkg=$(sed -n '1s/[[:space:]]*$//p' "$PATCHDIR/source")
	[[ "$pkg" =~ ^linux-source-[0-9][0-9.]*$ ]] ||
		die "$PATCHDIR/source names '$pkg', not a kernel source package (valid: linux-source-VERSION, e.g. linux-source-6.1)"
	echo "$pkg"
}
SOURCE_PKG=$(source_package)
TARBALL=/usr/src/$SOURCE_PKG.tar.xz

# The package's version, or "git REPO COMMIT"
source_version() {
	if [ -n "$GIT_SPEC" ]; then
		echo "git ${GIT_SPEC%@*} $(git -C "${GIT_SPEC%@*}" rev-parse "${GIT_SPEC##*@}^{commit}" 2>/dev/null)"
	else
		dpkg-query -W -f='${Version}' "$SOURCE_PKG" 2>/dev/null || echo unknown
	fi
}

# What the kernel was built from, for run.conf's kernel_source
source_label() {
	if [ -n "$GIT_SPEC" ]; then
		source_version
	else
		echo "$SOURCE_PKG $(source_version)"
	fi
}

unpack_source() {
	local version tmp
	version=$(source_version)
	if [ -f "$RL_KSRC/.git/reclaimlab-source-version" ]; then
		[ "$(cat "$RL_KSRC/.git/reclaimlab-source-version")" = "$version" ] && return 0
		# another commit of the same tree: checked out in place, which
		# writes only the files that differ, so make rebuilds only those
		# (a bisect step); the objects are the tree's (clone --shared)
		if [ -n "$GIT_SPEC" ] &&
			[ "$(sed 's/ [^ ]*$//' "$RL_KSRC/.git/reclaimlab-source-version")" = "${version% *}" ] &&
			[ -z "$(git -C "$RL_KSRC" status --porcelain 2>/dev/null)" ] &&
			git -C "$RL_KSRC" checkout -q --detach "${version##* }" 2>/dev/null; then
			note "checked out ${version##* } of ${GIT_SPEC%@*} in $RL_KSRC"
			git -C "$RL_KSRC" tag -f pristine >/dev/null
			echo "$version" >"$RL_KSRC/.git/reclaimlab-source-version"
			return 0
		fi
		note "kernel source changed to $version; unpacking it again"
	fi
	tmp=$RL_KSRC.unpack.$$
	rm -rf "$tmp"
	if [ -n "$GIT_SPEC" ]; then
		# the tree's objects are shared, not copied; "pristine" is REV
		note "checking out ${GIT_SPEC##*@} of ${GIT_SPEC%@*}"
		git clone -q --shared --no-checkout "${GIT_SPEC%@*}" "$tmp"
		git -C "$tmp" checkout -q --detach "${version##* }"
	else
		[ -r "$TARBALL" ] ||
			die "kernel source $TARBALL not found (install $SOURCE_PKG: scripts/deps.sh, or apt-get install $SOURCE_PKG)"
		note "unpacking $TARBALL ($version)"
		mkdir -p "$tmp.d"
		tar -xJf "$TARBALL" -C "$tmp.d"
		mv "$tmp.d/$SOURCE_PKG" "$tmp"
		rmdir "$tmp.d"
		git -C "$tmp" init -q
		# Debian's top-level .gitignore ignores everything: add with -f.
		git -C "$tmp" add -f -A
		git -C "$tmp" -c user.name=reclaimlab -c user.email=reclaimlab@localhost \
			commit -q -m "$SOURCE_PKG $version (pristine)"
	fi
	git -C "$tmp" config gc.auto 0
	git -C "$tmp" tag -f pristine >/dev/null
	rm -rf "$RL_KSRC"
	mv "$tmp" "$RL_KSRC"
	echo "$version" >"$RL_KSRC/.git/reclaimlab-source-version"
	rm -f "$RL_KSRC/.git/reclaimlab-series-applied"
}

# The series: a line per patch, "PATCH" or "PATCH PART HASH" (a comment
# from #).  PATCH is a file of the series folder, or of another one
# (../0004-....patch: 6.1's series names the lab's 6.12 patches so).
# PART, a patch of the series folder, is this source's own version of
# some of PATCH's files: PATCH applies without its changes to them and
# PART in their place, as one commit with PATCH's message and PART's
# after it.  HASH is that of the lines PATCH adds and removes in those
# files (patch_changes): when PATCH's changes to them change, PART has to
# follow, and the build stops until its line carries the new hash.
series_patches() {
	[ -f "$SERIES" ] || die "missing $SERIES"
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$SERIES"
}

# patch_files PATCH: the files it changes, a line each (git's own parser)
patch_files() {
	git apply --numstat "$1" | cut -f3
}

# words LINES: the lines as one line of words
words() {
	echo "$1" | tr '\n' ' ' | sed 's/ $//'
}

# patch_changes PATCH FILE...: the lines PATCH adds (+) and removes (-) in
# the FILEs, in PATCH's order, without the context or the line numbers (so
# that the lab's own series moving them does not count as a change)
patch_changes() {
	local patch=$1
	shift
	awk -v files="$*" '
	BEGIN { n = split(files, f, " "); for (i = 1; i <= n; i++) want[f[i]] = 1 }
	/^diff --git / { on = (substr($3, 3) in want); old = 0; new = 0; next }
	old > 0 || new > 0 {
		c = substr($0, 1, 1)
		if (c == " ") { old--; new-- }
		else if (c == "-") { old--; if (on) print }
		else if (c == "+") { new--; if (on) print }
		next
	}
	/^@@ -/ {
		split($2, o, ","); split($3, w, ",")
		old = (2 in o) ? o[2] + 0 : 1
		new = (2 in w) ? w[2] + 0 : 1
	}' "$patch"
}

# changes_hash PATCH FILE...: the hash a PART's series line carries
changes_hash() {
	patch_changes "$@" | sha256sum | cut -c1-12
}

# check_part PATCH PART HASH: die unless PART changes only files PATCH
# changes and PATCH's changes to them are still the ones PART follows;
# print PART's files
check_part() {
	local p=$1 part=$2 hash=$3 f files got
	[ -f "$PATCHDIR/$part" ] || die "series names $part, which is not in $PATCHDIR/"
	files=$(words "$(patch_files "$PATCHDIR/$part")")
	[ -n "$files" ] || die "$part (in $SERIES) changes no file"
	for f in $files; do
		[[ "$f" =~ ^[A-Za-z0-9._/+-]+$ ]] ||
			die "$part changes '$f', a path git apply --exclude cannot name (valid: letters, digits and . _ / + -)"
		patch_files "$PATCHDIR/$p" | grep -qxF "$f" ||
			die "$part changes $f, which $p does not (a part is $(basename "$PATCHDIR")'s own version of files the patch changes)"
	done
	# shellcheck disable=SC2086 # a word a file
	got=$(changes_hash "$PATCHDIR/$p" $files)
	[ -n "$hash" ] ||
		die "the line of $part in $SERIES has no hash; it follows $p's changes to $files, hash $got"
	[ "$got" = "$hash" ] ||
		die "$p changes $files otherwise than $part follows (hash $got, its line in $SERIES says $hash): port the change into $part, or check that it needs none, and write $got on its line"
	echo "$files"
}

apply_series() {
	local stamp idx parent p part hash extra info f files tree subject author email date
	local -a exclude
	# a git tree's commit is the kernel as it is
	if [ -n "$GIT_SPEC" ]; then
		source_version | sed 's/.* /git-/' >"$RL_KSRC/.git/reclaimlab-series-applied"
		return 0
	fi
	stamp=$( (cat "$SERIES"; series_patches | while read -r p part hash; do
		for f in "$p" $part; do
			[ -f "$PATCHDIR/$f" ] || die "series names $f, which is not in $PATCHDIR/"
			cat "$PATCHDIR/$f"
		done
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
	trap 'rm -f "$idx" "$info" "$info".*' RETURN
	GIT_INDEX_FILE=$idx git -C "$RL_KSRC" read-tree pristine
	parent=$(git -C "$RL_KSRC" rev-parse pristine)
	while read -r p part hash extra; do
		[ -z "$extra" ] || die "a line of $SERIES has more than PATCH PART HASH: '$p $part $hash $extra'"
		exclude=()
		files=""
		if [ -n "$part" ]; then
			files=$(check_part "$p" "$part" "$hash")
			for f in $files; do
				exclude+=("--exclude=$f")
			done
		fi
		git -C "$RL_KSRC" mailinfo "$info.msg" "$info.patch" <"$PATCHDIR/$p" >"$info"
		GIT_INDEX_FILE=$idx git -C "$RL_KSRC" apply --cached "${exclude[@]}" "$info.patch" 2>"$info.err" || {
			cat "$info.err" >&2
			die "patch $p${part:+ (without its changes to $files)} does not apply to $(source_label) (after the patches before it in $SERIES)"
		}
		if [ -n "$part" ]; then
			git -C "$RL_KSRC" mailinfo "$info.pmsg" "$info.ppatch" <"$PATCHDIR/$part" >"$info.pinfo"
			GIT_INDEX_FILE=$idx git -C "$RL_KSRC" apply --cached "$info.ppatch" 2>"$info.err" || {
				cat "$info.err" >&2
				die "patch $part ($(basename "$PATCHDIR")'s own $files of $p) does not apply to $(source_label) (after the patches before it in $SERIES)"
			}
			printf '\n%s\n\n%s\n' "$(sed -n 's/^Subject: //p' "$info.pinfo")" "$(cat "$info.pmsg")" >>"$info.msg"
		fi
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
	note "series applied: $(series_patches | wc -l) patch(es) of $SERIES on $(source_label)"
}

# Fragments: the common one, then the flavour's own, then those of
# another series' folder (applied last wins).
config_fragments() {
	local frag
	echo "$LAB_PATCHDIR/reclaimlab.config"
	[ "$RL_FLAVOR" = normal ] || echo "$LAB_PATCHDIR/$RL_FLAVOR.config"
	[ "$PATCHDIR" != "$LAB_PATCHDIR" ] || return 0
	for frag in "$PATCHDIR"/*.config; do
		[ ! -f "$frag" ] || echo "$frag"
	done
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

mkdir -p "$RL_BUILD/src" "$(dirname "$RL_KSRC")" "$CCACHE_DIR"
# one writer of a source tree at a time; other trees (6.1's, a test's) do
# not wait for it
(
	flock 9
	publish_tree
	unpack_source
	apply_series
) 9>"$RL_BUILD/src/.lock-$(realpath -m "$RL_KSRC" | sha256sum | cut -c1-16)"
[ "$stop_after" = series ] && exit 0
# one build at a time in a build folder (the tests build kernels in the
# background while a user may build the same one)
mkdir -p "$RL_KOUT"
exec 8>"$RL_KOUT/.build-lock"
flock 8
make_config
[ "$stop_after" = config ] && exit 0

# The compile is path-independent, so that ccache serves a checkout at
# another path (a clean clone, CI) from what this one compiled: ccache
# hashes paths below the folder that holds both trees relative to it, and
# the debug info names that folder /reclaimlab-build (scripts/gdb points
# 'list' back at the tree).  Without it every object carries the absolute
# path in its debug info and a second checkout misses the cache entirely.
common_dir() { # A B: the deepest folder holding both
	local a=$1/ b=$2/
	while [ "${b#"$a"}" = "$b" ]; do
		a=${a%/*/}/
	done
	echo "${a%/}"
}
build_base=$(common_dir "$(realpath "$RL_KSRC")" "$(realpath "$RL_KOUT")")
[ -n "$build_base" ] || build_base=/
export CCACHE_BASEDIR=$build_base
kcflags="${KCFLAGS:+$KCFLAGS }-fdebug-prefix-map=$build_base=/reclaimlab-build"

jobs=$(($(nproc) + 1))
note "building $RL_FLAVOR kernel in $RL_KOUT (make -j$jobs, ccache in $CCACHE_DIR)"
make -C "$RL_KSRC" ARCH=um O="$RL_KOUT" -j"$jobs" \
	CC="ccache gcc" HOSTCC="ccache gcc" KCFLAGS="$kcflags" \
	KBUILD_BUILD_USER=reclaimlab KBUILD_BUILD_HOST=reclaimlab LOCALVERSION= \
	linux scripts_gdb >"$RL_KOUT/build.log" 2>&1 || {
	grep -E -m 20 'error|Error' "$RL_KOUT/build.log" >&2 || tail -20 "$RL_KOUT/build.log" >&2
	die "kernel build failed; full log: $RL_KOUT/build.log"
}
grep -E ' warning: ' "$RL_KOUT/build.log" >&2 || true
# which source and series this kernel was built from, for the run folders
# (run.conf)
# (rewritten only when they change: compare.sh --hosts names its bundle by
# the hash of its files, the kernel's folder included)
cmp -s "$RL_KSRC/.git/reclaimlab-series-applied" "$RL_KOUT/reclaimlab-series" ||
	cp "$RL_KSRC/.git/reclaimlab-series-applied" "$RL_KOUT/reclaimlab-series"
cmp -s <(source_label) "$RL_KOUT/reclaimlab-source" || source_label >"$RL_KOUT/reclaimlab-source"
publish_build
note "kernel ready: $RL_KERNEL ($(cat "$RL_KOUT/include/config/kernel.release"))"
