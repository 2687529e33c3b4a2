# shellcheck shell=bash
# The tools disk (scripts/build-guest-tools.sh): the host's fio, trace-cmd,
# sysstat, blktrace, strace and stress-ng run in a booted guest from the
# read-only /tools, and what they write is read on the host.

# tools_run: one guest with ext4 that runs each tool once; the tests read
# its folder
tools_run() {
	shared_run tools --disk ext4 <<'JOB'
set -u
cd /tmp
fio --name=rl-small --filename=/mnt/ext4/fio.dat --size=8M --rw=write --bs=64k \
	--ioengine=psync --end_fsync=1 --clocksource=clock_gettime \
	--output-format=json --output=/results/fio.json
echo "fio=$?"
trace-cmd record -e block:block_rq_issue -e block:block_rq_complete -o /results/trace.dat \
	dd if=/dev/zero of=/mnt/ext4/tc.dat bs=64k count=64 conv=fsync >/results/trace-cmd.out 2>&1
echo "trace-cmd=$?"
# trace-cmd --version exits 255 after its version line
trace-cmd --version >/results/trace-cmd.version 2>&1
iostat -x ubda 1 1 >/results/iostat-x.txt
echo "iostat=$?"
blktrace -d /dev/ubda -D /tmp/bt >/results/blktrace.out 2>&1 &
bt=$!
sleep 1
dd if=/dev/zero of=/mnt/ext4/bt.dat bs=64k count=64 conv=fsync 2>/dev/null
sync
sleep 1
kill -INT "$bt"
wait "$bt"
echo "blktrace=$?"
blkparse -q -D /tmp/bt -i ubda -d /tmp/bt.bin -O
echo "blkparse=$?"
btt -i /tmp/bt.bin >/results/btt.txt
echo "btt=$?"
strace -f -o /results/strace.txt sh -c 'echo traced >/dev/null'
echo "strace=$?"
# a count of operations, not a time: on a loaded host a 2 s run could end
# before its first pass over the 16M (0 bogo ops)
stress-ng --vm 1 --vm-bytes 16M --vm-ops 2 -t 120 --metrics-brief >/results/stress-ng.txt 2>&1
echo "stress-ng=$?"
if touch /tools/written 2>/results/tools-write.err; then
	echo "tools-write=allowed"
else
	echo "tools-write=refused"
fi
grep ' /tools ' /proc/mounts >/results/tools-mount
true
JOB
}

# tool_ok RUN NAME: the job recorded NAME=0
tool_ok() {
	expect_match "$1/guest/guest.log" "^$2=0$" "$2's exit status"
}

t_tools_fio_json_job_on_an_experiment_disk() {
	local run
	run=$(tools_run)
	tool_ok "$run" fio
	python3 - "$run/guest/fio.json" <<'PY' || fail "fio's JSON: $(head -c 400 "$run/guest/fio.json")"
import json, sys
d = json.load(open(sys.argv[1]))
job = d["jobs"][0]
assert job["jobname"] == "rl-small", job["jobname"]
assert job["error"] == 0, job["error"]
# 8 MiB written, at some positive bandwidth
assert job["write"]["io_kbytes"] == 8192, job["write"]["io_kbytes"]
assert job["write"]["bw"] > 0 and job["write"]["iops"] > 0
assert "99.000000" in job["write"]["clat_ns"]["percentile"]
print(d["fio version"], job["write"]["bw"], "KiB/s")
PY
}

t_tools_trace_cmd_trace_reads_on_the_host() {
	local run host guest
	run=$(tools_run)
	tool_ok "$run" trace-cmd
	[ -s "$run/guest/trace.dat" ] || fail "no trace.dat"
	trace-cmd report -i "$run/guest/trace.dat" >"$run.report" 2>"$run.report.err" ||
		fail "the host's trace-cmd report cannot read the guest's trace.dat: $(head -3 "$run.report.err")"
	grep -qE 'dd-[0-9]+ .* block_rq_issue: +98,0 W' "$run.report" ||
		fail "no write request of dd on ubda (98,0) in the report: $(head -5 "$run.report")"
	grep -q 'block_rq_complete:' "$run.report" || fail "no completions in the report"
	# the guest runs the host's own trace-cmd
	host=$(trace-cmd --version 2>&1 | grep 'trace-cmd version' || true)
	guest=$(grep 'trace-cmd version' "$run/guest/trace-cmd.version" || true)
	{ [ -n "$host" ] && [ "$host" = "$guest" ]; } || fail "trace-cmd versions: host '$host', guest '$guest'"
}

