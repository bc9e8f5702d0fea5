# shellcheck shell=bash
# lib.sh - what the kernel scripts share: where the cache is, the series,
# the git tree made from the tarball.  Sourced, with $here = kernel/.

cache=${FENCE_TRACE_CACHE:-$HOME/.cache/fence-trace}
# The one worktree every variant builds in (stock and patched in O=out-lab,
# debug in out-debug), switched between base and base + series as a build
# needs (tree_at).
tree=$cache/tree
tarball=${FENCE_TRACE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
log() { echo "$(basename "$0"): $*" >&2; }

# The patch files named by kernel/series, in order, without comments.
series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/series"
}

# The hash of a file's contents alone: keys must not depend on where the
# repository is (CI builds in a fresh clone elsewhere, and must hit the cache).
content_hash() {
	echo "$(basename "$1") $(sha256sum <"$1" | cut -c1-64)"
}

# The patch files named by kernel/lab-fixes/series, in order.
lab_fix_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/lab-fixes/series"
}

lab_fixes_hash() {
	{
		content_hash "$here/lab-fixes/series"
		while read -r p; do content_hash "$here/lab-fixes/$p"; done < <(lab_fix_patches)
	} | sha256sum | cut -c1-16
}

series_hash() {
	{
		content_hash "$here/series"
		while read -r p; do content_hash "$here/patches/$p"; done < <(series_patches)
	} | sha256sum | cut -c1-16
}

# One-time: unpack the tarball into a git repository whose commit is
# tagged "base".
import_tarball() {
	[ -d "$cache/linux/.git" ] && return
	[ -r "$tarball" ] || die "$tarball not found (apt-get install linux-source-6.1)"
	log "extracting $tarball into $cache/linux (once)"
	rm -rf "$cache/linux.tmp"
	mkdir -p "$cache/linux.tmp"
	tar -xJf "$tarball" -C "$cache/linux.tmp" --strip-components=1
	(
		cd "$cache/linux.tmp"
		git init -q
		# No automatic repack: a git am would start one in the background
		# (83,000 loose objects), CPU taken from the kernel build beside
		# it; nothing here needs a pack.
		git config gc.auto 0
		git config maintenance.auto false
		# Debian's .gitignore ignores "/*": add everything regardless.
		git add -A -f .
		git -c user.name=fence-trace -c user.email=fence-trace@localhost \
			commit -q -m "linux-source-6.1 $(basename "$tarball")"
		git tag base
	)
	mv "$cache/linux.tmp" "$cache/linux"
}

# git am the patches of folder $2 that stdin names onto worktree $1; the
# first one that does not apply stops everything, by name.
apply_patches() {
	local wt=$1 dir=$2 p
	while read -r p; do
		[ -r "$dir/$p" ] || die "a series names missing patch $p"
		if ! git -C "$wt" -c user.name=fence-trace -c user.email=fence-trace@localhost \
			am -q --committer-date-is-author-date "$dir/$p" >/dev/null 2>"$wt/.am-error"; then
			git -C "$wt" am --abort >/dev/null 2>&1 || true
			die "patch $p does not apply: $(head -3 "$wt/.am-error" | tr '\n' ' ')"
		fi
	done
	rm -f "$wt/.am-error"
}

# The fence-trace series onto worktree $1.
apply_series() {
	apply_patches "$1" "$here/patches" < <(series_patches)
}

# The lab's fixes to the 6.1 tree (kernel/lab-fixes) onto worktree $1.
apply_lab_fixes() {
	apply_patches "$1" "$here/lab-fixes" < <(lab_fix_patches)
}

# Worktree $1 of $cache/linux (made when missing) back at base with the
# lab's fixes applied: any earlier state, patches, sources and build
# results are gone, except the O= build folders (out-*), whose objects
# make will reuse for files that end up identical.
reset_worktree() {
	local wt=$1
	[ -d "$wt" ] || git -C "$cache/linux" worktree add -q --detach "$wt" base
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach base
	git -C "$wt" clean -q -fdx -e '/out-*'
	apply_lab_fixes "$wt"
}

# Worktree $1 at base + the lab's fixes, plus the series when $2 is 1.  Left
# alone when it is there already; otherwise only the files that differ are
# rewritten, so a build folder rebuilds what they reach and nothing else.
tree_at() {
	local wt=$1 with_series=$2 want cur
	want="lab-$(lab_fixes_hash)"
	[ "$with_series" = 1 ] && want="$want-series-$(series_hash)"
	cur=$(cat "$wt/.fence-trace-state" 2>/dev/null || true)
	[ "$cur" = "$want" ] && return
	reset_worktree "$wt"
	[ "$with_series" = 1 ] && apply_series "$wt"
	echo "$want" >"$wt/.fence-trace-state"
}

# Fails, naming the option, when an option of config fragment $2 did not
# make it into $1/.config as written (olddefconfig drops what it cannot
# satisfy without a word); "=n" is also met by the option's absence.
check_fragment_applied() {
	local out=$1 frag=$2 opt
	while read -r opt; do
		grep -qx -- "$opt" "$out/.config" ||
			{ [ "${opt#*=}" = n ] && ! grep -q "^${opt%%=*}=" "$out/.config"; } ||
			die "$(basename "$frag"): $opt did not survive olddefconfig"
	done < <(grep -E '^CONFIG_' "$frag")
}
