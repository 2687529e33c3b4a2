# shellcheck shell=bash
# What a guest, a job list or a matrix folder holds is data (issue 27): the
# guest writes only into RUN/guest, the host's record of a run is what the
# host wrote, and job lists, matrix folders and numbers are checked before
# anything runs.  The guest-side confinement (hostfs) is t-12's.

# A guest that rewrites what it can of the run's record: the host's
# run.conf and status are out of its reach, its forged copies in guest/
# are ignored, and its real exit status is the run's.
t_guest_cannot_forge_the_hosts_record() {
	local run=$TEST_TMP/forge
	cat >"$run.job" <<'JOB'
printf '%s\n' "mode=patched'; system \"id >GUEST-RAN-THIS\"; print '" >>/results/run.conf
printf 'ok\nexit_status=0\n' >/results/status
mkdir /results/status.tmp /results/derived
ls -a /results
exit 3
JOB
	guest "$run" --disk ext4 --job "$run.job" && fail "a guest that exited 3 was reported ok"
	cat "$run/status"
	[ "$(stat -c %a "$run/guest")" = 700 ] || fail "the guest's folder is mode $(stat -c %a "$run/guest"), not 700"
	expect_match "$run/status" '^failed$' "the run's status"
	expect_match "$run/status" '^exit_status=3$' "the run's exit status"
	! grep -q 'system' "$run/run.conf" || fail "the guest reached the host's run.conf"
	[ ! -e "$run/status.tmp" ] || fail "a status.tmp was left"
	grep -q 'system' "$run/guest/run.conf" || fail "the guest's own run.conf copy was not written: $(ls "$run/guest")"
	"$RL_TOP/scripts/summarize-run.sh" "$run" || true
	[ -z "$(find "$run" "$TEST_TMP" -maxdepth 3 -name 'GUEST-RAN-THIS*' 2>/dev/null)" ] ||
		fail "the guest ran a command on the host"
}

# A matrix whose guest-written files carry the gnuplot exploit, and whose
# host record carries a quote in fs and mode (as a hand-edited or old
# matrix might): the report and its plots run no command.
t_report_runs_no_command_from_a_run() {
	local m=$TEST_TMP/exploit-matrix r evil
	cp -r "$RL_TOP/tests/fixtures/report/matrix" "$m"
	evil="patched'; system \"touch $m/GUEST-RAN-THIS\"; print '"
	for r in "$m"/runs/fs-completion.ext4.patched.r*; do
		printf 'mode=%s\nfs=%s\n' "$evil" "$evil" >>"$r/guest/run.conf"
		# the host's record hand-edited: the last knobs= line wins
		printf 'knobs=vm.x=%s\n' "$evil" >>"$r/run.conf"
	done
	r=$m/runs/fs-completion.xfs.patched.r1
	sed -i "s|^mode=.*|mode=$evil|; s|^fs=.*|fs=xfs'; system \"touch $m/GUEST-RAN-THIS2\"; print '|" "$r/run.conf"
	(cd "$m" && "$RL_TOP/scripts/report.sh" "$m") >"$m.log" 2>&1 || true
	cat "$m.log"
	[ -z "$(find / -xdev -maxdepth 6 -name 'GUEST-RAN-THIS*' 2>/dev/null | head -1)" ] ||
		fail "a run's value ran a command: $(find / -xdev -maxdepth 6 -name 'GUEST-RAN-THIS*' 2>/dev/null)"
	[ -s "$m/report.md" ] || fail "no report for the matrix"
}

# A job list line may carry only compare.sh's options: a program to wrap,
# a file to copy in or a kernel of anyone's choosing is refused before
# anything runs.
t_job_list_holds_only_compares_options() {
	local m=$TEST_TMP/joblist list line n=0 out lines
	mkdir -p "$m/runs"
	m=$(cd "$m" && pwd -P)
	list=$TEST_TMP/joblist.tsv
	{
		printf '%s\t--scenario\tmemcg-dd\t--wrap\t/usr/bin/touch %s/WRAPPED\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1" "$m"
		printf '%s\t--scenario\tmemcg-dd\t--job\t/etc/shadow\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1"
		printf '%s\t--scenario\tmemcg-dd\t--kernel\t/bin/true\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1"
		printf '%s\t--scenario\tmemcg-dd\t--append\tinit=/bin/sh\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1"
		# shellcheck disable=SC2016 # the $(id) is the line's text
		printf '%s\t--scenario\tmemcg-dd\t--set\tA=$(id)\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1"
		printf '%s\t--scenario\tmemcg-dd\t--seed\n' "$m/runs/memcg-dd.ext4.patched.r1"
		# an option's other forms: a flag with a value, a clock not joined
		printf '%s\t--scenario\tmemcg-dd\t--native=1\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1"
		printf '%s\t--scenario\tmemcg-dd\t--time-travel\tcpu\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1"
		printf '%s\t--scenario\tmemcg-dd\t--swap=hdd\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1"
		printf '%s\t--scenario=memcg-dd\t--disk\text4\n' "$m/runs/memcg-dd.ext4.patched.r1"
	} >"$list"
	mapfile -t lines <"$list"
	for line in "${lines[@]}"; do
		n=$((n + 1))
		out=$("$RL_TOP/scripts/run-listed.sh" "$list" "$n" 2>&1) && fail "line $n was run: $line"
		echo "line $n: $out"
		grep -q 'error: .*job line.*\(valid\|not one this lab built\|no value\)' <<<"$out" ||
			fail "line $n gave no clear error: $out"
	done
	[ -z "$(ls -A "$m/runs")" ] || fail "a refused line made a run folder: $(ls "$m/runs")"
	[ ! -e "$m/WRAPPED" ] || fail "--wrap ran a program"
}

