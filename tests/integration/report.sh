# lab report and lab export on a real run: two variants, two trials each
# (tests/experiments/report.conf: fragment prepare, sendVec, throughput and
# a reaper kill). The exports are parsed back with jq and checked against
# the trial folders; the HTML is opened in headless Chromium, whose DOM must
# hold the figures (svg) and the comparison table.
. "$(dirname "$0")/lib.sh"

EXP="$ROOT/tests/experiments/report.conf"
RUN="$SCRATCH/run"
"$LAB" run -x "$EXP" -o "$RUN" > "$SCRATCH/run.out" 2> "$SCRATCH/run.err" ||
	fail "lab run failed: $(tail -5 "$SCRATCH/run.err")"
trials=$(ls "$RUN"/*/*/trial.json | wc -l)
check "the run has four trials" [ "$trials" -eq 4 ]

# ---- lab report
HTML="$SCRATCH/report.html"
"$LAB" report "$RUN" -o "$HTML" > "$SCRATCH/report.out" 2> "$SCRATCH/report.err" ||
	fail "lab report failed: $(cat "$SCRATCH/report.err")"
cat "$SCRATCH/report.out"
check "the report was written" test -s "$HTML"
drawn=$(sed -n 's/.*: \([0-9]*\) figures\{0,1\} drawn.*/\1/p' "$SCRATCH/report.out")
check "lab report says how many figures it drew ($drawn)" [ "${drawn:-0}" -ge 5 ]
for fig in oom-kills reaper sendvec throughput latency buddyinfo memory; do
	check "figure $fig was drawn" grep -Eq "^  drawn +$fig " "$SCRATCH/report.out"
done
check "the HTML has one svg per drawn figure" [ "$(grep -o '<svg' "$HTML" | wc -l)" -eq "$drawn" ]
check "the HTML has the comparison table" grep -q '<table class="compare">' "$HTML"
check "the HTML states the TCG timing claim" grep -q 'ratios between variants measured in one run' "$HTML"
check "the HTML needs no network (no script, no external source)" \
	sh -c "! grep -Eiq '<script|src=|href=\"https?:' '$HTML'"
check "stdout carries no colour codes when it is not a terminal" \
	sh -c "! grep -q \"$(printf '\033')\" '$SCRATCH/report.out'"
NO_COLOR=1 "$LAB" --quiet report "$RUN" -o "$SCRATCH/quiet.html" > /dev/null 2> "$SCRATCH/quiet.err" ||
	fail "lab --quiet report"
check "--quiet: nothing on stderr" [ ! -s "$SCRATCH/quiet.err" ]

# ---- the HTML in a browser
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || fail "chromium is not installed (scripts/install-deps)"
chrome() {
	profile=$(mktemp -d "$SCRATCH/chrome.XXXXXX")
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" "$@" 2> "$SCRATCH/chrome.err"
}
chrome --dump-dom "file://$HTML" > "$SCRATCH/dom.html" || fail "chromium could not open the report"
dom_svgs=$(grep -o '<svg' "$SCRATCH/dom.html" | wc -l)
check "the rendered DOM has the figures ($dom_svgs svg elements)" [ "$dom_svgs" -eq "$drawn" ]
check "the rendered DOM has the comparison table" grep -q '<table class="compare">' "$SCRATCH/dom.html"
check "the rendered DOM has gnuplot's plot paths" grep -q '<path' "$SCRATCH/dom.html"
chrome --screenshot="$SCRATCH/report.png" --window-size=1200,3000 "file://$HTML" > /dev/null ||
	fail "chromium could not take a screenshot"
check "the screenshot was taken" [ "$(stat -c %s "$SCRATCH/report.png")" -gt 20000 ]
[ -n "${REPORT_SCREENSHOT:-}" ] && cp "$SCRATCH/report.png" "$REPORT_SCREENSHOT"

# ---- lab export --format perfetto
"$LAB" export "$RUN" --format perfetto -o "$SCRATCH/perfetto" > "$SCRATCH/perfetto.out" ||
	fail "lab export --format perfetto"
cat "$SCRATCH/perfetto.out"
check "one trace per trial" [ "$(ls "$SCRATCH"/perfetto/*/*.trace.json | wc -l)" -eq "$trials" ]
for t in "$RUN"/*/[0-9][0-9][0-9]; do
	group=$(basename "$(dirname "$t")")
	index=$(basename "$t")
	f="$SCRATCH/perfetto/$group/$index.trace.json"
	name="$group/$index"
	check "$name: the trace parses" jq -e '.traceEvents | length > 0' "$f" > /dev/null
	check "$name: events sorted by ts" \
		jq -e '[.traceEvents[].ts] as $t | $t == ($t | sort)' "$f" > /dev/null
	check "$name: slices have a duration >= 0" \
		jq -e '[.traceEvents[] | select(.ph == "X") | select((.dur | type) != "number" or .dur < 0)] | length == 0' "$f" > /dev/null
	check "$name: begin and end events balance" \
		jq -e '([.traceEvents[] | select(.ph == "B")] | length) == ([.traceEvents[] | select(.ph == "E")] | length)' "$f" > /dev/null
	check "$name: processes and threads are named" \
		jq -e '[.traceEvents[] | select(.ph == "M" and .name == "thread_name")] | length > 0' "$f" > /dev/null
	# agree with the trial folder
	beats=$(grep -c '"heartbeat".*"mem_available_kb"' "$t/ctl.jsonl" || true)
	check "$name: a mem_available_kb counter per heartbeat ($beats)" \
		[ "$(jq '[.traceEvents[] | select(.ph == "C" and .name == "mem_available_kb")] | length' "$f")" -eq "$beats" ]
	phases=$(grep -c '"name":"phase-begin"' "$t/out.log" || true)
	check "$name: a slice per workload phase ($phases)" \
		[ "$(jq '[.traceEvents[] | select(.cat == "phase")] | length' "$f")" -eq "$phases" ]
	marks=$(grep -c 'oom:mark_victim:' "$t/perf.script" || true)
	check "$name: an instant per mark_victim in perf.script ($marks)" \
		[ "$(jq '[.traceEvents[] | select(.ph == "i" and .name == "mark_victim" and .pid < 10000000)] | length' "$f")" -eq "$marks" ]
	allocs=$(grep -c 'binder:binder_alloc_page_start:' "$t/perf.script" || true)
	check "$name: a slice per binder page allocation ($allocs)" \
		[ "$(jq '[.traceEvents[] | select(.name == "binder_alloc_page")] | length' "$f")" -eq "$allocs" ]
done

# ---- lab export --format perf
"$LAB" export "$RUN" --format perf -o "$SCRATCH/perf" > "$SCRATCH/perf.out" || fail "lab export --format perf"
for t in "$RUN"/*/[0-9][0-9][0-9]; do
	d="$SCRATCH/perf/$(basename "$(dirname "$t")")/$(basename "$t")"
	check "$d: perf.data is the trial's" cmp -s "$t/perf.data" "$d/perf.data"
	check "$d: perf.script is there" test -s "$d/perf.script"
