# The profile key apic_timer in real VMs, the boots on the icount clock
# (guest time counts instructions, so the figures below do not move with the
# host's load): given (the default for a kernel the lab built) tells the
# kernel its APIC timer's rate (oomlab.apic_khz=, the lab's patch) and it
# skips the calibration, keeping the same one-shot per-CPU timer with the
# same period as calibrated, the kernel's own way; off boots x86_64 with
# noapictimer, whose dummy per-CPU timers leave the kernel on periodic
# ticks (no one-shot mode: no high-resolution timers, no tickless idle).
# trial.json and reproduce.sh say which; each CPU takes timer ticks either
# way; a prebuilt kernel (no lab patch) calibrates by default and is refused
# given; a bad value is one line naming the file and line, before anything
# boots.
# kernels: stock
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock || fail "building stock"

# each CPU's timer interrupts over a busy loop on each (a program brought in
# with --files): the local timer's (LOC) and the PIT's (irq 0), which under
# noapictimer ticks the CPU that takes it directly and the other by IPI (LOC)
mkdir -p "$SCRATCH/files"
cat > "$SCRATCH/files/ticks" <<'SCRIPT'
#!/bin/sh
show() {
	grep -E '^ *(0|LOC):' /proc/interrupts | sed "s/^ */$1 /"
}
show before
for c in 1 2; do
	taskset "$c" sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' &
done
wait
show after
# each CPU's clock event device, its mode and mult (its period), and whether
# high-resolution timers are on
awk '/^Tick Device: mode:/ { mode = $4 } /^Clock Event Device:/ { dev = $4 }
	/^ mult:/ && dev != "" { print "device", dev, mode, $2; dev = "" }
	/hres_active/ { print "hres", $3 }' /proc/timer_list
SCRIPT
chmod +x "$SCRATCH/files/ticks"

# ticks_of OUT CPU: the CPU's timer interrupts (LOC and irq 0) over the loops
ticks_of() {
	awk -v col=$(($2 + 3)) '
		$1 == "before" { b += $col } $1 == "after" { a += $col }
		END { print a - b }' "$1"
}

# default: the profile says nothing
for timer in off calibrated given default; do
	cp "$ROOT/configs/profiles/tiny-256m.conf" "$SCRATCH/$timer.conf"
	[ $timer = default ] || echo "apic_timer = $timer" >> "$SCRATCH/$timer.conf"
	"$LAB" --quiet boot stock -p "$SCRATCH/$timer.conf" --clock icount --files "$SCRATCH/files" \
		-o "$SCRATCH/$timer" -- ticks > "$SCRATCH/$timer.out" 2> "$SCRATCH/$timer.err" ||
		fail "the boot with apic_timer = $timer: $(tail -3 "$SCRATCH/$timer.err")"
	cat "$SCRATCH/$timer.out"
	T="$SCRATCH/$timer/trial.json"
	got=$timer from=$(realpath "$SCRATCH/$timer.conf")
	[ $timer = default ] && got=given from="the default"
	check "$timer: trial.json records the timer" [ "$(jq -r .environment.apic_timer.name "$T")" = "$got" ]
	check "$timer: and what chose it" [ "$(jq -r .environment.apic_timer.from "$T")" = "$from" ]
	check "$timer: and the profile's key" [ "$(jq -r .environment.profile.apic_timer "$T")" = "$timer" ]
	told=0
	[ "$got" = given ] && told=1
	check "$timer: oomlab.apic_khz=1000000 is on the kernel's command line iff given" \
		[ "$(jq -r '.environment.kernel_cmdline | test(" oomlab.apic_khz=1000000( |$)") | if . then 1 else 0 end' "$T")" = $told ]
	check "$timer: and in reproduce.sh iff given" [ "$(grep -c 'oomlab.apic_khz=1000000' "$SCRATCH/$timer/reproduce.sh")" = $told ]
	check "$timer: the kernel took the period 4000000 (1 GHz at HZ=250) iff given" \
		[ "$(grep -c 'oomlab: APIC timer period 4000000 from oomlab.apic_khz=1000000' "$SCRATCH/$timer/kmsg.log")" = $told ]
	said=0
	[ "$timer" = off ] && said=1
	check "$timer: noapictimer is on the kernel's command line iff off" \
		[ "$(jq -r '.environment.kernel_cmdline | test(" noapictimer( |$)") | if . then 1 else 0 end' "$T")" = $said ]
	check "$timer: and in reproduce.sh iff off" [ "$(grep -c 'noapictimer' "$SCRATCH/$timer/reproduce.sh")" = $said ]
	check "$timer: the kernel said 'Disabling APIC timer' iff off" \
		[ "$(grep -c 'Disabling APIC timer' "$SCRATCH/$timer/kmsg.log")" = $said ]
	# the periodic regime noapictimer brings: once a CPU's dummy timer is refused
	check "$timer: the kernel refused one-shot mode iff off" \
		[ "$(grep -c 'could not switch to one-shot mode: lapic is not functional' "$SCRATCH/$timer/kmsg.log" |
			awk '{ print ($1 > 0) }')" = $said ]
	# Under icount each loop is about 0.4 s of guest time (30000 shell
	# iterations; 200000 took 2.66 s, docs/CLOCKS.md): about 100 ticks at
	# HZ=250 on each CPU (measured: 200 and 99 with off, 215 and 201 with
	# calibrated; CPU 0 also counts the PIT's own ticks). 20 is a fifth of the least:
	# guest time counts instructions, so no host load shortens the loop; a
	# CPU without ticks has none.
	for cpu in 0 1; do
		n=$(ticks_of "$SCRATCH/$timer.out" $cpu)
		check "$timer: CPU $cpu took timer ticks over its busy loop ($n, at least 20)" [ "$n" -ge 20 ]
	done
