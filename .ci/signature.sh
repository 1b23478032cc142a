#!/usr/bin/env bash
# Bench signature: the node count of `pbrain-pentad bench` (deterministic: fixed positions,
# depth, one thread, fixed hash) must equal the one recorded in .ci/bench-signature.
# A commit that changes search behaviour updates the file (run this with --update) and ends
# its message with `Bench: <nodes>`.
#
# Usage: .ci/signature.sh [--update] [ENGINE]   (ENGINE default: target/release/pbrain-pentad)
set -euo pipefail
cd "$(dirname "$0")/.."

update=0
if [[ "${1:-}" == "--update" ]]; then
    update=1
    shift
fi
engine=${1:-target/release/pbrain-pentad}
recorded_file=.ci/bench-signature

# The last line reads `<nodes> nodes <nps> nps`.
nodes=$("$engine" bench | tail -n 1 | awk '$2 == "nodes" { print $1 }')
if [[ -z "$nodes" ]]; then
    echo "signature: no node count in the output of $engine bench" >&2
    exit 1
fi
if [[ $update == 1 ]]; then
    echo "$nodes" >"$recorded_file"
    echo "signature: recorded $nodes (commit message: Bench: $nodes)"
    exit 0
fi
recorded=$(tr -d '[:space:]' <"$recorded_file")
if [[ "$nodes" != "$recorded" ]]; then
    echo "signature: bench gives $nodes nodes, $recorded_file records $recorded" >&2
    echo "  (a commit that changes search behaviour runs .ci/signature.sh --update" >&2
    echo "   and ends its message with 'Bench: $nodes')" >&2
    exit 1
fi
echo "signature: $nodes nodes, as recorded"
