# docs/REFERENCE.md is what the lab prints of its own tables (lab keys,
# lab metrics, lab workloads through scripts/reference): a key, metric or
# workload changed in the code without `make reference` fails here, with
# the first lines that differ. The JSON forms hold the same rows. So do the
# files lab new writes from the same tables, and a mistyped command is
# offered the nearest of the lab's table of commands. No boot.
. "$(dirname "$0")/lib.sh"

"$ROOT/scripts/reference" "$LAB" > "$SCRATCH/REFERENCE.md" || fail "scripts/reference"
if ! diff -u "$ROOT/docs/REFERENCE.md" "$SCRATCH/REFERENCE.md" > "$SCRATCH/reference.diff"; then
	head -20 "$SCRATCH/reference.diff"
	fail "docs/REFERENCE.md differs from what the lab prints: run make reference"
fi
echo "ok - docs/REFERENCE.md is what the lab prints ($(wc -l < "$ROOT/docs/REFERENCE.md") lines)"

# the page's tables and the JSON the same commands give: the same rows
keys=$("$LAB" keys --format json | jq 'length')
key_rows=$(sed -n '/^## Experiment keys/,/^## Metrics/p' "$ROOT/docs/REFERENCE.md" | grep -c '^| `')
check "every key of lab keys --format json is a row of the page ($keys, $key_rows)" [ "$keys" -eq "$key_rows" ]
metrics=$("$LAB" metrics --format json | jq '.metrics | length')
metric_rows=$(sed -n '/^## Metrics/,/^## Workloads/p' "$ROOT/docs/REFERENCE.md" | grep -c '^| `')
check "every metric row of lab metrics --format json is a row of the page ($metrics, $metric_rows)" \
	[ "$metrics" -eq "$metric_rows" ]
workloads=$("$LAB" workloads --format json | jq '.workloads | length')
sections=$(grep -c '^### ' "$ROOT/docs/REFERENCE.md")
check "every workload has its section ($workloads, $sections)" [ "$workloads" -eq "$sections" ]

# lab new experiment: a file of every key lab keys lists, from the same table, the required
# ones set and the others commented out; the lab's own loader takes it as written (lab run
# --list loads every experiment of a checkout: here a scratch one holding the new file)
mkdir -p "$SCRATCH/new/configs/experiments" "$SCRATCH/new/configs/profiles" "$SCRATCH/new/kernels"
cp "$ROOT"/configs/profiles/*.conf "$SCRATCH/new/configs/profiles/"
cd "$SCRATCH/new"
"$LAB" new experiment my-check --variant binder-kcalloc 2> new.err || fail "lab new experiment: $(cat new.err)"
check "lab new experiment wrote my-check.conf" test -s my-check.conf
# a line starting "KEY = " for a required key, "#KEY =" for any other
missing=$("$LAB" keys experiment --format json |
	jq -r '.[] | if .default == "(required)" then "\(.key) = " else "#\(.key) =" end' |
	while IFS= read -r line; do
		awk -v p="$line" 'index($0, p) == 1 { found = 1 } END { exit !found }' my-check.conf ||
			echo "$line"
	done)
keys=$("$LAB" keys experiment --format json | jq length)
check "each of the $keys keys of lab keys experiment is a line of it, set or commented out (missing: ${missing:-none})" \
	[ -z "$missing" ]
check "it compares binder-kcalloc against stock" grep -qx 'variants = stock binder-kcalloc' my-check.conf
cp my-check.conf configs/experiments/
OOMLAB_ROOT="$SCRATCH/new" "$LAB" run --list > list.out 2> list.err || fail "lab run --list: $(cat list.err)"
check_text "the lab loads it as written (lab run --list)" "$(cat list.out)" '^my-check  *binder-kcalloc against stock'
cp my-check.conf before.conf
set +e
"$LAB" new experiment my-check 2> again.err
status=$?
set -e
check "a second lab new experiment my-check is bad input (exit 2, $status)" [ "$status" -eq 2 ]
check_text "naming the file it will not overwrite" "$(cat again.err)" \
	'^lab: new experiment: my-check.conf exists; not overwritten'
check "on one line ($(wc -l < again.err))" [ "$(wc -l < again.err)" -eq 1 ]
check "which is left as it was" cmp -s before.conf my-check.conf
# without --variant, MY-VARIANT stands for the user's: lab run refuses it by name, before
# anything is built or booted (a file that ran would boot, and timeout stop it: not 2)
"$LAB" new experiment placeholder 2> new.err || fail "lab new experiment placeholder: $(cat new.err)"
check "it is in the variants line" grep -qx 'variants = stock MY-VARIANT' placeholder.conf
set +e
OOMLAB_RESULTS="$SCRATCH/new/results" timeout 60 "$LAB" run -x placeholder.conf -n 1 > /dev/null 2> run.err
status=$?
set -e
check "lab run of it is bad input (exit 2, $status)" [ "$status" -eq 2 ]
check_text "naming the placeholder" "$(cat run.err)" "variant 'MY-VARIANT' does not exist"
"$LAB" new profile small -o configs/profiles/small.conf 2> new.err || fail "lab new profile: $(cat new.err)"
OOMLAB_ROOT="$SCRATCH/new" "$LAB" profiles > profiles.out 2> profiles.err ||
	fail "lab profiles: $(cat profiles.err)"
check_text "lab new profile writes a profile the lab loads" "$(cat profiles.out)" '^small  *small: 512 MiB'

# a mistyped command gets the commands nearest it (exit 2), as a mistyped metric or key does
set +e
"$LAB" rnu > /dev/null 2> typo.err
status=$?
set -e
check "lab rnu is bad input (exit 2, $status)" [ "$status" -eq 2 ]
check_text "lab rnu: did you mean 'run'" "$(cat typo.err)" "^lab: 'rnu' is not a lab command. Did you mean 'run'?\$"
set +e
"$LAB" kernel biuld > /dev/null 2> typo.err
status=$?
set -e
check "lab kernel biuld is bad input (exit 2, $status)" [ "$status" -eq 2 ]
check_text "lab kernel biuld: did you mean 'build'" "$(cat typo.err)" "Did you mean 'build'?\$"
