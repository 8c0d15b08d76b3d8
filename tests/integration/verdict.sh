# The verdict engine on a real run: stock against comment-only, a kernel
# whose patch rewords one comment (the same code under a new hash), six
# trials each. With no true difference, lab compare --all must call at most
# one row better, worse or differs; and the report's table must agree with
# lab compare --format json row for row (verdict and p-adj), for the
# headline family and for --all.
. "$(dirname "$0")/lib.sh"

export OOMLAB_VARIANT_PATH="$ROOT/tests/variants"
EXP="$ROOT/tests/experiments/verdict-null.conf"
RUN="$SCRATCH/run"
"$LAB" run -x "$EXP" -o "$RUN" > "$SCRATCH/run.out" 2> "$SCRATCH/run.err" ||
	fail "lab run failed: $(tail -5 "$SCRATCH/run.err")"
check "the run has twelve trials" [ "$(ls "$RUN"/*/*/trial.json | wc -l)" -eq 12 ]
check "the closing table has no 'no difference' (the word is gone)" \
	sh -c "! grep -q 'no difference' '$SCRATCH/run.out'"

"$LAB" compare "$RUN" --all --format json > "$SCRATCH/all.json" || fail "lab compare --all --format json"
rows=$(jq '.rows | length' "$SCRATCH/all.json")
false_rows=$(jq '[.rows[] | select(.verdict == "better" or .verdict == "worse" or .verdict == "differs")] | length' "$SCRATCH/all.json")
echo "comment-only against stock, --all: $false_rows of $rows rows better/worse/differs"
jq -r '.rows[] | select(.verdict == "better" or .verdict == "worse" or .verdict == "differs") |
	"  \(.metric) \(.verdict) diff \(.diff) p-adj \(.p_adj)"' "$SCRATCH/all.json"
check "more than 40 rows were compared ($rows)" [ "$rows" -gt 40 ]
check "at most one row claims a difference that is not there ($false_rows)" [ "$false_rows" -le 1 ]
check "every not-detected row says what it could have missed" \
	[ "$(jq '[.rows[] | select(.verdict == "not detected" and .mde == null and .detectable)] | length' "$SCRATCH/all.json")" -eq 0 ]

# The report and lab compare: one engine, one family, the same verdicts.
agree() {
	# agree LABEL COMPARE-OPTIONS...: report and compare with the same options
	label=$1
	shift
	"$LAB" --quiet report "$RUN" -o "$SCRATCH/$label.html" "$@" > /dev/null ||
		fail "lab report $*"
	"$LAB" compare "$RUN" --format json "$@" > "$SCRATCH/$label.json" || fail "lab compare $*"
	jq -r '.rows[] | "\(.metric)\t\(.variant)\t\(.verdict)\t\(if .p_adj == null then "" else .p_adj end)"' \
		"$SCRATCH/$label.json" > "$SCRATCH/$label.compare"
	# data-metric, data-variant, data-verdict, data-p-adj of each row, HTML entities undone
	grep -o '<tr data-metric="[^"]*" data-variant="[^"]*" data-verdict="[^"]*" data-p-adj="[^"]*"' \
		"$SCRATCH/$label.html" |
		sed 's/<tr data-metric="\([^"]*\)" data-variant="\([^"]*\)" data-verdict="\([^"]*\)" data-p-adj="\([^"]*\)"/\1\t\2\t\3\t\4/' |
		sed 's/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g' > "$SCRATCH/$label.report"
	n=$(wc -l < "$SCRATCH/$label.compare")
	check "report and compare have the same $n rows in the same order ($label)" \
		[ "$(cut -f1-3 "$SCRATCH/$label.compare")" = "$(cut -f1-3 "$SCRATCH/$label.report")" ]
	# p-adj: the same number (the HTML carries 6 digits)
	check "report and compare give every row the same p-adj ($label)" \
		awk -F'\t' 'NR == FNR { p[FNR] = $4; next }
			{ a = p[FNR]; b = $4
			  if ((a == "") != (b == "")) exit 1
			  if (a != "" && (a - b > 1e-5 * a + 1e-12 || b - a > 1e-5 * a + 1e-12)) exit 1 }' \
			"$SCRATCH/$label.compare" "$SCRATCH/$label.report"
	check "the $label table is not empty" [ "$n" -gt 0 ]
}
agree headline
agree all --all
