/* SPDX-License-Identifier: MIT */
/* methods: parse "model/solver" or "engine", route parameters, check capabilities */
#include "sim/tc_sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* list the registered names into buf for error messages */
static void known_methods(char *buf, size_t n) {
    buf[0] = 0;
    for (int i = 0; tc_model_at(i); i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
                 tc_model_at(i)->name);
    for (int i = 0; tc_engine_at(i); i++)
        snprintf(buf + strlen(buf), n - strlen(buf), ", %s", tc_engine_at(i)->name);
}

/* the solver a bare model name means: its own default, else the first registered */
static const tc_solver_type *default_solver(const tc_model_type *m) {
    return m->solver ? tc_solver_find(m->solver) : tc_solver_at(0);
}

int tc_method_left_out(const char *spec) {
    size_t n = strcspn(spec, "/");
    for (int i = 0; tc_engines_left_out[i]; i++)
        if (strlen(tc_engines_left_out[i]) == n && !strncmp(spec, tc_engines_left_out[i], n))
            return 1;
    return 0;
}

tc_status tc_method_parse(tc_method *m, const char *spec, tc_error *err) {
    memset(m, 0, sizeof *m);
    char name[64], known[512];
    snprintf(name, sizeof name, "%s", spec);
    char *slash = strchr(name, '/');
    if (slash) *slash = 0;
    /* an engine stands alone */
    m->engine = tc_engine_find(name);
    if (m->engine) {
        if (slash)
            return tc_error_set(err, TC_EINVAL, NULL, 0, "method",
                                "'%s': engine '%s' brings its own solver; drop '/%s'", spec, name,
                                slash + 1);
        snprintf(m->spec, sizeof m->spec, "%s", name);
        tc_params_default(&m->eparams, m->engine->params);
        m->caps = m->engine->caps;
        m->shapes = m->engine->shapes;
        return TC_OK;
    }
    /* otherwise a contact model with a solver */
    m->model = tc_model_find(name);
    for (int i = 0; !m->model && tc_engines_left_out[i]; i++)
        if (!strcmp(name, tc_engines_left_out[i]))
            return tc_error_set(err, TC_ENOTFOUND, NULL, 0, "method",
                                "'%s': this touche was built without the engine '%s' (meson "
                                "-D%s=disabled, or its package missing: docs/building.md)",
                                spec, name, name);
    if (!m->model) {
        known_methods(known, sizeof known);
        return tc_error_set(err, TC_ENOTFOUND, NULL, 0, "method", "unknown method '%s' (known: %s)",
                            spec, known);
    }
    m->solver = slash ? tc_solver_find(slash + 1) : default_solver(m->model);
    if (!m->solver) {
        known[0] = 0;
        for (int i = 0; tc_solver_at(i); i++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                     tc_solver_at(i)->name);
        return tc_error_set(err, TC_ENOTFOUND, NULL, 0, "method",
                            "unknown solver '%s' in '%s' (known: %s)",
                            slash ? slash + 1 : m->model->solver, spec, known);
    }
    /* a smooth force is also continuous */
    unsigned have = m->model->caps | (m->model->caps & TC_CAP_SMOOTH ? TC_CAP_CONTINUOUS : 0);
    if ((have & m->solver->needs) != m->solver->needs) {
        char need[128];
        tc_caps_format(m->solver->needs & ~have, need, sizeof need);
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "method",
                            "'%s': solver '%s' needs a model with %s; model '%s' has not", spec,
                            m->solver->name, need, m->model->name);
    }
    /* a model without a force law gives contacts or shapes only: a solver must resolve them */
    if (!m->model->force && !(m->solver->needs & (TC_CAP_CONTACTS | TC_CAP_GEOMETRY)))
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "method",
                            "'%s': model '%s' has no force law, only contact points or shapes; "
                            "pair it with a solver that resolves contacts (e.g. lcp-lemke, "
                            "single-level)",
                            spec, m->model->name);
    snprintf(m->spec, sizeof m->spec, "%s/%s", m->model->name, m->solver->name);
    tc_params_default(&m->mparams, m->model->params);
    tc_params_default(&m->sparams, m->solver->params);
    m->caps = m->model->caps & (m->solver->caps | ~(unsigned)TC_CAP_DYNAMICS);
    m->shapes = m->model->shapes;
    return TC_OK;
}

/* the parameter set of m that has name (the model's, solver's, then engine's) and the name's row
 * in it, or NULL */
static tc_params *owner(const tc_method *m, const char *name, int *row) {
    const tc_params *sets[3] = {&m->mparams, &m->sparams, &m->eparams};
    for (int i = 0; i < 3; i++)
        if (sets[i]->spec && (*row = tc_params_find(sets[i], name)) >= 0)
            return (tc_params *)sets[i];
    return NULL;
}

tc_status tc_method_set(tc_method *m, const char *name, double value, tc_error *err) {
    int row;
    tc_params *p = owner(m, name, &row);
    if (p) return tc_params_set(p, name, value, err);
    /* unknown: list what this method accepts */
    char known[512];
    tc_method_param_names(m, known, sizeof known);
    return tc_error_set(err, TC_ENOTFOUND, NULL, 0, name,
                        "method '%s' has no such parameter (it has: %s)", m->spec,
                        known[0] ? known : "none");
}

int tc_method_has(const tc_method *m, const char *name) {
    int row;
    return owner(m, name, &row) != NULL;
}

tc_method_family tc_method_family_of(const tc_method *m) {
    if (m->engine) return TC_FAMILY_ENGINE;
    return m->solver && (m->solver->needs & (TC_CAP_CONTACTS | TC_CAP_GEOMETRY))
               ? TC_FAMILY_CONSTRAINT
               : TC_FAMILY_FORCE_LAW;
}

