#!/bin/sh
# SPDX-License-Identifier: MIT
# the installed library as an outside project sees it (docs/library.md): `meson install` into a
# temporary root, then, with pkg-config pointed there and nothing of the source tree on the
# include path, pkg-config gives a program on the shared library -ltouche -lm and no private
# dependency (--static all of them), every installed header compiles on its own,
# examples/ball_on_plane.c builds against the shared and the static library and its ball comes to
# rest on the plane with fz = m g within 1 % (mujoco, scm, penalty-mp/rk4; both builds print the
# same bits), the README's library recipe configures a build directory of its own and its compile
# and run lines work as written, the model of docs/adding-a-model.md registers and runs from a
# program of its own, and a C++ program that includes touche.h links against the C library (its
# declarations have C linkage). A build without an engine (docs/building.md) leaves out what needs
# it (its libraries, the example on mujoco), one without a C++ compiler the C++ checks.
# usage: install_check.sh MESON BUILD_DIR SOURCE_DIR CC CXX FUZZ MODEL_C ENGINES SANITIZE...
# (CXX: "" without a C++ compiler; ENGINES: the engines built, e.g. "mujoco,ode,bullet";
# SANITIZE: meson's b_sanitize, "none" or e.g. "address,undefined", or one argument each)
set -u
meson=$1 build=$2 src=$3 cc=$4 cxx=$5 fuzz=$6 model_c=$7 engines=$8
shift 8
# has ENGINE: 0 when the build has it
has() { case ",$engines," in *",$1,"*) return 0 ;; esac; return 1; }
sanitize=$(echo "$*" | tr ' ' ',')
[ -n "$sanitize" ] || sanitize=none
# the fuzzing build's coverage hooks resolve only inside libFuzzer: no outside program links it
if [ "$fuzz" = true ]; then echo "skipped: the -Dfuzz=true build is not installable"; exit 77; fi
tmp=$(mktemp -d /tmp/touche-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

# install into a temporary root (the configured prefix below it)
root=$tmp/root
if ! "$meson" install -C "$build" --destdir "$root" --no-rebuild --quiet >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"; echo "FAIL: meson install"; exit 1
fi
pc=$(find "$root" -name touche.pc)
[ "$(echo "$pc" | wc -l)" -eq 1 ] && [ -n "$pc" ] || { echo "FAIL: no single touche.pc: '$pc'"; exit 1; }
echo "ok: installed, ${pc#$root}"

# pkg-config finds the installed copy; the sysroot maps the prefix's paths into the root
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
cflags=$(pkg-config --cflags touche) || { echo "FAIL: pkg-config --cflags touche"; exit 1; }
libs=$(pkg-config --libs --static touche) || { echo "FAIL: pkg-config --libs --static touche"; exit 1; }
libdir=$(pkg-config --libs-only-L touche | tr ' ' '\n' | grep "^-L$root" | head -1 | sed 's/^-L//')
[ -f "$libdir/libtouche.a" ] || { echo "FAIL: no libtouche.a in '$libdir'"; exit 1; }
# the installed library is the core and the runner: the built-in experiments are a library of
# their own that only the CLI and the tests link (docs/architecture.md)
if nm -P "$libdir/libtouche.a" 2>/dev/null | grep -q '^tc_experiment_e[0-9]* [DR]'; then
    bad "the installed libtouche.a defines built-in experiments"
else
    echo "ok: the installed libtouche.a holds no experiment"
fi
case " $cflags $libs " in
    *"$src"* | *"$build"*) bad "pkg-config points into the source or build tree: $cflags $libs" ;;
esac
incdir=$(echo "$cflags" | tr ' ' '\n' | grep "^-I$root" | grep '/touche$' | head -1 | sed 's/^-I//')
[ -f "$incdir/touche.h" ] || { echo "FAIL: no touche.h under the include path '$cflags'"; exit 1; }
echo "ok: pkg-config: $cflags | $libs"

