# Boots stock in real VMs and checks what came out: the machine the profile
# asked for, the workload cgroup's limit, exit statuses, a panic with its
# text and the output written just before it, reproduce.sh booting again,
# and a guest that prints without end stopped as flooded.
# (Hangs and killed labs are in faults.sh.)
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock || fail "building stock"

# --- the machine phone-512m asks for
out=$("$LAB" boot stock --profile phone-512m -o "$SCRATCH/t1" -- \
	'grep MemTotal /proc/meminfo; ls -d /sys/devices/system/node/node* | wc -l;
	 cat /sys/fs/cgroup/workload/memory.max; cat /proc/self/cgroup; grep -c zram0 /proc/swaps;
	 cat /proc/sys/vm/min_free_kbytes; ls /dev/binderfs/binder_logs/stats; mount | grep -c erofs')
echo "$out"
memtotal=$(echo "$out" | awk '/MemTotal/ {print $2}')
check "MemTotal is a little under 512 MiB (got $memtotal kB)" [ "$memtotal" -gt 450000 -a "$memtotal" -le 524288 ]
check "one NUMA node" [ "$(echo "$out" | sed -n 2p)" = 1 ]
check "the workload cgroup has the profile's memory.max (384M)" [ "$(echo "$out" | sed -n 3p)" = 402653184 ]
check "the command ran inside the workload cgroup" [ "$(echo "$out" | sed -n 4p)" = "0::/workload" ]
check "zram swap is on" [ "$(echo "$out" | sed -n 5p)" = 1 ]
check "min_free_kbytes is the profile's" [ "$(echo "$out" | sed -n 6p)" = 2048 ]
check "binderfs is mounted with global stats" [ "$(echo "$out" | sed -n 7p)" = /dev/binderfs/binder_logs/stats ]
check "the tools disk is erofs" [ "$(echo "$out" | sed -n 8p)" = 1 ]
check "trial.json says ok" grep -q '"outcome": "ok"' "$SCRATCH/t1/trial.json"
for key in variant_hash kernel_cmdline qemu_version accelerator host_cpu host_loadavg_at_start profile; do
	check "trial.json records $key" grep -q "\"$key\"" "$SCRATCH/t1/trial.json"
done
check "trial.json records the lab's version, as lab --version says it" \
	[ "$(jq -r .environment.lab_version "$SCRATCH/t1/trial.json")" = "$("$LAB" --version | sed 's/^lab //')" ]
for f in meminfo buddyinfo pagetypeinfo vmstat extfrag_index; do
	check "snapshot before/$f arrived" test -s "$SCRATCH/t1/files/before/$f"
done
check "the QEMU command line is saved" grep -q -- '-machine microvm' "$SCRATCH/t1/qemu.cmdline"
check "the kernel log arrived" grep -q 'Linux version 6.12' "$SCRATCH/t1/kmsg.log"
# The agent says on the console each spec key it has no reader for
# (workloads/agent/agent-job.c): the lab and the agent agree on every key
# of a real job, beside what test-job-keys checks on the two programs' code.
check "the console was kept" test -f "$SCRATCH/t1/console.log"
check "the agent read every key of the job's spec" \
	sh -c '! grep "nothing reads key" "$1"' - "$SCRATCH/t1/console.log"

# --- the command's exit status is lab boot's
set +e
"$LAB" --quiet boot stock -o "$SCRATCH/t2" -- 'exit 7' 2>/dev/null
status=$?
set -e
check "exit 7 in the guest is exit 7 of lab boot" [ "$status" -eq 7 ]
check "a non-zero exit is the outcome 'failed'" grep -q '"outcome": "failed"' "$SCRATCH/t2/trial.json"

# --- two NUMA nodes
out=$("$LAB" boot stock -p numa-2node -o "$SCRATCH/t3" -- \
	'ls -d /sys/devices/system/node/node* | wc -l; grep MemTotal /sys/devices/system/node/node1/meminfo')
echo "$out"
check "numa-2node shows two nodes" [ "$(echo "$out" | sed -n 1p)" = 2 ]
node1=$(echo "$out" | awk '/MemTotal/ {print $4}')
check "node 1 has about 512 MiB (got $node1 kB)" [ "$node1" -gt 450000 -a "$node1" -le 524288 ]

# --- a panic, with what was written just before it
set +e
"$LAB" boot stock -o "$SCRATCH/t4" -- 'echo written-just-before-the-panic; echo c > /proc/sysrq-trigger' \
	> "$SCRATCH/t4.out" 2> "$SCRATCH/t4.err"
status=$?
set -e
cat "$SCRATCH/t4.err"
check "a panic exits 123 (bad to git bisect run, never its skip)" [ "$status" -eq 123 ]
check "the outcome is panic" grep -q '"outcome": "panic"' "$SCRATCH/t4/trial.json"
check "the panic text is recorded" grep -q 'Kernel panic - not syncing: sysrq triggered crash' "$SCRATCH/t4/trial.json"
check "with the stack printed after it" grep -q 'sysrq_handle_crash' "$SCRATCH/t4/trial.json"
check "output written just before the panic reached the host" grep -q written-just-before-the-panic "$SCRATCH/t4/out.log"
check "and was printed by lab boot" grep -q written-just-before-the-panic "$SCRATCH/t4.out"

# --- reproduce.sh boots the same trial again
sh "$SCRATCH/t1/reproduce.sh" "$SCRATCH/again" > /dev/null 2>&1 || fail "reproduce.sh failed"
check "reproduce.sh ran the same command to the same end" grep -q '"type":"exit".*"status":0' "$SCRATCH/again/ctl.jsonl"
check "and the same profile" grep -q 402653184 "$SCRATCH/again/out.log"

# --- a bad profile: one line naming the file and line, status 254 (lab boot's
# bad input, which git bisect run aborts on), nothing booted
mkdir -p "$SCRATCH/root"
cp -r "$ROOT/kernels" "$ROOT/configs" "$SCRATCH/root/"
printf 'description = bad\nmemory = 512M\nswapiness = 60\n' > "$SCRATCH/root/configs/profiles/bad.conf"
set +e
msg=$(OOMLAB_ROOT="$SCRATCH/root" "$LAB" boot stock -p bad -- true 2>&1)
status=$?
set -e
echo "$msg"
check "a bad profile is exit status 254" [ "$status" -eq 254 ]
check_text "the error names file, line and key" "$msg" "bad.conf:3: unknown key 'swapiness'"
check "the error is one line" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]

# --- a guest that prints without end: stopped at out.log's cap as flooded,
# the host's disk and memory spared (common/proto/protocol.h's caps). The
# guest wrote about 4 MB a host second here, so the 0.1 s between the last
# poll and QEMU's death adds well under the cap again: at most twice the cap
# cannot fail by a faster guest short of 600 MB/s.
set +e
"$LAB" --quiet boot stock -p tiny-256m -o "$SCRATCH/flood" -- yes > /dev/null 2>&1
status=$?
set -e
check "a guest printing in a loop is flooded: lab boot exits 253 (got $status)" [ "$status" -eq 253 ]
check "trial.json's outcome is flooded" [ "$(jq -r .outcome.outcome "$SCRATCH/flood/trial.json")" = flooded ]
check_text "its detail names the channel and its cap" "$(jq -r .outcome.detail "$SCRATCH/flood/trial.json")" \
	'more than the 64 MiB out.log takes'
size=$(stat -c %s "$SCRATCH/flood/out.log")
check "out.log stopped past its 64 MiB cap and below twice it ($size bytes)" \
	[ "$size" -gt $((64 << 20)) -a "$size" -lt $((128 << 20)) ]