t_tools_iostat_has_sysstat_columns() {
	local run col
	run=$(tools_run)
	tool_ok "$run" iostat
	expect_match "$run/guest/iostat-x.txt" '^Linux .*-reclaimlab ' "iostat's banner"
	# sysstat 12's names of the extended columns
	for col in r/s rkB/s r_await rareq-sz w/s wkB/s w_await wareq-sz aqu-sz %util; do
		grep -qxF -- "$col" <<<"$(grep -E '^Device ' "$run/guest/iostat-x.txt" | tr -s ' ' '\n')" ||
			fail "iostat -x has no column $col: $(grep '^Device' "$run/guest/iostat-x.txt")"
	done
	expect_match "$run/guest/iostat-x.txt" '^ubda +[0-9]' "iostat's ubda row"
}

t_tools_blktrace_btt_latency_table() {
	local run
	run=$(tools_run)
	tool_ok "$run" blktrace
	tool_ok "$run" blkparse
	tool_ok "$run" btt
	expect_match "$run/guest/btt.txt" '^=+ All Devices =+$' "btt's table"
	# Q2C and D2C rows: MIN AVG MAX N, N requests at least one
	expect_match "$run/guest/btt.txt" '^Q2C +[0-9.]+ +[0-9.]+ +[0-9.]+ +[1-9][0-9]*$' "btt's Q2C row"
	expect_match "$run/guest/btt.txt" '^D2C +[0-9.]+ +[0-9.]+ +[0-9.]+ +[1-9][0-9]*$' "btt's D2C row"
	expect_match "$run/guest/btt.txt" '\( 98, +0\)' "btt's ubda (98,0)"
}

t_tools_strace_and_stress_ng_run() {
	local run
	run=$(tools_run)
	tool_ok "$run" strace
	expect_match "$run/guest/strace.txt" 'execve\("/bin/sh", \["sh", "-c", "echo traced >/dev/null"\]' "strace's execve"
	tool_ok "$run" stress-ng
	expect_match "$run/guest/stress-ng.txt" 'successful run completed' "stress-ng"
	expect_match "$run/guest/stress-ng.txt" 'metrc: .* vm +[1-9][0-9]* ' "stress-ng's vm bogo ops"
}

t_tools_disk_is_read_only() {
	local run
	run=$(tools_run)
	expect_match "$run/guest/tools-mount" '^/dev/ubdp /tools ext4 ro[, ]' "the /tools mount"
	expect_match "$run/guest/guest.log" '^tools-write=refused$' "a write to /tools"
	expect_match "$run/guest/tools-write.err" 'Read-only file system' "the refused write's error (EROFS)"
	expect_match "$run/cmdline" 'ubd15r=[^ ]*/guest-tools\.img ubd\.model=15,name=host,[^ ]*( |$)' \
		"the kernel command line"
	expect_match "$run/job.env" "^RL_TOOLS='ubdp'$" "job.env's tools disk"
	# no overlay for the tools disk; the host profile's model (no cost)
	! grep -qE 'ubd15r?=[^ ]*\.cow' "$run/cmdline" || fail "the tools disk has an overlay: $(cat "$run/cmdline")"
}

# A scenario with the tools disk attached: the experiment's disks are the
# only ones in run.conf and in iostat's figures.
t_tools_not_an_experiment_disk() {
	local run=$TEST_TMP/tools-scenario devs
	# 2 x 96M: a workload of more than one iostat interval
	guest "$run" --time-travel=cpu --disk ext4 --scenario memcg-dd --set WRITE_SIZE=96M \
		--set BS=64k >/dev/null || fail "scenario failed: $(head -1 "$run/status")"
	expect_match "$run/run.conf" '^disks=ubda:ext4:[a-z-]+$' "run.conf's disks"
	expect_match "$run/run.conf" '^tools=ubdp:[0-9a-f]{64}$' "run.conf's tools"
	"$RL_TOP/scripts/summarize-run.sh" "$run" || fail "summarize-run.sh failed"
	devs=$(awk -F'\t' '$1 ~ /^iostat\..*\.intervals$/ { print $1 }' <(run_metrics "$run") | tr '\n' ' ')
	[ "$devs" = "iostat.ubda.intervals " ] || fail "iostat sampled other disks than ubda: $devs"
}

