# shellcheck shell=bash
# 2009's kupdate writeout in the 2009-bug mode (vm.writeback_2009_kupdate,
# patch 0034; its KUnit suite writeback_2009_kupdate runs in t-15): 4 MiB
# kupdate slices, and an inode whose slice ran out waits on b_dirty for its
# next expiry instead of staying queued on b_more_io (2009-fixed, 6.12).

# kupdate-after-exit in MODE at its own sizes (ten writers of 16M, a 1G
# guest) on an ext4 hdd, cpu clock; prints the run folder.  Ten writers,
# because the bug needs a newer inode on b_dirty: redirty_tail() stamps an
# inode only when it is older than the newest there, and background
# writeout while they write leaves their stamps staggered; two writers
# dirtied at once, under the background threshold, expire together, find
# b_dirty empty, keep their stamps and are written in one pass in either
# mode (measured: 32 MiB in one pass at 5 s), as the thread's single dd
# never showed the bug.
k2009_run() { # MODE
	local run=$TEST_TMP/k2009-$1
	if [ ! -f "$run/status" ]; then
		guest "$run" --timeout 300 --time-travel=cpu --disk ext4:hdd --scenario kupdate-after-exit \
			--mode "$1" >/dev/null ||
			fail "the $1 run failed: $(head -1 "$run/status")"
	fi
	echo "$run"
}

# The kupdate passes of a run: from its dirty-after-exit.tsv (0.5 s samples
# of the disk's written KiB), each stretch of samples that wrote 1 MiB or
# more (ext4's journal commits write a few KiB every 5 s between them),
# split where 10 s or more passed without such a sample.  Prints a line per
# pass: "START_S KIB_WRITTEN DIRTY_KIB_AFTER".
kupdate_passes() { # RUN
	awk 'NR > 2 && $3 - w >= 1024 {
			if (n == 0 || $1 - last >= 10) { if (n) print start, kb, dirty; n++; start = t; kb = 0 }
			kb += $3 - w; last = $1; dirty = $2 }
		NR > 1 { t = $1; w = $3 }
		END { if (n) print start, kb, dirty }' "$1/guest/dirty-after-exit.tsv"
}

# The knob took effect in 2009-bug (set, not absent) and is off in
# 2009-fixed; the kernel keeps it to 0 and 1.
t_2009_kupdate_knob_is_set_and_bounded() {
	local bug fixed out
	bug=$(k2009_run 2009-bug)
	fixed=$(k2009_run 2009-fixed)
	expect_match "$bug/run.conf" '^knobs=.*vm.writeback_2009_kupdate=1' "2009-bug's knobs"
	expect_match "$fixed/run.conf" '^knobs=.*vm.writeback_2009_kupdate=0' "2009-fixed's knobs"
	for r in "$bug" "$fixed"; do
		expect_match "$r/status" '^knobs_absent=$' "${r##*/}'s status (a knob the kernel lacks is named there)"
	done
	# shellcheck disable=SC2016 # the guest's shell expands it
	guest "$TEST_TMP/k2009-bounds" -- 'f=/proc/sys/vm/writeback_2009_kupdate
		echo "default $(cat $f)"
		if echo 2 >$f; then echo "took 2"; else echo "refused 2"; fi
		echo "after $(cat $f)"
		echo 1 >$f && echo "set $(cat $f)"' >/dev/null ||
		fail "the bounds guest failed: $(head -1 "$TEST_TMP/k2009-bounds/status")"
	out=$(cat "$TEST_TMP/k2009-bounds/guest/guest.log")
	echo "$out"
	grep -qx 'default 0' <<<"$out" || fail "the knob is not 0 by default"
	grep -qx 'refused 2' <<<"$out" || fail "the knob took 2 (valid: 0 and 1)"
	grep -qx 'after 0' <<<"$out" || fail "a refused write changed the knob"
	grep -qx 'set 1' <<<"$out" || fail "the knob does not take 1"
}

# With the knob each kupdate pass after the background writeout writes a
# 4 MiB slice of each of the ten files and leaves the rest for the next
# expiry: two passes or more after the first, none writing more than 10 x
# 4 MiB and a little metadata, one leaving 16 MiB or more dirty.  Without
# it the pass after the first writes all that is left.
t_2009_kupdate_slices_wait_for_expiry() {
	local bug fixed p n
	bug=$(k2009_run 2009-bug)
	fixed=$(k2009_run 2009-fixed)
	for r in "$bug" "$fixed"; do
		echo "${r##*/}: $(cat "$r/guest/kupdate.out")"
		kupdate_passes "$r" | sed 's/^/  pass at s, KiB written, dirty KiB after: /'
	done
	p=$(kupdate_passes "$bug")
	n=$(wc -l <<<"$p")
	[ "$n" -ge 3 ] || fail "2009-bug wrote the leftover in $((n - 1)) kupdate passes after the first (expected 2 or more)"
	awk 'NR > 1 && $2 > 10 * 4096 + 2048 { print; exit 1 }' <<<"$p" >/dev/null ||
		fail "a 2009-bug pass after the first wrote more than 10 x 4 MiB: $(awk 'NR > 1 && $2 > 43008' <<<"$p" | head -1)"
	awk 'NR > 1 && $3 >= 16384 { ok = 1 } END { exit !ok }' <<<"$p" ||
		fail "no 2009-bug pass after the first left 16 MiB or more for the next expiry"
	p=$(kupdate_passes "$fixed")
	n=$(wc -l <<<"$p")
	[ "$n" -le 2 ] || fail "2009-fixed took $n passes (expected the background writeout and one kupdate pass)"
	awk 'END { exit !($3 <= 1024) }' <<<"$p" || fail "2009-fixed's last pass left $(tail -1 <<<"$p" | cut -d' ' -f3) KiB dirty"
}
