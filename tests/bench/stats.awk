# stats.awk - what the benchmark scripts' awk programs share:
#   awk -f tests/bench/stats.awk -f /dev/stdin FILE... <<'AWK' ... AWK

# a[1..k] in ascending numeric order (insertion: k is a handful of rounds)
function sort(a, k,    i, j, t) {
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}

# the median of a[1..k], which it leaves sorted
function median(a, k) { sort(a, k); return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }

# the value of this line's KEY=VALUE field, or ""
function value(key,    i, kv) {
	for (i = 1; i <= NF; i++)
		if (index($i, key "=") == 1) { split($i, kv, "="); return kv[2] }
	return ""
}

# the 95 % interval of the median of a[1..k], sorted: order statistics,
# the ranks k/2 -+ 0.98 sqrt(k) (with 7 values or fewer, the lowest and
# the highest); into the globals lo and hi
function interval(a, k,    half, l, h) {
	half = 0.98 * sqrt(k)
	l = int(k / 2 - half); h = int(k / 2 + half + 0.999999) + 1
	lo = a[l < 1 ? 1 : l]; hi = a[h > k ? k : h]
}
