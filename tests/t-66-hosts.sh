# shellcheck shell=bash
# A matrix over several machines (compare.sh --hosts) on this one: parallel's
# local login ':' and pretend hosts reached through an --ssh wrapper that
# runs each command in a folder of the host's own with a fresh environment,
# so that bundles and run folders really travel.  One small matrix (memcg-dd
# on ext4, patched and vanilla, 2 repeats, cpu clock) on one host and on
# two must give the same runs and the same report.
# run-tests: alone: its matrices run a guest on every CPU

HOSTS_MATRIX_OPTS=(--scenario memcg-dd --fs ext4 --modes "patched,vanilla" --repeat 2)

# hosts_setup: the pretend ssh and the hosts files.  Host 'unreachable'
# refuses every connection; host 'dying' dies as soon as each run has
# begun (its copies work, so what the run left comes back).
hosts_setup() {
	[ ! -x "$TEST_TMP/fake-ssh" ] || return 0
	cat >"$TEST_TMP/fake-ssh" <<EOF
#!/bin/bash
# pretend ssh: LOGIN COMMAND, run in the host's own login folder
host=\$1
shift
[ "\$host" != unreachable ] || { echo "ssh: connect to host unreachable port 22: No route to host" >&2; exit 255; }
dir=$TEST_TMP/host-\$host
mkdir -p "\$dir" && cd "\$dir" || exit 255
if [ "\$host" = dying ] && [[ "\$*" = *scripts/run.sh* ]]; then
	# dies once its run has begun (a status "running" newer than the start;
	# a fixed 2 s was too short for a loaded host), or after 300 s
	touch "\$dir/.started"
	env -i HOME="\$dir" PATH="\$PATH" bash -c "\$*" &
	for _ in \$(seq 600); do
		[ -z "\$(find "\$dir" -name status -newer "\$dir/.started" -exec grep -lx running {} + 2>/dev/null)" ] || break
		sleep 0.5
	done
	kill -KILL \$!
	exit 255
fi
exec env -i HOME="\$dir" PATH="\$PATH" bash -c "\$*"
EOF
	chmod +x "$TEST_TMP/fake-ssh"
	printf '# this machine and a pretend second host\n1/:\n1/hostb\n' >"$TEST_TMP/hosts-two"
	printf '1/unreachable\n1/dying\n\n1/hostb\n' >"$TEST_TMP/hosts-failing"
}

# hosts_compare HOSTS-FILE RESULTS [compare.sh options]: compare.sh --hosts
# through the pretend ssh; its output in RESULTS.log, then what the hosts
# said (hosts_details)
hosts_compare() {
	local hosts=$1 m=$2 rc=0
	shift 2
	hosts_setup
	# without SHELL, as under CI (parallel's worker runs jobs with $SHELL)
	env -u SHELL "$RL_TOP/scripts/compare.sh" --hosts "$hosts" --ssh "$TEST_TMP/fake-ssh" --results "$m" "$@" \
		>"$m.log" 2>&1 || rc=$?
	hosts_details "$m" >>"$m.log"
	return "$rc"
}

# hosts_details MATRIX: why attempts failed, for a failing test's output
# (it shows the log's end): hosts.log, parallel's joblog (exit values and
# commands), each run's stderr on its host
hosts_details() {
	local f
	for f in "$1/hosts.log" "$1/hosts.joblog" "$1"/*.err; do
		[ -s "$f" ] || continue
		echo "--- ${f##*/}:"
		cut -c1-300 "$f" | tail -8
	done
}

# one_host_matrix, two_host_matrix: the matrix on this machine, and on ':'
# and hostb; run once, read by several tests
one_host_matrix() {
	local m=$TEST_TMP/hosts-one
	[ -f "$m/report.md" ] ||
		"$RL_TOP/scripts/compare.sh" "${HOSTS_MATRIX_OPTS[@]}" --jobs 1 --results "$m" >"$m.log" 2>&1 || true
	echo "$m"
}
two_host_matrix() {
	local m=$TEST_TMP/hosts-two-m
	[ -f "$m/report.md" ] || hosts_compare "$TEST_TMP/hosts-two" "$m" "${HOSTS_MATRIX_OPTS[@]}" || true
	echo "$m"
}

# rows RUNDIR: the run's summary rows but its wall time, sorted
rows() {
	grep -v $'^run.wall_seconds\t' "$1/$RL_DERIVED/summary.tsv" | sort
}

