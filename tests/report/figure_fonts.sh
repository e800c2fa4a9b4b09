#!/bin/sh
# SPDX-License-Identifier: MIT
# every figure's smallest text as printed is 7 pt or more: computed, not eyeballed. A font of N
# in a template prints at N x fontscale x 4/3 (cairo counts 96 to the inch, PDF 72) x the width
# the PDF is included at over the width it is drawn at. The numbers come from where they are set:
# the PDF terminal and the figure width in src/report/plot.c, the \includegraphics width in
# tc_exp_figure (src/exp/section.c), the text block in paper/touche.tex (paper size less the
# margins), and each template's fonts: the terminal's default, every `font '...,N'`, enhanced
# text's {/=N} and {/*s} (s times the line's font). A template that sets its own terminal, a
# fontscale or a font that is no literal string cannot be computed and fails.
# usage: figure_fonts.sh SOURCE_ROOT [MIN_PT]
set -eu
src=${1:?usage: figure_fonts.sh SOURCE_ROOT [MIN_PT]}
min=${2:-7}
plot="$src/src/report/plot.c"
section="$src/src/exp/section.c"
paper="$src/paper/touche.tex"
for f in "$plot" "$section" "$paper"; do
    [ -r "$f" ] || { echo "figure_fonts: $f not readable"; exit 1; }
done

# the PDF terminal: its default font size and fontscale (gnuplot's defaults: Sans,12 and 0.5),
# and the canvas width: a size in the terminal, else FIG_WIDTH_CM
term=$(sed -n 's/.*{"pdf", *"\([^"]*\)".*/\1/p' "$plot")
[ -n "$term" ] || { echo "figure_fonts: no pdf terminal in $plot"; exit 1; }
scale_font=$(echo "$term" | sed -n 's/.*fontscale \([0-9.]*\).*/\1/p')
def=$(echo "$term" | sed -n "s/.*font '[^',]*,\([0-9.]*\)'.*/\1/p")
canvas=$(echo "$term" | sed -n 's/.*size \([0-9.]*\)\(cm\|in\).*/\1 \2/p')
if [ -z "$canvas" ]; then
    canvas="$(sed -n 's/^#define FIG_WIDTH_CM *\([0-9.]*\).*/\1/p' "$plot") cm"
fi
case "$canvas" in
" cm") echo "figure_fonts: no canvas width in $plot (size in the terminal or FIG_WIDTH_CM)"; exit 1 ;;
esac

# the text block: paper width less the left and right margins (geometry), or its textwidth
opts=$(sed -n 's/.*\\usepackage\[\([^]]*\)\]{geometry}.*/\1/p' "$paper" | head -n 1)
class=$(sed -n 's/.*\\documentclass\[\([^]]*\)\].*/\1/p' "$paper" | head -n 1)
case ",$class," in *,twocolumn,*) echo "figure_fonts: twocolumn is not computed"; exit 1 ;; esac

# where tc_exp_figure includes the PDF: width=F\linewidth, width=Xcm, or its natural size
inc=$(grep -o 'includegraphics\[[^]]*\]' "$section" | head -n 1 | sed 's/\\\\/\\/g' || true)
[ -n "$inc" ] || inc=$(grep -o 'includegraphics{' "$section" | head -n 1 || true)
[ -n "$inc" ] || { echo "figure_fonts: no \\includegraphics in $section"; exit 1; }

