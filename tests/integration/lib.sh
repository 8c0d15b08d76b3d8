# Helpers for the integration tests (sourced). Each test is a sh script that
# exits non-zero on the first failed check, saying which check failed.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LAB="$ROOT/build/lab"
SCRATCH=$(mktemp -d /tmp/oomlab-it.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

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