# A scenario's sampler is sysstat's iostat -x: its JSON (iostat.json)
# becomes iostat.DEV.COLUMN_mean rows with sysstat 12's column names, and
# 2012's avgrq-sz is derived from them.  One writer of 512M to ext4 on the
# hdd profile (95 MB/s, 92773 of sysstat's kB, KiB, a second): the disk is
# busy for the whole workload.
t_tools_iostat_rows_of_a_scenario() {
	local run=$TEST_TMP/iostat-rows sum
	guest "$run" --time-travel=cpu --disk ext4:hdd --scenario fs-completion --mode patched \
		--set WRITE_SIZE=512M >/dev/null || fail "scenario failed: $(head -1 "$run/status")"
	expect_match "$run/guest/iostat.json" '"sysstat": \{' "iostat's JSON"
	"$RL_TOP/scripts/summarize-run.sh" "$run" || fail "summarize-run.sh failed"
	sum=$run/$RL_DERIVED/summary.tsv
	grep '^iostat\.' "$sum"
	for row in intervals r_s_mean w_s_mean rkB_s_mean wkB_s_mean wrqm_s_mean w_await_mean \
		wareq_sz_mean wareq_sz_sd aqu_sz_mean util_mean avgrq_sz_mean avgrq_sz_sd; do
		expect_match "$sum" "^iostat\.ubda\.$row	[0-9.e+-]+$" "the row iostat.ubda.$row"
	done
	# the rows against the guest's own JSON, read by python's json module
	python3 - "$run/guest/iostat.json" "$sum" <<'PY' || fail "iostat's rows do not match its JSON"
import json, sys
stats = json.load(open(sys.argv[1]))["sysstat"]["hosts"][0]["statistics"]
disks = [d for s in stats for d in s["disk"]]
assert {d["disk_device"] for d in disks} == {"ubda"}, disks
rows = {}
for line in open(sys.argv[2]):
    f = line.rstrip("\n").split("\t")
    if f[0].startswith("iostat.ubda."):
        rows[f[0][len("iostat.ubda."):]] = float(f[1])
n = len(disks)
mean = lambda k: sum(d[k] for d in disks) / n
print("intervals", n, "wkB/s", mean("wkB/s"), "w/s", mean("w/s"), "%util", mean("util"))
assert rows["intervals"] == n >= 2, (rows["intervals"], n)
for key, row in (("w/s", "w_s_mean"), ("wkB/s", "wkB_s_mean"), ("aqu-sz", "aqu_sz_mean"), ("util", "util_mean")):
    assert abs(rows[row] - mean(key)) <= 1e-5 * max(1, mean(key)), (row, rows[row], mean(key))
# a sequential writer keeps the disk busy: near the profile's 92773 KiB/s
assert rows["w_s_mean"] > 0
assert 60000 < rows["wkB_s_mean"] <= 95000, rows["wkB_s_mean"]
assert 80 < rows["util_mean"] <= 100, rows["util_mean"]
# wareq-sz weighted by the writes: kB written per write
assert abs(rows["wareq_sz_mean"] - rows["wkB_s_mean"] / rows["w_s_mean"]) < 0.01 * rows["wareq_sz_mean"]
# 2012's avgrq-sz, in sectors, of the same means
avgrq = (rows["rkB_s_mean"] + rows["wkB_s_mean"]) * 2 / (rows["r_s_mean"] + rows["w_s_mean"])
assert abs(rows["avgrq_sz_mean"] - avgrq) < 1e-5 * avgrq, (rows["avgrq_sz_mean"], avgrq)
PY
}