# same_runs A B: every run of matrix A has B's summary rows, wall time aside
same_runs() {
	local r n=0
	for r in "$1"/runs/*; do
		[ -s "$r/$RL_DERIVED/summary.tsv" ] || fail "no summary in $r"
		diff <(rows "$r") <(rows "$2/runs/${r##*/}") >"$TEST_TMP/rows.diff" ||
			fail "${r##*/} differs between ${1##*/} and ${2##*/}: $(head -12 "$TEST_TMP/rows.diff")"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "no runs in $1"
	echo "$n runs of ${1##*/} and ${2##*/} have the same summary rows (wall time aside)"
}

t_hosts_file_errors_name_the_line() {
	local out=$TEST_TMP/hosts-bad.out
	hosts_setup
	printf '1/:\n# fine\nssh -p 2222 lab2\n' >"$TEST_TMP/hosts-bad"
	! "$RL_TOP/scripts/compare.sh" --hosts "$TEST_TMP/hosts-bad" >"$out" 2>&1 || fail "a bad hosts line was accepted"
	cat "$out"
	expect_match "$out" "hosts file '.*hosts-bad' line 3: bad entry 'ssh -p 2222 lab2' \(valid: ':' \(this machine\), HOST or USER@HOST, each optionally with N/ in front"
	printf '2/lab2\n0/lab3\n' >"$TEST_TMP/hosts-bad"
	! "$RL_TOP/scripts/compare.sh" --hosts "$TEST_TMP/hosts-bad" >"$out" 2>&1 || fail "0/HOST was accepted"
	expect_match "$out" "line 2: bad entry '0/lab3'"
	printf 'lab2\n4/lab2\n' >"$TEST_TMP/hosts-bad"
	! "$RL_TOP/scripts/compare.sh" --hosts "$TEST_TMP/hosts-bad" >"$out" 2>&1 || fail "a host given twice was accepted"
	expect_match "$out" "line 2: host 'lab2' given twice"
	! "$RL_TOP/scripts/compare.sh" --hosts "$TEST_TMP/hosts-two" --jobs 2 >"$out" 2>&1 || fail "--jobs with --hosts was accepted"
	expect_match "$out" 'with --hosts give each host.s runs at once in its line \(N/HOST\)'
	! "$RL_TOP/scripts/compare.sh" --ssh "$TEST_TMP/fake-ssh" >"$out" 2>&1 || fail "--ssh without --hosts was accepted"
	expect_match "$out" '--ssh is how --hosts reaches a host; give --hosts FILE too'
	! "$RL_TOP/scripts/compare.sh" --hosts "$TEST_TMP/hosts-two" --ssh "$TEST_TMP/no-such-ssh" >"$out" 2>&1 ||
		fail "a missing ssh command was accepted"
	expect_match "$out" "ssh command '.*no-such-ssh' not found"
}

# Both hosts ran runs, each from its own copy of the bundle, all came back
# into the one matrix, and the runs and the report are the one host's.
t_hosts_two_hosts_give_the_one_host_report() {
	local one two r bundles ran=""
	one=$(one_host_matrix)
	two=$(two_host_matrix)
	tail -3 "$one.log"
	cat "$two.log"
	grep -qE '^- Runs: 4 \(4 ok\)' "$two/report.md" ||
		fail "two hosts' report has $(grep '^- Runs:' "$two/report.md"), not 4 ok runs; $(hosts_details "$two")"
	for r in "$two"/runs/*; do
		[ "$(head -1 "$r/status")" = ok ] || fail "${r##*/}: $(head -1 "$r/status")"
		[ -f "$r/host" ] || fail "${r##*/}: no host file"
		ran="$ran $(cat "$r/host")"
	done
	echo "ran on:$ran"
	word_in : "$ran" || fail "this machine ran no run"
	word_in hostb "$ran" || fail "hostb ran no run"
	# hostb's runs came from hostb's bundle (named by its content hash)
	bundles=$(ls "$TEST_TMP/host-hostb/$RL_REMOTE_DIR/bundles")
	[[ "$bundles" =~ ^[0-9a-f]{64}$ ]] || fail "hostb holds bundles '$bundles', expected one named by a SHA-256"
	for r in "$two"/runs/*; do
		[ "$(cat "$r/host")" = hostb ] || continue
		expect_match "$r/run.conf" "^kernel=$TEST_TMP/host-hostb/$RL_REMOTE_DIR/bundles/$bundles/build/kernel/" "${r##*/} run.conf"
	done
	[ -z "$(ls -A "$TEST_TMP/host-hostb/$RL_REMOTE_DIR/runs")" ] || fail "hostb kept scratch folders"
	same_runs "$one" "$two"
	# the report but its title (the folder's name) and start time
	diff <(grep -v '^# reclaimlab report:\|^- Runs started:' "$one/report.md") \
		<(grep -v '^# reclaimlab report:\|^- Runs started:' "$two/report.md") >"$TEST_TMP/report.diff" ||
		fail "the reports differ: $(head -20 "$TEST_TMP/report.diff")"
	echo "the reports are the same (title and start time aside): $(wc -l <"$two/report.md") lines"
}