# a program on the shared library sees -ltouche (and -lm, for the inline math of math/tc_vec.h)
# and no private dependency; its cflags only the installed headers (no Bullet or Open MPI -I/-D);
# the static link (--static) lists them all
shlibs=$(pkg-config --libs touche) || { echo "FAIL: pkg-config --libs touche"; exit 1; }
extra=$(echo "$shlibs" | tr ' ' '\n' | grep . | grep -v "^-L$root" | grep -v '^-ltouche$' | grep -v '^-lm$')
if [ -n "$extra" ]; then bad "pkg-config --libs touche lists private dependencies: $(echo $extra)"
else echo "ok: pkg-config --libs touche: $shlibs"; fi
extra=$(echo "$cflags" | tr ' ' '\n' | grep . | sed "s|^-I$root|-I|" |
        grep -v -x -e "-I${incdir#$root}" -e '-I/usr/include' -e '-I/usr/local/include')
if [ -n "$extra" ]; then bad "pkg-config --cflags touche lists private dependencies' flags: $(echo $extra)"
else echo "ok: pkg-config --cflags touche: $cflags"; fi
mpi=""  # Open MPI, when the build found it (meson's list of the dependencies it found)
grep -q '"name": "ompi-c"' "$build/meson-info/intro-dependencies.json" 2>/dev/null && mpi=-lmpi
need="-lsiconos_numerics -lgsl -lqhull_r -lccd -lconfig $mpi"
has mujoco && need="$need -lmujoco"
has ode && need="$need -lode"
has bullet && need="$need -lBulletDynamics-float64 -lstdc++"
for l in $need; do
    case " $libs " in *" $l "*) ;; *) bad "pkg-config --libs --static touche lacks $l: $libs" ;; esac
done

# the compiler and sanitizers of the build (an instrumented library needs their runtime)
san=""
[ "$sanitize" != none ] && san="-fsanitize=$sanitize"
work=$tmp/work
mkdir "$work"
cd "$work" || exit 1
compile() { # output, then sources and flags: a C11 program against the installed copy only
    out=$1; shift
    # shellcheck disable=SC2086
    $cc -std=c11 -Wall -Wextra -Wpedantic -Werror $san "$@" $cflags -o "$out" >"$tmp/cc.log" 2>&1 \
        || { cat "$tmp/cc.log"; return 1; }
}

# every installed header compiles on its own, twice in one unit (include guards), and the
# includes it pulls in come from the installed tree
nh=0
for h in $(cd "$incdir" && find . -name '*.h' | sed 's|^\./||' | sort); do
    printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$h" "$h" > hdr.c
    if ! compile hdr.o -c hdr.c -H 2>/dev/null; then bad "installed header $h does not compile alone"; continue; fi
    grep -o '^\.* [^ ]*' "$tmp/cc.log" | sed 's/^\.* //' > deps.txt
    if grep -v "^$root/" deps.txt | grep -v '^/usr/' | grep . ||
       grep -v "^$root/" deps.txt | grep '/touche/'; then
        bad "$h includes the headers above, from outside the installed tree and the system's"
    fi
    # and as C++, declaring C linkage of its own (so a C++ program may include it alone)
    if [ -z "$cxx" ]; then nh=$((nh+1)); continue; fi
    printf '#include "%s"\nint main() { return 0; }\n' "$h" > hdr.cc
    # shellcheck disable=SC2086
    if ! $cxx -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only hdr.cc $cflags >"$tmp/cxx.log" 2>&1; then
        cat "$tmp/cxx.log"; bad "installed header $h does not compile alone as C++"
    elif [ "$h" != touche.h ] && ! grep -q 'extern "C"' "$incdir/$h"; then  # touche.h: includes only
        bad "installed header $h declares no C linkage for C++ (extern \"C\" guards)"
    fi
    nh=$((nh+1))
done
if [ -n "$cxx" ]; then echo "ok: $nh installed headers compile alone, in C and in C++ with C linkage"
else echo "ok: $nh installed headers compile alone in C (no C++ compiler: C++ not checked)"; fi