# Without the tools disk the guest boots and runs a scenario as before; a
# tool is then "not found" (127).
t_tools_absent_guest_still_works() {
	local run=$TEST_TMP/no-tools rc=0
	guest "$run" --no-tools -- 'test ! -e /tools || exit 3; fio --version' >/dev/null || rc=$?
	[ "$rc" = 127 ] || fail "fio without the tools disk: exit status $rc, expected 127"
	expect_match "$run/guest/guest.log" 'fio: not found' "the missing tool's message"
	! grep -q 'ubd15r=' "$run/cmdline" || fail "--no-tools still attached the tools disk"
	expect_match "$run/job.env" "^RL_TOOLS=''$" "job.env's tools disk"
	expect_match "$run/run.conf" '^tools=$' "run.conf's tools"
	run=$TEST_TMP/no-tools-scenario
	guest "$run" --no-tools --time-travel=cpu --disk ext4 --scenario memcg-dd --set WRITE_SIZE=24M >/dev/null ||
		fail "scenario without the tools disk failed: $(head -1 "$run/status")"
	expect_match "$run/status" '^ok$'
}

# The image is rebuilt only when a file that goes into it changes, and
# holds each tool with its libraries and the loader.
t_tools_image_is_rebuilt_only_on_change() {
	local img=$RL_IMAGES/guest-tools.img before out f
	[ -f "$img" ] || fail "$img missing (make guest-tools)"
	before=$(stat -c %Y.%i "$img")
	out=$("$RL_TOP/scripts/build-guest-tools.sh" 2>&1) || fail "build-guest-tools.sh: $out"
	[[ "$out" == *"up to date"* ]] || fail "an unchanged tools image was rebuilt: $out"
	[ "$(stat -c %Y.%i "$img")" = "$before" ] || fail "the image changed"
	"$RL_TOP/scripts/build-guest-tools.sh" --list >"$TEST_TMP/tools.list"
	for f in /usr/bin/fio /usr/bin/trace-cmd /usr/bin/iostat /usr/bin/sar /usr/lib/sysstat/sadc \
		/usr/sbin/blktrace /usr/bin/blkparse /usr/bin/btt /usr/bin/strace /usr/bin/stress-ng /usr/bin/setfattr \
		/lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/libc.so.6; do
		expect_match "$TEST_TMP/tools.list" "^[0-9a-f]{64} $f$" "the tools image's list"
	done
	expect_match "$TEST_TMP/tools.list" '^[0-9a-f]{64} /usr/lib/x86_64-linux-gnu/traceevent/plugins/plugin_[a-z_0-9]+\.so$' \
		"trace-cmd's plugins"
	cmp -s "$TEST_TMP/tools.list" "$img.stamp" || fail "the stamp is not the list"
}

# A scenario written as an fio job (fio-write: rootfs/scenarios/fio-write.fio):
# fio's JSON becomes summary rows and the report's fio table.
t_tools_fio_scenario_rows_in_the_report() {
	local m=$TEST_TMP/fio-matrix r row
	"$RL_TOP/scripts/compare.sh" --scenario fio-write --fs ext4 --modes patched,vanilla --repeat 1 \
		--set WRITE_SIZE=64M --results "$m" >"$m.log" 2>&1 || fail "compare failed: $(tail -3 "$m.log")"
	for r in "$m"/runs/*; do
		expect_match "$r/status" '^ok$' "${r##*/}'s status"
		[ -s "$r/guest/writer.fio.json" ] || fail "${r##*/}: no writer.fio.json"
		for row in error write.kb_s write.iops write.clat_p50_us write.clat_p99_us write.clat_p999_us; do
			expect_match "$r/$RL_DERIVED/summary.tsv" "^fio\.writer\.$row	[0-9.e+]+$" "${r##*/}'s summary"
		done
		expect_match "$r/$RL_DERIVED/summary.tsv" '^fio\.writer\.error	0$' "fio's error code"
		# after a remount fio read every block back and checked its crc32c
		expect_fio_verified "$r/guest" writer $((64 << 20))
		! grep -q 'verify' "$r/$RL_DERIVED/summary.tsv" || fail "${r##*/}: the verify run gave summary rows"
		# 64 MiB at the hdd profile's 95 MB/s: fio timed with the guest's clock
		awk -F'\t' '$1 == "fio.writer.write.kb_s" { exit !($2 > 40000 && $2 < 100000) }' \
			<(run_metrics "$r") || fail "${r##*/}: fio's bandwidth is not the disk's: $(grep 'fio.writer.write.kb_s' "$r/$RL_DERIVED/summary.tsv")"
	done
	expect_match "$m/report.md" '^### fio$' "the report's fio section"
	expect_match "$m/report.md" '^Job writer, write:$' "the report's fio job"
	expect_match "$m/report.md" '^\| fs \| mode \| runs \| kB/s \| IOPS \| clat p50 \(us\) \| clat p99 \(us\) \| clat p99\.9 \(us\) \|$' \
		"the fio table's columns"
	expect_match "$m/report.md" '^\| ext4 \| vanilla \| 1 \| [0-9]' "the fio table's vanilla row"
}