done
first=$(ls -d "$SCRATCH"/perf/*/000 | head -1)
if command -v perf > /dev/null; then
	check "perf script reads the exported data" \
		sh -c "perf script -i '$first/perf.data' 2> /dev/null | grep -q ':'"
	check "perf report reads the exported data" \
		sh -c "perf report -i '$first/perf.data' --stdio 2> /dev/null | grep -q 'Samples'"
fi

# ---- lab export --format csv and json
"$LAB" export "$RUN" --format json -o "$SCRATCH/json" > /dev/null || fail "lab export --format json"
"$LAB" export "$RUN" --format csv -o "$SCRATCH/csv" > /dev/null || fail "lab export --format csv"
J="$SCRATCH/json/metrics.json"
C="$SCRATCH/csv/metrics.csv"
check "metrics.json parses" jq -e '.format == "oomlab-metrics"' "$J" > /dev/null
check "metrics.json lists every trial" [ "$(jq '.trials | length' "$J")" -eq "$trials" ]
rows=$(jq '.rows | length' "$J")
check "rows are the trials' metrics added up ($rows)" \
	[ "$(jq '[.trials[].n_metrics] | add' "$J")" -eq "$rows" ]
for t in "$RUN"/*/[0-9][0-9][0-9]; do
	group=$(basename "$(dirname "$t")")
	index=$(basename "$t" | sed 's/^0*//')
	index=${index:-0}
	want=$(jq 'if (.metrics | type) == "array" then (.metrics | length) else -1 end' "$t/trial.json")
	got=$(jq --arg g "$group" --argjson i "$index" \
		'[.rows[] | select(.group == $g and .trial == $i)] | length' "$J")
	from=$(jq -r --arg g "$group" --argjson i "$index" \
		'.trials[] | select(.group == $g and .trial == $i) | .metrics_from' "$J")
	if [ "$want" -ge 0 ]; then
		check "$group/$index: as many rows as trial.json has metrics ($want)" [ "$got" -eq "$want" ]
	else
		check "$group/$index: metrics computed from the folder ($got)" \
			[ "$from" = derived -a "$got" -gt 0 ]
	fi
done
check "csv: a header and a line per row" [ "$(wc -l < "$C")" -eq $((rows + 1)) ]
check "csv: the header names variant, profile and hashes" \
	sh -c "head -1 '$C' | grep -q '^run_id,group,variant,trial,outcome,profile,variant_hash,guest_images_hash,accelerator,metric,value,unit,source'"
check "csv: every trial appears" \
	[ "$(tail -n +2 "$C" | gawk -v FPAT='([^,]*)|("([^"]|"")*")' '{ print $2 "," $4 }' | sort -u | wc -l)" -eq "$trials" ]
check "csv and json agree on the metrics" \
	[ "$(tail -n +2 "$C" | tr -d '\r' | gawk -v FPAT='([^,]*)|("([^"]|"")*")' \
		'{ m = $10; if (m ~ /^"/) { m = substr(m, 2, length(m) - 2); gsub(/""/, "\"", m) }
		   print $2 "," $4 "," m }' | sort | md5sum)" = \
	  "$(jq -r '.rows[] | "\(.group),\(.trial),\(.metric)"' "$J" | sort | md5sum)" ]

# ---- bad input: one line naming the option or file, exit 2
bad() {
	what=$1
	shift
	set +e
	"$LAB" "$@" > "$SCRATCH/bad.out" 2> "$SCRATCH/bad.err"
	status=$?
	set -e
	check "$what: exit 2 (got $status)" [ "$status" -eq 2 ]
	check "$what: one line on stderr" [ "$(wc -l < "$SCRATCH/bad.err")" -eq 1 ]
}
bad "export with an unknown format" export "$RUN" --format xml -o "$SCRATCH/x"
check "the message names --format" grep -q -- '--format' "$SCRATCH/bad.err"
bad "export without -o" export "$RUN" --format csv
bad "export of a folder that is no run" export "$SCRATCH" --format csv -o "$SCRATCH/x"
check "the message names the folder" grep -q "$SCRATCH" "$SCRATCH/bad.err"
bad "report of a run that does not exist" report "$SCRATCH/no-such-run"
bad "report into a folder that does not exist" report "$RUN" -o "$SCRATCH/no/such/r.html"
check "the message names --out" grep -q -- '--out' "$SCRATCH/bad.err"
bad "report with an unknown option" report "$RUN" --colour
