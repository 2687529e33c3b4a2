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
		# the row's error column holds two figures, write and read
		grep "^| $p |" "$res" | awk -F'|' '{ print $5 }' | tr -d ' %+' | tr '/' '\n' |
			awk -v p="$p" '/^-?[0-9.]+$/ { n++; v = $1 < 0 ? -$1 : $1; if (v > 5) { print p ": " $1 "% off the profile"; bad = 1 } }
				END { if (n != 2) { print p ": " n + 0 " error figures, want 2"; bad = 1 } exit bad }' ||
			fail "$p misses its bandwidth by more than 5%, or the benchmark gave no figures for it"
	done
}

t_disk_hdd_random_iops() {
	local res
	res=$(disks_bench)
	grep '^hdd 4 KiB random writes' "$res" | sed 's/.*(\([-+0-9.]*\)%).*/\1/' |
		awk '/^[-+]?[0-9.]+$/ { n++; v = $1 < 0 ? -$1 : $1; if (v > 10) bad = 1 } END { exit n != 1 || bad }' ||
		fail "hdd random IOPS more than 10% off the model, or no figure: $(grep '^hdd 4 KiB' "$res")"
}

t_disk_runs_repeat() {
	local res a b
	res=$(disks_bench)
	read -r a b < <(sed -n 's/^same random run twice: \([0-9.]*\) s and \([0-9.]*\) s.*/\1 \2/p' "$res")
	[ -n "$a" ] || fail "no repeat figures"
	awk -v a="$a" -v b="$b" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; exit !(d <= 0.02) }' ||
		fail "the same run took $a and $b simulated seconds"
}

t_disk_seeds_differ() {
	local res a c
	res=$(disks_bench)
	a=$(sed -n 's/^same random run twice: \([0-9.]*\) s and.*/\1/p' "$res")
	c=$(sed -n 's/^same random run with seed 2: \([0-9.]*\) s.*/\1/p' "$res")
	{ [ -n "$a" ] && [ -n "$c" ]; } || fail "no figures for the seeds"
	echo "hdd random run: $a s simulated with seed 0, $c s with seed 2"
	# 200 rotational latencies of a 7200 rpm disk: another seed moves the
	# sum by far more than the 1 ms the guest's own noise could
	awk -v a="$a" -v c="$c" 'BEGIN { d = a - c; if (d < 0) d = -d; exit !(d > 0.001) }' ||
		fail "seeds 0 and 2 gave the same hdd ($a and $c simulated seconds)"
}

# The seed moves the disks (patch 0021: rotational latency drawn from
# rng-seed=): memcg-dd on the hdd under the cpu clock, seeds 1 and 2, gives
# other figures; that one seed gives the same figures whatever the host
# does is t-13-clock's t_cpu_clock_ignores_host_load.
t_disk_seed_moves_figures() {
	local s run figs=()
	for s in 1 2; do
		run=$TEST_TMP/disk-seed-$s
		"$RL_TOP/scripts/run.sh" --out "$run" --time-travel=cpu --seed "$s" --mem 1G --timeout 600 \
			--disk ext4:hdd --scenario memcg-dd --set WRITE_SIZE=24M --set MEMCG_VERSION=v1 >/dev/null ||
			fail "memcg-dd with seed $s failed: $(head -1 "$run/status")"
		"$RL_TOP/scripts/summarize-run.sh" "$run"
		figs+=("$(awk -F'\t' '$7 ~ /^tool\.v1-writer[12]\.mbps$|^run\.simulated_seconds$/ { print $7, $8 }' \
			<(run_rows "$run") | sort)")
		echo "seed $s:"
		echo "${figs[-1]}"
	done
	grep -q '^tool.v1-writer1.mbps [0-9]' <<<"${figs[0]}" || fail "no writer figures"
	[ "${figs[0]}" != "${figs[1]}" ] || fail "seeds 1 and 2 gave the same figures"
}