# The image is made without root (mkfs.ext4 -d), from the same files.
t_tools_image_builds_unprivileged() {
	local dir=$TEST_TMP/tools-unpriv out
	mkdir -p "$dir"
	[ "$(id -u)" != 0 ] || chown "$UNPRIV_USER" "$dir" 2>/dev/null ||
		{ unprivileged true && chown "$UNPRIV_USER" "$dir"; }
	out=$(unprivileged env RL_BUILD="$dir" "$RL_TOP/scripts/build-guest-tools.sh" 2>&1) ||
		fail "unprivileged build-guest-tools.sh: $out"
	echo "$out"
	[ -f "$dir/images/guest-tools.img" ] || fail "no image in $dir/images"
	[ "$(id -u)" = 0 ] || [ ! -w "$dir/images/guest-tools.img" ] || fail "the image is writable"
	[ "$(stat -c %U "$dir/images/guest-tools.img")" != root ] || [ "$(id -u)" != 0 ] ||
		fail "the image was made by root"
	cmp -s "$dir/images/guest-tools.img.stamp" "$RL_IMAGES/guest-tools.img.stamp" ||
		fail "an unprivileged build took other files: $(diff "$dir/images/guest-tools.img.stamp" "$RL_IMAGES/guest-tools.img.stamp" | head -5)"
	rm -rf "$dir"
}

# compare.sh --trace-dat: each run's trace also as trace.dat, extracted in
# the guest from the same ring buffer as trace.txt, so trace-cmd report on
# the host shows exactly the events the lab's statistics counted.
t_tools_trace_dat_holds_the_labs_events() {
	local m=$TEST_TMP/trace-dat-matrix run e lab dat rc=0
	# 64M into a 48M memcg: reclaim waits in a short run (the scenario's
	# default memcg, 100M, holds all 64M)
	"$RL_TOP/scripts/compare.sh" --scenario fs-completion --fs ext4 --modes patched --repeat 1 \
		--set WRITE_SIZE=64M --set MEMCG_LIMIT=48M --trace-dat --results "$m" >"$m.log" 2>&1 ||
		fail "compare --trace-dat failed: $(tail -3 "$m.log")"
	expect_match "$m/matrix.conf" '^trace_dat=1$'
	run=$m/runs/fs-completion.ext4.patched.r1
	expect_match "$run/run.conf" '^trace_dat=1$'
	[ -s "$run/guest/trace.dat" ] || fail "no trace.dat in the run folder"
	trace-cmd report -i "$run/guest/trace.dat" >"$run.report" 2>/dev/null || fail "trace-cmd report cannot read trace.dat"
	for e in mm_vmscan_reclaim_wait writeback_end_batch; do
		lab=$(grep -c " $e: " "$run/guest/trace.txt" || true)
		dat=$(grep -c " $e: " "$run.report" || true)
		echo "$e: trace.txt $lab, trace.dat $dat"
		[ "$lab" -gt 0 ] || fail "no $e event: the test shows nothing"
		[ "$lab" = "$dat" ] || fail "$e: $lab events in trace.txt, $dat in trace.dat"
	done
	[ "$(awk -F'\t' '$1 == "waits.events" { print $2 }' <(run_metrics "$run"))" = \
		"$(grep -c ' mm_vmscan_reclaim_wait: ' "$run.report")" ] || fail "waits.events differs from trace.dat's count"
	# without the tools disk there is no trace-cmd: refused before a guest starts
	"$RL_TOP/scripts/run.sh" --trace-dat --no-tools --out "$TEST_TMP/no-trace-cmd" true 2>"$TEST_TMP/no-trace-cmd.err" || rc=$?
	[ "$rc" != 0 ] || fail "--trace-dat --no-tools ran"
	expect_match "$TEST_TMP/no-trace-cmd.err" 'need the tools disk'
}