# An unreachable host is left out; the runs of a host that dies are
# retried on another; what the dead attempt left is kept aside.
t_hosts_failed_host_runs_go_elsewhere() {
	local m=$TEST_TMP/hosts-failing-m r n=0
	hosts_compare "$TEST_TMP/hosts-failing" "$m" --scenario memcg-dd --fs ext4 --modes patched,vanilla --repeat 1 ||
		fail "compare.sh failed: $(tail -30 "$m.log")"
	cat "$m.log"
	expect_match "$m.log" 'host unreachable: cannot reach it or copy the bundle there; its runs go to the other hosts'
	for r in "$m"/runs/*.r1; do
		[ "$(head -1 "$r/status")" = ok ] || fail "${r##*/}: $(head -1 "$r/status")"
		[ "$(cat "$r/host")" = hostb ] || fail "${r##*/} ran on $(cat "$r/host"), not on hostb"
	done
	cat "$m/hosts.log"
	expect_match "$m/hosts.log" ' memcg-dd\.ext4\.[a-z]+\.r1 on dying: no final status \(running\)' "hosts.log"
	for r in "$m"/runs/*.interrupted.*; do
		[ -d "$r" ] || continue
		[ "$(cat "$r/host")" = dying ] || fail "${r##*/} was not dying's attempt"
		n=$((n + 1))
	done
	[ "$n" -ge 1 ] || fail "no attempt of dying kept aside"
	echo "$n attempts on dying kept aside; every run finished on hostb"
	expect_match "$m/report.md" '^- Runs: 2 \(2 ok\)' "report"
	# a run no host finishes fails the matrix, and says how to go on
	printf '1/dying\n' >"$TEST_TMP/hosts-dying"
	! hosts_compare "$TEST_TMP/hosts-dying" "$m-dying" --scenario memcg-dd --fs ext4 --modes patched --repeat 1 ||
		fail "a matrix whose run finished nowhere succeeded"
	cat "$m-dying.log"
	expect_match "$m-dying.log" "1 runs did not finish on any host .*; continue with: scripts/compare.sh --resume $m-dying --hosts "
}

# --resume with --hosts runs only what is not finished, whoever ran the
# rest, and hostb does not get its bundle again.
t_hosts_resume_skips_finished_runs() {
	local two m=$TEST_TMP/hosts-resume r before after jobs
	two=$(two_host_matrix)
	[ -f "$two/report.md" ] || fail "the two-host matrix failed: $(tail -5 "$two.log")"
	cp -a "$two" "$m"
	rm -rf "$m/runs/memcg-dd.ext4.vanilla.r2"
	printf 'interrupted\nrun=memcg-dd.ext4.patched.r1\n' >"$m/runs/memcg-dd.ext4.patched.r1/status"
	before=$(stat -c '%n %Y %i' "$m"/runs/memcg-dd.ext4.{patched.r2,vanilla.r1}/status)
	jobs=$(wc -l <"$m/hosts.joblog")
	"$RL_TOP/scripts/compare.sh" --resume "$m" --hosts "$TEST_TMP/hosts-two" --ssh "$TEST_TMP/fake-ssh" >"$m.log" 2>&1 ||
		fail "the resume failed: $(tail -5 "$m.log")"
	cat "$m.log"
	expect_match "$m.log" '^reclaimlab: 2 runs on this machine \(1 at once\) hostb \(1 at once\)$'
	! grep -q 'copying bundle' "$m.log" || fail "hostb got its bundle again"
	after=$(stat -c '%n %Y %i' "$m"/runs/memcg-dd.ext4.{patched.r2,vanilla.r1}/status)
	[ "$before" = "$after" ] || fail "finished runs were touched: $before / $after"
	[ "$(wc -l <"$m/hosts.joblog")" = $((jobs + 2)) ] || fail "not 2 new jobs: $(cut -f1-7 "$m/hosts.joblog")"
	ls -d "$m"/runs/memcg-dd.ext4.patched.r1.interrupted.* >/dev/null || fail "the interrupted attempt was not kept aside"
	expect_match "$m/report.md" '^- Runs: 4 \(4 ok\)' "report after the resume"
	same_runs "$two" "$m"
	# this machine alone needs no bundle
	rm -rf "$m/runs/memcg-dd.ext4.vanilla.r1"
	printf '2/:\n' >"$TEST_TMP/hosts-here"
	"$RL_TOP/scripts/compare.sh" --resume "$m" --hosts "$TEST_TMP/hosts-here" >"$m.here.log" 2>&1 ||
		fail "the resume on ':' alone failed: $(tail -5 "$m.here.log")"
	cat "$m.here.log"
	! grep -q 'bundle' "$m.here.log" || fail "':' alone made a bundle"
	[ "$(cat "$m/runs/memcg-dd.ext4.vanilla.r1/host")" = : ] || fail "vanilla.r1 did not run on ':'"
	same_runs "$two" "$m"
}

