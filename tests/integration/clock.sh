# The instruction-count clock in real VMs: a boot with --clock icount runs
# single-threaded TCG with the counter, records it in trial.json with the
# scaled watchdogs, runs sendVec with the same figure twice, and skips idle
# time; runs on two clocks are refused together by lab compare and lab
# report (one line, exit 2), and the store keeps each trial's clock; icount
# where the lab would use KVM is refused before anything builds or boots.
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock || fail "building stock"

# jq_true FILTER FILE...: the filter holds (jq -e), quietly
jq_true() {
	jq -e "$@" > /dev/null
}

# --- a boot on the instruction-count clock
"$LAB" boot stock --clock icount -o "$SCRATCH/ic" -- \
	'for i in 1 2; do taskset 1 binder-sendvec --sizes 4,4096 --time-per-size 0.3; done' \
	> "$SCRATCH/ic.out" 2> "$SCRATCH/ic.err" || fail "lab boot --clock icount: $(tail -3 "$SCRATCH/ic.err")"
T="$SCRATCH/ic/trial.json"
check "the boot is ok" [ "$(jq -r .outcome.outcome "$T")" = ok ]
check "trial.json records the clock icount" [ "$(jq -r .environment.clock.name "$T")" = icount ]
check "and its settings" [ "$(jq -r .environment.clock.settings "$T")" = "shift=0,sleep=off,align=off" ]
check "and where it was asked for" [ "$(jq -r .environment.clock.from "$T")" = "--clock" ]
check "and that guest time counts instructions" jq_true '.environment.clock.meaning | test("counts instructions")' "$T"
check "QEMU ran one TCG thread" grep -q -- '-accel tcg,thread=single ' "$SCRATCH/ic/qemu.cmdline"
check "with the instruction counter" grep -q -- '-icount shift=0,sleep=off,align=off' "$SCRATCH/ic/qemu.cmdline"
scale=$(jq -r .environment.clock.watchdog_scale "$T")
check "the watchdogs are scaled by the clock's slowdown ($scale)" \
	jq_true --argjson k "$scale" '$k > 1 and .environment.watchdogs.boot_s == 60 * $k and
		.environment.watchdogs.silence_s == 60 * $k and .environment.watchdogs.total_s == 1800 * $k' "$T"
values=$(jq -R -r 'fromjson? | select(.name == "sendvec_ns_per_rt" and .labels.size == "4") | .value' \
	"$SCRATCH/ic/out.log")
echo "sendVec 4 B, two runs in one boot, ns: $(echo $values)"
check "sendVec ran twice" [ "$(echo "$values" | wc -l)" -eq 2 ]
check "sendVec's metrics are in trial.json" \
	jq_true '[.metrics[] | select(.name == "binder-sendvec.sendvec_ns_per_rt.size=4")] | length == 1' "$T"
# Pinned to one CPU, a round trip is the same count of instructions each time
# (0.3% apart here); on the host's clock a loaded host moves it by far more.
check "the two runs agree within 2% (guest time counts instructions)" \
	sh -c "echo '$values' | paste -sd' ' | awk '{ d = \$1 - \$2; if (d < 0) d = -d; exit !(d / \$1 < 0.02) }'"

# --- idle time is skipped: a 20 s sleep takes the guest's 20 s, not the host's
"$LAB" --quiet boot stock --clock icount -o "$SCRATCH/sleep" -- \
	'a=$(cut -d" " -f1 /proc/uptime); sleep 20; b=$(cut -d" " -f1 /proc/uptime); echo "guest slept $a $b"' \
	> "$SCRATCH/sleep.out" || fail "the sleeping boot"
cat "$SCRATCH/sleep.out"
guest=$(awk '/guest slept/ { print $4 - $3 }' "$SCRATCH/sleep.out")
host=$(jq -r '.outcome.wall_seconds_total - .outcome.wall_seconds_to_ready' "$SCRATCH/sleep/trial.json")
echo "the sleep: $guest s of guest time, the command $host s of host time"
check "the guest slept its 20 s" awk "BEGIN { exit !($guest >= 20 && $guest < 21) }"
check "in less host time (sleep=off skips idle time)" awk "BEGIN { exit !($host < 15) }"

# --- runs on two clocks are not compared together
cat > "$SCRATCH/tiny.conf" <<EOF
description = one boot that runs spawn, for the clock test
variants = stock
profile = phone-512m
trials = 1
trial_timeout = 120
perf_events = none
workload = spawn -n 50
EOF
"$LAB" --quiet run -x "$SCRATCH/tiny.conf" --clock icount -o "$SCRATCH/run-ic" > "$SCRATCH/run-ic.out" ||
	fail "lab run --clock icount"
