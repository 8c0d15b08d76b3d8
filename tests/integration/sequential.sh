# Trials until decided, on real VMs: a run with one headline metric that
# differs beyond doubt stops at the first look whose O'Brien-Fleming
# boundary its p-value crosses, long before max_trials; the progress lines
# say how many headline metrics are decided; run.json keeps the design, so
# lab compare judges the run at its last look; --resume of a decided run
# boots nothing; the options that do not go together are refused.
. "$(dirname "$0")/lib.sh"

EXP="$ROOT/tests/experiments/sequential.conf"
RUN="$SCRATCH/run"
"$LAB" run -x "$EXP" -o "$RUN" > "$SCRATCH/run.out" 2> "$SCRATCH/run.err" ||
	fail "lab run failed: $(tail -5 "$SCRATCH/run.err")"
cat "$SCRATCH/run.err"
trials=$(ls "$RUN"/*/*/trial.json | wc -l)
echo "the run took $trials trials of at most 16"
check "run.json records the sequential design" [ "$(jq '.sequential.max_trials' "$RUN/run.json")" = 8 ]
check "the run stopped before max_trials" [ "$trials" -lt 16 ]
check "it stopped at a whole round" [ $((trials % 2)) -eq 0 ]
check "it ran at least the first look's three rounds" [ "$trials" -ge 6 ]
check "the progress says how many headline metrics are decided" \
	grep -q 'of 1 headline metrics decided' "$SCRATCH/run.err"
check "the run says why it stopped" grep -q '1 of 1 headline metrics decided: the run stops here' "$SCRATCH/run.err"
"$LAB" compare "$RUN" --format json > "$SCRATCH/cmp.json" || fail "lab compare"
check "lab compare judges it at its last look" \
	[ "$(jq '.options.sequential.look' "$SCRATCH/cmp.json")" -eq $((trials / 2)) ]
check "and finds the difference it stopped for" \
	[ "$(jq -r '.rows[0].verdict' "$SCRATCH/cmp.json")" = worse ]
check "p-adj crossed the boundary (below 0.05 after scaling)" \
	awk "BEGIN { exit !($(jq '.rows[0].p_adj' "$SCRATCH/cmp.json") < 0.05) }"

"$LAB" run --resume "$RUN" > "$SCRATCH/resume.out" 2> "$SCRATCH/resume.err" || fail "lab run --resume"
check "resuming a decided run boots nothing" \
	[ "$(ls "$RUN"/*/*/trial.json | wc -l)" -eq "$trials" ]
check "and says it is decided" grep -q 'headline metrics decided: the run stops here' "$SCRATCH/resume.err"

# --trials on an experiment that runs until decided: that many fixed trials instead
"$LAB" run -x "$EXP" --trials 1 -o "$SCRATCH/fixed" > /dev/null 2> "$SCRATCH/fixed.err" ||
	fail "lab run --trials 1 on a sequential experiment: $(tail -3 "$SCRATCH/fixed.err")"
check "--trials 1 ran one trial a group" [ "$(ls "$SCRATCH"/fixed/*/*/trial.json | wc -l)" -eq 2 ]
check "as a fixed design" [ "$(jq '.sequential == null and .trials_per_group == 1' "$SCRATCH/fixed/run.json")" = true ]
check "and said so" grep -q -- '--trials 1: 1 fixed trial a variant instead of' "$SCRATCH/fixed.err"

set +e
"$LAB" run -x "$EXP" --trials 5 --until-decided -o "$SCRATCH/bad1" 2> "$SCRATCH/bad1.err"
s1=$?
"$LAB" run -x "$ROOT/tests/experiments/e2e.conf" --max-trials 9 -o "$SCRATCH/bad2" 2> "$SCRATCH/bad2.err"
s2=$?
"$LAB" run -x quick --until-decided --max-trials 2 -o "$SCRATCH/bad3" 2> "$SCRATCH/bad3.err"
s3=$?
set -e
check "--trials with --until-decided is exit 2" [ "$s1" -eq 2 ]
check "--max-trials on an experiment that is not sequential, without --until-decided, is exit 2" [ "$s2" -eq 2 ]
check "--max-trials below the first look is exit 2" [ "$s3" -eq 2 ]
check "each says why in one line" [ "$(cat "$SCRATCH/bad1.err" "$SCRATCH/bad2.err" "$SCRATCH/bad3.err" | wc -l)" -eq 3 ]
check "nothing was booted for them" [ ! -d "$SCRATCH/bad1" -a ! -d "$SCRATCH/bad2" -a ! -d "$SCRATCH/bad3" ]
