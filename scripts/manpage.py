#!/usr/bin/env python3
"""gatewayd(1) from the commands' own help: every subcommand, its abstract and discussion, and
each of its arguments, as swift-argument-parser describes them (`gatewayd --experimental-dump-help`).

    python3 scripts/manpage.py GATEWAYD [--version V] > gatewayd.1
    python3 scripts/manpage.py --json HELP.json [--version V] > gatewayd.1

GATEWAYD is a gatewayd that runs here (for an arm64 package, the amd64 build of the same tree:
the help is the same). Output is man(7) roff; `man -l gatewayd.1` shows it.
"""
import datetime
import json
import subprocess
import sys


def roff(text):
    """Text safe in a roff paragraph: backslashes escaped, no line starting with a control character."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    out = []
    for line in text.split("\n"):
        line = line.rstrip()
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def names(argument):
    parts = []
    for n in argument.get("names", []):
        parts.append(("-" if n["kind"] == "short" else "--") + n["name"])
    return parts


def synopsis(argument):
    value = argument.get("valueName", "")
    if argument["kind"] == "positional":
        return f"<{value}>"
    first = names(argument)[0] if names(argument) else ""
    return first + (f" <{value}>" if argument["kind"] == "option" else "")


def describe(command, path, out):
    shown = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    out.append(f'.SS "{roff(" ".join(path))}"')
    if command.get("abstract"):
        out.append(roff(command["abstract"]))
    usage = " ".join(("[" + synopsis(a) + "]") if a.get("isOptional") else synopsis(a) for a in shown
                     if "help" not in [n["name"] for n in a.get("names", [])])
    out.append(".PP")
    out.append(f"\\fB{roff(' '.join(path))}\\fR " + roff(usage))
    if command.get("discussion"):
        out.append(".PP")
        for paragraph in command["discussion"].split("\n\n"):
            out.append(roff(paragraph.strip()))
            out.append(".PP")
        out.pop()
    for a in shown:
        label = ", ".join(names(a)) or f"<{a.get('valueName', '')}>"
        if a["kind"] == "option":
            label += f" <{a.get('valueName', '')}>"
        out.append(".TP")
        out.append("\\fB" + roff(label) + "\\fR")
        text = a.get("abstract", "")
        if a.get("defaultValue") not in (None, ""):
            text += f" (default: {a['defaultValue']})"
        if a.get("discussion"):
            text += "\n" + a["discussion"]
        out.append(roff(text) or "\\&")
    for sub in command.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            describe(sub, path + [sub["commandName"]], out)


def main():
    args = sys.argv[1:]
    version = ""
    if "--version" in args:
        i = args.index("--version")
        version = args[i + 1]
        del args[i:i + 2]
    if args[:1] == ["--json"]:
        help_json = json.load(open(args[1]))
    else:
        help_json = json.loads(subprocess.run([args[0], "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
    top = help_json["command"]
    date = datetime.date.today().isoformat()
    out = [f'.TH GATEWAYD 1 "{date}" "skygate {roff(version)}" "User Commands"',
           ".SH NAME", "gatewayd \\- " + roff(top.get("abstract", "")),
           ".SH SYNOPSIS", "\\fBgatewayd\\fR \\fIcommand\\fR [\\fIoptions\\fR]"]
    out.append(".SH DESCRIPTION")
    out.append(roff(top.get("discussion") or top.get("abstract", "")))
    out.append(".PP")
    out.append("The commands, each with its options, follow; \\fBgatewayd help\\fR \\fIcommand\\fR prints the same.")
    out.append(".SH COMMANDS")
    for sub in top.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            describe(sub, ["gatewayd", sub["commandName"]], out)
    out += [".SH FILES",
            ".TP", "\\fI/etc/gatewayd/gatewayd.toml\\fR", "The configuration the service reads (every key, commented).",
            ".TP", "\\fI/etc/gatewayd/environment\\fR", "FAA NOTAM API credentials for the service (root only).",
            ".TP", "\\fI/var/lib/gatewayd/\\fR", "The service's database (alert log, NOTAMs, logbook) and recordings.",
            ".TP", "\\fI/usr/share/gatewayd/airports.bin\\fR", "The airport table.",
            ".SH SEE ALSO", "\\fBsystemctl\\fR(1), \\fBjournalctl\\fR(1); /usr/share/doc/skygate/"]
    sys.stdout.write("\n".join(out) + "\n")


main()