# Stopped (Ctrl-C, SIGTERM), a matrix stops its guests on every host and
# keeps what they left; --resume then finishes it.
t_hosts_interrupt_stops_every_host() {
	local m=$TEST_TMP/hosts-stop pid r
	hosts_setup
	"$RL_TOP/scripts/compare.sh" --hosts "$TEST_TMP/hosts-two" --ssh "$TEST_TMP/fake-ssh" --results "$m" \
		"${HOSTS_MATRIX_OPTS[@]}" >"$m.log" 2>&1 &
	pid=$!
	# both hosts' guests under way
	for _ in $(seq 600); do
		[ "$(grep -lx running "$m"/runs/*/status "$TEST_TMP"/host-hostb/"$RL_REMOTE_DIR"/runs/*/*/status 2>/dev/null | wc -l)" = 2 ] && break
		sleep 0.1
	done
	kill -TERM "$pid"
	wait "$pid" && fail "an interrupted matrix exited 0"
	hosts_details "$m" >>"$m.log"
	cat "$m.log"
	expect_match "$m.log" 'interrupted; finished runs are kept; continue with: scripts/compare.sh --resume'
	for r in "$m"/runs/*; do
		expect_no_uml_left "${r##*/}"
		echo "${r##*/}: $(head -1 "$r/status") on $(cat "$r/host")"
		[ "$(head -1 "$r/status")" = interrupted ] || fail "${r##*/} is not interrupted"
	done
	grep -qx hostb "$m"/runs/*/host || fail "hostb's stopped run did not come back"
	[ -z "$(ls -A "$TEST_TMP/host-hostb/$RL_REMOTE_DIR/runs")" ] || fail "hostb kept scratch folders"
	"$RL_TOP/scripts/compare.sh" --resume "$m" --hosts "$TEST_TMP/hosts-two" --ssh "$TEST_TMP/fake-ssh" >"$m.resume.log" 2>&1 ||
		fail "the resume failed: $(tail -5 "$m.resume.log")"
	expect_match "$m/report.md" '^- Runs: 4 \(4 ok\)' "report after the resume"
}

# A job list has a line per run still to do; a line run as a Slurm array
# task would run it reproduces the matrix's run.
t_hosts_job_list_line_reproduces_run() {
	local one m=$TEST_TMP/hosts-jobs list=$TEST_TMP/hosts-jobs.list dir
	one=$(one_host_matrix)
	"$RL_TOP/scripts/compare.sh" "${HOSTS_MATRIX_OPTS[@]}" --results "$m" --job-list "$list" 2>&1 | tee "$m.log"
	[ "$(wc -l <"$list")" = 4 ] || fail "$(wc -l <"$list") lines for 4 runs: $(cat "$list")"
	tr '\t' ' ' <"$list"
	[ -z "$(ls -A "$m/runs")" ] || fail "--job-list ran something"
	dir=$(sed -n '3p' "$list" | cut -f1)
	[ "$dir" = "$(cd "$m" && pwd -P)/runs/memcg-dd.ext4.vanilla.r1" ] || fail "line 3 is $dir"
	SLURM_ARRAY_TASK_ID=3 "$RL_TOP/scripts/run-listed.sh" "$list" || fail "line 3 failed"
	[ "$(head -1 "$dir/status")" = ok ] || fail "line 3's run: $(head -1 "$dir/status")"
	diff <(rows "$dir") <(rows "$one/runs/${dir##*/}") >"$TEST_TMP/rows.diff" ||
		fail "line 3's run differs from the matrix's: $(head -12 "$TEST_TMP/rows.diff")"
	echo "line 3 reproduces ${dir##*/} (summary rows, wall time aside)"
	# what is finished is no line of the next list
	"$RL_TOP/scripts/compare.sh" --resume "$m" --job-list "$list.2" 2>/dev/null
	{ [ "$(wc -l <"$list.2")" = 3 ] && ! grep -q "${dir##*/}" "$list.2"; } || fail "the resumed list: $(cat "$list.2")"
	! "$RL_TOP/scripts/run-listed.sh" "$list" 5 >"$m.out" 2>&1 || fail "line 5 of 4 was accepted"
	expect_match "$m.out" "bad line number '5' \(valid: 1 to 4"
}
