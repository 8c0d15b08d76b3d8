# Builds stock and binder-kcalloc, proves from the built vmlinux files that
# binder's page array comes from kvmalloc in one and kmalloc in the other,
# that the shared tree is left pristine, and that a rebuild is a cache hit.
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock binder-kcalloc || fail "lab kernel build stock binder-kcalloc"

stock=$("$LAB" kernel path stock)
kcalloc=$("$LAB" kernel path binder-kcalloc)
check "stock and binder-kcalloc are cached under different hashes" [ "$stock" != "$kcalloc" ]
for dir in "$stock" "$kcalloc"; do
	for f in bzImage vmlinux config build.log meta patches; do
		check "$dir has $f" test -s "$dir/$f" -o "$f" = patches -a -e "$dir/$f"
	done
done
check "binder-kcalloc lists its patch" grep -q kcalloc "$kcalloc/patches"

calls() {
	objdump -d --no-show-raw-insn --disassemble=binder_alloc_mmap_handler "$1/vmlinux" |
		grep -oE 'call +[0-9a-f]+ <[^>]+>' | sed 's/.*<\(.*\)>/\1/' | sort -u
}
calls "$stock" > "$SCRATCH/stock.calls"
calls "$kcalloc" > "$SCRATCH/kcalloc.calls"
echo "stock calls: $(tr '\n' ' ' < "$SCRATCH/stock.calls")"
echo "binder-kcalloc calls: $(tr '\n' ' ' < "$SCRATCH/kcalloc.calls")"
check "stock's binder_alloc_mmap_handler calls the kvmalloc family" grep -q kvmalloc "$SCRATCH/stock.calls"
check "binder-kcalloc's does not" sh -c "! grep -q kvmalloc '$SCRATCH/kcalloc.calls'"
check "binder-kcalloc's calls plain kmalloc for the array" grep -qx '__kmalloc_noprof' "$SCRATCH/kcalloc.calls"
check "stock's does not" sh -c "! grep -qx '__kmalloc_noprof' '$SCRATCH/stock.calls'"

src=$(ls -d "${OOMLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oomlab}"/linux-*/src | head -1)
check "the shared tree is back to kvcalloc after building binder-kcalloc" \
	grep -q 'alloc->pages = kvcalloc' "$src/drivers/android/binder_alloc.c"

before=$(stat -c %Y "$stock/bzImage")
out=$("$LAB" kernel build stock 2>&1) || fail "rebuilding stock failed: $out"
echo "$out"
check_text "a second build of stock is a cache hit" "$out" cached
check "the cached bzImage was not rewritten" [ "$(stat -c %Y "$stock/bzImage")" = "$before" ]
"$LAB" kernel list > "$SCRATCH/list"
check "kernel list shows stock as cached" grep -qE '^stock +x86_64/4k +[0-9a-f]{12} +yes' "$SCRATCH/list"

# A patch that does not apply: one clear line naming the patch and the hunk; nothing cached.
mkdir -p "$SCRATCH/root"
cp -r "$ROOT/kernels" "$ROOT/configs" "$SCRATCH/root/"
mkdir -p "$SCRATCH/root/kernels/variants/broken"
sed 's/alloc->pages = kvcalloc(/alloc->pages = no_such_call(/' \
	"$ROOT/kernels/variants/binder-kcalloc/0001-binder_alloc-page-array-from-kcalloc.patch" \
	> "$SCRATCH/root/kernels/variants/broken/0001-broken.patch"
set +e
msg=$(OOMLAB_ROOT="$SCRATCH/root" "$LAB" --quiet kernel build broken 2>&1)
status=$?
set -e
echo "$msg"
check "a broken patch fails the build" [ "$status" -ne 0 ]
check_text "the error names the patch file and the hunk" "$msg" \
	'0001-broken.patch does not apply: hunk #1 FAILED'
check "the error is one line" [ "$(echo "$msg" | wc -l)" -eq 1 ]
broken=$(OOMLAB_ROOT="$SCRATCH/root" "$LAB" kernel path broken 2>/dev/null || true)
check "nothing was cached for the broken variant" [ ! -e "$broken/bzImage" ]
check "the shared tree is pristine after the failure" \
	grep -q 'alloc->pages = kvcalloc' "$src/drivers/android/binder_alloc.c"

# Two lab processes building the same variant at once: one builds, the other
# waits for the lock and then finds it cached; the cache holds one good kernel.
# The variant is oom-reaper-nodelay with a command line of this test's own,
# so its hash is new and a real (incremental) build happens.
cp -r "$ROOT/kernels/variants/oom-reaper-nodelay" "$SCRATCH/root/kernels/variants/lock-test"
echo "oomlab_lock_test=$$" > "$SCRATCH/root/kernels/variants/lock-test/cmdline"
OOMLAB_ROOT="$SCRATCH/root" "$LAB" kernel build lock-test > "$SCRATCH/b1" 2>&1 &
first=$!
sleep 1
OOMLAB_ROOT="$SCRATCH/root" "$LAB" kernel build lock-test > "$SCRATCH/b2" 2>&1 ||
	fail "second concurrent build failed: $(cat "$SCRATCH/b2")"
wait "$first" || fail "first concurrent build failed: $(cat "$SCRATCH/b1")"
cat "$SCRATCH/b1" "$SCRATCH/b2"
check "one of two concurrent builds waited for the other" grep -q waiting "$SCRATCH/b1" "$SCRATCH/b2"
locktest=$(OOMLAB_ROOT="$SCRATCH/root" "$LAB" kernel path lock-test)
check "the concurrently built kernel is complete" test -s "$locktest/bzImage" -a -s "$locktest/meta"
# its own staging folders: another build (run-tests' kernels ahead) may be staging its own
check "no staging folders are left behind" \
	sh -c "! ls -d '$(dirname "$locktest")/.tmp-$(basename "$locktest")'-* 2>/dev/null"
rm -rf "$locktest"

# A remembered configuration: lock-test has configured stock's options (or
# found them remembered), so another variant of the same options and a
# patch to code starts from them: no make tinyconfig, and the .config it
# builds with is the one a full configure gave stock.
cp -r "$ROOT/kernels/variants/oom-reaper-nodelay" "$SCRATCH/root/kernels/variants/memo-test"
echo "oomlab_memo_test=$$" > "$SCRATCH/root/kernels/variants/memo-test/cmdline"
OOMLAB_ROOT="$SCRATCH/root" "$LAB" kernel build memo-test || fail "building memo-test"
memo=$(OOMLAB_ROOT="$SCRATCH/root" "$LAB" kernel path memo-test)
check "memo-test started from the remembered configuration" \
	grep -q '^oomlab: configuration remembered' "$memo/build.log"
check "and ran no make tinyconfig" sh -c "! grep -q 'tiny.config' '$memo/build.log'"
check "its .config is stock's" cmp "$stock/config" "$memo/config"
rm -rf "$memo"

"$LAB" kernel build oom-reaper-nodelay || fail "building oom-reaper-nodelay"
nodelay=$("$LAB" kernel path oom-reaper-nodelay)
delay_insn() {
	objdump -d --no-show-raw-insn --disassemble=queue_oom_reaper "$1/vmlinux" | grep -c '\$0x1f4' || true
}
check "stock's queue_oom_reaper adds 2*HZ (0x1f4 at HZ=250) to jiffies" [ "$(delay_insn "$stock")" -ge 1 ]
check "oom-reaper-nodelay's does not" [ "$(delay_insn "$nodelay")" -eq 0 ]