# the example against the shared library (when there is one) and the static one
cp "$src/examples/ball_on_plane.c" .
# shellcheck disable=SC2086
compile ball_static ball_on_plane.c $(echo "$libs" | sed 's/-ltouche\b/-l:libtouche.a/') \
    || bad "the example does not build against the installed static library"
builds=ball_static
if [ -e "$libdir/libtouche.so" ]; then
    # shellcheck disable=SC2086
    compile ball_shared ball_on_plane.c $shlibs || bad "the example does not build against libtouche.so with pkg-config --libs touche"
    builds="$builds ball_shared"
fi
# the installed libtouche.so only (meson test puts the build tree on LD_LIBRARY_PATH)
export LD_LIBRARY_PATH="$libdir"
if [ -e ball_shared ]; then
    so=$(ldd ball_shared | awk '$1 ~ /^libtouche/ { print $3 }')
    case "$so" in "$libdir"/*) echo "ok: ball_shared loads $so" ;; *) bad "ball_shared loads '$so'" ;; esac
fi
[ "$fail" -eq 0 ] || { echo "$fail failed"; exit 1; }

# the ball at rest: fz / (m g) = 1 within 1 % and no sideways force (1e-4 m g)
methods="scm penalty-mp/rk4"
has mujoco && methods="mujoco $methods"
for m in $methods; do
    tag=$(echo "$m" | tr '/' '_')
    for b in $builds; do
        out=$b.$tag.out err=$b.$tag.err
        if ! "./$b" "$m" 2 >"$out" 2>"$err"; then bad "$b $m: exit non-zero: $(cat "$err")"; continue; fi
        awk -v what="$b $m" '
            /^method / { mg = $(NF - 1) }
            $1 ~ /^[0-9.]+$/ && NF == 6 { fx = $3; fy = $4 }
            /^at rest/ { r = $NF }
            END {
                if (r == "" || mg == "") { print "FAIL: " what ": no result"; exit 1 }
                side = sqrt(fx * fx + fy * fy) / mg; dev = r - 1; if (dev < 0) dev = -dev
                ok = dev < 0.01 && side < 1e-4
                printf "%s: %s: fz / (m g) = %.6f (|1 - ratio| %.2e < 1e-2), sideways %.1e m g\n",
                       ok ? "ok" : "FAIL", what, r, dev, side
                exit !ok
            }' "$out" || fail=$((fail+1))
    done
    # the shared and the static build compute the same bits
    if [ "$builds" = "ball_static ball_shared" ] && [ -s "ball_static.$tag.out" ]; then
        cmp -s "ball_static.$tag.out" "ball_shared.$tag.out" ||
            bad "$m: the static and shared builds print different results"
    fi
done

# the README's recipe ("As a library") as written: its meson setup names a directory that the
# main command (tools/setup.sh) does not configure, since meson setup on a configured directory
# keeps its old prefix and exits 0; ninja and meson install use that directory; docs/library.md
# configures the same one; and its compile and run lines build and run the example against this
# installed copy
recipe=$(awk '/^## / { s = ($0 == "## As a library") } s && /^```sh$/ { b = 1; next }
              b && /^```$/ { exit } b' "$src/README.md")
dir=$(echo "$recipe" | sed -n 's/^meson setup \([^ -][^ ]*\) .*/\1/p' | head -1)
main_dirs=$(sed -n 's/.*meson setup \([^ -][^ ]*\).*/\1/p' "$src/tools/setup.sh")
doc_dir=$(sed -n 's/^meson setup \([^ -][^ ]*\) .*/\1/p' "$src/docs/library.md" | head -1)
other=$(echo "$recipe" | grep -o -- '-C [^ ]*' | grep -v -x -- "-C $dir")
if [ -z "$dir" ]; then bad "README: no 'meson setup DIR' line in the library recipe"
elif echo "$main_dirs" | grep -q -x -- "$dir" && ! echo "$recipe" | grep -q -- --reconfigure; then
    bad "README: the library recipe configures $dir/, which tools/setup.sh has already configured"
