# A question without a file (lab run --variant NAME=SPEC -w LINE), as a
# kernel developer with a patch asks it:
#  - a patch file (tests/variants/comment-only's: the same code as stock
#    under another hash) against stock, one -w line, until decided on
#    tiny-256m, its first round only (--rounds 1);
#  - the run keeps the variant (run.json's spec, <run>/variants/), so that
#    --resume goes on with the cache's staged copy deleted, and refuses a
#    run whose kept patch changed;
#  - the experiment it ran is the options' (until decided, at most 4 here,
#    the line's own metrics in the headline);
#  - bad specs: one line naming the option, exit 2, no run folder;
#  - with -x, an error in a -w line names the experiment and the line;
#  - --dry-run prints the plan and builds, boots and writes nothing;
#  - lab boot --variant SPEC boots the patched kernel once.
. "$(dirname "$0")/lib.sh"

CACHE=${OOMLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oomlab}
patch="$ROOT/tests/variants/comment-only/0001-reword-a-comment.patch"
cp "$patch" "$SCRATCH/fix.patch"
cd "$SCRATCH"
run="$SCRATCH/run"

# --- the one-liner, its first round
"$LAB" run --variant mine=patch:fix.patch -w 'oom-hog --mode memcg --hogs 2' --max-trials 4 \
	--rounds 1 -j 2 -o "$run" > "$SCRATCH/first.out" 2>&1 || fail "the one-liner: $(tail -5 "$SCRATCH/first.out")"
check "run.json keeps the spec as given" \
	[ "$(jq -r '.given_variants[0] | "\(.name)=\(.spec)"' "$run/run.json")" = "mine=patch:fix.patch" ]
check "the run keeps the variant's folder: the patch" cmp -s "$patch" "$run/variants/mine/01-fix.patch"
text=$(jq -r .experiment_text "$run/run.json")
check_text "the experiment is the options': stock against mine" "$text" '^variants = stock mine$'
check_text "until decided" "$text" '^until_decided = yes$'
check_text "its line" "$text" '^workload = oom-hog --mode memcg --hogs 2$'
check_text "the line's own metrics in the headline" "$text" '^metrics = trial_ok oom_kills oom-hog\.\*$'
check "at most 4 a variant (--max-trials)" [ "$(jq -r .sequential.max_trials "$run/run.json")" = 4 ]
check "the first round ran one trial of each" \
	[ "$(ls "$run"/stock/*/trial.json "$run"/mine/*/trial.json | wc -l)" -eq 2 ]

# --- resumed with the staged copy gone: the run's own variants/ is enough
rm -rf "$CACHE/given"
"$LAB" run --resume "$run" > "$SCRATCH/resume.out" 2>&1 || fail "resuming: $(tail -5 "$SCRATCH/resume.out")"
n=$(ls "$run"/mine/*/trial.json | wc -l)
check "the resumed run went on to at least 3 trials of mine ($n)" [ "$n" -ge 3 ]
check "and at most 4" [ "$n" -le 4 ]
check_text "its table has the line's rows" "$(cat "$SCRATCH/resume.out")" '^oom-hog\.'

# --- the kept patch changed: another kernel, refused
echo '# changed' >> "$run/variants/mine/01-fix.patch"
set +e
msg=$("$LAB" run --resume "$run" 2>&1 >/dev/null)
status=$?
set -e
check "a resumed run whose variant changed is refused: exit 2" [ "$status" -eq 2 ]
check_text "naming the variant" "$msg" "variant mine is now .*its files changed"

# --- bad input: one line, exit 2, before any folder
refused() {
	# refused DESCRIPTION PATTERN ARGS...
	what=$1 pattern=$2
	shift 2
	set +e
	msg=$("$LAB" run "$@" -o "$SCRATCH/bad" 2>&1 >/dev/null)
	status=$?
	set -e
	check "$what: exit 2" [ "$status" -eq 2 ]
	check "$what: one line" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]
	check_text "$what: the message" "$msg" "$pattern"
	check "$what: no run folder" [ ! -e "$SCRATCH/bad" ]
}
refused "a patch that is not there" "--variant 'mine=patch:nope.patch': nope.patch: No such file" \
	--variant mine=patch:nope.patch -w 'oom-hog --mode memcg'
refused "a ref that is not there" "--variant 'mine=git:$ROOT@no-such-ref': git: no ref 'no-such-ref'" \
	--variant "mine=git:$ROOT@no-such-ref" -w 'oom-hog --mode memcg'
refused "a name of the catalogue" "a variant named 'stock' exists already" \
	--variant stock=patch:fix.patch -w 'oom-hog --mode memcg'
refused "no -w without -x" "without -x, -w LINE says what each trial runs" --variant mine=patch:fix.patch
refused "with -x, a -w line's error names the experiment" \
	"quick.conf (with lab run's options):[0-9]*: workload = oom-hog --mdoe memcg: oom-hog: unknown option '--mdoe'" \
	-x quick -w 'oom-hog --mdoe memcg'

# --- --dry-run: the plan, everything checked, nothing built or booted
sed "1s/$/ $$/" fix.patch > fresh.patch   # a header no kernel of the cache has
plan=$(OOMLAB_RESULTS="$SCRATCH/dry" "$LAB" run --variant fresh=patch:fresh.patch --variant k=binder-kcalloc \
	-w 'oom-hog --mode memcg' --dry-run) || fail "--dry-run: $plan"
echo "$plan"
check_text "the plan names the groups, the baseline first" "$plan" '^  groups      stock (baseline) fresh k$'
check_text "until decided, at most 12 a group" "$plan" 'until decided: .* at most 12 a group'
check_text "a kernel no build made is to build" "$plan" '^  kernel      fresh [0-9a-f]*: to build$'
check_text "a copy of a known variant is its kernel, cached" "$plan" \
	"^  kernel      k $("$LAB" kernel list | awk '$1 == "binder-kcalloc" && $2 == "x86_64/4k" {print $3}'): cached$"
check_text "the design check" "$plan" '^  design      '
check_text "and a time" "$plan" '^  time        '
check "nothing was built" sh -c "! '$LAB' kernel path fresh > /dev/null 2>&1"
check "no run folder or store was made" [ ! -e "$SCRATCH/dry" ]

# --- lab boot --variant SPEC: once, the way vng does
out=$("$LAB" boot --variant patch:fix.patch -p tiny-256m -o "$SCRATCH/boot" -- 'echo booted; uname -r') ||
	fail "lab boot --variant: $out"
check_text "lab boot --variant patch:FILE boots it" "$out" '^booted$'
check "its trial names the variant 'given'" [ "$(jq -r .environment.variant "$SCRATCH/boot/trial.json")" = given ]
