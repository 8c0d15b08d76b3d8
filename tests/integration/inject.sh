# Fault injection on real kernels (docs/KERNELS.md: Failure paths on demand).
# Bad input is one line naming file:line, exit 2, before anything boots;
# then seed 000 with the page array's order-3 allocation failing on demand:
# kcalloc's mmaps fail where kvcalloc falls back to vmalloc, decided in 4
# trials a side, with the injected failures counted in every trial and only
# the workload's tasks failing; lab run --fail-page-alloc arms the same, and
# a resumed run keeps it.
. "$(dirname "$0")/lib.sh"

head='description = d
variants = stock binder-kcalloc
profile = phone-512m
workload = binder-mmap --opens 20'

# --- bad input: nothing is built or booted
expect_refused() {
	# expect_refused LABEL EXPERIMENT-TEXT NEEDLE
	printf '%s\n' "$2" > "$SCRATCH/bad.conf"
	set +e
	"$LAB" run -x "$SCRATCH/bad.conf" -o "$SCRATCH/bad-run" > /dev/null 2> "$SCRATCH/bad.err"
	status=$?
	set -e
	check "$1: exit 2" [ "$status" -eq 2 ]
	check "$1: one line" [ "$(wc -l < "$SCRATCH/bad.err")" -eq 1 ]
	check_text "$1: says why" "$(cat "$SCRATCH/bad.err")" "$3"
	check "$1: no run folder" [ ! -e "$SCRATCH/bad-run" ]
}
expect_refused "a probability above 100" "$head
fail_page_alloc = probability 150" "bad.conf:5: fail_page_alloc = probability 150: .*from 0 to 100"
expect_refused "an unknown fault type" "$head
fail_futex = probability 5" "bad.conf:5: unknown key 'fail_futex'"
expect_refused "min-order on failslab" "$head
failslab = probability 5, min-order 3" "bad.conf:5: .*min-order is fail_page_alloc's"
# a variant whose own fragment turns the framework off
mkdir -p "$SCRATCH/variants/no-fail"
printf 'no fault injection\n' > "$SCRATCH/variants/no-fail/README"
printf '# CONFIG_FAIL_PAGE_ALLOC is not set\n' > "$SCRATCH/variants/no-fail/config"
export OOMLAB_VARIANT_PATH="$SCRATCH/variants"
expect_refused "a kernel built without the framework" "description = d
variants = stock no-fail
profile = phone-512m
workload = binder-mmap --opens 20
fail_page_alloc = probability 5" \
	"bad.conf:5: fail_page_alloc needs the kernel's fault injection; variant 'no-fail' lacks CONFIG_FAIL_PAGE_ALLOC"
unset OOMLAB_VARIANT_PATH

# --- seed 000 on demand, the shipped experiment in 4 trials a side
RUN="$SCRATCH/run"
"$LAB" run -x binder-kvcalloc-inject --trials 4 -o "$RUN" > "$SCRATCH/run.out" 2> "$SCRATCH/run.err" ||
	fail "lab run failed: $(tail -5 "$SCRATCH/run.err")"
"$LAB" compare "$RUN" --format json > "$SCRATCH/head.json" || fail "lab compare"
row() { jq -r --arg m "$1" --arg f "$2" '.rows[] | select(.metric == $m and .variant == "binder-kcalloc") | .[$f]' "$SCRATCH/head.json"; }
echo "binder-kcalloc against stock: mmap_ok $(row binder-mmap.mmap_ok verdict) (diff $(row binder-mmap.mmap_ok diff)," \
	"p-adj $(row binder-mmap.mmap_ok p_adj))"
