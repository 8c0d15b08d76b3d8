# Variant sources on real builds and boots:
#  - a `tree` variant built from a hard-linked copy of the extracted Debian
#    source: the second build is a cache hit, the copy is left as it was
#    (every file's size and modification time: a write through a hard link
#    would change one), and one changed file is a new key and a rebuild;
#  - a `bzimage` variant (stock's image, copied) boots, and a bzImage that
#    does not boot is a boot-failure, not a hang;
#  - a bzImage without binder (tests/variants/no-binder's) is refused before
#    anything boots, its missing options named;
#  - a missing DIR, a ref that does not exist: one line naming the source
#    file, exit 2.
# The copy lives at a fixed place in the cache (<cache>/tests/linux-tree),
# so that its workspace stays and the rebuild is the incremental one.
# kernels: no-binder
. "$(dirname "$0")/lib.sh"

CACHE=${OOMLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/oomlab}
"$LAB" kernel build stock || fail "building stock"
debian=$(ls -d "$CACHE"/linux-*/src | head -1)
V="$SCRATCH/variants"
export OOMLAB_VARIANT_PATH="$V:$ROOT/tests/variants"
variant() {
	# variant NAME SOURCE-LINE: a variant folder with a README and its source
	mkdir -p "$V/$1"
	echo "$1 (tests/integration/sources.sh)" > "$V/$1/README"
	echo "$2" > "$V/$1/source"
}

# --- tree: a hard-linked copy of the extracted source, taken while no build has it patched
copy="$CACHE/tests/linux-tree"
rm -rf "$copy"
mkdir -p "$(dirname "$copy")"
flock "$(dirname "$debian")/lock" cp -al "$debian" "$copy"
listing() { (cd "$copy" && find . -type f -printf '%p %s %T@\n' | sort); }
listing > "$SCRATCH/before"
variant mytree "tree $copy"
# A kernel of this content left by an earlier run (a kernel is keyed by the
# tree's content, not its path) would make the first build a hit that names
# that run's copy: each run builds it afresh.
left=$("$LAB" kernel path mytree 2>/dev/null) || true
case $left in "$CACHE"/kernels/?*) rm -rf "$left" ;; esac
"$LAB" kernel list > "$SCRATCH/list"
grep '^mytree ' "$SCRATCH/list"
check "kernel list shows the tree as mytree's source" grep -q "^mytree .* tree $copy " "$SCRATCH/list"
tree_hash=$(awk '$1 == "mytree" && $2 == "x86_64/4k" {print $3}' "$SCRATCH/list")
start=$(date +%s)
"$LAB" kernel build mytree > "$SCRATCH/b1" 2>&1 || fail "building mytree: $(tail -3 "$SCRATCH/b1")"
echo "first build of mytree: $(( $(date +%s) - start )) s: $(tail -1 "$SCRATCH/b1")"
start=$(date +%s)
out=$("$LAB" kernel build mytree 2>&1) || fail "building mytree again: $out"
echo "second build: $(( $(date +%s) - start )) s: $out"
check_text "the second build of the same tree is a cache hit" "$out" "kernel mytree: cached"
listing > "$SCRATCH/after"
check "the tree's files are as they were (every size and modification time)" cmp -s "$SCRATCH/before" "$SCRATCH/after"
check "its binder_alloc.c is still Debian's" cmp -s "$copy/drivers/android/binder_alloc.c" "$debian/drivers/android/binder_alloc.c"
dir=$("$LAB" kernel path mytree)
check "the cached kernel says where it came from" grep -q "^source=tree $copy (content " "$dir/meta"
ws=$(grep -l "^tree $copy " "$CACHE"/tree-*/origin | head -1)
ws=${ws%/origin}
check "the build read a mirror of the tree: hard links to its files" \
	[ "$(stat -c %i "$ws/src/mm/slub.c")" = "$(stat -c %i "$copy/mm/slub.c")" ]

