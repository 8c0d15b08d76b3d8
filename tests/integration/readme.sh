# Every `build/lab ...` line of README.md (indented four spaces), run as written, so the README
# cannot rot. Run in a scratch folder where the README's example run
# (results/quick-20261130-101500-3fa2c1) and shard folders are real runs of the
# end-to-end experiment; `--trials 5` becomes `--trials 1` to keep it short;
# the interactive shell is driven through tmux; the new-variant lines run in
# a copy of the checkout. `make lab run` (the other README command besides
# `make test`) runs at the end. sbatch and GNU parallel lines need a cluster
# and are not run.
# timeout: 2100 (679 s in a cold run, 13 min more if it builds the stock kernel)
# kernels: stock+test
. "$(dirname "$0")/lib.sh"

W="$SCRATCH/work"
mkdir -p "$W/results" "$W/root"
cp -r "$ROOT/kernels" "$ROOT/configs" "$W/root/"
cp "$ROOT/tests/experiments/e2e.conf" "$W/root/configs/experiments/quick.conf"
mkdir -p "$W/build"
ln -s "$LAB" "$W/build/lab"
export OOMLAB_ROOT="$W/root" OOMLAB_RESULTS="$W/results" OOMLAB_DB="$W/results/oomlab.sqlite"

EXAMPLE=results/quick-20261130-101500-3fa2c1
cd "$W"
"$LAB" --quiet run -x quick -o "$EXAMPLE" > /dev/null 2>&1 || fail "making the example run"
for k in 1 2; do
	"$LAB" --quiet run -x quick --shard $k/2 -o results/quick-shard$k > /dev/null 2>&1 ||
		fail "making shard $k"
done
# The new-variant block: its shell lines, with a real patch standing for ~/0001-my-change.patch.
mkdir -p "$OOMLAB_ROOT/kernels/variants/my-change"
cp "$ROOT/kernels/variants/binder-kcalloc/0001-binder_alloc-page-array-from-kcalloc.patch" \
	"$OOMLAB_ROOT/kernels/variants/my-change/0001-my-change.patch"
echo "what my change does (where it was discussed)" > "$OOMLAB_ROOT/kernels/variants/my-change/README"
# the one-liner's patch file, in the folder the README's lines run in
cp "$OOMLAB_ROOT/kernels/variants/my-change/0001-my-change.patch" "$W/"

# The files block: its program (allocate MB), built with plain cc as the README builds it.
mkdir -p "$W/repro"
printf '%s\n' '#include <stdlib.h>' '#include <string.h>' \
	'int main(int c, char **v) { size_t n = (size_t)(c > 1 ? atoi(v[1]) : 1) << 20;' \
	'	char *p = malloc(n); if (!p) return 1; memset(p, 1, n); return 0; }' > "$SCRATCH/allocate.c"
cc -O2 -o "$W/repro/allocate" "$SCRATCH/allocate.c" || fail "building the README's allocate"

grep -E '^    build/lab ' "$ROOT/README.md" | sed 's/^    //; s/ *# .*$//' > "$SCRATCH/commands"
n=0
while IFS= read -r line; do
	# --trials 5 becomes 1; the one-liner goes until decided at most 4 a side
	line=$(echo "$line" | sed "s/--trials 5/--trials 1/; s/ -w 'oom-hog/ --max-trials 4 -w 'oom-hog/")
	case "$line" in
	*"-p tiny-256m") # the interactive shell: a terminal from tmux, a command typed, exit
		session=oomlab-readme-$$
		tmux new-session -d -s $session -x 120 -y 40 "cd '$W' && $line; echo lab-exited-\$?; sleep 30"
		for i in $(seq 1 150); do
			tmux capture-pane -p -t $session | grep -q '^/ #' && break
			sleep 0.2
		done
		tmux send-keys -t $session 'grep -c processor /proc/cpuinfo; exit 3' Enter
		for i in $(seq 1 150); do
			tmux capture-pane -p -t $session | grep -q lab-exited && break
			sleep 0.2
		done
		screen=$(tmux capture-pane -p -t $session)
		tmux kill-session -t $session
		echo "$screen" | tail -5
		check_text "README: $line gave a shell" "$screen" '^2$'
		check_text "README: and its exit status came back" "$screen" 'lab-exited-3'
		;;
	*)
		sh -c "$line" > "$SCRATCH/out" 2>&1 || fail "README: '$line' failed: $(tail -3 "$SCRATCH/out")"
		echo "ok - README: $line"
		;;
	esac
	n=$((n + 1))
done < "$SCRATCH/commands"
check "README has its commands ($n run)" [ "$n" -ge 15 ]
check "the report was written" grep -q '<svg' report.html
check "the Perfetto traces were written" [ "$(ls traces/*/*.trace.json | wc -l)" -ge 4 ]
mychange=$("$LAB" kernel path my-change)
rm -rf "$mychange"

cd "$ROOT"
unset OOMLAB_ROOT OOMLAB_RESULTS OOMLAB_DB
export OOMLAB_RESULTS="$SCRATCH/make-results" OOMLAB_DB="$SCRATCH/make-results/oomlab.sqlite"
make --no-print-directory lab run > "$SCRATCH/make.out" 2>&1 || fail "make lab run: $(tail -5 "$SCRATCH/make.out")"
check "make lab run ended with the comparison and the results" grep -q '^results: ' "$SCRATCH/make.out"
report=$(sed -n 's/^report: *//p' "$SCRATCH/make.out")
check "make lab run named its report ($report)" [ -n "$report" ]
check "the report it named is there, in the run folder, with figures" \
	sh -c "grep -q '<svg' '$report' && [ \"\$(dirname '$report')\" = \"\$(sed -n 's/^results: *//p' '$SCRATCH/make.out')\" ]"
check_text "make lab run compared the quick experiment's variants" "$(cat "$SCRATCH/make.out")" 'binder-k'
