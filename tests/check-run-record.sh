#!/bin/bash
# The run record owns a run's status and identity (issue 44): outside
# scripts/tools/lib/record.c no host code splits a mode at its "@KERNEL",
# takes a run name apart, writes a status file or reads one but through
# run_status/run_fact (rl-record).  Prints each breach; exits 1 if any.
#   tests/check-run-record.sh TOP
set -eu
top=${1:?usage: tests/check-run-record.sh TOP}
cd "$top"
bad=0
breach() {
	echo "breach: $1"
	bad=1
}
# C: an '@' taken apart anywhere but the record
while IFS= read -r hit; do
	breach "an '@' split outside lib/record.c: $hit"
done < <(grep -rn "strchr([^)]*'@')\|strrchr([^)]*'@')" scripts/tools --include=*.c | grep -v '^scripts/tools/lib/record.c:' || true)
# C: the status file opened by name but through the record
while IFS= read -r hit; do
	breach "the status file read outside lib/record.c: $hit"
done < <(grep -rn 'read_file_in([^,]*, *"status")\|"status\.tmp"' scripts/tools --include=*.c | grep -v '^scripts/tools/lib/record.c:' || true)
# shell: a run name taken apart, a status written or read by hand
while IFS= read -r hit; do
	breach "a run name taken apart: $hit"
done < <(grep -rn 'run_name_parts' scripts || true)
while IFS= read -r hit; do
	breach "a status file written or read outside the record: $hit"
done < <(grep -rnE '>"[^"]*/status"|head -[0-9c ]+"[^"]*/status"|conf_value "[^"]*/status"|sed -n [^|]*"[^"]*/status"' scripts --include=*.sh | grep -v '"/proc/' || true)
exit "$bad"
