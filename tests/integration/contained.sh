#!/bin/sh
# Untrusted input stays contained (issue 37), with nothing built or booted:
# names that break the lab's one name rule (common/proto/name-rule.h) are
# refused where they enter, in one line naming the file (and line), exit 2,
# before anything is built; a crafted run.json cannot send export, compare
# or report outside the run. The unit tests hold the rest (test-name-rule,
# test-trial-finish, test-script-quoting, test-compare-escaping,
# test-file-writes).
# timeout: 120
. "$(dirname "$0")/lib.sh"
cd "$SCRATCH"

# lab run goes with --dry-run ("everything checked, nothing built or
# booted"): the refusals come from the checks, and a lab that let a name
# through boots nothing here.

# one_line_exit2 DESC FILE-OF-STDERR STATUS
one_line_exit2() {
	check "$1: exit 2" [ "$3" -eq 2 ]
	check "$1: one line" [ "$(wc -l < "$2")" -eq 1 ]
}

# An experiment file whose base name holds a newline and a command: its run
# id would be written into the Slurm scripts' comments and a folder name.
name=$(printf 'x\ntouch PWNED\n$(touch PWNED).conf')
printf 'description = d\nvariants = stock\nprofile = tiny-256m\nworkload = true\n' > "$name"
status=0
"$LAB" run --dry-run -x "$SCRATCH/$name" -o "$SCRATCH/out" 2> err.txt || status=$?
one_line_exit2 "an experiment name with a newline" err.txt "$status"
check_text "the refusal names the file and the rule" "$(cat err.txt)" "experiment name 'x?touch PWNED?\$(touch PWNED)'"
check "nothing made for it" [ ! -e "$SCRATCH/out" ]
check "nothing ran" [ ! -e PWNED ]

# A selftest name that climbs out of the tree, beside a word only the guest
# expands (which skips the workload's own check of its arguments).
printf 'description = d\nvariants = stock\nprofile = tiny-256m\nworkload = selftest mm/../../../../tmp/evil/y --foo=$X\n' > climb.conf
status=0
"$LAB" run --dry-run -x "$SCRATCH/climb.conf" -o "$SCRATCH/out" 2> err.txt || status=$?
one_line_exit2 "a selftest name with '..'" err.txt "$status"
check_text "the refusal names file and line" "$(cat err.txt)" "climb.conf:4: .*selftest mm/../../../../tmp/evil/y: a name holding"
check "nothing made for it" [ ! -e "$SCRATCH/out" ]

# A crafted run.json: its run id and a group label would be paths.
mkdir -p run/stock/000 label
echo '{"run_id":"../esc","experiment":"x","groups":[{"variant":"stock"}]}' > run/run.json
status=0
"$LAB" export --format json -o "$SCRATCH/exp/deep" "$SCRATCH/run" 2> err.txt || status=$?
one_line_exit2 "export of a run id '../esc'" err.txt "$status"
check_text "the refusal names run.json's run_id" "$(cat err.txt)" "run_id '../esc': a name holding"
check "nothing written beside -o" [ ! -e "$SCRATCH/exp/esc" ]
check "nothing written above -o" [ ! -e "$SCRATCH/esc" ]
echo '{"run_id":"r1","experiment":"x","groups":[{"variant":"stock","label":"../../x"}]}' > label/run.json
for cmd in compare report; do
	status=0
	"$LAB" $cmd "$SCRATCH/label" > /dev/null 2> err.txt || status=$?
	one_line_exit2 "$cmd of a label '../../x'" err.txt "$status"
	check_text "$cmd names the label" "$(cat err.txt)" "group 1's label '../../x'"
done

# lab bisect writes --metric into the experiment it generates as a key's
# value: a newline in it would add keys. Refused before the repository is
# even looked at.
status=0
"$LAB" bisect --git "$SCRATCH/no-repo" --good a --bad b --experiment quick \
	--metric "$(printf 'oom_kills\nvariants = evil')" 2> err.txt || status=$?
one_line_exit2 "bisect --metric with a newline" err.txt "$status"
check_text "the refusal names --metric" "$(cat err.txt)" "--metric 'oom_kills?variants = evil'"

# lab bisect -o into a folder of other files: the bisection would write and
# clear its runs there as its own. Refused, the files left as they were.
mkdir -p "$SCRATCH/notmine"
echo mine > "$SCRATCH/notmine/notes.txt"
refused "bisect -o into a folder of other files" "--out $SCRATCH/notmine holds other files (notes.txt) and no bisection" \
	"$LAB" bisect --git "$ROOT" --good HEAD~1 --bad HEAD --experiment quick --metric oom_kills -o "$SCRATCH/notmine"
check "and that folder is as it was" [ "$(ls -A "$SCRATCH/notmine")" = notes.txt ]
