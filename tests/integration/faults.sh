# The fault campaign, on real kernels and VMs: bad input is rejected before
# any boot (no QEMU started); a first round that fails the same way in every
# group, or whose workload line fails alike in every trial, stops the run; a
# QEMU killed from outside is 'host-killed'; lab run killed (SIGKILL) and interrupted (SIGINT)
# mid-trial leaves no QEMU, and --resume boots every unfinished trial once and
# no finished one again, at one trial at a time and at two; lab boot killed leaves no QEMU; a guest that stops
# answering is a hang within the watchdog; a disk that fills under --out is
# one line with the earlier trials intact; a trial.json cut short is named,
# counted and rebuilt; two runs started in the same second into one store
# keep every trial once.
# kernels: binder-kcalloc
. "$(dirname "$0")/lib.sh"

export OOMLAB_RESULTS="$SCRATCH/results" OOMLAB_DB="$SCRATCH/results/oomlab.sqlite"
EXP="$ROOT/tests/experiments/faults.conf"
"$LAB" --quiet kernel build stock binder-kcalloc || fail "building the kernels"

# QEMU through a wrapper that logs every boot's folder to $BOOTS and execs the
# real one (the same process, so the lab's guard against orphans holds). With
# $FILL_AFTER_FIRST_BOOT it waits instead, for that test's first boot.
REAL_QEMU=$(command -v qemu-system-x86_64)
BOOTS="$SCRATCH/boots"
mkdir -p "$SCRATCH/bin"
cat > "$SCRATCH/bin/qemu-system-x86_64" <<EOF
#!/bin/sh
case " \$* " in *" -kernel "*) pwd >> "$BOOTS" ;; esac
exec "$REAL_QEMU" "\$@"
EOF
chmod +x "$SCRATCH/bin/qemu-system-x86_64"
export PATH="$SCRATCH/bin:$PATH"
: > "$BOOTS"

boots_in() { grep -c "^$1" "$BOOTS" || true; }
finished() { ls "$1"/*/*/trial.json 2>/dev/null | wc -l; }
# the trial folders of RUN that have no trial.json
unfinished() {
	for d in "$1"/*/*/; do
		[ -e "$d/trial.json" ] || echo "${d%/}"
	done
}
# wait_for COND...: up to 5 minutes
wait_for() {
	for i in $(seq 1 1500); do
		"$@" && return 0
		sleep 0.2
	done
	return 1
}
# running_after RUN N: N trials finished, and an unfinished one's QEMU runs with its agent up
running_after() {
	[ "$(finished "$1")" -ge "$2" ] || return 1
	for c in "$1"/*/*/ctl.jsonl; do
		[ -e "${c%/ctl.jsonl}/trial.json" ] && continue
		grep -qs '"ready"' "$c" && [ "$(qemus_in "$1")" -eq 1 ] && return 0
	done
	return 1
}

# --- bad input: one line naming file and line (or the option), exit 2, nothing booted
bad_exp="$SCRATCH/bad.conf"
for line in 'nosuch --x' 'binder-mmap --opens x' 'oom-hog --mode reaper' 'spawn --node 1' \
	    'if true; then spawn; fi' 'spawn --time $OOMLAB_TIME' 'spawn "-n 5'; do
	printf 'description = bad\nvariants = stock binder-kcalloc\nprofile = phone-512m\n# the line\nworkload = %s\n' \
		"$line" > "$bad_exp"
	set +e
	msg=$("$LAB" run -x "$bad_exp" -o "$SCRATCH/bad-run" 2>&1)
	status=$?
	set -e
	echo "$msg"
	check "'$line' is exit 2" [ "$status" -eq 2 ]
	check "'$line' is one line" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]
	check_text "'$line' names the file and line" "$msg" "bad.conf:5: workload = "
	check "'$line' made no run folder" [ ! -e "$SCRATCH/bad-run" ]
done
check_text "an unknown name says what there is" "$(printf 'description = b\nvariants = stock\nprofile = phone-512m\nworkload = nosuch\n' > "$bad_exp"; "$LAB" run -x "$bad_exp" 2>&1 || true)" \
	"'nosuch' is neither a workload (binder-sendvec.*) nor a program of the guest"
