# lab run end to end on a two-variant, two-trial experiment with real kernels
# and VMs: the run folder, every trial, the comparison agreeing with the
# trial data, recomputing, shards at one and two trials at a time. (Runs
# killed and resumed are in faults.sh.)
. "$(dirname "$0")/lib.sh"

EXP="$ROOT/tests/experiments/e2e.conf"
RUN="$SCRATCH/run1"
"$LAB" run -x "$EXP" -o "$RUN" > "$SCRATCH/run1.out" 2> "$SCRATCH/run1.err" ||
	fail "lab run failed: $(tail -5 "$SCRATCH/run1.err")"
cat "$SCRATCH/run1.out"
check "run.json was written" test -s "$RUN/run.json"
# without -j, as many trials at a time as the host holds (one per core here)
check "run.json records the trials at a time" [ "$(jq .jobs "$RUN/run.json")" -eq "$(nproc)" ]
check_text "the header says where that came from" "$(cat "$SCRATCH/run1.err")" \
	"$(nproc) trials\? at a time (from the host: $(nproc) core"
n=0
for label in stock binder-kcalloc; do
	for i in 000 001; do
		t="$RUN/$label/$i/trial.json"
		check "$label trial $i finished" test -s "$t"
		check "$label trial $i is ok" grep -q '"outcome": "ok"' "$t"
		check "$label trial $i recorded perf" test -s "$RUN/$label/$i/perf.data"
		n=$((n + 1))
	done
done
check "four trials" [ "$n" -eq 4 ]
check "the table was printed" grep -q 'trial_ok' "$SCRATCH/run1.out"
check "the results folder was named" grep -q "results: $RUN" "$SCRATCH/run1.out"

# The comparison agrees with the trial data: n per side equals the ok trials.
"$LAB" compare "$RUN" --format json > "$SCRATCH/cmp.json" || fail "lab compare --format json"
row=$(jq -c '.rows[] | select(.metric == "trial_ok")' "$SCRATCH/cmp.json")
echo "trial_ok row: $row"
check "the comparison has both sides with two trials each" \
	[ "$(echo "$row" | jq '.baseline_stats.n == 2 and .variant_stats.n == 2')" = true ]
check "stock is the baseline and binder-kcalloc the variant" \
	[ "$(echo "$row" | jq -r '.baseline_stats.variant + " " + .variant_stats.variant')" = "stock binder-kcalloc" ]
"$LAB" compare "$RUN" --format csv > "$SCRATCH/cmp.csv" || fail "lab compare --format csv"
check "csv has a header and rows" [ "$(wc -l < "$SCRATCH/cmp.csv")" -ge 2 ]
set +e
"$LAB" compare "$RUN" --format yaml 2> "$SCRATCH/bad.err"
status=$?
set -e
check "a bad --format is exit 2" [ "$status" -eq 2 ]

# Recomputing the metrics from the raw inputs gives the same trial.json.
t="$RUN/stock/000/trial.json"
cp "$t" "$SCRATCH/before.json"
"$LAB" --quiet results --recompute "$RUN" > /dev/null || fail "lab results --recompute"
check "lab results --recompute gives the same trial.json" cmp "$SCRATCH/before.json" "$t"
check "the trial has metrics from its trace and counters" \
	[ "$(jq '[.metrics[] | select(.name == "oom_kills" or .name == "page_alloc_high_order")] | length' "$t")" -eq 2 ]

# Two shards of the same experiment, merged, make the same run as one machine
# would: shard 1 one trial at a time, shard 2 two at a time.
for k in 1 2; do
	"$LAB" --quiet run -x "$EXP" --shard $k/2 -j $k -o "$SCRATCH/shard$k" > /dev/null 2>&1 ||
		fail "lab run --shard $k/2 -j $k"
done
check "shard 2 ran two at a time" [ "$(jq .jobs "$SCRATCH/shard2/run.json")" -eq 2 ]
whole=$(jq -c '[.order | to_entries[] | select(.key % 2 == 1) | .value]' "$RUN/run.json")
check "shard 2 at -j 2 has the whole run's every second slot, in order" \
	[ "$(jq -c .order "$SCRATCH/shard2/run.json")" = "$whole" ]
check "shard 1 ran half the trials" [ "$(ls "$SCRATCH"/shard1/*/*/trial.json | wc -l)" -eq 2 ]
check "shard 2 ran the other half" [ "$(ls "$SCRATCH"/shard2/*/*/trial.json | wc -l)" -eq 2 ]
"$LAB" --quiet results --merge "$SCRATCH/shard1" "$SCRATCH/shard2" -o "$SCRATCH/merged" > /dev/null ||
	fail "lab results --merge"
check "the merged run has all four trials" [ "$(ls "$SCRATCH"/merged/*/*/trial.json | wc -l)" -eq 4 ]
"$LAB" compare "$SCRATCH/merged" --format json > "$SCRATCH/merged.json" || fail "compare the merged run"
check "the merged comparison has two trials a side" \
	[ "$(jq '[.rows[] | select(.metric == "trial_ok")][0] | .baseline_stats.n + .variant_stats.n' "$SCRATCH/merged.json")" -eq 4 ]
set +e
"$LAB" --quiet results --merge "$SCRATCH/shard1" "$RUN" -o "$SCRATCH/bad-merge" 2> "$SCRATCH/merge.err"
status=$?
set -e
check "merging a shard with a different run is refused with status 2" [ "$status" -eq 2 ]
