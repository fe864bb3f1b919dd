# Reads lines "CORPUS CELL BUILD RATIO" sorted by their first three fields
# (RATIO numerically within a group) and prints, per group, the median
# ratio and its range: the summary of bench/before_after.sh and
# bench/proto_ratio.sh.
function flush() {
  if (n) printf "%-4s %-22s %-10s %6.2f%% [%.2f-%.2f]\n", k1, k2, k3, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), v[1], v[n]
}
{
  key = $1 " " $2 " " $3
  if (key != last) { flush(); n = 0; last = key; k1 = $1; k2 = $2; k3 = $3 }
  v[++n] = $4
}
END { flush() }
