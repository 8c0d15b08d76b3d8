# The profile key apic_timer in real VMs, both boots on the icount clock
# (guest time counts instructions, so the figures below do not move with the
# host's load): off boots x86_64 with noapictimer, the kernel skips the APIC
# timer's calibration (0.2 s of guest time) and, its per-CPU timers being
# dummies, stays on periodic ticks (no one-shot mode: no high-resolution
# timers, no tickless idle); calibrated is the kernel's own way. trial.json
# and reproduce.sh say which; each CPU takes timer ticks either way; a bad
# value is one line naming the file and line, before anything boots.
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
SCRIPT
chmod +x "$SCRATCH/files/ticks"

# ticks_of OUT CPU: the CPU's timer interrupts (LOC and irq 0) over the loops
ticks_of() {
	awk -v col=$(($2 + 3)) '
		$1 == "before" { b += $col } $1 == "after" { a += $col }
		END { print a - b }' "$1"
}

for timer in off calibrated; do
	{ cat "$ROOT/configs/profiles/tiny-256m.conf"; echo "apic_timer = $timer"; } > "$SCRATCH/$timer.conf"
	"$LAB" --quiet boot stock -p "$SCRATCH/$timer.conf" --clock icount --files "$SCRATCH/files" \
		-o "$SCRATCH/$timer" -- ticks > "$SCRATCH/$timer.out" 2> "$SCRATCH/$timer.err" ||
		fail "the boot with apic_timer = $timer: $(tail -3 "$SCRATCH/$timer.err")"
	cat "$SCRATCH/$timer.out"
	T="$SCRATCH/$timer/trial.json"
	check "$timer: trial.json records the timer" [ "$(jq -r .environment.apic_timer.name "$T")" = "$timer" ]
	check "$timer: and the profile that chose it" \
		[ "$(jq -r .environment.apic_timer.from "$T")" = "$(realpath "$SCRATCH/$timer.conf")" ]
	check "$timer: and the profile's key" [ "$(jq -r .environment.profile.apic_timer "$T")" = "$timer" ]
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
# the same in every boot, so off reaches ready at least 0.1 s of guest time
# sooner (measured: 0.356 s against 0.559 s)
off=$(jq .outcome.guest_uptime_at_ready "$SCRATCH/off/trial.json")
cal=$(jq .outcome.guest_uptime_at_ready "$SCRATCH/calibrated/trial.json")
check "off is ready 0.1 guest s sooner than calibrated ($off, $cal)" awk "BEGIN { exit !($off + 0.1 < $cal) }"

# --- bad input: one line naming the file and line, exit 254 (lab boot's), nothing booted
{ cat "$ROOT/configs/profiles/tiny-256m.conf"; echo "apic_timer = none"; } > "$SCRATCH/bad.conf"
line=$(wc -l < "$SCRATCH/bad.conf")
refused "apic_timer = none" "bad.conf:$line: apic_timer = none: apic_timer wants calibrated" \
	"$LAB" boot stock -p "$SCRATCH/bad.conf" -o "$SCRATCH/none" -- true
check "nothing booted" test ! -e "$SCRATCH/none"