"$LAB" --quiet run -x "$SCRATCH/tiny.conf" -o "$SCRATCH/run-rt" > "$SCRATCH/run-rt.out" ||
	fail "lab run on realtime"
check "run.json records the run's clock" [ "$(jq -r .clock.name "$SCRATCH/run-ic/run.json")" = icount ]
check_text "lab run's closing table names the clock" "$(cat "$SCRATCH/run-ic.out")" \
	'^clock of every group: icount (shift=0,sleep=off,align=off)$'
check_text "a realtime run's says realtime" "$(cat "$SCRATCH/run-rt.out")" '^clock of every group: realtime$'
check "lab compare --format json has the clock" \
	[ "$("$LAB" compare "$SCRATCH/run-ic" --format json | jq -r .clock.name)" = icount ]
for cmd in compare "report -o $SCRATCH/two-clocks.html"; do
	set +e
	# shellcheck disable=SC2086
	msg=$("$LAB" $cmd "$SCRATCH/run-ic" "$SCRATCH/run-rt" 2>&1 > /dev/null)
	status=$?
	set -e
	echo "$msg"
	check "lab $cmd of runs on two clocks is exit 2" [ "$status" -eq 2 ]
	check "in one line" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]
	check_text "naming each group's clock" "$msg" \
		'different clocks (stock on icount (shift=0,sleep=off,align=off) and realtime)'
done
check "no report was written for the two clocks" test ! -e "$SCRATCH/two-clocks.html"
"$LAB" --quiet report "$SCRATCH/run-ic" -o "$SCRATCH/ic.html" > /dev/null || fail "lab report of the icount run"
check "the report says guest time counts instructions" grep -q 'guest time counts instructions' "$SCRATCH/ic.html"
check "the report's table names the clock" grep -q 'Clock of every group: <strong>icount' "$SCRATCH/ic.html"
DB="$SCRATCH/results/oomlab.sqlite"
OOMLAB_DB="$DB" "$LAB" --quiet results --import "$SCRATCH/run-ic" --import "$SCRATCH/run-rt" > /dev/null ||
	fail "lab results --import"
check "the store keeps each trial's clock" [ "$(sqlite3 "$DB" \
	"SELECT group_concat(clock || ':' || clock_settings, ' ') FROM (SELECT clock, clock_settings FROM trial_list ORDER BY clock)")" \
	= "icount:shift=0,sleep=off,align=off realtime:" ]

# --- bad input: one line, exit 2, nothing booted
expect_usage() {
	# expect_usage STATUS "what" 'needle' command...: bad input is exit 2,
	# lab boot's 254 (git bisect run aborts on it: lab boot --help)
	want=$1
	what=$2
	needle=$3
	shift 3
	set +e
	msg=$("$@" 2>&1)
	status=$?
	set -e
	echo "$msg"
	check "$what: exit $want" [ "$status" -eq "$want" ]
	check "$what: one line" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]
	check_text "$what: says why" "$msg" "$needle"
}
expect_usage 254 "a bad --clock" "--clock wants realtime or icount, not 'fast'" \
	"$LAB" boot stock --clock fast -o "$SCRATCH/none1" -- true
check "nothing booted" test ! -e "$SCRATCH/none1"
expect_usage 254 "icount under a forced KVM" "clock = icount (--clock) needs TCG, but OOMLAB_ACCEL=kvm" \
	env OOMLAB_ACCEL=kvm "$LAB" boot stock --clock icount -o "$SCRATCH/none2" -- true
check "nothing booted" test ! -e "$SCRATCH/none2"
echo 'clock = icount' >> "$SCRATCH/tiny.conf"
expect_usage 2 "an icount experiment under a forced KVM" "clock = icount ($SCRATCH/tiny.conf) needs TCG" \
	env OOMLAB_ACCEL=kvm "$LAB" run -x "$SCRATCH/tiny.conf" -o "$SCRATCH/none3"
check "nothing ran" test ! -e "$SCRATCH/none3"
# A host where the probe found that KVM boots guests: the remembered answer
# refuses icount before the (empty) cache would build a kernel.
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	mkdir -p "$SCRATCH/cache"
	printf 'host=%s %s; %s\nkvm\n' "$(uname -r)" "$(uname -v)" "$(qemu-system-x86_64 --version | head -1)" \
		> "$SCRATCH/cache/accel-probe"
	expect_usage 254 "icount where KVM works" "but KVM boots guests on this host" \
		env OOMLAB_CACHE="$SCRATCH/cache" "$LAB" boot stock --clock icount -o "$SCRATCH/none4" -- true
	check "nothing was built or booted" test ! -e "$SCRATCH/cache/kernels" -a ! -e "$SCRATCH/none4"
else
	echo "skip - /dev/kvm does not open here: no probe answer to refuse"
fi
