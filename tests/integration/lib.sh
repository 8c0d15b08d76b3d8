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