elif [ -n "$other" ]; then bad "README: the library recipe sets up $dir/ but builds or installs $other"
elif [ "$doc_dir" != "$dir" ]; then bad "docs/library.md configures '$doc_dir', the README '$dir'"
else echo "ok: the README's library recipe configures $dir/ (tools/setup.sh: $main_dirs)"; fi
mkdir -p examples && cp "$src/examples/ball_on_plane.c" examples/
compile_line=$(echo "$recipe" | grep '^cc ')
run_line=$(echo "$recipe" | grep '^\./ball_on_plane ' | sed 's/ *#.*//')
# the recipe's cc with the build's compiler and sanitizers (an instrumented library needs them)
if ! sh -c "$cc $san ${compile_line#cc }" >"$tmp/recipe.log" 2>&1; then
    cat "$tmp/recipe.log"; bad "the README's compile line does not build: $compile_line"
elif ! sh -c "$run_line" > recipe.out 2> recipe.err; then bad "the README's '$run_line': $(cat recipe.err)"
else
    awk '/^at rest/ { r = $NF } END { d = r - 1; if (d < 0) d = -d; ok = r != "" && d < 0.01
         printf "%s: the README'"'"'s compile and run lines: fz / (m g) = %s\n", ok ? "ok" : "FAIL", r
         exit !ok }' recipe.out || fail=$((fail+1))
fi

# a bad method name: a clear message and a non-zero exit
if ./ball_static no-such-method > bad.out 2> bad.err; then bad "an unknown method exits 0"
elif ! grep -q "unknown method 'no-such-method'" bad.err; then bad "unknown method: $(cat bad.err)"
else echo "ok: an unknown method is refused: $(cat bad.err)"; fi

# one's own model (docs/adding-a-model.md, as written) registered by a program of its own
cp "$model_c" model_linear_spring.c
cat > own_model.c <<'EOF'
/* SPDX-License-Identifier: MIT */
/* register the model of docs/adding-a-model.md and rest a ball on the ground with it */
#include <touche.h>

#include <stdio.h>
#include <stdlib.h>

extern const tc_model_type tc_model_linear_spring;

int main(void) {
    tc_error err;
    tc_error_clear(&err);
    tc_scene *sc = malloc(sizeof *sc);
    tc_method m;
    tc_sim *sim = NULL;
    /* a 5 cm ball of 1000 kg/m^3 just above the ground, the registered model by its name */
    const double pos[3] = {0, 0, 0.06};
    if (!sc || tc_model_register(&tc_model_linear_spring, &err) ||
        tc_scene_ground(sc, 9.81, 0.5, &err) ||
        tc_scene_add_free(sc, "ball", tc_sphere(0.05), pos, NULL, 1000, &err) ||
        tc_method_parse(&m, "linear-spring/rk4", &err) || tc_sim_alloc(&sim, sc, &m, 1e-3, &err)) {
        fprintf(stderr, "own_model: %s\n", err.msg);
        return 1;
    }
    tc_wrench w[2];
    for (int i = 0; i < 2000; i++)
        if (tc_sim_step(sim)) return fprintf(stderr, "own_model: step failed\n"), 1;
    if (tc_sim_force(sim, tc_sim_q(sim), tc_sim_v(sim), w)) return 1;
    printf("%s %.9f %.9f\n", m.spec, w[1].f[2], sc->body[1].mass * 9.81);
    tc_sim_free(sim);
    free(sc);
    return 0;
}
EOF
# shellcheck disable=SC2086
if ! compile own_model own_model.c model_linear_spring.c $(echo "$libs" | sed 's/-ltouche\b/-l:libtouche.a/'); then
    bad "the documented model does not build against the installed headers"
