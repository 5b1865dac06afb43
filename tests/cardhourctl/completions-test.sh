#!/usr/bin/env bash
# completions-test.sh DOCS_DIR: the completions and man page generated from cardhourctl's help
# know its commands, subcommands and options (bash is run for real; zsh and fish are read).
set -euo pipefail
docs="$1"
fail() { echo "completions-test: $*" >&2; exit 1; }

# shellcheck disable=SC1091
source "$docs/cardhourctl.bash"
complete_words() {
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _cardhourctl
    echo "${COMPREPLY[*]}"
}
[[ "$(complete_words cardhourctl sna)" == "snapshot" ]] || fail "sna -> $(complete_words cardhourctl sna)"
[[ "$(complete_words cardhourctl snapshot c)" == "create" ]] || fail "snapshot c"
[[ "$(complete_words cardhourctl launch --snap)" == "--snapshot" ]] || fail "launch --snap"
[[ " $(complete_words cardhourctl --provider http://x to) " == *" top "* ]] \
    || fail "--provider URL to -> $(complete_words cardhourctl --provider http://x to)"
[[ " $(complete_words cardhourctl cp --)" == *" --json"* ]] || fail "cp --json"

grep -q "'snapshot:" "$docs/_cardhourctl" || fail "zsh: no snapshot command"
grep -q "^#compdef cardhourctl" "$docs/_cardhourctl" || fail "zsh: no #compdef"
grep -q -- "-a cp " "$docs/cardhourctl.fish" || fail "fish: no cp"
grep -q -- "-l snapshot -r" "$docs/cardhourctl.fish" || fail "fish: no launch --snapshot"
if [[ -f "$docs/cardhourctl.1" ]]; then
    grep -q '^\.SS snapshot' "$docs/cardhourctl.1" || fail "man: no snapshot section"
    grep -q 'Exit status' "$docs/cardhourctl.1" || fail "man: no exit status"
fi
echo "completions-test: ok"
