# The kernel's complaints as outcomes, on real VMs: stock against
# warn-binder (tests/variants: a WARN_ON_ONCE in binder_open), six trials
# each. Every warn-binder trial records the WARNING with its function and
# stack, no stock trial records one; lab compare calls kernel_warnings
# worse (Fisher, 6/6 against 0/6: p = 2/924); the report lists the
# complaint with the trials it came up in; lab compare --fail-on worse gates on
# it (exit 3), --fail-on differs does not (exit 0).
# kernels: warn-binder
. "$(dirname "$0")/lib.sh"

export OOMLAB_VARIANT_PATH="$ROOT/tests/variants"
EXP="$ROOT/tests/experiments/complaints.conf"
RUN="$SCRATCH/run"
start=$(date +%s)
# --fail-on worse: the run's closing table has the planted worse, so exit 3,
# with the run, its table and its report kept
set +e
"$LAB" run -x "$EXP" -o "$RUN" --fail-on worse > "$SCRATCH/run.out" 2> "$SCRATCH/run.err"
status=$?
set -e
[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "lab run failed: $(tail -5 "$SCRATCH/run.err")"
echo "the run took $(( $(date +%s) - start )) s"
check "lab run --fail-on worse exits 3 on the planted worse" [ "$status" -eq 3 ]
check "and keeps its report" test -s "$RUN/report.html"
check "the run has twelve trials" [ "$(ls "$RUN"/*/*/trial.json | wc -l)" -eq 12 ]

warned=0
for t in "$RUN"/warn-binder/*/trial.json; do
	kind=$(jq -r '[.kernel_complaints[] | select(.kind == "warning")][0].function // ""' "$t")
	[ "$kind" = binder_open ] && warned=$((warned + 1))
done
check "every warn-binder trial recorded a WARNING in binder_open ($warned of 6)" [ "$warned" -eq 6 ]
quiet=0
for t in "$RUN"/stock/*/trial.json; do
	[ "$(jq '[.metrics[] | select(.name == "kernel_warnings")][0].value' "$t")" = 0 ] && quiet=$((quiet + 1))
done
check "no stock trial recorded a complaint ($quiet of 6 at 0)" [ "$quiet" -eq 6 ]
first=$(ls "$RUN"/warn-binder/*/trial.json | head -1)
jq -c '.kernel_complaints[0]' "$first"
check "the complaint's summary is the file and line of the WARN" \
	[ "$(jq -r '.kernel_complaints[0].summary' "$first")" = "drivers/android/binder.c:6021" ]
check "its stack runs from binder_open up through the open syscall" \
	jq -e '.kernel_complaints[0].frames | index("binder_open") == 0 and index("do_sys_openat2") != null' "$first"

"$LAB" compare "$RUN" --format json > "$SCRATCH/cmp.json" || fail "lab compare --format json"
row() { jq -r --arg m "$1" --arg f "$2" '.rows[] | select(.metric == $m and .variant == "warn-binder") | .[$f] | tostring' "$SCRATCH/cmp.json"; }
echo "kernel_warnings: $(row kernel_warnings verdict), p $(row kernel_warnings p), p-adj $(row kernel_warnings p_adj)"
check "kernel_warnings is worse on warn-binder" [ "$(row kernel_warnings verdict)" = worse ]
check "by Fisher's exact test on the share of trials" [ "$(row kernel_warnings test)" = "Fisher exact" ]
check "6 of 6 against 0 of 6: p = 2/924" \
	awk -v p="$(row kernel_warnings p)" 'BEGIN { exit !(p > 0.002164 && p < 0.002165) }'
check "kernel_warnings.kind=warning is worse too" [ "$(row kernel_warnings.kind=warning verdict)" = worse ]
"$LAB" compare "$RUN" > "$SCRATCH/cmp.txt"
check "lab compare's table shows the kernel_warnings rows" grep -q '^kernel_warnings$' "$SCRATCH/cmp.txt"

# A CI's gate on the planted worse: exit 3 with --fail-on worse, 0 with a
# verdict no row has (the headline metrics all have a better side, so none
# can be 'differs'). The rows' verdicts are the ones checked above (Fisher's
# exact p of 6/6 against 0/6): no chance in this check of its own.
gate() { set +e; "$LAB" compare "$RUN" "$@" > "$SCRATCH/gate.out" 2> "$SCRATCH/gate.err"; echo $?; set -e; }
check "lab compare --fail-on worse exits 3 on the planted worse" [ "$(gate --fail-on worse)" -eq 3 ]
check_text "and says which verdict it was" "$(cat "$SCRATCH/gate.err")" "compare: --fail-on worse: 2 rows of 3 have one"
check "lab compare --fail-on differs exits 0 (no row differs)" [ "$(gate --fail-on differs)" -eq 0 ]
check "--fail-on worse --format tap marks the two worse rows not ok" \
	[ "$(gate --fail-on worse --format tap)" -eq 3 -a "$(grep -c '^not ok ' "$SCRATCH/gate.out")" -eq 2 ]
check "lab compare --fail-on wrose is bad input (exit 2)" [ "$(gate --fail-on wrose)" -eq 2 ]

"$LAB" --quiet report "$RUN" -o "$SCRATCH/report.html" > /dev/null || fail "lab report"
check "the report has the complaints section" grep -q 'id="complaints"' "$SCRATCH/report.html"
check "it lists the warning with its function" grep -q '<td>binder_open</td>' "$SCRATCH/report.html"
check "and the trials it came up in" grep -q 'warn-binder: 6 of 6 (000 001 002 003 004 005)' "$SCRATCH/report.html"
