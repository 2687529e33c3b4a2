# shellcheck shell=bash
# A matrix of kernels (compare.sh --kernel NAME=SPEC): refused specs, a git
# tree's commit as the source, Debian's 6.1 with the lab's UML patches
# (kernel-patches/6.1) booting on the lab's disks, clock and confinement,
# and a matrix of the lab's 6.12 and 6.1 with the MGLRU mode, reported.
# run-tests.sh builds the 6.1 kernel in the background (build_wait).
# run-tests: alone: its matrix runs a guest on every CPU

KERNEL_61_SPEC=6.1=series:$RL_TOP/kernel-patches/6.1

t_kernels_bad_specs_are_refused() {
	local out=$TEST_TMP/kspec.err spec
	for spec in 'nothing' 'a/b=lab' '6.1=series:/nonexistent' 'x=foo:bar' \
		"x=git:$RL_TOP@no-such-commit" 'x=series:/tmp/a b'; do
		if "$RL_TOP/scripts/compare.sh" --kernel "$spec" --results "$TEST_TMP/kspec" >/dev/null 2>"$out"; then
			fail "--kernel '$spec' was taken"
		fi
		cat "$out"
		expect_match "$out" 'valid:|no series file|no commit' "the refusal of --kernel '$spec'"
		[ ! -e "$TEST_TMP/kspec" ] || fail "--kernel '$spec' left a matrix folder"
	done
	# a value with a space is named whole (it was split first, and the
	# message named its first word: issue 45, item 3)
	for spec in 'a b=lab' 'x=series:/tmp/a b' $'x=lab\tb=lab'; do
		! "$RL_TOP/scripts/compare.sh" --kernel "$spec" --results "$TEST_TMP/kspec" >/dev/null 2>"$out" ||
			fail "--kernel '$spec' was taken"
		cat "$out"
		grep -qF "bad --kernel '$(printable "$spec")' (valid: one NAME=SPEC with no space" "$out" ||
			fail "the refusal of --kernel '$spec' does not name it whole: $(cat "$out")"
		[ ! -e "$TEST_TMP/kspec" ] || fail "--kernel '$spec' left a matrix folder"
	done
	if "$RL_TOP/scripts/compare.sh" --kernel 6.12=lab --kernel 6.12=lab --results "$TEST_TMP/kspec" >/dev/null 2>"$out"; then
		fail "the same kernel name twice was taken"
	fi
	expect_match "$out" "kernel name '6.12' given twice"
	# a host's bundle carries the lab's kernel only
	echo : >"$TEST_TMP/khosts"
	if "$RL_TOP/scripts/compare.sh" --kernel 6.12=lab --hosts "$TEST_TMP/khosts" --results "$TEST_TMP/kspec" >/dev/null 2>"$out"; then
		fail "--kernel with --hosts was taken"
	fi
	expect_match "$out" "--hosts runs the lab's kernel only"
}

# git:REPO@REV: that commit, as it is, is the source tree (no series).
t_kernels_git_commit_is_the_source_tree() {
	local repo=$TEST_TMP/ktree src=$RL_BUILD/kernels/t-git-tree/src first second
	rm -rf "$repo" "$RL_BUILD/kernels/t-git-tree"
	git init -q "$repo"
	echo one >"$repo/file"
	git -C "$repo" add file
	git -C "$repo" -c user.name=t -c user.email=t@t commit -qm one
	first=$(git -C "$repo" rev-parse HEAD)
	echo two >"$repo/file"
	git -C "$repo" -c user.name=t -c user.email=t@t commit -qam two
	second=$(git -C "$repo" rev-parse HEAD)
	"$RL_TOP/scripts/build-kernel.sh" --kernel "t-git-tree=git:$repo@$first" --apply-only
	[ "$(cat "$src/file")" = one ] || fail "the tree is not at the first commit: $(cat "$src/file")"
	[ "$(cat "$src/.git/reclaimlab-series-applied")" = "git-$first" ] || fail "series stamp $(cat "$src/.git/reclaimlab-series-applied")"
	"$RL_TOP/scripts/build-kernel.sh" --kernel "t-git-tree=git:$repo@HEAD" --apply-only
	[ "$(cat "$src/file")" = two ] || fail "the tree did not follow HEAD to the second commit"
	[ "$(cat "$src/.git/reclaimlab-series-applied")" = "git-$second" ] || fail "series stamp not the second commit"
	rm -rf "$RL_BUILD/kernels/t-git-tree"
}

