#!/bin/bash
# check-tools-layout.sh [TOOLS_DIR]: the include rule of the host tools
# (scripts/tools/Makefile, README.md), checked on the sources as they are:
#  - every .c and .h is in a stage folder, one of the Makefile's STAGES;
#  - every #include of a tools header names it by its folder,
#    "STAGE/NAME.h", the header exists, and STAGE is the file's own stage
#    or an earlier one in STAGES;
#  - the one header from elsewhere is a bare "NAME.h" of the guest tools'
#    shared code (rootfs/tools, beside TOOLS_DIR's ../../), below every stage;
#  - no circle among modules: a module is STAGE/NAME (NAME.c, NAME.h, or a
#    tool's NAME-main.c), and one whose files include another's header
#    depends on it; tsort finds any circle.
# Prints what it checked, or each breach as FILE:LINE: and exits 1.
# t_tools_include_graph (tests/t-10-foundation.sh) runs it.
set -eu -o pipefail

dir=${1:-$(cd "$(dirname "$0")/../scripts/tools" && pwd)}
guest=$dir/../../rootfs/tools
[ -f "$dir/Makefile" ] || {
	echo "check-tools-layout: $dir has no Makefile: give the scripts/tools folder" >&2
	exit 2
}
read -r -a stages <<<"$(sed -n 's/^STAGES :*= *//p' "$dir/Makefile")"
[ "${#stages[@]}" -gt 0 ] || {
	echo "check-tools-layout: $dir/Makefile has no 'STAGES := ...' line" >&2
	exit 2
}

# rank STAGE: its place in STAGES (0 = lib), or nothing for no stage
rank() {
	local i
	for i in "${!stages[@]}"; do
		[ "${stages[$i]}" != "$1" ] || {
			echo "$i"
			return
		}
	done
}

bad=0 files=0 includes=0
breach() {
	echo "$*"
	bad=$((bad + 1))
}
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

while IFS= read -r -d '' path; do
	file=${path#"$dir"/}
	files=$((files + 1))
	stage=${file%%/*}
	own=""
	[ "$stage" = "$file" ] || own=$(rank "$stage")
	if [ -z "$own" ] || [[ $file == */*/* ]]; then
		breach "$file: not in a stage folder (${stages[*]})"
		continue
	fi
	module=${file%.[ch]}
	module=${module%-main}
	while IFS=: read -r line kind target; do
		to=${target%%/*}
		trank=$(rank "$to")
		# <stdio.h>, <sys/stat.h>: the system's
		[ "$kind" = q ] || [ -n "$trank" ] || continue
		includes=$((includes + 1))
		if [[ $target != */* ]]; then
			[ -f "$guest/$target" ] ||
				breach "$file:$line: includes \"$target\": a tools header is named by its folder (\"lib/$target\"), and rootfs/tools has no $target"
			continue
		fi
		if [ -z "$trank" ] || [[ ! $target =~ ^[a-z]+/[A-Za-z0-9_-]+\.h$ ]]; then
			breach "$file:$line: includes \"$target\": not STAGE/NAME.h of a stage (${stages[*]})"
			continue
		elif [ ! -f "$dir/$target" ]; then
			breach "$file:$line: includes \"$target\", which does not exist"
		elif [ "$trank" -gt "$own" ]; then
			breach "$file:$line: includes \"$target\": $to is a later stage than $stage (${stages[*]})"
		fi
		[ "${target%.h}" = "$module" ] || echo "$module ${target%.h}" >>"$edges"
	done < <(awk 'match($0, /^[ \t]*#[ \t]*include[ \t]*["<][^">]+[">]/) {
		s = substr($0, RSTART, RLENGTH); kind = index(s, "\"") ? "q" : "a"
		sub(/^[^"<]*["<]/, "", s); sub(/[">]$/, "", s)
		print FNR ":" kind ":" s }' "$path")
done < <(find "$dir" -name '*.[ch]' -print0 | sort -z)

if ! out=$(tsort "$edges" 2>&1 >/dev/null); then
	breach "modules include each other round a circle (tsort's loop): $(sed -n 's/^tsort: //p' <<<"$out" | grep -v 'input contains a loop' | tr '\n' ' ')"
fi
if [ "$bad" != 0 ]; then
	[ "$bad" = 1 ] && what=breach || what=breaches
	echo "check-tools-layout: $bad $what of the include rule in $dir"
	exit 1
fi
echo "check-tools-layout: $files files, $includes includes, $(sort -u "$edges" | wc -l) module dependencies in stages ${stages[*]}: no upward include, no circle"
