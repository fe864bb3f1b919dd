# Sourced by bench/proto_ratio.sh and bench/icount.sh: when FIRST names a
# commit, builds bench/cmd/deltaproto as it was there into
# "$tmp/deltaproto-first" (0e00a2a: the first deltaproto, the measuring
# stick of issue 15's delta target, which reads v0.9 only), from the
# commit's tree exported to "$tmp/first" (no worktree to clean up).
if [ -n "${FIRST:-}" ]; then
  mkdir -p "$tmp/first"
  git archive "$FIRST" | tar -x -C "$tmp/first"
  (cd "$tmp/first" && go build -o "$tmp/deltaproto-first" ./bench/cmd/deltaproto)
fi