status=0
for t in "$src"/experiments/*/*.gp "$src"/plots/*.gp "$src"/paper/*.gp; do
    awk -v tpl="${t#"$src"/}" -v term="$term" -v fs="${scale_font:-0.5}" -v def="${def:-12}" \
        -v canvas="$canvas" -v geom="$opts" -v class="$class" -v inc="$inc" -v min="$min" '
    function cm(v,   n, u) {
        n = v + 0; u = v; sub(/^[0-9.]*/, "", u)
        if (u == "cm") return n
        if (u == "mm") return n / 10
        if (u == "in") return n * 2.54
        if (u == "pt") return n * 2.54 / 72.27
        return -1
    }
    function opt(list, key,   n, i, a, kv) {
        n = split(list, a, ",")
        for (i = 1; i <= n; i++) {
            gsub(/^ +| +$/, "", a[i])
            if (index(a[i], key "=") == 1) return substr(a[i], length(key) + 2)
        }
        return ""
    }
    function has(list, word) { return index("," list ",", "," word ",") > 0 }
    # printed width of the text block, cm
    function textwidth(   pw, m, l, r) {
        if (opt(geom, "textwidth") != "") return cm(opt(geom, "textwidth"))
        pw = has(geom, "letterpaper") || has(class, "letterpaper") ? 21.59 : \
             has(geom, "a4paper") || has(class, "a4paper") ? 21.0 : -1
        if (pw < 0) return -1
        m = opt(geom, "margin"); if (m == "") m = opt(geom, "hmargin")
        l = opt(geom, "left"); r = opt(geom, "right")
        if (l == "") l = m; if (r == "") r = m
        if (l == "" || r == "") return -1
        return pw - cm(l) - cm(r)
    }
    function fail(msg) { printf "%s: %s\n", tpl, msg; bad = 1 }
    BEGIN {
        split(canvas, cv, " ")
        cw = cv[1] * (cv[2] == "in" ? 2.54 : 1)
        tw = textwidth()
        if (match(inc, /width=[0-9.]*\\linewidth/)) {
            f = substr(inc, RSTART + 6, RLENGTH - 16)
            printed = (f == "" ? 1 : f) * tw
            if (tw < 0) fail("the text width of paper/touche.tex is not computed")
        } else if (match(inc, /width=[0-9.]*(cm|mm|in|pt)/)) {
            printed = cm(substr(inc, RSTART + 6, RLENGTH - 6))
        } else if (inc ~ /\[[^]]*(height|scale)=/) {
            fail("\\includegraphics with a height or scale is not computed: " inc)
        } else printed = cw
        k = fs * 4 / 3 * printed / cw
        lo = def * k; where = "the terminal default (" def ")"
    }
    /^[ \t]*#/ { next }
    {
        line = $0
        if (line ~ /(^|[^a-z_])set +term/ || line ~ /fontscale/)
            fail(FNR ": sets its own terminal or fontscale (draw through plot.c; a height: # height: H cm)")
        # the line own explicit fonts
        linefont = -1
        rest = line
        while (match(rest, /(^|[^a-zA-Z_])font[ \t]+/)) {
            rest = substr(rest, RSTART + RLENGTH)
            q = substr(rest, 1, 1)
            if (q != "\"" && q != "\x27") { fail(FNR ": a font that is no literal string"); break }
            e = index(substr(rest, 2), q)
            spec = substr(rest, 2, e - 1)
            n = index(spec, ",") ? substr(spec, index(spec, ",") + 1) + 0 : def
            if (n <= 0) n = def
            if (linefont < 0 || n < linefont) linefont = n
            if (n * k < lo) { lo = n * k; where = FNR ": font \x27" spec "\x27" }
        }
        base = linefont < 0 ? def : linefont
        rest = line
        while (match(rest, /\{\/[^}=* ]*=[0-9.]+/)) {
            s = substr(rest, RSTART, RLENGTH); sub(/.*=/, "", s)
            rest = substr(rest, RSTART + RLENGTH)
            if (s * k < lo) { lo = s * k; where = FNR ": {/=" s "}" }
        }
        rest = line
        while (match(rest, /\{\/[^}=* ]*\*[0-9.]+/)) {
            s = substr(rest, RSTART, RLENGTH); sub(/.*\*/, "", s)
            rest = substr(rest, RSTART + RLENGTH)
            if (s * base * k < lo) { lo = s * base * k; where = FNR ": {/*" s "} of " base }
        }
    }
    END {
        printf "%-32s smallest text %.2f pt as printed (%s)\n", tpl, lo, where
        if (lo < min - 1e-9) fail(sprintf("text at %.2f pt as printed, under %g pt", lo, min))
        exit bad
    }' "$t" || status=1
done
[ "$status" -eq 0 ] && echo "figure_fonts: every template's text is $min pt or more as printed"
exit "$status"
