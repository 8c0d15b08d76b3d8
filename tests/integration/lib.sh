# Helpers for the integration tests (sourced). Each test is a sh script that
# exits non-zero on the first failed check, saying which check failed.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LAB="$ROOT/build/lab"
SCRATCH=$(mktemp -d /tmp/oomlab-it.XXXXXX)
# OOMLAB_KEEP_SCRATCH=1 keeps the scratch folder, to read a failed run afterwards
trap '[ -n "${OOMLAB_KEEP_SCRATCH:-}" ] || rm -rf "$SCRATCH"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

check() {
	# check "description" command...
	desc=$1
	shift
	if "$@"; then
		echo "ok - $desc"
	else
		fail "$desc"
	fi
}

# check_text "description" "$text" 'grep pattern'
check_text() {
	if printf '%s\n' "$2" | grep -q -- "$3"; then
		echo "ok - $1"
	else
		fail "$1 (output: $2)"
	fi
}

# metric_of TRIAL.JSON NAME: the metric's value in that trial.json. Absent
# (no trace, no parse, no file) fails the test naming the metric, the file
# and jq's error, never reads as 0. Call it as x=$(metric_of ...), so that
# set -e stops the script when it fails (inside a command's arguments its
# failure would be lost).
metric_of() {
	jq -e --arg m "$2" '[.metrics[] | select(.name == $m) | .value][0] // error("absent")' "$1" \
		2> "$SCRATCH/jq.err" || fail "$2 is absent from $1 ($(head -c 300 "$SCRATCH/jq.err"))"
}

# usage_status [$LAB] COMMAND...: the status lab exits with on bad input to
# COMMAND: 2, but lab boot's is 254 (its own statuses are its guest
# command's, and git bisect run aborts on 254: lab boot --help)
usage_status() {
	# past `env NAME=VALUE...` and the lab's path, to the command
	while [ "$1" = env ] || [ "${1#*=}" != "$1" ] || [ "$1" = "$LAB" ]; do shift; done
	if [ "$1" = boot ]; then echo 254; else echo 2; fi
}

# refused DESCRIPTION PATTERN COMMAND...: COMMAND is bad input: it exits
# with usage_status (2, lab boot's 254), says one line on stderr, and that
# line matches PATTERN (grep); its message is left in $msg
refused() {
	what=$1 pattern=$2
	shift 2
	set +e
	msg=$("$@" 2>&1 >/dev/null)
	status=$?
	set -e
	echo "$msg"
	want=$(usage_status "$@")
	check "$what: exit $want (got $status)" [ "$status" -eq $want ]
	check "$what: one line" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]
	check_text "$what: the message" "$msg" "$pattern"
}

# qemus_in DIR: how many QEMUs (of any arch) run in a folder under DIR (a
# trial's QEMU runs in its trial folder); by process name and cwd, as a
# pattern on command lines would match the shell that asks
qemus_in() {
	n=0
	for p in $(pgrep '^qemu-system-' || true); do
		case "$(readlink "/proc/$p/cwd" 2>/dev/null)" in "$1"*) n=$((n + 1)) ;; esac
	done
	echo $n
}

# A guest command that stops the guest talking for 300 s: real-time hogs on
# every CPU with no runtime left for anything else, the agent included
STARVE_THE_AGENT='echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	for c in /sys/kernel/debug/sched/fair_server/cpu*; do echo 0 > $c/runtime; done
	stress-ng --cpu 2 --sched fifo --sched-prio 50 --timeout 300 --temp-path /tmp'

# skip "why": this test cannot run here, as its set-up lacks something (a
# program, a daemon that does not start); tests/run-tests counts it as
# skipped (exit 77), never as passed, and under CI=true as failed
skip() {
	echo "skip - $*"
	exit 77
}

# skip_machine "why": this test cannot run on this machine at all, whatever
# is installed: only for no working /dev/kvm, or an architecture the host
# cannot run. tests/run-tests counts it as skipped, under CI=true too.
skip_machine() {
	echo "skip (machine) - $*"
	exit 77
}
