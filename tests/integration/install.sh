#!/bin/sh
# `make install` into a staging DESTDIR, then the installed lab used as a user
# would, away from the checkout: from another folder, with a fresh HOME and no
# OOMLAB_* variable, it lists the kernels, the keys and the experiments, finds
# the user's own experiment, profile and variant in $XDG_CONFIG_HOME/oomlab,
# refuses a user's file that has a shipped one's name, keeps results in
# ./results, and boots a guest as an unprivileged user (nobody, when the test
# runs as root), with a cache of that user's own; and the quickstart's
# one-liner (a patch file, a -w line, until decided) as that user.
. "$(dirname "$0")/lib.sh"

# an unprivileged user must reach the installed files and its HOME
chmod 755 "$SCRATCH"

# --- make install
make -C "$ROOT" --no-print-directory install DESTDIR="$SCRATCH/dest" PREFIX=/usr \
	> "$SCRATCH/install.log" 2>&1 || fail "make install: $(tail -5 "$SCRATCH/install.log")"
INSTALLED="$SCRATCH/dest/usr/bin/lab"
check "make install put the lab in PREFIX/bin" test -x "$INSTALLED"

# The user: a fresh HOME with their own experiment, profile and variant, and
# a folder of their own to work in. No variable of the lab's reaches it.
H="$SCRATCH/home"
C="$H/.config/oomlab"
mkdir -p "$H" "$SCRATCH/elsewhere" "$C/experiments" "$C/profiles" "$C/variants/mine-prebuilt"
cat > "$C/experiments/mine.conf" <<'EOF'
description = my own experiment, from XDG_CONFIG_HOME
variants = stock mine-prebuilt
profile = my-tiny
workload = oom-hog --mode memcg
EOF
cp "$ROOT/configs/profiles/tiny-256m.conf" "$C/profiles/my-tiny.conf"
"$LAB" kernel build stock > "$SCRATCH/build.log" 2>&1 || fail "building stock: $(tail -3 "$SCRATCH/build.log")"
mkdir -p "$SCRATCH/pre"
cp "$("$LAB" kernel path stock)/bzImage" "$SCRATCH/pre/bzImage"
echo "stock's image, prebuilt (install.sh)" > "$C/variants/mine-prebuilt/README"
echo "bzimage $SCRATCH/pre/bzImage" > "$C/variants/mine-prebuilt/source"
chmod -R a+rX "$SCRATCH/pre" "$H"

# as_user CMD...: CMD in $SCRATCH/elsewhere as the unprivileged user, with
# that HOME, the system's PATH and nothing else of this environment
if [ "$(id -u)" = 0 ]; then
	chown -R nobody "$H" "$SCRATCH/elsewhere"
	AS="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
else
	AS=""