# one changed file (given an inode of its own first: the copy's files are Debian's too)
f="$copy/drivers/android/binder_alloc.c"
sed "s|^/\* The range of pages should exclude those shared with other buffers \*/|/* sources.sh $$: the range of pages excludes those shared with other buffers */|" "$f" > "$f.new"
mv "$f.new" "$f"
check "the change is made" grep -q "sources.sh $$" "$f"
check "Debian's tree did not change with it" sh -c "! grep -q 'sources.sh' '$debian/drivers/android/binder_alloc.c'"
changed_hash=$("$LAB" kernel list | awk '$1 == "mytree" && $2 == "x86_64/4k" {print $3}')
check "one changed file is another cache key ($tree_hash, now $changed_hash)" [ "$tree_hash" != "$changed_hash" ]
start=$(date +%s)
"$LAB" kernel build mytree > "$SCRATCH/b2" 2>&1 || fail "rebuilding mytree: $(tail -3 "$SCRATCH/b2")"
echo "rebuild after one changed file: $(( $(date +%s) - start )) s: $(tail -1 "$SCRATCH/b2")"
check "it is a build, not a hit" sh -c "! grep -q cached '$SCRATCH/b2'"
check "of the changed tree" grep -q "sources.sh $$" "$ws/src/drivers/android/binder_alloc.c"
# a changed .c file leaves the tree's configuration inputs as they were:
# the rebuild starts from the configuration its first build gave (or found)
check "the rebuild started from a remembered configuration" \
	grep -q '^oomlab: configuration remembered' "$("$LAB" kernel path mytree)/build.log"
rm -rf "$("$LAB" kernel path mytree)"

# --- bzimage: stock's image, copied, boots
mkdir -p "$SCRATCH/pre"
cp "$("$LAB" kernel path stock)/bzImage" "$SCRATCH/pre/bzImage"
variant prebuilt "bzimage $SCRATCH/pre/bzImage"
"$LAB" kernel list | grep '^prebuilt ' || true
out=$("$LAB" boot prebuilt -o "$SCRATCH/boot" -- 'grep -c binder /proc/filesystems') ||
	fail "booting the prebuilt kernel: $out"
check "the prebuilt kernel boots and has binderfs" [ "$out" = 1 ]
check "trial.json names the prebuilt image" \
	[ "$(jq -r .environment.kernel_source "$SCRATCH/boot/trial.json" | cut -d' ' -f1-2)" = "bzimage $SCRATCH/pre/bzImage" ]
refused "a prebuilt kernel has no debug build" "no variant 'prebuilt+debug'" "$LAB" kernel build prebuilt+debug

# --- a bzImage that does not boot: its compressed kernel damaged, its config beside it
mkdir -p "$SCRATCH/broken"
cp "$SCRATCH/pre/bzImage" "$SCRATCH/broken/bzImage"
cp "$("$LAB" kernel path stock)/config" "$SCRATCH/broken/config"
size=$(stat -c %s "$SCRATCH/broken/bzImage")
dd if=/dev/zero of="$SCRATCH/broken/bzImage" bs=1 seek=$((size / 2)) count=65536 conv=notrunc 2>/dev/null
variant broken "bzimage $SCRATCH/broken/bzImage"
start=$(date +%s)
set +e
"$LAB" --quiet boot broken --boot-timeout 20 -o "$SCRATCH/broken-boot" -- true > /dev/null 2>&1
status=$?
set -e
echo "the damaged kernel's boot ended after $(( $(date +%s) - start )) s with status $status"
check "a kernel that does not boot is a boot-failure" \
	[ "$(jq -r .outcome.outcome "$SCRATCH/broken-boot/trial.json")" = boot-failure ]
check "lab boot says so with 126" [ "$status" -eq 126 ]

# --- a bzImage without binder is refused, naming what it lacks
"$LAB" kernel build no-binder || fail "building no-binder"
mkdir -p "$SCRATCH/nob"
cp "$("$LAB" kernel path no-binder)/bzImage" "$SCRATCH/nob/bzImage"
variant nobinder "bzimage $SCRATCH/nob/bzImage"
refused "a bzImage without binder" \
	"nobinder/source:1: bzimage $SCRATCH/nob/bzImage lacks what the lab needs (kernels/required.config says why): CONFIG_ANDROID_BINDER_IPC, CONFIG_ANDROID_BINDERFS" \
	"$LAB" kernel list
refused "booting it" "CONFIG_ANDROID_BINDER_IPC" "$LAB" boot nobinder -- true
rm -rf "$V/nobinder"

# --- bad input: one line naming the variant's source file, exit 2, nothing built
variant nodir "tree $SCRATCH/no-such-tree"
refused "a missing DIR" "nodir/source:1: tree $SCRATCH/no-such-tree: No such file or directory" "$LAB" kernel build nodir
rm -rf "$V/nodir"
variant noref "git $ROOT no-such-ref-$$"
refused "a ref that does not exist" "noref/source:1: git: no ref 'no-such-ref-$$'" "$LAB" kernel build noref
rm -rf "$V/noref"
variant notkernel "git $ROOT HEAD"
refused "a git tree that is not a kernel's" "notkernel/source:1: git $ROOT HEAD: not a kernel source tree" "$LAB" kernel build notkernel
rm -rf "$V/notkernel"