check "kcalloc's mmaps are worse, decided at 4 a side (the primary)" [ "$(row binder-mmap.mmap_ok verdict)" = worse ]
# sum METRIC VARIANT: the metric over the variant's trials. A trial without
# it (no trace, no parse) fails the test naming metric and trial, never
# counting as 0; so does a variant with no trial. Use as x=$(sum ...).
sum() {
	total=0
	for f in "$RUN"/$2/*/trial.json; do
		v=$(metric_of "$f" "$1") || exit 1
		total=$(awk -v a="$total" -v b="$v" 'BEGIN { print a + b }')
	done
	echo "$total"
}
enomem=$(sum binder-mmap.mmap_enomem binder-kcalloc)
check "kcalloc's mmaps failed with ENOMEM ($enomem)" [ "$enomem" -gt 0 ]
# every trial counted the failures it was given; stock fell back to vmalloc
for t in "$RUN"/*/*/trial.json; do
	injected=$(metric_of "$t" fail_page_alloc_injected)
	check "$(basename "$(dirname "$(dirname "$t")")")/$(basename "$(dirname "$t")"): failures injected ($injected)" \
		[ "$injected" -gt 0 ]
	check "the settings are in its environment" \
		[ "$(jq '.environment.fault_injection.fail_page_alloc.min_order' "$t")" = 3 ]
done
# an injected failure returns before the allocator's tracepoint: the opens
# whose order-3 try the trace never saw are the arrays kvcalloc took from vmalloc
opens=$(( 150 * 4 ))
mapped=$(sum binder-mmap.mmap_ok stock)
order3=$(sum binder_page_array_order3 stock)
stock_enomem=$(sum binder-mmap.mmap_enomem stock)
kills_stock=$(sum oom_kills stock)
kills_kcalloc=$(sum oom_kills binder-kcalloc)
check "stock mapped every open ($mapped of $opens)" [ "$mapped" -eq "$opens" ]
check "though $(( opens - order3 )) of its page arrays failed their order-3 try" [ "$order3" -lt "$opens" ]
check "and none of stock's mmaps failed ($stock_enomem)" [ "$stock_enomem" -eq 0 ]
check "no OOM kill on either side (an injected failure skips the OOM killer: $kills_stock, $kills_kcalloc)" \
	[ "$kills_stock" -eq 0 -a "$kills_kcalloc" -eq 0 ]
check "run.json records the injection" [ "$(jq '.fault_injection.fail_page_alloc.probability' "$RUN/run.json")" = 20 ]

# --- the same from lab run's options, over the experiment's keys, and kept for --resume
printf '%s\n' "$head" 'trials = 1' 'perf_events = none' > "$SCRATCH/plain.conf"
set +e
msg=$("$LAB" run -x "$SCRATCH/plain.conf" --fail-page-alloc 'probability 150' -o "$SCRATCH/bad-opt" 2>&1)
status=$?
set -e
check "--fail-page-alloc out of range: exit 2" [ "$status" -eq 2 ]
check_text "naming the option" "$msg" "^lab: run: --fail-page-alloc: .*from 0 to 100"
check "in one line, before any run folder" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 -a ! -e "$SCRATCH/bad-opt" ]
OPT="$SCRATCH/opt-run"
"$LAB" run -x "$SCRATCH/plain.conf" --fail-page-alloc 'probability 100, min-order 3' -j 2 -o "$OPT" \
	> /dev/null 2> "$SCRATCH/opt.err" || fail "lab run --fail-page-alloc: $(tail -3 "$SCRATCH/opt.err")"
check "run.json keeps the option as given" \
	[ "$(jq -r '.fault_options.fail_page_alloc' "$OPT/run.json")" = "probability 100, min-order 3" ]
check "and the injection it armed" [ "$(jq '.fault_injection.fail_page_alloc.probability' "$OPT/run.json")" = 100 ]
injected=$(metric_of "$OPT/binder-kcalloc/000/trial.json" fail_page_alloc_injected)
check "the trial's failures were injected ($injected)" [ "$injected" -gt 0 ]
set +e
"$LAB" run --resume "$OPT" --failslab 'probability 5' > /dev/null 2>&1
status=$?
set -e
check "--resume with an injection option is refused (the run keeps its own)" [ "$status" -eq 2 ]
# a trial that did not finish runs again, under the run's injection
rm -f "$OPT/stock/000/trial.json"
"$LAB" run --resume "$OPT" > /dev/null 2> "$SCRATCH/resume.err" || fail "lab run --resume: $(tail -3 "$SCRATCH/resume.err")"
check "the resumed trial ran with the option's injection" \
	[ "$(jq '.environment.fault_injection.fail_page_alloc.probability' "$OPT/stock/000/trial.json")" = 100 ]
injected=$(metric_of "$OPT/stock/000/trial.json" fail_page_alloc_injected)
check "and failures were injected in it ($injected)" [ "$injected" -gt 0 ]

# --- only the workload's tasks fail: the agent and a process outside the command do not
out=$("$LAB" boot stock -o "$SCRATCH/scope" --fail-page-alloc 'probability 100, min-order 3' -- \
	'cat /proc/self/make-it-fail; cat /proc/1/make-it-fail') ||
	fail "lab boot with every allocation of the command failing: $out"
check "the command's tasks may fail" [ "$(echo "$out" | sed -n 1p)" = 1 ]
check "the agent may not" [ "$(echo "$out" | sed -n 2p)" = 0 ]
