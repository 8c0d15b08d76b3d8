# arm64 guests with 16 KiB pages, booted for real (qemu-system-aarch64,
# machine virt, under TCG): the guest says aarch64 and 16384, the agent's
# hello says the same, the channels and outcomes work there (ok, a failed
# command's status, a panic, a hang), the profile's machine (memory, the
# cgroup's limit, zram, two NUMA nodes), the icount clock, perf recording,
# sendVec, binder-objects (slab geometry in 16 KiB pages) and binder-mmap,
# and a run of arm64 trials exported as Perfetto
# traces, perf data and CSV. A page size the
# arch does not have is one line naming it, before anything is built.
# Prints how long the cold build took when it had to build (the CI figure).
# kernels: --arch arm64 --page-size 16k stock binder-kcalloc
. "$(dirname "$0")/lib.sh"

A64="--arch arm64 --page-size 16k"

# --- bad input: nothing is built or booted
set +e
msg=$("$LAB" boot stock --arch x86_64 --page-size 16k -o "$SCRATCH/never" -- true 2>&1)
status=$?
set -e
echo "$msg"
check "16k on x86_64 is exit status 254 (lab boot's bad input)" [ "$status" -eq 254 ]
check_text "the error names the page size and the arch" "$msg" "page size 16k is not supported on x86_64 (it has 4k)"
check "the error is one line" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]
check "nothing booted" [ ! -e "$SCRATCH/never" ]
set +e
msg=$("$LAB" kernel build --arch arm64 --page-size 32k stock 2>&1)
status=$?
set -e
check "an unknown page size is exit status 2" [ "$status" -eq 2 ]
check_text "naming it" "$msg" "unknown page size '32k'"

# --- the kernel: cross-built into its own object folder, cached per platform
start=$(date +%s)
# shellcheck disable=SC2086
"$LAB" kernel build $A64 stock || fail "building stock for arm64/16k"
echo "arm64/16k stock: ready in $(( $(date +%s) - start )) s (a cold build when it was not cached)"
# shellcheck disable=SC2086
dir=$("$LAB" kernel path $A64 stock)
check "the cache entry has arm64's Image" test -s "$dir/Image"
check "its meta names the platform" grep -qx 'platform=arm64/16k' "$dir/meta"
check "its config has 16 KiB pages" grep -qx 'CONFIG_ARM64_16K_PAGES=y' "$dir/config"
check "its key is not x86_64's" [ "$dir" != "$("$LAB" kernel path stock 2>/dev/null || true)" ]
check "lab kernel list shows it cached" sh -c "\"$LAB\" kernel list --arch arm64 --page-size 16k | awk '\$1 == \"stock\" && \$2 == \"arm64/16k\" && \$4 == \"yes\"' | grep -q ."