# run.sh --blktrace: the scenario's disk under blktrace, its requests in
# DEV.blktrace.bin (blkparse and btt on the host read it; the guest no
# longer writes btt's table beside it, which no tool read).
t_tools_blktrace_of_a_scenario_run() {
	local run=$TEST_TMP/blktrace-run d c
	"$RL_TOP/scripts/run.sh" --blktrace --scenario fs-completion --mode patched --disk ext4 \
		--time-travel=cpu --set WRITE_SIZE=64M --set MEMCG_LIMIT=48M --out "$run" >/dev/null ||
		fail "the --blktrace run failed: $(head -1 "$run/status")"
	expect_match "$run/run.conf" '^blktrace=1$'
	[ -s "$run/guest/ubda.blktrace.bin" ] || fail "no ubda.blktrace.bin"
	blkparse -q -i - <"$run/guest/ubda.blktrace.bin" >"$run.parsed" 2>/dev/null || fail "blkparse cannot read it"
	d=$(awk '$6 == "D"' "$run.parsed" | wc -l)
	c=$(awk '$6 == "C"' "$run.parsed" | wc -l)
	echo "ubda: $d requests dispatched, $c completed in the trace"
	{ [ "$d" -gt 0 ] && [ "$c" -gt 0 ]; } || fail "no dispatch or completion events"
	[ ! -e "$run/guest/btt-ubda.txt" ] || fail "the guest wrote btt's table"
	# btt writes its per-device files into the folder it runs in
	(cd "$TEST_TMP" && btt -i "$run/guest/ubda.blktrace.bin" >"$run.btt" 2>/dev/null) || fail "btt cannot read it"
	expect_match "$run.btt" '^=+ All Devices =+$' "btt's table"
	expect_match "$run.btt" '^D2C +[0-9.]+ +[0-9.]+ +[0-9.]+ +[1-9][0-9]*$' "btt's D2C row"
	# the summary's blk rows: every write completion matched to its
	# dispatch and to the Q of the bio it was split from (blklat.c)
	"$RL_TOP/scripts/summarize-run.sh" "$run" >/dev/null || fail "summarize-run.sh failed on $run"
	run_metrics "$run" | grep '^blk\.'
	c=$(summary_value "$run" blk.ubda.write.completions)
	[ "${c:-0}" -gt 0 ] || fail "no blk.ubda.write.completions row"
	[ "$(summary_value "$run" blk.ubda.write.d2c_matched)" = "$c" ] || fail "not every write completion matched a dispatch"
	[ "$(summary_value "$run" blk.ubda.write.q2c_matched)" = "$c" ] || fail "not every write completion matched a queue event"
	summarize_is_positive "$(summary_value "$run" blk.ubda.write.q2c_ms_p50)" || fail "no Q2C median"
	# and the report's table of them
	mkdir -p "$TEST_TMP/blktrace-matrix/runs"
	cp -r "$run" "$TEST_TMP/blktrace-matrix/runs/fs-completion.ext4.patched.r1"
	"$RL_TOP/scripts/report.sh" "$TEST_TMP/blktrace-matrix" >/dev/null || fail "report.sh failed"
	grep -A6 '^### blktrace' "$TEST_TMP/blktrace-matrix/report.md"
	expect_match "$TEST_TMP/blktrace-matrix/report.md" "^\| ext4 \| patched \| 1 \| $c \| [0-9.]+ \|" "the report's blktrace table"
}

# summarize_is_positive TEXT: a number above 0
summarize_is_positive() {
	awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'
}
