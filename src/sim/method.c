/* SPDX-License-Identifier: MIT */
/* methods: parse "model/solver" or "engine", route parameters, check capabilities */
#include "sim/tc_sim.h"

#include <stdio.h>
#include <string.h>

/* list the registered names into buf for error messages */
static void known_methods(char *buf, size_t n) {
    buf[0] = 0;
    for (int i = 0; tc_models[i]; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", tc_models[i]->name);
    for (int i = 0; tc_engines[i]; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), ", %s", tc_engines[i]->name);
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
        m->caps = m->engine->caps, m->shapes = m->engine->shapes;
        return TC_OK;
    }
    /* otherwise a force-level model with an integrator */
    m->model = tc_model_find(name);
    if (!m->model) {
        known_methods(known, sizeof known);
        return tc_error_set(err, TC_ENOTFOUND, NULL, 0, "method",
                            "unknown method '%s' (known: %s)", spec, known);
    }
    m->solver = slash ? tc_solver_find(slash + 1) : tc_solvers[0];
    if (!m->solver) {
        known[0] = 0;
        for (int i = 0; tc_solvers[i]; i++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                     tc_solvers[i]->name);
        return tc_error_set(err, TC_ENOTFOUND, NULL, 0, "method",
                            "unknown solver '%s' in '%s' (known: %s)", slash + 1, spec, known);
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
    snprintf(m->spec, sizeof m->spec, "%s/%s", m->model->name, m->solver->name);
    tc_params_default(&m->mparams, m->model->params);
    tc_params_default(&m->sparams, m->solver->params);
    m->caps = m->model->caps & (m->solver->caps | ~(unsigned)TC_CAP_DYNAMICS);
    m->shapes = m->model->shapes;
    return TC_OK;
}

tc_status tc_method_set(tc_method *m, const char *name, double value, tc_error *err) {
    tc_params *sets[3] = {&m->mparams, &m->sparams, &m->eparams};
    for (int i = 0; i < 3; i++)
        if (sets[i]->spec && tc_params_find(sets[i], name) >= 0)
            return tc_params_set(sets[i], name, value, err);
    /* unknown: list what this method accepts */
    char known[512] = "";
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < sets[i]->n; j++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                     known[0] ? ", " : "", sets[i]->spec[j].name);
    return tc_error_set(err, TC_ENOTFOUND, NULL, 0, name,
                        "method '%s' has no such parameter (it has: %s)", m->spec,
                        known[0] ? known : "none");
}

int tc_method_can_run(const tc_method *m, unsigned caps, unsigned shapes) {
    return (m->caps & caps) == caps && (m->shapes & shapes) == shapes;
}

int tc_method_enumerate(tc_method *out, int max) {
    int n = 0;
    for (int i = 0; tc_models[i] && n < max; i++)
        if (tc_method_parse(&out[n], tc_models[i]->name, NULL) == TC_OK) n++;
    for (int i = 0; tc_engines[i] && n < max; i++)
        if (tc_method_parse(&out[n], tc_engines[i]->name, NULL) == TC_OK) n++;
    return n;
}

const char *tc_method_cpu(const tc_method *m) {
    return m->solver ? m->solver->cpu_dependent : NULL;
}