elif ! ./own_model > own.out 2> own.err; then bad "own model: $(cat own.err)"
else
    awk '{ d = $2 / $3 - 1; if (d < 0) d = -d
           printf "%s: own model %s registered: fz / (m g) = %.6f (|1 - ratio| %.2e < 1e-2)\n",
                  d < 0.01 ? "ok" : "FAIL", $1, $2 / $3, d; exit !(d < 0.01) }' own.out || fail=$((fail+1))
fi

# C++: touche.h compiles as C++ and its functions link against the C library (C linkage: without
# extern "C" the names would be mangled and the link would fail); the ball rests as in C
cat > ball.cc <<'EOF'
// SPDX-License-Identifier: MIT
// a C++ program on the installed touche.h: a ball on the plane; the registries link too
#include <touche.h>

#include <cstdio>
#include <memory>

int main() {
    tc_error err;
    tc_error_clear(&err);
    auto sc = std::make_unique<tc_scene>();
    tc_method m;
    tc_sim *sim = nullptr;
    const double pos[3] = {0, 0, 0.06};
    if (tc_scene_ground(sc.get(), 9.81, 0.5, &err) ||
        tc_scene_add_free(sc.get(), "ball", tc_sphere(0.05), pos, nullptr, 1000, &err) ||
        tc_method_parse(&m, "penalty-mp/rk4", &err) || tc_sim_alloc(&sim, sc.get(), &m, 1e-3, &err)) {
        std::fprintf(stderr, "ball.cc: %s\n", err.msg);
        return 1;
    }
    for (int i = 0; i < 2000; i++)
        if (tc_sim_step(sim)) return std::fprintf(stderr, "ball.cc: step failed\n"), 1;
    tc_wrench w[2];
    if (tc_sim_force(sim, tc_sim_q(sim), tc_sim_v(sim), w)) return 1;
    // the model registry by name; the runner's catalog holds no experiment of libtouche's
    // (the experiments are a library of their own) until the program hands it one
    int models = 0;
    while (tc_model_at(models)) models++;
    static tc_experiment_type own = {};
    own.name = "e9_own";
    const tc_experiment_type *const mine[] = {&own, nullptr};
    const tc_experiment_type *before = tc_experiment_at(0);
    tc_experiment_catalog(mine);
    const tc_experiment_type *e9 = tc_experiment_find("e9");
    std::printf("%s %.9f %.9f %d %s\n", m.spec, w[1].f[2], sc->body[1].mass * 9.81, models,
                !before && e9 ? e9->name : "-");
    tc_sim_free(sim);
    return 0;
}
EOF
# shellcheck disable=SC2086
if [ -z "$cxx" ]; then echo "skipped: no C++ compiler, no C++ program on touche.h"
elif ! $cxx -std=c++17 -Wall -Wextra -Wpedantic -Werror $san ball.cc $cflags \
        $(echo "$libs" | sed 's/-ltouche\b/-l:libtouche.a/') -o ball_cxx >"$tmp/cxx.log" 2>&1; then
    cat "$tmp/cxx.log"; bad "a C++ program on touche.h does not build against the installed static library"
elif ! ./ball_cxx > cxx.out 2> cxx.err; then bad "C++ program: $(cat cxx.err)"
else
    awk '{ d = $2 / $3 - 1; if (d < 0) d = -d; ok = d < 0.01 && $4 > 0 && $5 == "e9_own"
           printf "%s: C++ on touche.h: %s fz / (m g) = %.6f (|1 - ratio| %.2e < 1e-2), %d models, %s found\n",
                  ok ? "ok" : "FAIL", $1, $2 / $3, d, $4, $5; exit !ok }' cxx.out || fail=$((fail+1))
fi

# a sanitizer's report on any run fails the test, also one that let the program exit 0
if grep -l "runtime error:\|ERROR: [A-Za-z]*Sanitizer" ./*.err >/dev/null 2>&1; then
    bad "a sanitizer reported:"; grep -h -A3 "runtime error:\|ERROR: [A-Za-z]*Sanitizer" ./*.err
fi
[ "$fail" -eq 0 ] && echo "ok: the installed library builds and runs the example"
[ "$fail" -eq 0 ]
