#!/bin/sh
# SPDX-License-Identifier: MIT
# write the fenced code block that follows "<!-- snippet: NAME -->" in a Markdown file, so the
# tests compile the documentation's example exactly as written.
# usage: extract_snippet.sh DOC.md NAME OUT
set -eu
awk -v name="$2" '
    $0 == "<!-- snippet: " name " -->" { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { found = 3; exit }
    found == 2 { print }
    END { if (found != 3) { print "extract_snippet: no complete snippet " name " in " FILENAME > "/dev/stderr"; exit 1 } }
' "$1" > "$3"
