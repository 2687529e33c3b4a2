# shellcheck shell=bash
# compare.sh --check: a matrix's exit status is one check's verdict (0
# reproduced, 1 not reproduced, 125 undecided), so that `git bisect run`
# over a kernel tree names the commit that changed it
# (docs/matrices.md#bisecting-a-verdict).  The refusals before any guest
# starts; then a toy range over the lab's own tree, bisected with booted
# guests, both ends confirmed, a matrix judged again with --resume, and the
# verdicts that decide nothing (runs not ok, a kernel of two sources, a
# commit that does not build).
# run-tests: alone: it builds kernels (make -j CPUs+1) between its guests

BISECT_KERNEL=t-bisect
# the toy's check: cgroup v1 reclaim's folio wait (3.6) in memcg-dd's
# vanilla mode, which leaves vm.reclaim_wait_writeback_folio at the
# kernel's default: on ext4 7-10 waits in each seed at the series' default
# (1), none when a commit makes it 0; a count outcome, decided by 4 seeds
# of 4, each run ~3 s
BISECT_CHECK='counter.nr_reclaim_wait_writeback fs=ext4 mode=vanilla > 0'
BISECT_MATRIX=(--scenario memcg-dd --fs ext4 --modes vanilla --repeat 4 --jobs 1)

# bisect_compare REPO LOG OPTION...: compare.sh --check on the toy's HEAD
# (the check first: a refused option exits 125 too); its status
bisect_compare() {
	local repo=$1 log=$2 rc=0
	shift 2
	RL_RESULTS=$TEST_TMP/results "$RL_TOP/scripts/compare.sh" --check "$BISECT_CHECK" \
		--kernel "$BISECT_KERNEL=git:$repo@HEAD" "$@" >"$log" 2>&1 || rc=$?
	grep 'verdict' "$log" >&2 || true
	return "$rc"
}

# expect_status WANT COMMAND...: COMMAND exits with WANT
expect_status() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	[ "$rc" = "$want" ] || fail "exit status $rc, expected $want: $*"
}

# Refused before any kernel builds or guest starts, each with 125 (a
# bisect skips, never blames) and a message naming what is wrong.
t_bisect_check_refusals() {
	local out=$TEST_TMP/refused.err m=$TEST_TMP/refused rc
	run_refused() { # REGEX OPTION...
		local want=$1
		shift
		rc=0
		"$RL_TOP/scripts/compare.sh" "$@" --results "$m" >/dev/null 2>"$out" || rc=$?
		cat "$out"
		[ "$rc" = 125 ] || fail "exit status $rc, expected 125: $*"
		expect_match "$out" "$want" "the refusal of $*"
		expect_match "$out" "verdict of .*: undecided: .*exit 125" "the verdict line of $*"
		[ ! -e "$m" ] || fail "a refused --check left a matrix folder: $*"
	}
	run_refused "bad --check 'workload.oom_kills mode=vanilla >0': .*valid forms: METRIC \[fs=X\] \[mode=Y\] OP NUMBER" \
		--check 'workload.oom_kills mode=vanilla >0' --scenario memcg-dd --fs ext4 --modes vanilla
	run_refused "gives 4 verdicts .*one for each fs \(ext4 xfs\) and mode \(vanilla patched\); name fs=X and mode=Y in the check \(e\.g\. 'workload\.oom_kills fs=ext4 mode=vanilla > 0'\)" \
		--check 'workload.oom_kills > 0' --scenario memcg-dd --fs ext4,xfs --modes vanilla,patched
	# on a matrix of kernels a named mode is judged on each
	run_refused "one for each kernel \(a b\); a check cannot name a kernel" \
		--check 'workload.oom_kills fs=ext4 mode=vanilla > 0' --scenario memcg-dd --fs ext4 --modes vanilla \
		--kernel a=lab --kernel b=lab
	run_refused "names mode=2012-vanilla, which no run of scenario memcg-dd has \(valid: mode=X with X one of: vanilla\)" \
		--check 'workload.oom_kills fs=ext4 mode=2012-vanilla > 0' --scenario memcg-dd --fs ext4 --modes vanilla
	run_refused "judges the runs of one scenario; the matrix has 2 \(fs-completion memcg-dd\)" \
		--check 'workload.oom_kills > 0'
	run_refused "--job-list does not run" \
		--check 'workload.oom_kills fs=ext4 mode=vanilla > 0' --scenario memcg-dd --fs ext4 --modes vanilla \
		--job-list "$TEST_TMP/refused.jobs"
	# an option refused after --check
	run_refused "unknown option '--bogus'" --check 'workload.oom_kills > 0' --bogus
}

