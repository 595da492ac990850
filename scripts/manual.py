#!/usr/bin/env python3
"""Writes Maeil's man page (mdoc, UTF-8) from the command tree the binary describes itself:

    scripts/manual.py PATH/TO/maeil > maeil.1

swift-argument-parser's generate-manual drops every character outside ASCII ("1–4" became
"14", `find 김치` became `find  `), and says nothing of what Maeil's exit statuses mean; this
keeps the text as the help has it (man-db passes UTF-8 to groff through preconv) and adds the
sections a user looks for: exit status, environment, files.
"""
import json
import subprocess
import sys

EXIT_STATUS = [
    ("0", "The command did what it was asked (a review left early included)."),
    ("1", "It could not: the message says why and what to do (a missing or damaged collection, a deck that "
          "is not there, a file that cannot be read or written, an import refused as a whole). "
          "check exits 1 when it finds problems."),
    ("2", "The command line is wrong: an unknown command or option, or a value an option does not take."),
]

ENVIRONMENT = [
    ("MAEIL_COLLECTION", "The collection file, when --collection is not given."),
    ("XDG_DATA_HOME", "Where the collection is kept by default (XDG_DATA_HOME/maeil/collection.sqlite, else ~/.local/share)."),
    ("XDG_STATE_HOME", "Where the prompt's history and the focus list go (else ~/.local/state)."),
    ("XDG_CONFIG_HOME", "Where the settings file maeil/config is read (else ~/.config)."),
    ("NO_COLOR", "Any value turns colour off."),
    ("MAEIL_SPEECH", "stub prints what would be said instead of speaking it."),
]


def escape(text):
    """Text as mdoc shows it: a backslash written out, and no line read as a macro."""
    lines = []
    for line in text.replace("\\", "\\e").split("\n"):
        line = line.rstrip()
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line if line else ".Pp")
    return "\n".join(lines)


def flag_names(argument):
    return [("-" if name["kind"] == "short" else "--") + name["name"] for name in argument.get("names", [])]


def arguments(command):
    out = []
    for argument in command.get("arguments", []):
        if not argument.get("shouldDisplay", True):
            continue
        value = argument.get("valueName", "value")
        if argument["kind"] == "positional":
            head = ".It Ar " + value + (" ..." if argument.get("isRepeating") else "")
        else:
            names = flag_names(argument)
            if not names:
                continue
            # mdoc's Fl writes one dash itself: "Fl -deck" is --deck, "Fl o" is -o.
            head = ".It " + " , ".join("Fl " + name[1:] for name in names)
            if argument["kind"] == "option":
                head += " Ar " + value
        out.append(head)
        abstract = argument.get("abstract", "")
        if abstract:
            out.append(escape(abstract))
    return out


def section(command, path):
    out = []
    name = " ".join(path)
    out.append(".It Nm " + escape(name) if path else "")
    if command.get("abstract"):
        out.append(escape(command["abstract"]))
    if command.get("discussion"):
        out += [".Pp", escape(command["discussion"])]
    args = arguments(command)
    if args:
        out += [".Bl -tag -width 6n"] + args + [".El"]
    return [line for line in out if line]


def walk(command, path, out):
    for sub in command.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        here = path + [sub["commandName"]]
        out += section(sub, here)
        walk(sub, here, out)


def main():
    binary = sys.argv[1]
    tool = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
    root = tool["command"]
    out = [
        ".Dd $Mdocdate$",
        ".Dt MAEIL 1",
        ".Os",
        ".Sh NAME",
        ".Nm maeil",
        ".Nd " + escape(root.get("abstract", "")),
        ".Sh SYNOPSIS",
        ".Nm",
        ".Op Ar command",
        ".Op Ar options",
        ".Sh DESCRIPTION",
        escape(root.get("discussion", "")),
        ".Pp",
        "Each command runs the same at the prompt and from a shell; its options go in any order.",
        ".Sh COMMANDS",
        ".Bl -tag -width 6n",
    ]
    walk(root, [], out)
    out.append(".El")
    out += [".Sh ENVIRONMENT", ".Bl -tag -width 6n"]
    for name, text in ENVIRONMENT:
        out += [".It Ev " + name, escape(text)]
    out += [".El", ".Sh EXIT STATUS", ".Bl -tag -width 6n"]
    for status, text in EXIT_STATUS:
        out += [".It " + status, escape(text)]
    out += [".El", ".Sh SEE ALSO", "The README in Maeil's source, and", ".Nm", "help", "at the prompt."]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
