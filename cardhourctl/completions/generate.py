#!/usr/bin/env python3
"""Writes cardhourctl's shell completions and help2man's extra sections from its own help.

    generate.py CARDHOURCTL OUTDIR

Runs `CARDHOURCTL --help` and `CARDHOURCTL COMMAND --help` for every command listed, and writes
into OUTDIR: cardhourctl.bash, _cardhourctl (zsh), cardhourctl.fish and commands.h2m (the
per-command help as a COMMANDS section, for `help2man --include`). Nothing is written by hand:
a new command or option appears in all four once it is in the help text.
"""
import os
import re
import subprocess
import sys


def run_help(binary, *words):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="en")
    out = subprocess.run([binary, *words, "--help"], capture_output=True, text=True, env=env,
                         check=True, timeout=60)
    return out.stdout


def section(text, title):
    """The indented lines under `title:` up to the next blank line."""
    lines = text.splitlines()
    try:
        start = lines.index(title + ":") + 1
    except ValueError:
        return []
    block = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line)
    return block


def options(lines):
    """(long names, takes a value, description) of option lines like `  -h, --help  Show`."""
    found = []
    for line in lines:
        match = re.match(r"^\s+((?:-{1,2}[\w-]+(?:, )?)+)(?: ([A-Z_|.]+))?\s{2,}(.*)$", line)
        if match:
            names = [n.strip() for n in match.group(1).split(",") if n.strip()]
            found.append((names, bool(match.group(2)), match.group(3).strip()))
    return found


def parse(binary):
    top = run_help(binary)
    commands = []
    for line in section(top, "Commands"):
        match = re.match(r"^\s+(\S+)\s{2,}(.*)$", line)
        if match:
            commands.append((match.group(1), match.group(2)))
    global_options = options(section(top, "Global options"))
    parsed = []
    for name, summary in commands:
        text = run_help(binary, name)
        usage = text.splitlines()[0]
        args = usage.split("[options]", 1)[1].strip() if "[options]" in usage else ""
        subs = []
        first = args.split(" ")[0] if args else ""
        if "|" in first and re.fullmatch(r"[a-z|-]+", first):
            subs = first.split("|")
        parsed.append({"name": name, "summary": summary, "args": args, "subs": subs,
                       "options": options(section(text, "Options")), "help": text})
    return top, global_options, parsed


def quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def bash(global_options, commands):
    names = " ".join(c["name"] for c in commands)
    globals_ = " ".join(n for o in global_options for n in o[0] if n.startswith("--"))
    cases = []
    for c in commands:
        opts = " ".join(n for o in c["options"] for n in o[0] if n.startswith("--"))
        subs = " ".join(c["subs"])
        files = "1" if c["name"] in ("cp", "keys") else "0"
        cases.append(f"        {c['name']}) opts={quote(opts)}; subs={quote(subs)}; files={files} ;;")
    return f"""# bash completion for cardhourctl (generated from its --help; do not edit)
_cardhourctl() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" command="" i opts="" subs="" files=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in
            --provider|--ca) ((i++)) ;;
            -*) ;;
            *) command="${{COMP_WORDS[i]}}"; break ;;
        esac
    done
    if [[ -z "$command" ]]; then
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W {quote(globals_)} -- "$cur"))
        else
            COMPREPLY=($(compgen -W {quote(names)} -- "$cur"))
        fi
        return
    fi
    case "$command" in
{chr(10).join(cases)}
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts "{quote(globals_)} -- "$cur"))
    elif [[ -n "$subs" && $((COMP_CWORD - i)) == 1 ]]; then
        COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    elif ((files)); then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -F _cardhourctl cardhourctl
"""


def zsh_escape(text):
    return text.replace("\\", "\\\\").replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:")


def zsh(global_options, commands):
    def specs(opts):
        out = []
        for names, value, description in opts:
            for n in names:
                out.append(f"'{n}[{zsh_escape(description)}]" + (":value:" if value else "") + "'")
        return " \\\n        ".join(out)
    cmd_lines = "\n".join(f"        '{c['name']}:{zsh_escape(c['summary'])}'" for c in commands)
    cases = []
    for c in commands:
        sub = (f" \\\n                '1:{c['name']} command:({' '.join(c['subs'])})'" if c["subs"] else "")
        files = " \\\n                '*:file:_files'" if c["name"] in ("cp", "keys") else ""
        opts = specs(c["options"])
        cases.append(f"            {c['name']})\n                _arguments {opts or ''}{sub}{files} ;;")
    return f"""#compdef cardhourctl
# zsh completion for cardhourctl (generated from its --help; do not edit)
_cardhourctl() {{
    local -a commands
    commands=(
{cmd_lines}
    )
    _arguments -C \\
        {specs(global_options)} \\
        '1:command:->command' \\
        '*::argument:->argument'
    case $state in
        command) _describe 'cardhourctl command' commands ;;
        argument)
            case $words[1] in
{chr(10).join(cases)}
            esac ;;
    esac
}}
_cardhourctl "$@"
"""


def fish(global_options, commands):
    lines = ["# fish completion for cardhourctl (generated from its --help; do not edit)",
             "complete -c cardhourctl -f"]
    names = " ".join(c["name"] for c in commands)
    for names_, value, description in global_options:
        for n in names_:
            flag = f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}"
            lines.append(f"complete -c cardhourctl {flag}{' -r' if value else ''} -d {quote(description)}")
    for c in commands:
        lines.append(f"complete -c cardhourctl -n 'not __fish_seen_subcommand_from {names}' "
                     f"-a {c['name']} -d {quote(c['summary'])}")
        for sub in c["subs"]:
            lines.append(f"complete -c cardhourctl -n '__fish_seen_subcommand_from {c['name']}' -a {sub}")
        for names_, value, description in c["options"]:
            for n in names_:
                if not n.startswith("--"):
                    continue
                lines.append(f"complete -c cardhourctl -n '__fish_seen_subcommand_from {c['name']}' "
                             f"-l {n[2:]}{' -r' if value else ''} -d {quote(description)}")
        if c["name"] in ("cp", "keys"):
            lines.append(f"complete -c cardhourctl -n '__fish_seen_subcommand_from {c['name']}' -F")
    return "\n".join(lines) + "\n"


def man_sections(commands):
    out = ["[COMMANDS]"]
    for c in commands:
        body = c["help"].split("Global options:")[0].rstrip()
        out.append(f".SS {c['name']}")
        out.append(".nf")
        out.extend(line.replace("\\", "\\\\").replace("-", "\\-") for line in body.splitlines())
        out.append(".fi")
    out.append("[FILES]")
    out.append("The token is kept in the OS keychain (service CardHour); SSH keys and known_hosts "
               "in the CardHour data folder (XDG_DATA_HOME/CardHour/ssh).")
    out.append("[SEE ALSO]")
    out.append("cardhour-sim(1), ssh(1)")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, outdir = argv[1], argv[2]
    os.makedirs(outdir, exist_ok=True)
    _, global_options, commands = parse(binary)
    if not commands:
        print(f"{binary} --help listed no commands", file=sys.stderr)
        return 1
    files = {"cardhourctl.bash": bash(global_options, commands),
             "_cardhourctl": zsh(global_options, commands),
             "cardhourctl.fish": fish(global_options, commands),
             "commands.h2m": man_sections(commands)}
    for name, text in files.items():
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
