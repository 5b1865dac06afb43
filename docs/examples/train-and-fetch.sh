#!/usr/bin/env bash
# A CI job's round trip with cardhourctl: launch a host, wait until SSH answers, run a command
# on it, copy its results back, stop it and print what it cost. Run after `cardhourctl login`
# (against the sandbox: `scripts/run`, or CARDHOUR_PROVIDER_URL for another provider).
#
#   docs/examples/train-and-fetch.sh            # results land in ./results
#   GPU=rtx4090 CARDS=2 RESULTS_DIR=out docs/examples/train-and-fetch.sh
#
# Exit status: cardhourctl's (see `cardhourctl --help`), so a CI step fails when a step does.
set -euo pipefail

ctl="${CARDHOURCTL:-cardhourctl}"
gpu="${GPU:-rtx4090}"
cards="${CARDS:-1}"
image="${IMAGE:-base}"
results="${RESULTS_DIR:-results}"

# launch --wait prints the host's name once it runs and SSH answered with the pinned host key.
name="$("$ctl" launch --gpu "$gpu" --cards "$cards" --image "$image" --wait --timeout 300)"
echo "launched $name" >&2
# On an error the host is terminated, so that it does not go on billing.
cleanup() {
    status=$?
    if ((status != 0)); then
        "$ctl" rm "$name" --yes >/dev/null || true
    fi
}
trap cleanup EXIT

# The "training": any command; its output lands in /workspace on the host.
"$ctl" ssh "$name" -- 'mkdir -p /workspace/out && nvidia-smi -L > /workspace/out/result.txt \
    && date -u >> /workspace/out/result.txt'

# Results back (SFTP, SHA-256 checked; an interrupted copy resumes when run again).
mkdir -p "$results"
"$ctl" cp "$name:/workspace/out/result.txt" "$results"

"$ctl" stop "$name" >/dev/null
"$ctl" wait "$name" --state stopped --timeout 120 >/dev/null

# What it cost, in the provider's own figures (integer micro-yuan in --json).
"$ctl" show "$name" --json | python3 -c '
import json, sys
host = json.load(sys.stdin)
print("cost: {} micro-yuan (¥{:.2f}) for {}".format(
    host["cost_micros"], host["cost_micros"] / 1e6, host["name"]))'

"$ctl" rm "$name" --yes >/dev/null
