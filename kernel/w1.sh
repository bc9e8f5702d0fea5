# shellcheck shell=bash
# w1.sh: W=1 builds of single objects, for kernel/check-series and
# kernel/check-driver-builds (sourced after lib.sh).  Not part of a kernel's
# cache key: it builds nothing that build-kernel keeps.

# w1_build TREE OUT LOG OBJECT...: OBJECTs built afresh with W=1 in TREE's
# build folder OUT, make's output to LOG; the status is make's.  They are
# removed first: make prints nothing for an object it does not rebuild, so
# a second run would count no warning (ccache replays them).
w1_build() {
	local tree=$1 out=$2 log=$3 o
	shift 3
	for o in "$@"; do rm -f "$out/$o"; done
	CCACHE_DIR=${cache:?}/ccache CCACHE_NOHASHDIR=1 make -C "$tree" O="$out" -j"$(nproc)" \
		CC="ccache gcc" W=1 "$@" >"$log" 2>&1
}

# w1_count LOG: how many warnings LOG holds.
w1_count() {
	grep -c 'warning:' "$1" || true
}
