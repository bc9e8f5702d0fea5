# kernel.sh: kernel/build-kernel's own behaviour.  Sourced by
# tests/run-tests.

# A patch that does not apply stops the kernel build and names the patch.
# Uses a scratch cache sharing the extracted tree, so the real worktrees
# keep their state (and their build is not redone).
kernel_bad_patch() {
	local tmp rc=0
	tmp=$(mktemp -d)
	cp -a "$repo/kernel" "$tmp/kernel"
	mkdir -p "$tmp/kernel/patches"
	printf 'From: x <x@y>\nSubject: [PATCH] bad\n\n---\n--- a/Makefile\n+++ b/Makefile\n@@ -1,1 +1,1 @@\n-no such line\n+nor this\n' \
		>"$tmp/kernel/patches/9999-bad.patch"
	echo 9999-bad.patch >>"$tmp/kernel/series"
	mkdir -p "$tmp/cache"
	ln -s "${FENCE_TRACE_CACHE:-$HOME/.cache/fence-trace}/linux" "$tmp/cache/linux"
	FENCE_TRACE_CACHE=$tmp/cache "$tmp/kernel/build-kernel" patched >"$results/bad-patch.out" 2>&1 || rc=$?
	git -C "$tmp/cache/linux/" worktree remove --force "$tmp/cache/tree" >/dev/null 2>&1
	git -C "$tmp/cache/linux/" worktree prune
	rm -rf "$tmp"
	[ $rc != 0 ] && grep -q 'patch 9999-bad.patch does not apply' "$results/bad-patch.out"
	verdict $? "kernel: a patch that does not apply stops the build, naming it" "$results/bad-patch.out"
}