# A toy range over the lab's tree: A (the series), B (a comment), C (the
# folio wait's default flipped).  git bisect run names C, building only B;
# A then gives 0 and C 1 (KernelCI's rule: confirm both ends), each a
# rebuild of mm/vmscan.c alone; --resume judges a matrix again without a
# run; runs not ok, a kernel of two commits in one matrix and a commit that
# does not build give 125.
t_bisect_run_names_the_commit() {
	local repo=$TEST_TMP/ktoy a b c d m g=(git -c user.name=t -c user.email=t@t) steps out
	local klog=$RL_BUILD/kernels/$BISECT_KERNEL.log
	git -C "$RL_KSRC" rev-parse -q --verify reclaimlab >/dev/null 2>&1 ||
		fail "no lab source tree with the series applied at $RL_KSRC (make kernel)"
	rm -rf "$repo" "$RL_BUILD/kernels/$BISECT_KERNEL" "$TEST_TMP/results"
	mkdir -p "$TEST_TMP/results"
	# the lab's objects, shared; a work tree of the one file the range edits
	git clone -q --shared --no-checkout "$RL_KSRC" "$repo"
	git -C "$repo" sparse-checkout set --no-cone /mm/vmscan.c
	git -C "$repo" checkout -q -b toy reclaimlab
	a=$(git -C "$repo" rev-parse HEAD)
	sed -i 's|^ \* vm\.reclaim_wait_writeback_folio: 1 lets| * vm.reclaim_wait_writeback_folio (toy commit B): 1 lets|' "$repo/mm/vmscan.c"
	[ -n "$(git -C "$repo" diff)" ] || fail "B: the comment of vm.reclaim_wait_writeback_folio not found in mm/vmscan.c"
	"${g[@]}" -C "$repo" commit -qam "B: a comment"
	b=$(git -C "$repo" rev-parse HEAD)
	sed -i 's/^static int sysctl_reclaim_wait_writeback_folio = 1;/static int sysctl_reclaim_wait_writeback_folio = 0;/' "$repo/mm/vmscan.c"
	[ -n "$(git -C "$repo" diff)" ] || fail "C: the default of vm.reclaim_wait_writeback_folio not found in mm/vmscan.c"
	"${g[@]}" -C "$repo" commit -qam "C: vm.reclaim_wait_writeback_folio defaults to 0"
	c=$(git -C "$repo" rev-parse HEAD)

	# the bisection, as docs/matrices.md gives it
	(
		cd "$repo"
		git bisect start "$c" "$a" >/dev/null
		RL_RESULTS=$TEST_TMP/results git bisect run "$RL_TOP/scripts/compare.sh" --check "$BISECT_CHECK" \
			--kernel "$BISECT_KERNEL=git:$repo@HEAD" "${BISECT_MATRIX[@]}"
	) >"$TEST_TMP/bisect.log" 2>&1 || fail "git bisect run failed: $(tail -5 "$TEST_TMP/bisect.log")"
	grep -E '^running|verdict|first bad' "$TEST_TMP/bisect.log"
	expect_match "$TEST_TMP/bisect.log" "^$c is the first bad commit" "the first bad commit (C, $c)"
	steps=$(grep -c '^running' "$TEST_TMP/bisect.log")
	[ "$steps" = 1 ] || fail "$steps bisect steps, expected 1 (B)"
	expect_match "$TEST_TMP/bisect.log" "verdict of '$BISECT_CHECK' over .*\(kernel=$BISECT_KERNEL\): reproduced \(counter\.nr_reclaim_wait_writeback > 0 in 4 of 4 seeds .*exit 0" "B's verdict"
	grep -q "^git $repo $b\$" "$RL_BUILD/kernels/$BISECT_KERNEL/normal/reclaimlab-source" ||
		fail "the kernel was not built from B: $(cat "$RL_BUILD/kernels/$BISECT_KERNEL/normal/reclaimlab-source")"
	git -C "$repo" bisect reset >/dev/null 2>&1

	# both ends, each a fresh matrix; the tree checked out in place, so
	# the build compiles mm/vmscan.c alone (and the version stamp)
	git -C "$repo" checkout -q "$a"
	expect_status 0 bisect_compare "$repo" "$TEST_TMP/at-a.log" "${BISECT_MATRIX[@]}"
	expect_match "$klog" "checked out $a of $repo" "A's build: an in-place checkout"
	out=$(sed -n 's/^  CC  *//p' "$RL_BUILD/kernels/$BISECT_KERNEL/layout/kernel/normal/build.log" | grep -v '^init/version' | tr '\n' ' ')
	[ "$out" = "mm/vmscan.o " ] || fail "A's build compiled: $out (expected mm/vmscan.o alone)"
	git -C "$repo" checkout -q "$c"
	expect_status 1 bisect_compare "$repo" "$TEST_TMP/at-c.log" "${BISECT_MATRIX[@]}"
	expect_match "$TEST_TMP/at-c.log" "not reproduced \(counter\.nr_reclaim_wait_writeback > 0 in 0 of 4 seeds \(95% CI 0\.00-0\.49\)\); exit 1" "C's verdict"
	for m in "$TEST_TMP"/results/compare-*; do
		# each matrix's runs name the commit they ran on
		grep -h '^kernel_source=' "$m"/runs/*/run.conf | sort -u
	done

	# the ends' matrices judged again: no run, no build
	m=$(sed -n "s/.*verdict of .* over \(.*\) (kernel=.*): reproduced.*/\1/p" "$TEST_TMP/at-a.log")
	[ -d "$m" ] || fail "A's matrix not named by its verdict line: $(grep verdict "$TEST_TMP/at-a.log")"
	expect_status 0 "$RL_TOP/scripts/compare.sh" --resume "$m" --check "$BISECT_CHECK"
	expect_status 1 "$RL_TOP/scripts/compare.sh" --resume "$m" --check 'counter.nr_reclaim_wait_writeback fs=ext4 mode=vanilla == 0'
	# a run of A's matrix redone on C's kernel: a matrix of two commits
	cp -a "$m" "$TEST_TMP/mixed"
	rm -rf "$TEST_TMP/mixed/runs/memcg-dd.ext4.vanilla@$BISECT_KERNEL.r4"
	expect_status 125 "$RL_TOP/scripts/compare.sh" --resume "$TEST_TMP/mixed" --check "$BISECT_CHECK" 2>"$TEST_TMP/mixed.err"
	expect_match "$TEST_TMP/mixed.err" "undecided: the runs of kernel $BISECT_KERNEL were built from different sources" "a matrix of two commits"

	# runs not ok (their watchdog ends them): undecided
	expect_status 125 bisect_compare "$repo" "$TEST_TMP/hung.log" --scenario memcg-dd --fs ext4 --modes vanilla \
		--repeat 3 --jobs 1 --timeout 1
	expect_match "$TEST_TMP/hung.log" "undecided: 3 of 3 runs not ok \(memcg-dd\.ext4\.vanilla@$BISECT_KERNEL\.r1: hung" "runs that hung"

	# a commit that does not build: skipped (125), never blamed
	echo '#error toy commit D does not build' >>"$repo/mm/vmscan.c"
	"${g[@]}" -C "$repo" commit -qam "D: does not build"
	d=$(git -C "$repo" rev-parse HEAD)
	expect_status 125 bisect_compare "$repo" "$TEST_TMP/at-d.log" "${BISECT_MATRIX[@]}"
	expect_match "$TEST_TMP/at-d.log" "kernel $BISECT_KERNEL \(git:$repo@HEAD\) did not build" "D's build"
	expect_match "$klog" "checked out $d of $repo" "D's checkout"
	! grep -q 'run 1 of' "$TEST_TMP/at-d.log" || fail "a guest started on D"
	rm -rf "$RL_BUILD/kernels/$BISECT_KERNEL" "$RL_BUILD/kernels/$BISECT_KERNEL.log"
}