int tc_method_counts_iterations(const tc_method *m) {
    return m->solver && m->solver->counters;
}

double tc_method_get(const tc_method *m, const char *name) {
    int row;
    const tc_params *p = owner(m, name, &row);
    /* an unknown name aborts in tc_params_get, naming it */
    return p ? p->v[row] : tc_params_get(&m->mparams, name);
}

const char *tc_method_param_of_kind(const tc_method *m, tc_param_kind kind) {
    const tc_params *sets[3] = {&m->mparams, &m->sparams, &m->eparams};
    for (int i = 0; i < 3; i++)
        for (int j = 0; sets[i]->spec && j < sets[i]->n; j++)
            if (sets[i]->spec[j].kind == kind) return sets[i]->spec[j].name;
    return NULL;
}

tc_status tc_method_with_solver(const tc_method *m, const char *solver, tc_method *out,
                                tc_error *err) {
    if (!m->model)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "solver",
                            "'%s' brings its own solver: it cannot run with solver '%s'", m->spec,
                            solver);
    char spec[96];
    snprintf(spec, sizeof spec, "%s/%s", m->model->name, solver);
    tc_method r;
    tc_status st = tc_method_parse(&r, spec, err);
    if (st) return st;
    /* the model's parameters as they are; the solver parameters m changed, by name */
    r.mparams = m->mparams;
    for (int j = 0; j < m->sparams.n; j++) {
        const tc_param_spec *p = &m->sparams.spec[j];
        double v = m->sparams.v[j];
        if (v == p->def) continue;
        tc_error e2;
        tc_error_clear(&e2);
        if (tc_params_find(&r.sparams, p->name) < 0) {
            char known[512];
            tc_method_param_names(&r, known, sizeof known);
            return tc_error_set(err, TC_EINVAL, NULL, 0, p->name,
                                "'%s' sets its solver's %s = %g, which '%s' has not (it has: %s)",
                                m->spec, p->name, v, r.spec, known[0] ? known : "none");
        }
        if ((st = tc_params_set(&r.sparams, p->name, v, &e2)))
            return tc_error_set(err, st, NULL, 0, p->name,
                                "'%s' sets %s = %g, which '%s' refuses: %s", m->spec, p->name, v,
                                r.spec, e2.msg);
    }
    *out = r;
    return TC_OK;
}

void tc_method_param_names(const tc_method *m, char *buf, size_t n) {
    const tc_params *sets[3] = {&m->mparams, &m->sparams, &m->eparams};
    buf[0] = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < sets[i]->n; j++)
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
                     sets[i]->spec[j].name);
}

/* the shapes a method handles: its own, and bodies in 3-D unless it is planar-only */
static unsigned handled(const tc_method *m) {
    return m->shapes | (m->caps & TC_CAP_PLANAR ? 0 : TC_SHAPE_SPATIAL);
}

int tc_method_can_run(const tc_method *m, unsigned caps, unsigned shapes) {
    return (m->caps & caps) == caps && (handled(m) & shapes) == shapes;
}

double tc_method_work_factor(const tc_method *m) {
    /* each iteration cap above its default may make a step that much longer */
    const tc_params *sets[3] = {&m->mparams, &m->sparams, &m->eparams};
    double f = 1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; sets[i]->spec && j < sets[i]->n; j++)
            if (sets[i]->spec[j].kind == TC_PARAM_ITERS && sets[i]->spec[j].def > 0)
                f *= fmax(1, sets[i]->v[j] / sets[i]->spec[j].def);
    return f;
}

void tc_method_why_not(const tc_method *m, unsigned caps, unsigned shapes, char *buf, size_t n) {
    char lack[128] = "", types[160] = "";
    if ((m->caps & caps) != caps) tc_caps_format(caps & ~m->caps, lack, sizeof lack);
    for (int t = 0; t < TC_SHAPE_COUNT; t++)
        if ((shapes & TC_SHAPE_BIT(t)) && !(m->shapes & TC_SHAPE_BIT(t)))
            snprintf(types + strlen(types), sizeof types - strlen(types), "%s%s",
                     types[0] ? ", " : "", tc_shape_name((tc_shape_type)t));
    if ((shapes & TC_SHAPE_SPATIAL) && !(handled(m) & TC_SHAPE_SPATIAL))
        snprintf(types + strlen(types), sizeof types - strlen(types), "%sbodies moving in 3-D",
                 types[0] ? ", " : "");
    snprintf(buf, n, "%s%s%s%s%s", lack[0] ? "lacks " : "", lack, lack[0] && types[0] ? "; " : "",
             types[0] ? "cannot handle shapes: " : "", types);
}

const char *tc_method_base(const tc_method *m) {
    return m->model ? m->model->name : m->engine->name;
}

int tc_method_enumerate(tc_method *out, int max) {
    int n = 0;
    tc_method m;
    /* each model with its default solver, then each engine */
    for (int i = 0; tc_model_at(i); i++)
        if (tc_method_parse(&m, tc_model_at(i)->name, NULL) == TC_OK && n++ < max) out[n - 1] = m;
    for (int i = 0; tc_engine_at(i); i++)
        if (tc_method_parse(&m, tc_engine_at(i)->name, NULL) == TC_OK && n++ < max) out[n - 1] = m;
    return n;
}

int tc_method_count(void) {
    int n = 0;
    while (tc_model_at(n))
        n++;
    for (int i = 0; tc_engine_at(i); i++)
        n++;
    return n;
}

const char *tc_method_cpu(const tc_method *m) {
    return m->solver ? m->solver->cpu_dependent : NULL;
}

const char *tc_method_cpu_kind(const tc_method *m) {
    return m->solver && m->solver->cpu_kind ? m->solver->cpu_kind() : NULL;
}
