# shellcheck shell=bash
# The kernel series, on the host alone: kernel-patches/series is the one
# list, kernel-patches/6.1/series names its patches and holds only 6.1's
# own files of some (kernel-patches/README, "The 6.1 series"); both apply
# to their Debian source as they are, every patch checkpatch --strict
# clean, and the apply mechanism itself on a stand-in tree.

# The series folders and their kernels' names, as the tests name them.
SERIES_KERNELS="6.12=kernel-patches 6.1=kernel-patches/6.1"

# series_words DIR: the words of DIR/series' lines (comments and blank
# lines dropped), as scripts/build-kernel.sh reads them
series_words() {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

# series_source DIR: the Debian source package of the series folder DIR
series_source() {
	if [ -f "$1/source" ]; then
		sed -n '1s/[[:space:]]*$//p' "$1/source"
	else
		echo "$RL_KERNEL_SOURCE"
	fi
}

# sparse_source DIR PKG OUT: a git tree at OUT, as build-kernel.sh makes
# one of PKG's tarball ("pristine", its version recorded), with only the
# files the series of DIR changes that are in the tarball (the others are
# created by a patch): a minute's unpack and commit of the whole tree,
# seconds of xz here
sparse_source() {
	local dir=$1 pkg=$2 out=$3 p part hash f
	mkdir -p "$out"
	while read -r p part hash; do
		for f in "$p" $part; do
			[ -f "$dir/$f" ] || fail "$dir/series names $f, which is not there"
			git apply --numstat "$dir/$f" | cut -f3 >>"$out.changed"
			git apply --summary "$dir/$f" | sed -n 's/^ create mode [0-7]* //p' >>"$out.created"
		done
	done < <(series_words "$dir")
	sort -u "$out.changed" | grep -vxF -f "$out.created" | sed "s|^|$pkg/|" >"$out.members"
	tar -xJf "/usr/src/$pkg.tar.xz" -C "$out" --strip-components=1 -T "$out.members" ||
		fail "cannot unpack the series' files from /usr/src/$pkg.tar.xz (install $pkg: scripts/deps.sh --all)"
	git -C "$out" init -q
	git -C "$out" add -f -A
	git -C "$out" -c user.name=t -c user.email=t@t commit -qm "$pkg (pristine, the series' files)"
	git -C "$out" tag pristine
	dpkg-query -W -f='${Version}' "$pkg" >"$out/.git/reclaimlab-source-version"
}

# Each series applies to its kernel's source exactly as the build applies
# it (build-kernel.sh --apply-only, git apply without fuzz): a shared patch
# that no longer applies to 6.12 or to 6.1, a 6.1 part that no longer
# applies, or a 6.12 patch whose changes to a part's files changed fails
# here, naming the kernel and the patch.
t_series_applies_to_both_kernels() {
	local k name dir out i bad="" n
	local -a names=() pids=()
	for k in $SERIES_KERNELS; do
		name=${k%%=*} dir=$RL_TOP/${k#*=} out=$TEST_TMP/series-$name
		(
			sparse_source "$dir" "$(series_source "$dir")" "$out/src"
			RL_KSRC=$out/src RL_PATCHDIR=$dir "$RL_TOP/scripts/build-kernel.sh" --apply-only
		) >"$out.log" 2>&1 &
		names+=("$k")
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		k=${names[$i]}
		name=${k%%=*} dir=$RL_TOP/${k#*=} out=$TEST_TMP/series-$name
		if ! wait "${pids[$i]}"; then
			bad="$bad; kernel $name (${k#*=}/series): $(grep -E 'error|FAIL' "$out.log" | tail -3 | tr '\n' ' ')"
			continue
		fi
		n=$(git -C "$out/src" rev-list --count pristine..HEAD)
		[ "$n" = "$(series_words "$dir" | wc -l)" ] ||
			bad="$bad; kernel $name: $n commits for $(series_words "$dir" | wc -l) series lines"
		echo "kernel $name: $n patches of ${k#*=}/series applied to $(series_source "$dir") $(cat "$out/src/.git/reclaimlab-source-version") ($(wc -l <"$out/src.members") files of its tarball)"
	done
	[ -z "$bad" ] || fail "${bad#; }"
}

# 6.1's series is the lab's: every line names a patch of kernel-patches/
# series, in that order, and every patch in kernel-patches/6.1 is the
# part of a line (no stale copy left beside the series)
t_series_61_names_the_lab_series() {
	local dir=$RL_TOP/kernel-patches/6.1 p part hash last=0 at used="" f
	while read -r p part hash; do
		case "$p" in
		../*) ;;
		*) fail "6.1/series line '$p' is not a patch of kernel-patches/series (../NNNN-...patch)" ;;
		esac
		at=$(series_words "$RL_TOP/kernel-patches" | awk -v p="${p#../}" '$1 == p { print NR }')
		[ -n "$at" ] || fail "6.1/series names $p, which kernel-patches/series does not"
		[ "$at" -gt "$last" ] || fail "6.1/series has $p after a later patch of kernel-patches/series"
		last=$at
		[ -z "$part" ] || used="$used $part"
	done < <(series_words "$dir")
	for f in "$dir"/*.patch; do
		[[ " $used " == *" ${f##*/} "* ]] || fail "kernel-patches/6.1/${f##*/} is not a part of any 6.1/series line"
	done
	echo "6.1: $(series_words "$dir" | wc -l) of kernel-patches/series' patches, $(echo "$used" | wc -w) with 6.1 parts"
}

# Every patch of both series passes the kernel's checkpatch.pl --strict
# (run from the lab's 6.12 tree, as it must be, for its spelling and
# context files).
t_patches_checkpatch_clean() {
	local p out=$TEST_TMP/checkpatch.out bad=""
	for p in "$RL_TOP"/kernel-patches/*.patch "$RL_TOP"/kernel-patches/*/*.patch; do
		(cd "$RL_KSRC" && perl scripts/checkpatch.pl --strict --no-summary --terse "$p") >"$out" 2>&1 ||
			bad="$bad ${p#"$RL_TOP"/}: $(head -3 "$out")"
	done
	[ -z "$bad" ] || fail "checkpatch --strict:$bad"
	echo "$(find "$RL_TOP/kernel-patches" -name '*.patch' | wc -l) patches checkpatch --strict clean"
}

# mk_patch SUBJECT FILE OLD NEW [FILE OLD NEW]...: a format-patch file
# changing each one-line FILE from OLD to NEW
mk_patch() {
	cat <<PATCH
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Lab Tester <lab@example.org>
Date: Mon, 30 Nov 2026 12:00:00 +0000
Subject: [PATCH] $1

Changelog for $1.

Signed-off-by: Lab Tester <lab@example.org>
---
PATCH
	shift
	while [ $# -ge 3 ]; do
		printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n-%s\n+%s\n' "$1" "$1" "$1" "$1" "$2" "$3"
		shift 3
	done
}

# stand_in_tree DIR FILE=CONTENT...: a one-commit "pristine" tree
stand_in_tree() {
	local src=$1 kv
	shift
	mkdir -p "$src"
	git -C "$src" init -q
	for kv; do
		printf '%s\n' "${kv#*=}" >"$src/${kv%%=*}"
	done
	git -C "$src" add -A
	git -C "$src" -c user.name=t -c user.email=t@t commit -qm pristine
	git -C "$src" tag pristine
	dpkg-query -W -f='${Version}' linux-source-6.12 >"$src/.git/reclaimlab-source-version"
}

# The series mechanism on a tiny stand-in tree: patches apply in order as
# commits, a changed series rewrites only the files it changes, and a patch
# that does not apply is named.
t_series_apply_mechanism() {
	local src=$TEST_TMP/ksrc pd=$TEST_TMP/patches m1 m2 out
	mkdir -p "$pd"
	stand_in_tree "$src" a.c=a b.c=b
	mk_patch "change a" a.c a a2 >"$pd/0001-a.patch"
	mk_patch "change b" b.c b b2 >"$pd/0002-b.patch"
	printf '0001-a.patch\n0002-b.patch\n' >"$pd/series"
	RL_KSRC=$src RL_PATCHDIR=$pd "$RL_TOP/scripts/build-kernel.sh" --apply-only
	[ "$(cat "$src/a.c" "$src/b.c" | tr '\n' ,)" = a2,b2, ] || fail "series not applied"
	[ "$(git -C "$src" log --format=%s pristine..HEAD | tr '\n' ,)" = "change b,change a," ] ||
		fail "patches are not one commit each: $(git -C "$src" log --oneline)"
	m1=$(stat -c %Y.%y "$src/a.c")
	sleep 1.1
	mk_patch "change b again" b.c b b3 >"$pd/0002-b.patch"
	RL_KSRC=$src RL_PATCHDIR=$pd "$RL_TOP/scripts/build-kernel.sh" --apply-only
	[ "$(cat "$src/b.c")" = b3 ] || fail "edited patch not re-applied"
	m2=$(stat -c %Y.%y "$src/a.c")
	[ "$m1" = "$m2" ] || fail "a.c was rewritten although its patch did not change"
	mk_patch "broken" a.c zzz q >"$pd/0003-broken.patch"
	echo 0003-broken.patch >>"$pd/series"
	out=$(RL_KSRC=$src RL_PATCHDIR=$pd "$RL_TOP/scripts/build-kernel.sh" --apply-only 2>&1) &&
		fail "a patch that does not apply was accepted"
	grep -q "patch 0003-broken.patch does not apply" <<<"$out" ||
		fail "failure does not name the patch: $out"
	[ "$(cat "$src/b.c")" = b3 ] || fail "a failed series changed the tree"
}

# A second series folder that names the first one's patches (../) with a
# part of its own for one file of a patch: the patch applies without that
# file, the part in its place, as one commit with the patch's subject; a
# part that does not apply, a part of a file the patch does not change, a
# missing hash and a patch whose changes to the part's file changed are
# refused, naming the patch, the part and the hash to write.
t_series_part_mechanism() {
	local src=$TEST_TMP/ksrc-part lab=$TEST_TMP/lab other out hash
	mkdir -p "$lab/other"
	# the other source's c.c differs from the lab's, so the lab's patch
	# does not apply to it there
	stand_in_tree "$src" a.c=a c.c=c-other
	mk_patch "change a and c" a.c a a2 c.c c c2 >"$lab/0001-ac.patch"
	mk_patch "change a and c" c.c c-other c2-other >"$lab/other/0001-ac.patch"
	other=$lab/other
	echo "../0001-ac.patch" >"$other/series"
	out=$(RL_KSRC=$src RL_PATCHDIR=$other "$RL_TOP/scripts/build-kernel.sh" --apply-only 2>&1) &&
		fail "a patch that does not apply to the other source was accepted"
	grep -q "patch ../0001-ac.patch does not apply" <<<"$out" || fail "failure does not name the patch: $out"
	echo "../0001-ac.patch 0001-ac.patch" >"$other/series"
	out=$(RL_KSRC=$src RL_PATCHDIR=$other "$RL_TOP/scripts/build-kernel.sh" --apply-only 2>&1) &&
		fail "a part with no hash was accepted"
	hash=$(sed -n 's/.*changes to c.c, hash \([0-9a-f]\{12\}\)$/\1/p' <<<"$out")
	[ -n "$hash" ] || fail "the refusal of a line with no hash does not name the hash: $out"
	echo "../0001-ac.patch 0001-ac.patch $hash" >"$other/series"
	RL_KSRC=$src RL_PATCHDIR=$other "$RL_TOP/scripts/build-kernel.sh" --apply-only
	[ "$(cat "$src/a.c" "$src/c.c" | tr '\n' ,)" = a2,c2-other, ] || fail "patch and part not applied: $(cat "$src/a.c" "$src/c.c")"
	[ "$(git -C "$src" log --format=%s pristine..HEAD)" = "change a and c" ] ||
		fail "patch and part are not one commit of the patch's subject: $(git -C "$src" log --oneline pristine..HEAD)"
	# a fix to the lab's a.c change reaches the other source as it is
	mk_patch "change a and c" a.c a a3 c.c c c2 >"$lab/0001-ac.patch"
	RL_KSRC=$src RL_PATCHDIR=$other "$RL_TOP/scripts/build-kernel.sh" --apply-only ||
		fail "a fix outside the part's file stopped the part"
	[ "$(cat "$src/a.c")" = a3 ] || fail "the fix did not reach the other source: $(cat "$src/a.c")"
	# a fix to the lab's c.c change: the part must follow
	mk_patch "change a and c" a.c a a2 c.c c c3 >"$lab/0001-ac.patch"
	out=$(RL_KSRC=$src RL_PATCHDIR=$other "$RL_TOP/scripts/build-kernel.sh" --apply-only 2>&1) &&
		fail "a part was applied after the patch's changes to its file changed"
	grep -q "../0001-ac.patch changes c.c otherwise than 0001-ac.patch follows (hash [0-9a-f]\{12\}, its line in .* says $hash)" <<<"$out" ||
		fail "the refusal does not name the patch, the part and the hashes: $out"
	[ "$(cat "$src/c.c")" = c2-other ] || fail "a refused series changed the tree"
	# a part of a file the patch does not change
	mk_patch "change a and c" a.c a a2 c.c c c2 >"$lab/0001-ac.patch"
	mk_patch "change b" b.c b b2 >"$other/0001-ac.patch"
	out=$(RL_KSRC=$src RL_PATCHDIR=$other "$RL_TOP/scripts/build-kernel.sh" --apply-only 2>&1) &&
		fail "a part of a file its patch does not change was accepted"
	grep -q "0001-ac.patch changes b.c, which ../0001-ac.patch does not" <<<"$out" || fail "refusal does not name the file: $out"
	# a part that does not apply
	mk_patch "change a and c" c.c zzz q >"$other/0001-ac.patch"
	out=$(RL_KSRC=$src RL_PATCHDIR=$other "$RL_TOP/scripts/build-kernel.sh" --apply-only 2>&1) &&
		fail "a part that does not apply was accepted"
	grep -q "patch 0001-ac.patch (other's own c.c of ../0001-ac.patch) does not apply" <<<"$out" ||
		fail "failure does not name the part: $out"
}
