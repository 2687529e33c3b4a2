# shellcheck shell=bash
# The emulated disks: achieved figures against the profiles (simulated
# time under time-travel, so deterministic; wall-clock targets are left to
# scripts/bench-disks.sh).

disks_bench() {
	local out=$TEST_TMP/bench
	[ -f "$out/result.txt" ] ||
		"$RL_TOP/scripts/bench-disks.sh" --out "$out" >"$out.txt" 2>&1 && cp "$out.txt" "$out/result.txt"
	cat "$out/result.txt" >&2
	echo "$out/result.txt"
}

t_disk_profiles_reach_bandwidth() {
	local res p
	res=$(disks_bench)
	for p in usb-stick hdd ssd; do
		grep "^| $p |" "$res" | awk -F'|' '{ print $5 }' | tr -d ' %+' | tr '/' '\n' |
			awk -v p="$p" '{ v = $1 < 0 ? -$1 : $1; if (v > 5) { print p ": " $1 "% off the profile"; bad = 1 } } END { exit bad }' ||
			fail "$p misses its bandwidth by more than 5%"
	done
}

t_disk_hdd_random_iops() {
	local res
	res=$(disks_bench)
	grep '^hdd 4 KiB random writes' "$res" | sed 's/.*(\([-+0-9.]*\)%).*/\1/' |
		awk '{ v = $1 < 0 ? -$1 : $1; exit !(v <= 10) }' || fail "hdd random IOPS more than 10% off the model"
}

t_disk_runs_repeat() {
	local res a b
	res=$(disks_bench)
	read -r a b < <(sed -n 's/^same random run twice: \([0-9.]*\) s and \([0-9.]*\) s.*/\1 \2/p' "$res")
	[ -n "$a" ] || fail "no repeat figures"
	awk -v a="$a" -v b="$b" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; exit !(d <= 0.02) }' ||
		fail "the same run took $a and $b simulated seconds"
}