done
# The calibration's two 100 ms spins are guest time too: counted instructions,
# the same in every boot, so off and given reach ready at least 0.1 s of
# guest time sooner (measured: off 0.356 s, given 0.322 s, calibrated 0.559 s)
cal=$(jq .outcome.guest_uptime_at_ready "$SCRATCH/calibrated/trial.json")
for timer in off given; do
	t=$(jq .outcome.guest_uptime_at_ready "$SCRATCH/$timer/trial.json")
	check "$timer is ready 0.1 guest s sooner than calibrated ($t, $cal)" awk "BEGIN { exit !($t + 0.1 < $cal) }"
done

# given is the calibrated timer without the calibration: on both CPUs a
# one-shot (mode 1) lapic with the mult the calibration gave, and
# high-resolution timers on
timers_of() {
	grep -E '^(device lapic|hres) ' "$SCRATCH/$1.out" | sort | uniq -c
}
timers_of given
timers_of calibrated
check "given: two one-shot lapic devices and two CPUs with high-resolution timers" \
	[ "$(timers_of given | awk '$2 == "device" && $4 == 1 { d += $1 } $2 == "hres" && $3 == 1 { h += $1 }
		END { print d + 0, h + 0 }')" = "2 2" ]
check "given: the lapic's mult is calibrated's" [ "$(timers_of given)" = "$(timers_of calibrated)" ]

# A prebuilt kernel cannot say it has the lab's patch: it calibrates by
# default, and a profile that says given is refused before it boots
cp "$("$LAB" kernel path stock)/bzImage" "$SCRATCH/bzImage"
"$LAB" --quiet boot --variant "bzimage:$SCRATCH/bzImage" -p "$SCRATCH/default.conf" --clock icount \
	-o "$SCRATCH/prebuilt" -- true 2> "$SCRATCH/prebuilt.err" ||
	fail "the prebuilt kernel's boot: $(tail -3 "$SCRATCH/prebuilt.err")"
T="$SCRATCH/prebuilt/trial.json"
check "prebuilt: calibrated by default" [ "$(jq -r .environment.apic_timer.name "$T")" = calibrated ]
check "prebuilt: and trial.json says why" \
	[ "$(jq -r .environment.apic_timer.from "$T")" = "the default for a kernel without the lab's patch" ]
check "prebuilt: no oomlab.apic_khz on its command line" \
	[ "$(jq -r '.environment.kernel_cmdline | test("oomlab.apic_khz") | if . then 1 else 0 end' "$T")" = 0 ]
refused "a prebuilt kernel told given" \
	"given.conf: apic_timer = given, but kernel given cannot take the rate: it was built without the lab's patch" \
	"$LAB" boot --variant "bzimage:$SCRATCH/bzImage" -p "$SCRATCH/given.conf" -o "$SCRATCH/refused" -- true
check "nothing booted" test ! -e "$SCRATCH/refused"

# --- bad input: one line naming the file and line, exit 254 (lab boot's), nothing booted
{ cat "$ROOT/configs/profiles/tiny-256m.conf"; echo "apic_timer = none"; } > "$SCRATCH/bad.conf"
line=$(wc -l < "$SCRATCH/bad.conf")
refused "apic_timer = none" "bad.conf:$line: apic_timer = none: apic_timer wants given" \
	"$LAB" boot stock -p "$SCRATCH/bad.conf" -o "$SCRATCH/none" -- true
check "nothing booted" test ! -e "$SCRATCH/none"