# --resume of a matrix folder handed over by someone else builds nothing:
# its kernels= line names a git tree whose Makefile would run.
t_resume_builds_no_kernel() {
	local m=$TEST_TMP/resume-git repo=$TEST_TMP/evil-tree out
	mkdir -p "$repo" "$m/runs"
	printf 'all:\n\ttouch %s/BUILT\n' "$repo" >"$repo/Makefile"
	git -C "$repo" init -q
	git -C "$repo" -c user.name=t -c user.email=t@t add Makefile
	git -C "$repo" -c user.name=t -c user.email=t@t commit -qm evil
	printf '%s\n' scenarios=memcg-dd filesystems=ext4 modes=patched "kernels=evil=git:$repo@HEAD" \
		repeat=1 clock=cpu >"$m/matrix.conf"
	out=$("$RL_TOP/scripts/compare.sh" --resume "$m" 2>&1) && fail "--resume of a foreign kernel ran: $out"
	echo "$out"
	grep -q 'error: --resume builds no kernel' <<<"$out" || fail "no clear error: $out"
	[ ! -e "$repo/BUILT" ] || fail "--resume ran the tree's Makefile"
	[ -z "$(ls -A "$m/runs")" ] || fail "--resume ran something"
}

# An empty folder of another user's is no run or results folder: that user
# could plant links where root's scripts write.
t_folder_of_another_user_refused() {
	local d=$TEST_TMP/theirs out
	[ "$(id -u)" = 0 ] || { echo "not root: another user's folder cannot be made here"; return 0; }
	unprivileged true
	mkdir -p "$d/run" "$d/matrix"
	chown "$UNPRIV_USER" "$d/run" "$d/matrix"
	out=$("$RL_TOP/scripts/run.sh" --out "$d/run" -- true 2>&1) && fail "run.sh used another user's folder"
	grep -q "error: run folder .* is not yours" <<<"$out" || fail "run.sh: no clear error: $out"
	out=$("$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs ext4 --results "$d/matrix" 2>&1) &&
		fail "compare.sh used another user's folder"
	grep -q "error: results folder .* is not yours" <<<"$out" || fail "compare.sh: no clear error: $out"
	{ [ -z "$(ls -A "$d/run")" ] && [ -z "$(ls -A "$d/matrix")" ]; } ||
		fail "something was written into their folder: $(ls -AR "$d")"
}

# Numbers past their range are refused, naming the range, before any
# arithmetic (bash wraps past 2^63: a deadline in the past, a loop without end).
t_numbers_past_their_range_refused() {
	local out
	out=$("$RL_TOP/scripts/run.sh" --timeout 9223372036854775000 -- true 2>&1) && fail "run.sh took the timeout"
	grep -q "bad --timeout '9223372036854775000' (valid: a whole number from 1 to" <<<"$out" || fail "run.sh: $out"
	out=$("$RL_TOP/scripts/run.sh" --seed 12345678901234567890 -- true 2>&1) && fail "run.sh took the seed"
	grep -q "bad --seed .*valid: a whole number from 0 to" <<<"$out" || fail "run.sh: $out"
	for a in "--jobs 99999999999999999999" "--repeat 99999999999999999999" "--timeout 9223372036854775000"; do
		# shellcheck disable=SC2086 # option and value
		out=$(timeout 60 "$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs ext4 $a --results "$TEST_TMP/nums" 2>&1) &&
			fail "compare.sh took $a"
		grep -q "bad ${a%% *} .*(valid: a whole number from 1 to" <<<"$out" || fail "compare.sh $a: $out"
	done
	[ ! -e "$TEST_TMP/nums" ] || fail "a refused number made a results folder"
}

# kill -9 of compare.sh: its runs die with it (their TERM marks them
# interrupted), and while one still ran a --resume would be refused.
t_killed_compare_takes_its_runs_along() {
	local m=$TEST_TMP/killed pid run
	"$RL_TOP/scripts/compare.sh" --scenario fs-completion --fs ext4 --modes patched --jobs 1 \
		--set WRITE_SIZE=256M --results "$m" >"$m.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		run=$(grep -lx running "$m"/runs/*/status 2>/dev/null | head -1 || true)
		[ -z "$run" ] || break
		sleep 0.1
	done
	[ -n "$run" ] || fail "no run started: $(cat "$m.log")"
	run=$(dirname "$run")
	# a second compare.sh on the same matrix is refused while it runs
	! "$RL_TOP/scripts/compare.sh" --resume "$m" >"$m.second" 2>&1 || fail "a second compare.sh ran beside the first"
	expect_match "$m.second" "error: matrix .* is in use" "the second compare.sh's error"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	for _ in $(seq 300); do
		[ "$(head -1 "$run/status")" = running ] || break
		sleep 0.1
	done
	cat "$run/status"
	expect_match "$run/status" '^interrupted$' "the orphaned run's status"
	expect_no_uml_left "$(basename "$run")"
}

# A guest whose memory and declared writes do not fit RL_TMPDIR is refused
# before boot, naming the sizes.
t_overlays_that_cannot_fit_refused() {
	local shm=$TEST_TMP/small-shm out
	[ "$(id -u)" = 0 ] || { echo "not root: no small tmpfs to test with"; return 0; }
	mkdir -p "$shm"
	mount -t tmpfs -o size=300M tmpfs "$shm" || fail "cannot mount a tmpfs"
	out=$(RL_TMPDIR=$shm "$RL_TOP/scripts/run.sh" --mem 256M --scenario memcg-dd --disk ext4 \
		--set WRITE_SIZE=64M 2>&1) && { umount "$shm"; fail "a run that cannot fit started: $out"; }
	umount "$shm"
	echo "$out"
	grep -q "error: the guest's memory and what the scenario writes need .* which has .* free" <<<"$out" ||
		fail "no clear error: $out"
}

# A guest that fills the host filesystem of its run folder still leaves a
# final status that says so, and no status.tmp.
t_full_host_disk_gives_a_final_status() {
	local fsdir=$TEST_TMP/tiny-fs run
	[ "$(id -u)" = 0 ] || { echo "not root: no small filesystem to test with"; return 0; }
	mkdir -p "$fsdir"
	mount -t tmpfs -o size=8M tmpfs "$fsdir" || fail "cannot mount a tmpfs"
	run=$fsdir/run
	RL_MIN_FREE=1M guest "$run" -- 'dd if=/dev/zero of=/results/fill bs=1M count=32 2>&1; true' || true
	cp "$run/status" "$TEST_TMP/tiny-status" 2>/dev/null || true
	ls -la "$run" >"$TEST_TMP/tiny-ls" 2>&1 || true
	umount "$fsdir"
	cat "$TEST_TMP/tiny-status" "$TEST_TMP/tiny-ls"
	! grep -qx 'running' "$TEST_TMP/tiny-status" || fail "the run was left 'running'"
	expect_match "$TEST_TMP/tiny-status" '^host_disk_full=1$' "the status"
	! grep -q 'status.tmp' "$TEST_TMP/tiny-ls" || fail "a status.tmp was left"
}

# A guest's processes are host processes: their number is bounded
# (RL_MAX_GUEST_PROCS; a pids cgroup for root, RLIMIT_NPROC for a user),
# so a guest that forks without end meets a failed fork, not the host's
# process table.
t_guest_host_processes_bounded() {
	local run=$TEST_TMP/procs out stale="" dead
	# what a run.sh killed with SIGKILL leaves, for the next run to sweep:
	# the pids cgroup of a process that is gone
	if [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/pids/cgroup.procs ]; then
		true &
		dead=$!
		wait "$dead"
		stale=/sys/fs/cgroup/pids/reclaimlab-stale.ext4.vanilla.r1-$dead
		mkdir "$stale"
	fi
	# shellcheck disable=SC2016 # the guest's shell expands it
	RL_MAX_GUEST_PROCS=40 guest "$run" -- 'for i in $(seq 100); do sleep 5 & done; wait' || true
	tail -3 "$run/guest/guest.log"
	expect_match "$run/guest/guest.log" "can't fork" "the guest's forks past the bound"
	[ -z "$(find /sys/fs/cgroup -maxdepth 2 -name "reclaimlab-procs-*" 2>/dev/null)" ] ||
		fail "the run's cgroup was left behind"
	[ -z "$stale" ] || [ ! -d "$stale" ] || fail "a dead run's cgroup was not swept: $stale"
	out=$(RL_MAX_GUEST_PROCS=5 "$RL_TOP/scripts/run.sh" --out "$TEST_TMP/procs2" -- true 2>&1) &&
		fail "RL_MAX_GUEST_PROCS=5 was taken"
	grep -q "bad RL_MAX_GUEST_PROCS '5' (valid: a whole number from 16 to 65536)" <<<"$out" || fail "no clear error: $out"
}
