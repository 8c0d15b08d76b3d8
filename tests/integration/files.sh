# The user's own programs in the guest (files = DIR, lab boot --files DIR):
# a C program built with plain cc, dynamically linked, runs there with its
# libraries, read-only, on PATH; trial.json, run.json and the store name the
# files' hash; bad input (a missing folder, another machine's ELF, an unknown
# program) is one line and exit 2 before anything boots. Two boots.
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock || fail "building stock"

REPRO="$SCRATCH/repro"
mkdir -p "$REPRO/bin" "$SCRATCH/src"
cat > "$SCRATCH/src/allocate.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 8;
	char *p = malloc(mb << 20);
	if (!p)
		return 1;
	memset(p, 1, mb << 20);
	printf("{\"type\":\"metric\",\"name\":\"allocated_mb\",\"value\":%zu,\"unit\":\"count\"}\n", mb);
	return 0;
}
EOF
cc -o "$REPRO/allocate" "$SCRATCH/src/allocate.c" || fail "cc"
check "the program is dynamically linked" sh -c "ldd '$REPRO/allocate' | grep -q libc.so"
printf '#!/bin/sh\necho helper-ran "$@"\n' > "$REPRO/bin/helper"
chmod +x "$REPRO/bin/helper"
echo 'some input' > "$REPRO/input.txt"

# --- lab boot --files: the program runs, its output arrives, the folder is read-only
set +e
out=$("$LAB" boot stock --files "$REPRO" -o "$SCRATCH/t1" -- \
	'allocate 16; helper a b; cat /oomlab/files/input.txt; touch /oomlab/files/x 2>&1; echo $PATH')
status=$?
set -e
echo "$out"
check "lab boot exits 0" [ "$status" -eq 0 ]
check_text "the dynamically linked program ran in the guest" "$out" \
	'{"type":"metric","name":"allocated_mb","value":16,"unit":"count"}'
check_text "a script of bin/ ran through busybox's sh" "$out" 'helper-ran a b'
check_text "a data file is there" "$out" 'some input'
check_text "the folder is read-only" "$out" 'Read-only file system'
check_text "PATH ends with the files' folders" "$out" ':/oomlab/files:/oomlab/files/bin$'
hash=$(jq -r .environment.files.hash "$SCRATCH/t1/trial.json")
check "trial.json names the files' hash ($hash)" sh -c "echo '$hash' | grep -Eq '^[0-9a-f]{64}$'"
check "and their folder" [ "$(jq -r '.environment.files.dirs[0]' "$SCRATCH/t1/trial.json")" = "$REPRO" ]

# --- files = DIR in an experiment: run.json, trial.json and the store agree
EXP="$SCRATCH/exp/own.conf"
mkdir -p "$SCRATCH/exp"
ln -s "$REPRO" "$SCRATCH/exp/repro"
cat > "$EXP" <<'EOF'
description = a reproducer of one's own
variants = stock
profile = phone-512m
trials = 1
files = repro
workload = allocate 8
EOF
OOMLAB_DB="$SCRATCH/store.sqlite" "$LAB" run -x "$EXP" -o "$SCRATCH/run" > "$SCRATCH/run.out" \
	2> "$SCRATCH/run.err" || fail "lab run: $(tail -3 "$SCRATCH/run.err")"
check_text "the run's header names the files" "$(cat "$SCRATCH/run.err")" "files $(echo "$hash" | cut -c1-16)"
check "run.json names the same hash" [ "$(jq -r .files.hash "$SCRATCH/run/run.json")" = "$hash" ]
check "the trial ran them" [ "$(jq -r .environment.files.hash "$SCRATCH/run/stock/000/trial.json")" = "$hash" ]
check "the store has the hash" [ "$(sqlite3 "$SCRATCH/store.sqlite" 'SELECT files_hash FROM trial_list')" = "$hash" ]
check_text "the program's output reached out.log" "$(cat "$SCRATCH/run/stock/000/out.log")" '"allocated_mb","value":8'

# --- changed files: --resume refuses to go on with other programs
echo changed >> "$REPRO/input.txt"
set +e
msg=$("$LAB" run --resume "$SCRATCH/run" 2>&1)
status=$?
set -e
check "resuming with changed files is exit 2" [ "$status" -eq 2 ]
check_text "and says why" "$msg" "the run's files were"

# --- bad input: one line, exit 2 (lab boot: 254), nothing booted
refused "a missing folder" "--files $SCRATCH/nowhere: $SCRATCH/nowhere: no such folder" \
	"$LAB" boot stock --files "$SCRATCH/nowhere" -- true
refused "an unknown program" "'alocate' is neither a workload" \
	"$LAB" boot stock --files "$REPRO" -- alocate 8
sed -i 's/^workload = allocate 8/workload = alocate 8/' "$EXP"
refused "an unknown program in an experiment" "own.conf:6: workload = alocate 8: 'alocate' is neither" \
	"$LAB" run -x "$EXP"
# the cross compiler comes with the test packages (make test-deps): without
# it these two checks would not run, which is a failure, never a pass
command -v aarch64-linux-gnu-gcc > /dev/null || fail "no aarch64-linux-gnu-gcc: make test-deps installs it"
mkdir -p "$SCRATCH/arm"
aarch64-linux-gnu-gcc -o "$SCRATCH/arm/allocate" "$SCRATCH/src/allocate.c"
refused "an arm64 program in an x86_64 guest" \
	"$SCRATCH/arm/allocate: an ELF for aarch64, but the guest is x86_64" \
	"$LAB" boot stock --files "$SCRATCH/arm" -- allocate
refused "an x86_64 program in an arm64 guest" \
	"$REPRO/allocate: an ELF for x86_64, but the guest is arm64" \
	"$LAB" boot stock --arch arm64 --page-size 16k --files "$REPRO" -- allocate