printf 'description = bad\nvariants = stock\nprofile = phone-512m\nprepare = fragment --bogus\nworkload = spawn\n' > "$bad_exp"
set +e
msg=$("$LAB" run -x "$bad_exp" 2>&1)
status=$?
set -e
check "a bad prepare line is exit 2" [ "$status" -eq 2 ]
check_text "and names its line" "$msg" "bad.conf:4: prepare = fragment --bogus: fragment: unknown option '--bogus'"
for cmd in 'binder-mmap --opens x' 'true; nosuch'; do
	set +e
	msg=$("$LAB" boot stock -o "$SCRATCH/bad-boot" -- "$cmd" 2>&1)
	status=$?
	set -e
	echo "$msg"
	# lab boot's bad input is 254, which git bisect run aborts on (lab boot --help)
	check "lab boot -- '$cmd' is exit 254, one line" [ "$status" -eq 254 -a "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]
done
set +e
msg=$("$LAB" boot stock --prepare 'fragment --target-order x' -o "$SCRATCH/bad-boot" -- true 2>&1)
status=$?
set -e
check "a bad lab boot --prepare is exit 254" [ "$status" -eq 254 ]
check_text "and names the option" "$msg" "boot: --prepare fragment --target-order x: fragment: --target-order"
check "no bad input booted anything" [ ! -s "$BOOTS" ]
check "nor made a trial folder" [ ! -e "$SCRATCH/bad-boot" ]

# --- a first round that fails the same way everywhere stops the run
printf 'description = fails\nvariants = stock binder-kcalloc\nprofile = phone-512m\ntrials = 3\nperf_events = none\nworkload = spawn --cmd /no/such/program\n' \
	> "$SCRATCH/fails.conf"
set +e
"$LAB" run -x "$SCRATCH/fails.conf" -o "$SCRATCH/fails" > "$SCRATCH/fails.out" 2> "$SCRATCH/fails.err"
status=$?
set -e
tail -1 "$SCRATCH/fails.err"
check "the run stops with exit 1" [ "$status" -eq 1 ]
check "after the first round: one trial a group" [ "$(finished "$SCRATCH/fails")" -eq 2 -a "$(boots_in "$SCRATCH/fails")" -eq 2 ]
check_text "saying why" "$(tail -1 "$SCRATCH/fails.err")" \
	"every trial of the first round (2) ended 'failed' with exit status 2; .* said: spawn: --cmd /no/such/program: No such file or directory: the run stops here"
check "and no table" [ ! -s "$SCRATCH/fails.out" ]

# --- a workload line that fails alike in every trial (its trials ok) stops the run too
printf 'description = bad line\nvariants = stock binder-kcalloc\nprofile = phone-512m\ntrials = 3\nperf_events = none\nworkload = taskset zz spawn -n 1\n' \
	> "$SCRATCH/badline.conf"
set +e
"$LAB" run -x "$SCRATCH/badline.conf" -o "$SCRATCH/badline" > "$SCRATCH/badline.out" 2> "$SCRATCH/badline.err"
status=$?
set -e
tail -1 "$SCRATCH/badline.err"
check "a line failing alike stops the run with exit 1" [ "$status" -eq 1 ]
check "after the first round" [ "$(finished "$SCRATCH/badline")" -eq 2 ]
check_text "naming the line and its first stderr line" "$(tail -1 "$SCRATCH/badline.err")" \
	"in every trial of the first round (2) workload line 1 (spawn) exited with status 1; .* said: taskset: bad affinity 'zz': the run stops here"
t=$(ls "$SCRATCH"/badline/*/000/trial.json | head -1)
check "its trials are ok, the detail naming the line" \
	[ "$(jq -r '.outcome.outcome + ": " + .outcome.detail' "$t")" = "ok: the command exited with status 0; line 1 (spawn) exited with status 1: taskset: bad affinity 'zz'" ]
check "and trial.json keeps the line" [ "$(jq -c '.workload_lines[0] | [.exit_status, .signal, .first_text]' "$t")" = '[1,0,"taskset: bad affinity '"'zz'"'"]' ]

# The runs that are killed mid-trial: the same experiment with a trial long
# enough (1000 spawns, some seconds) that the poll below sees it running; with
# 20 spawns a trial could end between two polls.
SLOW="$SCRATCH/slow.conf"
sed 's/^workload = spawn -n 20$/workload = spawn -n 1000/' "$EXP" > "$SLOW"
grep -q 'spawn -n 1000' "$SLOW" || fail "the slow copy of $EXP"

# --- lab run killed (SIGKILL) and interrupted (SIGINT) mid-trial, then resumed
# (one trial at a time here, so that each signal cuts exactly one; two at a time below)
RUN="$SCRATCH/run"
"$LAB" run -x "$SLOW" --trials 1 -j 1 -o "$RUN" > /dev/null 2> "$SCRATCH/run.err1" &
lab=$!
wait_for running_after "$RUN" 1 || fail "the run did not get to its second trial"
kill -KILL $lab
wait $lab || true
sleep 1
check "SIGKILL mid-trial left no QEMU" [ "$(qemus_in "$RUN")" -eq 0 ]
cut="$(unfinished "$RUN")"
check "one trial finished before the SIGKILL" [ "$(finished "$RUN")" -eq 1 ]
first=$(ls "$RUN"/*/*/trial.json)
stamp=$(stat -c %Y "$first")
"$LAB" run --resume "$RUN" -j 1 > /dev/null 2> "$SCRATCH/run.err2" &
lab=$!
wait_for running_after "$RUN" 1 || fail "the resumed run did not boot the cut trial again"
kill -INT $lab
set +e
wait $lab
status=$?
set -e
sleep 1
check "SIGINT is exit 130" [ "$status" -eq 130 ]
check "SIGINT mid-trial left no QEMU" [ "$(qemus_in "$RUN")" -eq 0 ]
cut="$cut $(unfinished "$RUN")"
check "no other trial finished before the SIGINT" [ "$(finished "$RUN")" -eq 1 ]
"$LAB" run --resume "$RUN" -j 1 > "$SCRATCH/run.out" 2> "$SCRATCH/run.err3" ||
	fail "the last resume failed: $(tail -3 "$SCRATCH/run.err3")"
check "every trial finished" [ "$(finished "$RUN")" -eq 2 ]
check "the first finished trial was not run again" [ "$(stat -c %Y "$first")" = "$stamp" ]
check "each trial ended once over the three invocations" \
	[ "$(cat "$SCRATCH"/run.err[123] | grep -c '\] .*: ok in')" -eq 2 ]
check "each signal cut a trial ($cut)" [ "$(echo $cut | wc -w)" -eq 2 ]
for t in "$RUN"/*/*/; do
	t=${t%/}
	want=$(( 1 + $(echo $cut | tr ' ' '\n' | grep -cx "$t" || true) ))
	check "$(basename "$(dirname "$t")")/$(basename "$t") booted $want times: once more for each cut" \
		[ "$(boots_in "$t")" -eq $want ]
done

# --- two trials at a time: SIGKILL with both in flight leaves no QEMU; --resume -j 2
# boots each cut trial once more, in the same order, and keeps what had finished
PAR="$SCRATCH/par"
"$LAB" run -x "$SLOW" -j 2 -o "$PAR" > /dev/null 2> "$SCRATCH/par.err1" &
lab=$!
# both trials of the first round up (agents ready), in two QEMUs at once
both_running() {
	[ "$(qemus_in "$PAR")" -eq 2 ] || return 1
	[ "$(grep -ls '"ready"' "$PAR"/*/*/ctl.jsonl 2>/dev/null | wc -l)" -ge 2 ]
}
wait_for both_running || fail "two trials did not run at once"
kill -KILL $lab
wait $lab || true
sleep 1
check "SIGKILL with two trials in flight left no QEMU" [ "$(qemus_in "$PAR")" -eq 0 ]
par_cut="$(unfinished "$PAR")"
check "it cut both" [ "$(echo $par_cut | wc -w)" -eq 2 ]
check "run.json says two at a time" [ "$(jq .jobs "$PAR/run.json")" -eq 2 ]
"$LAB" run --resume "$PAR" -j 2 > "$SCRATCH/par.out" 2> "$SCRATCH/par.err2" ||
	fail "lab run --resume -j 2: $(tail -3 "$SCRATCH/par.err2")"
check "every trial of the resumed run finished" [ "$(finished "$PAR")" -eq 4 ]
for t in "$PAR"/*/*/; do
	t=${t%/}
	want=$(( 1 + $(echo $par_cut | tr ' ' '\n' | grep -cx "$t" || true) ))
	check "$(basename "$(dirname "$t")")/$(basename "$t") booted $want times" [ "$(boots_in "$t")" -eq $want ]
	check "$(basename "$(dirname "$t")")/$(basename "$t") says two trials at a time" \
		[ "$(jq .environment.trials_at_once "$t/trial.json")" -eq 2 ]
done
# the boots came in the run's order: each round's two before the next round's
order=$(jq -r '.order[] | .label + "/" + (.index | tostring)' "$PAR/run.json" | tail -2 | sort | tr '\n' ' ')
late=$(grep "^$PAR/" "$BOOTS" | tail -2 | sed "s|^$PAR/||; s|/0*\([0-9]\)\$|/\1|" | sort | tr '\n' ' ')
check "the last two boots were the second round's ($order)" [ "$order" = "$late" ]
check_text "the table's clock line says two at a time" "$(cat "$SCRATCH/par.out")" "2 trials at a time"
check "no QEMU is left" [ "$(qemus_in "$PAR")" -eq 0 ]

# --- lab boot killed (SIGTERM and SIGKILL): no QEMU survives
for sig in TERM KILL; do
	dir="$SCRATCH/kill-$sig"
	"$LAB" --quiet boot stock -o "$dir" -- 'sleep 120' > /dev/null 2>&1 &
	lab=$!
	wait_for grep -qs '"ready"' "$dir/ctl.jsonl" || fail "lab boot did not come up"
	check "QEMU runs before SIG$sig" [ "$(qemus_in "$dir")" -eq 1 ]
	kill -$sig $lab
	wait $lab || true
	sleep 1
	check "no QEMU left after the lab got SIG$sig" [ "$(qemus_in "$dir")" -eq 0 ]
done

# --- a QEMU SIGKILLed from outside the lab (the host's OOM killer, say) is 'host-killed', not a boot failure
dir="$SCRATCH/outside"
"$LAB" --quiet boot stock -o "$dir" -- 'sleep 120' > /dev/null 2> "$SCRATCH/outside.err" &
lab=$!
wait_for grep -qs '"ready"' "$dir/ctl.jsonl" || fail "lab boot did not come up"
for p in $(pgrep '^qemu-system-' || true); do
	[ "$(readlink "/proc/$p/cwd" 2>/dev/null)" = "$dir" ] && kill -KILL "$p"
done
set +e
wait $lab
status=$?
set -e
check "lab boot exits 128+9 when its QEMU was SIGKILLed" [ "$status" -eq 137 ]
check "the outcome is host-killed" [ "$(jq -r .outcome.outcome "$dir/trial.json")" = host-killed ]
check_text "naming the signal" "$(jq -r .outcome.detail "$dir/trial.json")" \
	"QEMU was killed by signal 9 (Killed) from outside the lab"

# --- a guest that stops talking: real-time hogs starve everything else
start=$(date +%s)
set +e
"$LAB" boot stock --silence-timeout 8 -o "$SCRATCH/hang" -- "$STARVE_THE_AGENT" 2> "$SCRATCH/hang.err"
status=$?
set -e
took=$(( $(date +%s) - start ))
check "a silent guest exits 124" [ "$status" -eq 124 ]
check "the outcome is hang" grep -q '"outcome": "hang"' "$SCRATCH/hang/trial.json"
check "the hang was caught within the watchdog, not the 300 s workload (took $took s)" [ "$took" -lt 60 ]
check "the hang record has the last console lines" grep -q 'last console lines' "$SCRATCH/hang/trial.json"
check "and no QEMU is left" [ "$(qemus_in "$SCRATCH/hang")" -eq 0 ]

# --- a full disk under --out: a tmpfs with room for the initrd and one and a half trials
folder_kb=$(du -sk "$RUN/stock/000" | cut -f1)
# the initramfs reproduce.sh catenates (a word of its own, quoted when it needs it)
initramfs=$(grep -o "[^ ']*/initramfs-[0-9a-f]*\.cpio\.gz" "$RUN/stock/000/reproduce.sh" | head -1)
[ -f "$initramfs" ] || fail "no initramfs named in $RUN/stock/000/reproduce.sh"
initrd_kb=$(( ($(stat -c %s "$initramfs") + $(stat -c %s "$RUN/stock/000/job.cpio")) / 1024 + 1 ))
FULL="$SCRATCH/full"
mkdir -p "$FULL"
mount -t tmpfs -o size=$(( initrd_kb + folder_kb * 3 / 2 ))k oomlab-faults "$FULL" || fail "cannot mount a tmpfs"
trap 'umount "$FULL" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
set +e
"$LAB" --quiet run -x "$EXP" --trials 1 -j 1 -o "$FULL/run" > /dev/null 2> "$SCRATCH/full.err"
status=$?
set -e
cat "$SCRATCH/full.err"
check "the full disk is exit 1" [ "$status" -eq 1 ]
check "in one line" [ "$(wc -l < "$SCRATCH/full.err")" -eq 1 ]
check_text "that says so" "$(cat "$SCRATCH/full.err")" "No space left on device"
done_full=$(finished "$FULL/run")
check "the first trial finished before the disk was full" [ "$done_full" -eq 1 ]
for t in "$FULL"/run/*/*/trial.json; do
	check "$t is whole" [ "$(jq -r .outcome.outcome "$t")" = ok ]
done
check "no QEMU is left" [ "$(qemus_in "$FULL")" -eq 0 ]
mount -o remount,size=64m "$FULL"
"$LAB" --quiet run --resume "$FULL/run" > /dev/null 2> "$SCRATCH/full2.err" ||
	fail "resuming after the disk was freed: $(tail -3 "$SCRATCH/full2.err")"
check "with room again the run finishes" [ "$(finished "$FULL/run")" -eq 2 ]

# --- a trial.json cut short: named by compare, report and export, counted, rebuilt
t="$RUN/stock/000/trial.json"
cp "$t" "$SCRATCH/whole.json"
head -c 200 "$SCRATCH/whole.json" > "$t"
"$LAB" compare "$RUN" --format json > "$SCRATCH/cut.json" 2> "$SCRATCH/cut.err" || fail "compare with a cut trial.json"
check_text "compare names it" "$(cat "$SCRATCH/cut.err")" "$RUN/stock/000: trial.json: line"
check "and counts it among the trials that ended otherwise" \
	[ "$(jq '[.rows[] | select(.metric == "trial_ok")][0].baseline_stats | .n == 0 and .n_other == 1' "$SCRATCH/cut.json")" = true ]
"$LAB" report "$RUN" -o "$SCRATCH/cut.html" > /dev/null 2> "$SCRATCH/cut-report.err" || fail "report with a cut trial.json"
check_text "report names it" "$(cat "$SCRATCH/cut-report.err")" "$RUN/stock/000: trial.json: line"
"$LAB" export "$RUN" --format csv -o "$SCRATCH/cut-csv" > /dev/null 2> "$SCRATCH/cut-export.err" || fail "export"
check_text "export names it" "$(cat "$SCRATCH/cut-export.err")" "$RUN/stock/000: trial.json: line"
"$LAB" results --recompute "$RUN" > /dev/null 2> "$SCRATCH/recompute.err" || fail "lab results --recompute"
check_text "lab results --recompute rebuilds it" "$(cat "$SCRATCH/recompute.err")" "trial.json rebuilt from record.json"
check "to the same bytes" cmp "$SCRATCH/whole.json" "$t"

# --- two runs of one experiment started in the same second, into one store
export OOMLAB_DB="$SCRATCH/two.sqlite"
grep -v '^variants' "$EXP" > "$SCRATCH/twin.conf"
echo 'variants = stock' >> "$SCRATCH/twin.conf"
# at the start of a second, so that both take their time stamp in it
sleep "$(printf '0.%09d' $(( 1000000000 - $(date +%N | sed 's/^0*//;s/^$/0/') )))"
"$LAB" --quiet run -x "$SCRATCH/twin.conf" --trials 1 -o "$SCRATCH/twin1" > /dev/null 2> "$SCRATCH/twin1.err" &
one=$!
"$LAB" --quiet run -x "$SCRATCH/twin.conf" --trials 1 -o "$SCRATCH/twin2" > /dev/null 2> "$SCRATCH/twin2.err" &
two=$!
wait $one || fail "the first of two runs: $(tail -3 "$SCRATCH/twin1.err")"
wait $two || fail "the second of two runs: $(tail -3 "$SCRATCH/twin2.err")"
id1=$(jq -r .run_id "$SCRATCH/twin1/run.json")
id2=$(jq -r .run_id "$SCRATCH/twin2/run.json")
echo "run ids: $id1 $id2 (the same second: $([ "${id1%-*}" = "${id2%-*}" ] && echo yes || echo no))"
check "two runs, two ids" [ "$id1" != "$id2" ]
check "the store has both runs" [ "$(sqlite3 "$OOMLAB_DB" 'SELECT count(*) FROM runs')" -eq 2 ]
check "and every trial once" [ "$(sqlite3 "$OOMLAB_DB" \
	"SELECT count(DISTINCT trial_dir) || ' ' || count(*) FROM trial_list")" = "2 2" ]
check "no QEMU is left anywhere the campaign ran" [ "$(qemus_in "$SCRATCH")" -eq 0 ]