fi
as_user() {
	(cd "$SCRATCH/elsewhere" &&
		$AS env -i HOME="$H" PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@")
}
check "the test's user is not root" [ "$(as_user id -u)" != 0 ]

# --- the lab's own files, found from the installed binary
out=$(as_user "$INSTALLED" kernel list --arch x86_64 2>&1) || fail "lab kernel list: $out"
check_text "lab kernel list lists stock" "$out" '^stock  *x86_64/4k '
check_text "lab kernel list lists binder-kcalloc" "$out" '^binder-kcalloc  *x86_64/4k '
# the same kernel as the checkout's: the installed base config, fragments and patches are its
hash() { printf '%s\n' "$1" | awk -v v="$2" '$1 == v && $2 == "x86_64/4k" { print $3 }'; }
ours=$("$LAB" kernel list --arch x86_64)
check "stock has the checkout's content hash when installed" \
	[ -n "$(hash "$out" stock)" -a "$(hash "$out" stock)" = "$(hash "$ours" stock)" ]
check "binder-kcalloc has the checkout's content hash when installed" \
	[ -n "$(hash "$out" binder-kcalloc)" -a "$(hash "$out" binder-kcalloc)" = "$(hash "$ours" binder-kcalloc)" ]
out=$(as_user "$INSTALLED" keys 2>&1) || fail "lab keys: $out"
check_text "lab keys lists the experiment keys" "$out" '^  variants  *words'
check_text "lab keys lists the profile keys" "$out" '^  memory  '
out=$(as_user "$INSTALLED" run --list 2>&1) || fail "lab run --list: $out"
check_text "lab run --list lists the shipped quick" "$out" '^quick  '
out=$(as_user "$INSTALLED" run --help 2>&1) || fail "lab run --help: $out"
check_text "lab run --help prints the usage" "$out" '^usage: lab run'

# --- the user's own files
out=$(as_user "$INSTALLED" run --list 2>&1) || fail "lab run --list: $out"
check_text "the user's experiment is listed" "$out" '^mine  *my own experiment, from XDG_CONFIG_HOME'
out=$(as_user "$INSTALLED" profiles 2>&1) || fail "lab profiles: $out"
check_text "the user's profile is listed" "$out" '^my-tiny  '
out=$(as_user "$INSTALLED" kernel list --arch x86_64 2>&1) || fail "lab kernel list: $out"
check_text "the user's variant is listed with its prebuilt source" "$out" "^mine-prebuilt .* bzimage $SCRATCH/pre/bzImage"
# a user's experiment of a shipped name: neither wins, both are named. The
# profile named does not exist, so that were either file read the run would
# stop there at once, with another message.
cp "$C/experiments/mine.conf" "$C/experiments/quick.conf"
chmod a+r "$C/experiments/quick.conf"
set +e
msg=$(as_user "$INSTALLED" run -x quick -p no-such-profile 2>&1)
status=$?
set -e
rm "$C/experiments/quick.conf"
check "an experiment both shipped and the user's is bad input (exit 2, got $status)" [ "$status" = 2 ]
check_text "... naming both files" "$msg" \
	"experiment 'quick' is both the lab's ($SCRATCH/dest/usr/share/oomlab/configs/experiments/quick.conf) and yours ($C/experiments/quick.conf)"

# --- results in ./results of the current folder
out=$(as_user "$INSTALLED" results 2>&1) || fail "lab results: $out"
check_text "results are kept in ./results of the current folder" "$out" \
	"no runs stored in $SCRATCH/elsewhere/results yet"

# --- a boot as the unprivileged user: the installed guest programs, the user's
# own (empty) cache, the prebuilt variant so that nothing is built. The first
# boot of a fresh cache takes gen_init_cpio.c from Debian's tarball (11 s)
# and boots in about 5 s under TCG; 300 s leaves room for a loaded machine.
set +e
out=$(as_user timeout 300 "$INSTALLED" boot mine-prebuilt -p my-tiny -- 'echo guest-ran-$((6 * 7))' 2>&1)
status=$?
set -e
check "lab boot as an unprivileged user exits 0 (got $status; $(printf '%s' "$out" | tail -2))" [ "$status" = 0 ]
check_text "the guest ran the command" "$out" '^guest-ran-42$'
check_text "the boot's folder is in the user's own cache" "$out" "trial folder $H/.cache/oomlab/boots/"

# --- the quickstart as that user: a patch file and a -w line, until decided
# on tiny-256m (at most 4 a side here), from the installed lab. The user's
# cache gets the two kernels from this one (a cache key is the kernel's
# content, not whose cache holds it), so that nothing is built as nobody.
cp "$ROOT/tests/variants/comment-only/0001-reword-a-comment.patch" "$SCRATCH/elsewhere/fix.patch"
"$LAB" boot --variant mine=patch:"$SCRATCH/elsewhere/fix.patch" -p tiny-256m -o "$SCRATCH/mine-boot" -- true \
	> "$SCRATCH/mine-build.log" 2>&1 || fail "building mine as root: $(tail -3 "$SCRATCH/mine-build.log")"
CACHE=${OOMLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oomlab}
mine_hash=$(jq -r .environment.variant_hash "$SCRATCH/mine-boot/trial.json")
mkdir -p "$H/.cache/oomlab/kernels"
cp -r "$("$LAB" kernel path stock)" "$CACHE/kernels/$mine_hash" "$H/.cache/oomlab/kernels/"
chmod -R a+rX "$SCRATCH/elsewhere"
[ "$(id -u)" = 0 ] && chown -R nobody "$H" "$SCRATCH/elsewhere"
set +e
out=$(as_user timeout 900 "$INSTALLED" run --variant mine=patch:fix.patch -w 'oom-hog --mode memcg --hogs 2' \
	--max-trials 4 -j 2 2>&1)
status=$?
set -e
echo "$out" | tail -15
check "the quickstart one-liner as that user exits 0 (got $status)" [ "$status" = 0 ]
check_text "it ran until decided, at most 4 a variant, on tiny-256m" "$out" \
	'given on tiny-256m (x86_64/4k), clock realtime, until every headline metric is decided, at most 4'
check_text "it ended with the table of the line's own metrics" "$out" '^oom-hog\.'
run=$(printf '%s\n' "$out" | sed -n 's/^results: *//p')
check "its results are in ./results of the user's folder ($run)" \
	[ "${run#"$SCRATCH/elsewhere/results/"}" != "$run" -a -f "$run/run.json" ]
check "and its variant is kept in the run" [ -f "$run/variants/mine/01-fix.patch" ]
check "its trials booted the kernel built as root (${mine_hash%${mine_hash#????????????}})" \
	[ "$(jq -r .environment.variant_hash "$run"/mine/000/trial.json)" = "$mine_hash" ]
check "and it built nothing: the user's cache has no source workspace (a build's linux-*)" \
	[ -z "$(ls -d "$H/.cache/oomlab/linux-"* 2>/dev/null)" ]