# --- uname -m and the page size, from the shell and from the agent
start=$(date +%s)
# shellcheck disable=SC2086
out=$("$LAB" boot stock $A64 --profile phone-512m -o "$SCRATCH/t1" -- \
	'uname -m; awk "/KernelPageSize/ {print \$2 * 1024; exit}" /proc/self/smaps;
	 grep MemTotal /proc/meminfo; cat /sys/fs/cgroup/workload/memory.max; mount | grep -c erofs;
	 grep -c zram0 /proc/swaps')
echo "$out"
echo "arm64/16k boot running a shell command: $(( $(date +%s) - start )) s wall"
check "uname -m says aarch64" [ "$(echo "$out" | sed -n 1p)" = aarch64 ]
check "the page size is 16384" [ "$(echo "$out" | sed -n 2p)" = 16384 ]
memtotal=$(echo "$out" | awk '/MemTotal/ {print $2}')
check "MemTotal is a little under 512 MiB (got $memtotal kB)" [ "$memtotal" -gt 440000 -a "$memtotal" -le 524288 ]
check "the workload cgroup has the profile's memory.max" [ "$(echo "$out" | sed -n 4p)" = 402653184 ]
check "the tools disk (arm64 perf, stress-ng, workloads) is erofs" [ "$(echo "$out" | sed -n 5p)" = 1 ]
check "zram swap is on" [ "$(echo "$out" | sed -n 6p)" = 1 ]
t1="$SCRATCH/t1/trial.json"
check "trial.json says ok" [ "$(jq -r .outcome.outcome "$t1")" = ok ]
check "the agent said aarch64" [ "$(jq -r .outcome.guest_machine "$t1")" = aarch64 ]
check "the agent said 16384" [ "$(jq -r .outcome.guest_page_size "$t1")" = 16384 ]
check "the environment records arm64" [ "$(jq -r .environment.arch "$t1")" = arm64 ]
check "and the page size asked for" [ "$(jq -r .environment.page_size "$t1")" = 16384 ]
check "under TCG" [ "$(jq -r .environment.accelerator "$t1")" = tcg ]
check "QEMU was aarch64's, machine virt" grep -q '^qemu-system-aarch64 .*-machine virt ' "$SCRATCH/t1/qemu.cmdline"
check "the console is the PL011" grep -q 'console=ttyAMA0' "$SCRATCH/t1/qemu.cmdline"
check "the kernel log arrived" grep -q 'Linux version 6.12' "$SCRATCH/t1/kmsg.log"
check "snapshot before/buddyinfo arrived" test -s "$SCRATCH/t1/files/before/buddyinfo"

# --- a failed command's status, and a panic with its text
set +e
# shellcheck disable=SC2086
"$LAB" --quiet boot stock $A64 -o "$SCRATCH/t2" -- 'exit 7' 2>/dev/null
status=$?
# shellcheck disable=SC2086
"$LAB" --quiet boot stock $A64 -o "$SCRATCH/t3" -- 'echo before-the-panic; echo c > /proc/sysrq-trigger' \
	> /dev/null 2>&1
pstatus=$?
set -e
check "exit 7 in the guest is exit 7 of lab boot" [ "$status" -eq 7 ]
check "the outcome is failed" [ "$(jq -r .outcome.outcome "$SCRATCH/t2/trial.json")" = failed ]
check "a panic exits 123 (bad to git bisect run, never its skip)" [ "$pstatus" -eq 123 ]
check "the outcome is panic" [ "$(jq -r .outcome.outcome "$SCRATCH/t3/trial.json")" = panic ]
check "with the panic's text" grep -q 'sysrq triggered crash' "$SCRATCH/t3/trial.json"
check "output written before it reached the host" grep -q before-the-panic "$SCRATCH/t3/out.log"

# --- a guest that stops talking (real-time hogs starve the agent): a hang within the watchdog
start=$(date +%s)
set +e
# shellcheck disable=SC2086
"$LAB" --quiet boot stock $A64 --silence-timeout 8 -o "$SCRATCH/hang" -- "$STARVE_THE_AGENT" > /dev/null 2>&1
hstatus=$?
set -e
took=$(( $(date +%s) - start ))
check "a silent arm64 guest exits 124" [ "$hstatus" -eq 124 ]
check "the outcome is hang" [ "$(jq -r .outcome.outcome "$SCRATCH/hang/trial.json")" = hang ]
check "caught within the watchdog, not the 300 s workload (took $took s)" [ "$took" -lt 90 ]
check "no QEMU of it is left" [ "$(qemus_in "$SCRATCH/hang")" -eq 0 ]

# --- two NUMA nodes on virt (its device tree), and the instruction-count clock
# shellcheck disable=SC2086
out=$("$LAB" boot stock $A64 -p numa-2node -o "$SCRATCH/numa" -- 'ls -d /sys/devices/system/node/node* | wc -l')
check "numa-2node shows two nodes on arm64" [ "$out" = 2 ]
# shellcheck disable=SC2086
"$LAB" --quiet boot stock $A64 --clock icount -o "$SCRATCH/icount" -- true > /dev/null 2> "$SCRATCH/icount.err" || {
	cat "$SCRATCH/icount.err" >&2
	jq -c .outcome "$SCRATCH/icount/trial.json" >&2 || true
	tail -n 20 "$SCRATCH/icount/console.log" "$SCRATCH/icount/qemu.stderr" >&2 || true
	fail "an icount boot of arm64"
}
check "the icount clock was used" [ "$(jq -r .environment.clock.name "$SCRATCH/icount/trial.json")" = icount ]
check "QEMU counted instructions" grep -q -- '-icount shift=0' "$SCRATCH/icount/qemu.cmdline"

# metric OUTLOG NAME: the values of a workload metric, one per line
metric() {
	jq -R -r "fromjson? | select(.type == \"metric\" and .name == \"$2\") | .value" "$1"
}

# --- sendVec: its sizes with positive times
start=$(date +%s)
# shellcheck disable=SC2086
"$LAB" --quiet boot stock $A64 -o "$SCRATCH/sendvec" -- 'binder-sendvec --time-per-size 0.2' \
	> /dev/null 2> "$SCRATCH/sendvec.err" || { cat "$SCRATCH/sendvec.err" >&2; fail "sendvec boot"; }
echo "arm64/16k sendvec trial: $(( $(date +%s) - start )) s wall"
out="$SCRATCH/sendvec/out.log"
n=$(metric "$out" sendvec_ns_per_rt | wc -l)
echo "sendvec: $n sizes; 4 B: $(jq -R -r 'fromjson? | select(.name == "sendvec_ns_per_rt" and .labels.size == "4") | .value' "$out") ns"
check "sendVec timed 15 sizes" [ "$n" -eq 15 ]
check "every time is positive" [ "$(metric "$out" sendvec_ns_per_rt | awk '$1 <= 0' | wc -l)" -eq 0 ]

# --- binder-objects: its slab geometry in the kernel's 16 KiB pages (a slab
# of N objects never holds more bytes than its pages have: efficiency <= 1)
# shellcheck disable=SC2086
"$LAB" --quiet boot stock $A64 -o "$SCRATCH/objects" -- 'binder-objects --clients 1 --threads 1 --rounds 2' \
	> /dev/null 2> "$SCRATCH/objects.err" || { cat "$SCRATCH/objects.err" >&2; fail "binder-objects boot"; }
out="$SCRATCH/objects/out.log"
n=$(metric "$out" slab_efficiency | wc -l)
over=$(metric "$out" slab_efficiency | awk '$1 > 1.0000001' | wc -l)
echo "binder-objects: $n slab efficiencies, $over above 1; slab sizes: $(metric "$out" slab_slab_bytes | sort -un | tr '\n' ' ')"
check "binder-objects reported its caches' slab efficiency" [ "$n" -gt 0 ]
check "no slab holds more than its pages (efficiency <= 1)" [ "$over" -eq 0 ]
check "slabs are whole 16 KiB pages" [ "$(metric "$out" slab_slab_bytes | awk '$1 % 16384 != 0' | wc -l)" -eq 0 ]

# --- binder-mmap with perf recording: every 4 MiB mmap made, its page array 8 KiB (order 0)
start=$(date +%s)
# shellcheck disable=SC2086
"$LAB" --quiet boot stock $A64 --perf -o "$SCRATCH/mmap" -- 'binder-mmap --opens 40' \
	> /dev/null 2> "$SCRATCH/mmap.err" || { cat "$SCRATCH/mmap.err" >&2; fail "binder-mmap boot"; }
echo "arm64/16k binder-mmap trial with perf: $(( $(date +%s) - start )) s wall"
out="$SCRATCH/mmap/out.log"
ok=$(metric "$out" mmap_ok | head -1)
echo "binder-mmap: mmap_ok = $ok"
check "the 40 mmaps were made" [ "${ok%.*}" -eq 40 ]
check "the page array is 8 KiB with 16 KiB pages" grep -q '"page_array_bytes":8192' "$out"
check "perf recorded" test -s "$SCRATCH/mmap/perf.data"
order3=$(jq -r '.metrics[] | select(.name == "binder_page_array_order3") | .value' "$SCRATCH/mmap/trial.json")
echo "order-3 zeroed compound allocations in the workload's trace: $order3"
check "trial.json has the trace's page-array count" [ -n "$order3" ]

# --- a run of arm64 trials (stock and binder-kcalloc), compared and exported
export OOMLAB_RESULTS="$SCRATCH/results" OOMLAB_DB="$SCRATCH/results/oomlab.sqlite"
"$LAB" --quiet run -x "$ROOT/tests/experiments/arm64.conf" -o "$SCRATCH/results/a64" \
	> "$SCRATCH/run.out" 2> "$SCRATCH/run.err" || { cat "$SCRATCH/run.err" >&2; fail "lab run of arm64.conf"; }
check "the run recorded arm64/16k" [ "$(jq -r '.arch + "/" + (.page_size | tostring)' "$SCRATCH/results/a64/run.json")" = arm64/16384 ]
check "its comparison has binder-kcalloc's rows, inconclusive with one trial a side" \
	grep -q '^  binder-kcalloc .*inconclusive' "$SCRATCH/run.out"
for f in perfetto perf csv; do
	"$LAB" --quiet export "$SCRATCH/results/a64" --format $f -o "$SCRATCH/export-$f" ||
		fail "exporting the arm64 run as $f"
done
check "a Perfetto trace per trial" [ "$(ls "$SCRATCH"/export-perfetto/*/*.trace.json | wc -l)" -eq 2 ]
for t in "$SCRATCH"/results/a64/*/000; do
	name="$(basename "$(dirname "$t")")"
	f="$SCRATCH/export-perfetto/$name/000.trace.json"
	beats=$(grep -c '"heartbeat".*"mem_available_kb"' "$t/ctl.jsonl" || true)
	check "$name: a mem_available_kb counter per heartbeat ($beats)" \
		[ "$beats" -gt 0 -a "$(jq '[.traceEvents[] | select(.ph == "C" and .name == "mem_available_kb")] | length' "$f")" -eq "$beats" ]
	phases=$(grep -c '"name":"phase-begin"' "$t/out.log" || true)
	check "$name: a slice per workload phase ($phases)" \
		[ "$phases" -gt 0 -a "$(jq '[.traceEvents[] | select(.cat == "phase")] | length' "$f")" -eq "$phases" ]
	check "$name: perf recorded arm64's page allocations" grep -q 'kmem:mm_page_alloc:' "$t/perf.script"
done
check "perf data per trial, with its script" [ "$(ls "$SCRATCH"/export-perf/*/*/perf.script | wc -l)" -eq 2 ]
check "the CSV has the trials' mmap_ok" [ "$(grep -c ',binder-mmap.mmap_ok,' "$SCRATCH/export-csv/metrics.csv")" -eq 2 ]
