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
