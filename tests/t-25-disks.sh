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
		figs+=("$(awk -F'\t' '$1 ~ /^tool\.v1-writer[12]\.mbps$|^run\.simulated_seconds$/ { print $1, $2 }' \
			<(run_metrics "$run") | sort)")
		echo "seed $s:"
		echo "${figs[-1]}"
	done
	grep -q '^tool.v1-writer1.mbps [0-9]' <<<"${figs[0]}" || fail "no writer figures"
	[ "${figs[0]}" != "${figs[1]}" ] || fail "seeds 1 and 2 gave the same figures"
}

# The flash translation model (patch 0032) in a booted guest: on a flash
# profile, a 4 KiB write to each of open_au + 1 allocation units closes
# one (the unit written first, 4 KiB of it), copying its other pages, and
# the counters in /sys/block/ubda/model show it; on the usb-stick, whose
# model has no allocation units, the same writes close nothing.
t_disk_flash_model_closes_units() {
	local p run au open
	for p in kingston-sa04g usb-stick; do
		run=$TEST_TMP/flash-$p
		# the usb-stick names neither: the kingston-sa04g's figures
		au=$(grep -P "^profile\t$p\t" "$RL_TOP/scripts/catalogue.tsv" | grep -o 'au_kb=[0-9]*' | cut -d= -f2 || true)
		open=$(grep -P "^profile\t$p\t" "$RL_TOP/scripts/catalogue.tsv" | grep -o 'open_au=[0-9]*' | cut -d= -f2 || true)
		au=${au:-2048} open=${open:-3}
		cat >"$run.job.sh" <<JOB
set -eu
umount /mnt/ext4
k=0
while [ \$k -le $open ]; do
	dd if=/dev/zero of=/dev/ubda bs=4k count=1 seek=\$(((256 + k) * $au / 4)) oflag=direct 2>/dev/null
	k=\$((k + 1))
done
cat /sys/block/ubda/model >/results/model.out
JOB
		guest "$run" --time-travel=inf-cpu --disk "ext4:$p" --job "$run.job.sh" >/dev/null ||
			fail "guest on $p failed: $(head -1 "$run/status")"
		cat "$run/guest/model.out" >&2
		if [ "$p" = usb-stick ]; then
			expect_match "$run/guest/model.out" '^au_closes=0$' "usb-stick's allocation unit closes"
			expect_match "$run/guest/model.out" '^au_kb=0$' "usb-stick's allocation unit"
		else
			# ext4's unmount may have opened a unit too: at least one close
			awk -F= '$1 == "au_closes" && $2 >= 1 { c = 1 } $1 == "gc_pages" && $2 > 0 { g = 1 }
				END { exit !(c && g) }' "$run/guest/model.out" ||
				fail "$p: no allocation unit closed or nothing copied: $(grep -E '^(au_|gc_)' "$run/guest/model.out" | tr '\n' ' ')"
		fi
	done
}

# Flash settings that do not go together are refused before boot, naming
# the bad value.
t_disk_flash_settings_rejected() {
	local args out
	for args in "ext4:usb-stick,au_kb=4096" "ext4:kingston-sa04g,au_kb=2056" \
		"ext4:kingston-sa04g,open_au=0" "ext4:kingston-sa04g,open_au=17" \
		"ext4:kingston-sa04g,au_kb=16384" "ext4:kingston-sa04g,erase_kb=4096" \
		"ext4:kingston-sa04g,gc=1"; do
		out=$("$RL_TOP/scripts/run.sh" --out "$TEST_TMP/bad-flash" --disk "$args" -- true 2>&1) &&
			fail "'$args' was accepted"
		grep -q "error:.*'$args\|error:.*${args#*,}" <<<"$out" || fail "'$args' gave no error naming it: $out"
		[ ! -e "$TEST_TMP/bad-flash" ] || fail "'$args' created a run folder"
	done
	# the flash keys on a profile that does not name them are added
	out=$(. "$RL_TOP/scripts/lib.sh" && disk_model usb-stick,au_kb=4096,page_kb=16,open_au=2,erase_kb=0)
	grep -q ',au_kb=4096,page_kb=16,open_au=2$' <<<"$out" || fail "usb-stick with flash keys: $out"
	grep -q ',erase_kb=0,' <<<"$out" || fail "usb-stick's erase_kb not overridden: $out"
}
