# shellcheck shell=bash disable=SC2034 # used by the scripts that source lib.sh
# The catalogue (filesystems, device profiles, modes) and the emulated
# disks' settings.  Sourced by lib.sh.

# The catalogue (scripts/catalogue.tsv): filesystems, device profiles and
# modes, one per line, read as data.
RL_CATALOGUE=$RL_TOP/scripts/catalogue.tsv

# catalogue_field KIND NAME N: field N (3 = the first after the name) of
# the catalogue line KIND NAME; fails if there is none.
catalogue_field() {
	local kind name f3 f4 f5
	while IFS=$'\t' read -r kind name f3 f4 f5; do
		{ [ "$kind" = "$1" ] && [ "$name" = "$2" ]; } || continue
		case "$3" in
		3) echo "$f3" ;;
		4) echo "$f4" ;;
		5) echo "$f5" ;;
		esac
		return 0
	done <"$RL_CATALOGUE"
	return 1
}

# catalogue_names KIND: the names of KIND, space-separated, in file order
catalogue_names() {
	local kind name rest names=""
	while IFS=$'\t' read -r kind name rest; do
		[ "$kind" = "$1" ] && names="$names $name"
	done <"$RL_CATALOGUE"
	echo "${names# }"
}

RL_FILESYSTEMS=$(catalogue_names fs)
RL_PROFILES=$(catalogue_names profile)
RL_MODES=$(catalogue_names mode)

# The settings of an emulated disk (ubd.model= of the ubd timing model
# patch); the profiles' values are in the catalogue.  The last six are the
# flash translation model of patch 0032 (au_kb=0, as on every profile that
# does not name them, turns it off).
RL_PROFILE_KEYS="rbw wbw seek req lat qd rpm settle erase_kb erase_us erase_jit au_kb page_kb open_au page_us au_erase_us fat_au"
# The limits patch 0032 puts on them: open allocation units, an AU's KiB
RL_FTL_MAX_OPEN_AU=16
RL_FTL_MAX_AU_KB=8192

# profile_value PARAMS KEY: KEY's number in a ubd.model= value, 0 if absent
profile_value() {
	local kv
	for kv in $(echo "$1" | tr ',' ' '); do
		[ "${kv%%=*}" != "$2" ] || { echo "$((10#${kv#*=}))"; return 0; }
	done
	echo 0
}

# check_flash_model SPEC PARAMS: the flash translation keys of PARAMS go
# together as patch 0032 requires, or a die() naming what is wrong
check_flash_model() {
	local au page open erase_kb
	au=$(profile_value "$2" au_kb)
	[ "$au" != 0 ] || return 0
	page=$(profile_value "$2" page_kb)
	open=$(profile_value "$2" open_au)
	erase_kb=$(profile_value "$2" erase_kb)
	[ "$page" != 0 ] ||
		die "bad device settings in '$1': au_kb=$au needs page_kb (the flash page in KiB, 1 or more)"
	[ $((au % page)) = 0 ] ||
		die "bad device settings in '$1': au_kb=$au is not a whole number of pages of page_kb=$page"
	[ "$au" -le "$RL_FTL_MAX_AU_KB" ] ||
		die "bad device settings in '$1': au_kb=$au is too large (valid: at most $RL_FTL_MAX_AU_KB)"
	if [ "$open" -lt 1 ] || [ "$open" -gt "$RL_FTL_MAX_OPEN_AU" ]; then
		die "bad device settings in '$1': au_kb=$au needs open_au from 1 to $RL_FTL_MAX_OPEN_AU (got $open)"
	fi
	[ "$erase_kb" = 0 ] ||
		die "bad device settings in '$1': au_kb=$au replaces the erase stalls; set erase_kb=0 (got $erase_kb)"
}

# disk_model SPEC: "hdd" or "hdd,wbw=50000,seek=4000" -> the ubd.model=
# value after the unit number, or a die() naming what is wrong.
disk_model() {
	local spec=$1 name params kv key val
	name=${spec%%,*}
	params=$(catalogue_field profile "$name" 3) ||
		die "unknown device profile '$name' (valid: $RL_PROFILES; add ,key=value to change one of: $RL_PROFILE_KEYS)"
	if [ "$name" != "$spec" ]; then
		for kv in $(echo "${spec#*,}" | tr ',' ' '); do
			key=${kv%%=*}
			val=${kv#*=}
			if [ "$key" = "$kv" ] || ! word_in "$key" "$RL_PROFILE_KEYS"; then
				die "bad device setting '$kv' in '$spec' (valid keys: $RL_PROFILE_KEYS, as key=number)"
			fi
			# the ranges patch 0004 accepts: u32, and a queue depth of 1 to 1024
			if ! [[ "$val" =~ ^[0-9]{1,10}$ ]] || [ "$((10#$val))" -gt 4294967295 ]; then
				die "bad value '$val' for $key in '$spec' (valid: a whole number from 0 to 4294967295)"
			fi
			if [ "$key" = qd ] && { [ "$((10#$val))" -lt 1 ] || [ "$((10#$val))" -gt 1024 ]; }; then
				die "bad value '$val' for qd in '$spec' (valid: 1 to 1024)"
			fi
			# erase_jit is a percentage (patch 0021)
			if [ "$key" = erase_jit ] && [ "$((10#$val))" -gt 100 ]; then
				die "bad value '$val' for erase_jit in '$spec' (valid: 0 to 100)"
			fi
			# a key the profile does not name is added (the flash
			# model's keys on profiles that predate it)
			case ",$params" in
			*,"$key"=*) params=$(echo ",$params" | sed -E "s/,$key=[0-9]+/,$key=$((10#$val))/; s/^,//") ;;
			*) params="$params,$key=$((10#$val))" ;;
			esac
		done
		name=custom
	fi
	check_flash_model "$spec" "$params"
	echo "name=$name,$params"
}

# mode_knobs MODE: the sysctl knobs of MODE (the behaviour of one run)
mode_knobs() {
	catalogue_field mode "$1" 3
}
