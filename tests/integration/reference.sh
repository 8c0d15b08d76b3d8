# docs/REFERENCE.md is what the lab prints of its own tables (lab keys,
# lab metrics, lab workloads through scripts/reference): a key, metric or
# workload changed in the code without `make reference` fails here, with
# the first lines that differ. The JSON forms hold the same rows. No boot.
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