# 6.1 with the lab's UML patches only: the emulated disk, the cpu clock,
# the seed, HZ=1000 and hostfs confinement work there as on 6.12, and the
# two KUnit suites of those patches pass.
t_kernels_61_boots_with_the_labs_uml_patches() {
	local run=$TEST_TMP/k61 kernel=$RL_BUILD/kernels/6.1/normal/linux
	build_wait linux-6.1
	[ -x "$kernel" ] || "$RL_TOP/scripts/build-kernel.sh" --kernel "$KERNEL_61_SPEC"
	guest "$run" --kernel "$kernel" --disk ext4:hdd --time-travel=cpu --append kunit.enable=1 -- \
		'uname -r; grep -E "^name=|^max_kb=|^rotational=" /sys/block/ubda/model; head -1 /sys/kernel/debug/time-travel-cpu
		 zcat /proc/config.gz | grep -E "^CONFIG_HZ=|^CONFIG_LRU_GEN="
		 if ln -s / /results/escape 2>/dev/null; then echo "hostfs: escaped"; else echo "hostfs: confined"; fi
		 sleep 2; cut -d" " -f1 /proc/uptime' || fail "guest failed: $(head -1 "$run/status")"
	cat "$run/guest/guest.log"
	expect_match "$run/guest/guest.log" '^6\.1\.[0-9]+-reclaimlab$' "uname -r"
	expect_match "$run/guest/guest.log" '^name=hdd$' "the ubd model"
	expect_match "$run/guest/guest.log" '^max_kb=512$' "the model's largest request"
	expect_match "$run/guest/guest.log" '^rotational=1$' "the model's rotational flag"
	expect_match "$run/guest/guest.log" '^mode cpu$' "the cpu clock"
	expect_match "$run/guest/guest.log" '^CONFIG_HZ=1000$' "HZ"
	expect_match "$run/guest/guest.log" '^CONFIG_LRU_GEN=y$' "the multi-gen LRU"
	expect_match "$run/guest/guest.log" '^hostfs: confined$' "hostfs confinement"
	grep -q '^kernel_source=linux-source-6\.1 ' "$run/run.conf" || fail "run.conf: $(grep kernel_source "$run/run.conf")"
	python3 "$RL_KSRC/tools/testing/kunit/kunit.py" parse "$run/console.log" >"$run.kunit" 2>&1 ||
		fail "KUnit failures on 6.1: $(grep -E 'FAILED|CRASHED|ERROR' "$run.kunit" | head -5 | tr '\n' ';')"
	for suite in ubd_model time_travel_cpu; do
		grep -qE "\[PASSED\] $suite( |$)" "$run.kunit" || fail "KUnit suite $suite did not pass on 6.1"
	done
}

# The same scenario on the lab's 6.12 and on 6.1, in three modes: every run
# completes; 6.1 lacks the series' knobs (recorded absent, the report says
# so), its waits come from upstream's mm_vmscan_throttled, and the report
# names both kernels.
t_kernels_61_matrix_with_6_12_and_mglru() {
	local m=$TEST_TMP/kmatrix r n=0
	build_wait linux-6.1
	"$RL_TOP/scripts/compare.sh" --kernel 6.12=lab --kernel "$KERNEL_61_SPEC" \
		--scenario fs-completion --fs ext4 --modes patched,vanilla,mglru --repeat 1 \
		--results "$m" >"$TEST_TMP/kmatrix.log" 2>&1 || fail "compare.sh failed: $(tail -5 "$TEST_TMP/kmatrix.log")"
	for r in "$m"/runs/*; do
		n=$((n + 1))
		[ "$(head -1 "$r/status")" = ok ] || fail "$(basename "$r"): $(head -1 "$r/status")"
		grep -q $'^waits.events\t' "$r/$RL_DERIVED/summary.tsv" || fail "$(basename "$r"): no waits.events"
	done
	[ "$n" = 6 ] || fail "$n runs, expected 6: $(ls "$m/runs")"
	for r in "$m"/runs/*@6.1.r1; do
		grep -q 'mm_vmscan_reclaim_wait' "$r/guest/trace.txt" && fail "$(basename "$r"): the series' tracepoint on 6.1"
		grep -qx 'vm.pageout_work' "$r/guest/knobs-absent" || fail "$(basename "$r"): knobs absent: $(tr '\n' ' ' <"$r/guest/knobs-absent")"
		grep -qx 'absent' "$r/guest/counters-after.debug-vm" || fail "$(basename "$r"): debugfs counters on 6.1"
	done
	grep -q 'mm_vmscan_throttled' "$m"/runs/fs-completion.ext4.vanilla@6.1.r1/guest/trace.txt ||
		fail "no upstream throttle event in the 6.1 trace (fs-completion throttles on every kernel)"
	# any of MGLRU's masks but 0 (6.1's UML has only the base feature, 0x0001)
	# MGLRU's switch exists on 6.1 (not absent) and a refused write fails the run
	! grep -qx 'sys.kernel.mm.lru_gen.enabled' "$m"/runs/fs-completion.ext4.mglru@6.1.r1/guest/knobs-absent ||
		fail "MGLRU's switch absent in mglru@6.1"
	grep '^- Kernel' "$m/report.md"
	# shellcheck disable=SC2016 # markdown's backquotes
	expect_match "$m/report.md" '^- Kernels .*`6\.12`: 6\.12\.[0-9]+-reclaimlab \(kernel_source linux-source-6\.12 ' "the report's 6.12 kernel"
	# shellcheck disable=SC2016
	expect_match "$m/report.md" '^- Kernels .*`6\.1`: 6\.1\.[0-9]+-reclaimlab \(kernel_source linux-source-6\.1 ' "the report's 6.1 kernel"
	expect_match "$m/report.md" '^- patched@6\.1: .*all absent' "the report on the knobs 6.1 lacks"
	expect_match "$m/report.md" '^- patched@6\.12: vm\.pageout_work=1' "the report on 6.12's knobs"
	expect_match "$m/report.md" '\| ext4 \| vanilla@6\.1 \|' "a table row of vanilla on 6.1"
}
